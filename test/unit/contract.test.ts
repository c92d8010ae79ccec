/**
 * STYLE §6 contract test: the real shim bridge talks to the real worker API over a MessageChannel, with
 * only the worker's I/O ports faked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeJzb } from '../../shared/wire/jzb';
import { PROTOCOL_VERSION, type WorkerInit } from '../../shared/protocol';
import type { WireEvent } from '../../shared/events/events';
import { createBridge, type Bridge } from '../../shim/createBridge';
import { serveWorkerApi } from '../../worker/serveWorkerApi';
import { createWorkerApi } from '../../worker/createWorkerApi';
import { createFakeTransport, queryOf } from './fakes';
import { systemClock } from '../../worker/ports';
import { DEAD_CLICK_MS, DELIVERED_MESSAGE, PUSH_MESSAGE } from '../../shared/constants';
import { TICK_MS, type Ticker } from '../../shim/createTicker';
import { inflateSync } from 'node:zlib';

const init: WorkerInit = {
  apiKey: 'contract-key',
  dataHost: 'http://127.0.0.1:9',
  contentHost: 'http://127.0.0.1:9',
  agentVersion: 'test',
  identity: { visitorId: 'v-1', accountId: 'a-1' },
  session: { sessionId: 'S'.repeat(16), tabId: 'tab-1', frameId: 'frame-1', parentTabId: '' },
  metadata: { visitor: {}, account: {}, parentAccount: {} },
  utm: { channel: 'Direct' },
  device: 'desktop',
};

let channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels) {
    c.port1.close();
    c.port2.close();
  }
  channels = [];
});

/** What crossed the channel, each way, by message type (Comlink's calls and answers count as 'comlink'). */
interface Traffic {
  toWorker: string[];
  toPage: string[];
}

function connect(recording?: string): { bridge: Bridge; transport: ReturnType<typeof createFakeTransport>; logs: string[]; traffic: Traffic; tick(): void } {
  const channel = new MessageChannel();
  channels.push(channel);
  const transport = createFakeTransport();
  if (recording) transport.bodies.push({ match: '/data/recording.json/', body: recording });
  const traffic: Traffic = { toWorker: [], toPage: [] };
  const kind = (data: unknown) => ((data as { type?: unknown })?.type === PUSH_MESSAGE || (data as { type?: unknown })?.type === DELIVERED_MESSAGE ? String((data as { type: string }).type) : 'comlink');
  channel.port1.addEventListener('message', (e) => traffic.toWorker.push(kind(e.data)));
  channel.port2.addEventListener('message', (e) => traffic.toPage.push(kind(e.data)));
  serveWorkerApi(channel.port1, { transport, clock: systemClock });
  const logs: string[] = [];
  // The agent's tick, run by hand.
  const jobs: Array<() => void> = [];
  const ticker: Ticker = { every: (_ticks, job) => (jobs.push(job), () => undefined) };
  const bridge = createBridge(channel.port2, init, (_l, m) => void logs.push(m), ticker);
  return { bridge, transport, logs, traffic, tick: () => jobs.forEach((job) => job()) };
}

describe('shim-worker contract (STYLE §2)', () => {
  it('answers the versioned handshake', async () => {
    const { bridge } = connect();
    const hello = await bridge.call((api) => api.hello(PROTOCOL_VERSION));
    expect(hello.protocolVersion).toBe(PROTOCOL_VERSION);
  });

  it('carries captured events in order, enriches them, and sends them on flush', async () => {
    const { bridge, transport } = connect();
    for (let i = 0; i < 5; i++) bridge.capture({ type: 'click', time: 1000 + i, url: 'http://h/p', props: { i } });
    bridge.setIdentity({ visitorId: 'v-2', accountId: 'a-1', oldVisitorId: 'v-1' });
    bridge.capture({ type: 'track', time: 2000, url: 'http://h/p', props: { plan: 'pro' }, trackEventName: 'Upgraded' });
    const outcome = await bridge.call((api) => api.flush());
    expect(outcome).toEqual({ ok: true, value: { sent: 6, pending: 0, errors: [] } });
    const beacons = transport.requests.filter((r) => r.url.includes('/data/ptm.gif/'));
    const events = beacons.flatMap((r) => decodeJzb(queryOf(r.url).get('jzb')!) as WireEvent[]);
    expect(events.map((e) => e.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(events.map((e) => e.visitor_id)).toEqual(['v-1', 'v-1', 'v-1', 'v-1', 'v-1', 'v-2']);
    const track = events[5]!;
    expect(track).toMatchObject({ type: 'track', track_event_name: 'Upgraded', props: { plan: 'pro' }, tabId: 'tab-1', frameId: 'frame-1' });
    const { bytes, ...rest } = track;
    expect(bytes).toBe(JSON.stringify(rest).length);
    expect(queryOf(beacons.at(-1)!.url).get('type')).toBe('track');
    // analytics §7 `source`: every beacon of the worker's queue says so.
    expect(beacons.map((r) => queryOf(r.url).get('source'))).toEqual(beacons.map(() => 'worker'));
  });

  it('a click still waiting for its dead-click verdict keeps the identity and session it was captured under', async () => {
    const { bridge, transport } = connect();
    const now = Date.now();
    // Fresh clicks wait in the worker (up to 5 s) for the shim's verdict; the identity and session change meanwhile.
    bridge.capture({ type: 'click', time: now, url: 'http://h/p', props: {} });
    bridge.capture({ type: 'load', time: now, url: 'http://h/p', props: {} });
    bridge.setIdentity({ visitorId: 'v-2', accountId: '', oldVisitorId: 'v-1' });
    bridge.setSession({ ...init.session, sessionId: 'n'.repeat(16) });
    bridge.capture({ type: 'identify', time: now, url: 'http://h/p', props: {} });
    await bridge.call((api) => api.flush());
    const events = transport.requests
      .filter((r) => r.url.includes('/data/ptm.gif/'))
      .flatMap((r) => decodeJzb(queryOf(r.url).get('jzb')!) as WireEvent[]);
    expect(events.map((e) => [e.type, e.visitor_id, e.sessionId])).toEqual([
      ['click', 'v-1', init.session.sessionId],
      ['load', 'v-1', init.session.sessionId],
      ['identify', 'v-2', 'n'.repeat(16)],
    ]);
  });

  it('holds every event until the worker acknowledges it, with the identity and session it was captured under', async () => {
    const { bridge } = connect();
    bridge.capture({ type: 'click', time: 1, url: 'http://h/', props: {} });
    bridge.setIdentity({ visitorId: 'v-9', accountId: 'a-1' });
    bridge.capture({ type: 'click', time: 2, url: 'http://h/', props: {} });
    const first = bridge.held()[0]!.session;
    bridge.setSession({ ...first, sessionId: 'renewedsession16' });
    bridge.capture({ type: 'click', time: 3, url: 'http://h/', props: {} });
    // The page-hide beacon sends held events as they were captured: a session renewed since does not claim them.
    expect(bridge.held().map((h) => [h.event.sequence, h.identity.visitorId, h.session.sessionId])).toEqual([
      [0, 'v-1', first.sessionId],
      [1, 'v-9', first.sessionId],
      [2, 'v-9', 'renewedsession16'],
    ]);
    await bridge.call((api) => api.flush());
    // The acknowledgement is a callback from the worker: give it a turn to arrive.
    await expect.poll(() => bridge.held().length).toBe(0);
  });

  it('issue #32: the page holds a copy of each guide event the worker wrote until the worker has sent it, as its beacon carries it', async () => {
    const { bridge, transport } = connect();
    const guide = { id: 'g', launchMethod: 'auto', steps: [{ id: 'g-1', guideId: 'g', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', content: 'Hi' }] } }] };
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ guides: [guide], lastGuideStepSeen: {} }) });
    await bridge.call((api) => api.loadGuides('http://h/'));
    await bridge.call((api) => api.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', reason: 'auto', url: 'http://h/' }));
    await bridge.call((api) => api.stepAction({ guideId: 'g', stepId: 'g-1', action: 'dismiss', url: 'http://h/' }));
    // Before the guide beacon's 500 ms: what the page-hide beacon would post to guide.gif.
    await expect.poll(() => bridge.heldGuideEvents().length).toBe(2);
    const held = bridge.heldGuideEvents().map((json) => JSON.parse(json) as WireEvent);
    expect(held.map((e) => [e.type, e.sequence, e.tabId, e.frameId])).toEqual([
      ['guideSeen', 0, 'tab-1', 'frame-1'],
      ['guideDismissed', 1, 'tab-1', 'frame-1'],
    ]);
    const beacon = () => transport.requests.find((r) => r.url.includes('/data/guide.gif/') && (decodeJzb(queryOf(r.url).get('jzb')!) as unknown[]).length > 0);
    await expect.poll(() => beacon(), { timeout: 3000 }).toBeDefined();
    // The same events, byte for byte, so the collector stores whichever copy comes first once.
    expect(decodeJzb(queryOf(beacon()!.url).get('jzb')!)).toEqual(held);
    await expect.poll(() => bridge.heldGuideEvents()).toEqual([]);
  });

  it('a watched click waits for its verdict and crosses once, with it; nothing answers the batch but the delivery mark (issue #16)', async () => {
    const { bridge, transport, traffic, tick } = connect();
    await bridge.call((api) => api.hello(PROTOCOL_VERSION));
    traffic.toWorker.length = 0;
    traffic.toPage.length = 0;
    const sequence = bridge.capture({ type: 'click', time: Date.now(), url: 'http://h/p', props: {} }, true);
    // Past a tick, the click is still on the page: its verdict has not come.
    tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(traffic.toWorker).toEqual([]);
    bridge.verdict({ sequence, frustrationTypes: ['deadClick'] });
    // The batch was due long ago: the verdict sends it at once, in the watcher's own task.
    await expect.poll(() => traffic.toWorker).toEqual([PUSH_MESSAGE]);
    // The worker does not wait its 5 s for a verdict it already has: sent after its 1 s send delay.
    const beacons = () => transport.requests.filter((r) => r.url.includes('/data/ptm.gif/'));
    await expect.poll(() => beacons().length, { timeout: 3000 }).toBe(1);
    const [event] = decodeJzb(queryOf(beacons()[0]!.url).get('jzb')!) as WireEvent[];
    expect(event).toMatchObject({ type: 'click', props: { frustrationTypes: ['deadClick'] } });
    await expect.poll(() => bridge.held().length).toBe(0);
    // One message each way for the click: the batch in, the delivery mark out; no Comlink answer.
    expect(traffic.toWorker).toEqual([PUSH_MESSAGE]);
    expect(traffic.toPage).toEqual([DELIVERED_MESSAGE]);
  });

  it("a real click's focus event, then the click: the batch waits for the click's verdict across ticks, and goes with it", async () => {
    const { bridge, traffic, tick } = connect();
    await bridge.call((api) => api.hello(PROTOCOL_VERSION));
    traffic.toWorker.length = 0;
    bridge.capture({ type: 'focus', time: Date.now(), url: 'http://h/p', props: {} });
    const sequence = bridge.capture({ type: 'click', time: Date.now(), url: 'http://h/p', props: {} }, true);
    tick();
    tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(traffic.toWorker).toEqual([]);
    bridge.verdict({ sequence, frustrationTypes: [] });
    await expect.poll(() => traffic.toWorker).toEqual([PUSH_MESSAGE]);
  });

  it('events without a click cross on the next tick, one message for all of them, and set no timer', async () => {
    const { bridge, traffic, tick } = connect();
    await bridge.call((api) => api.hello(PROTOCOL_VERSION));
    traffic.toWorker.length = 0;
    for (const type of ['focus', 'change', 'submit'] as const) bridge.capture({ type, time: Date.now(), url: 'http://h/p', props: {} });
    await new Promise((r) => setTimeout(r, 300));
    expect(traffic.toWorker).toEqual([]);
    tick();
    await expect.poll(() => traffic.toWorker).toEqual([PUSH_MESSAGE]);
  });

  it('a batch whose click verdict is overdue goes on a tick all the same (a visitor clicking on and on)', async () => {
    const { bridge, traffic, tick } = connect();
    await bridge.call((api) => api.hello(PROTOCOL_VERSION));
    traffic.toWorker.length = 0;
    const now = Date.now();
    bridge.capture({ type: 'click', time: now, url: 'http://h/p', props: {} }, true);
    const spy = vi.spyOn(Date, 'now').mockReturnValue(now + DEAD_CLICK_MS + TICK_MS + 1);
    try {
      tick();
    } finally {
      spy.mockRestore();
    }
    await expect.poll(() => traffic.toWorker).toEqual([PUSH_MESSAGE]);
  });

  it('a click judged alive ([]) goes without frustration marks and without the worker waiting for it', async () => {
    const { bridge, transport } = connect();
    const sequence = bridge.capture({ type: 'click', time: Date.now(), url: 'http://h/p', props: {} }, true);
    const started = Date.now();
    bridge.verdict({ sequence, frustrationTypes: [] });
    const beacons = () => transport.requests.filter((r) => r.url.includes('/data/ptm.gif/'));
    await expect.poll(() => beacons().length, { timeout: 3000 }).toBe(1);
    const [event] = decodeJzb(queryOf(beacons()[0]!.url).get('jzb')!) as WireEvent[];
    expect((event!.props as Record<string, unknown>).frustrationTypes).toBeUndefined();
    // The verdict sends the batch at once; then the send delay (1 s); a worker waiting for a verdict would have added its 1 s.
    expect(Date.now() - started).toBeLessThan(1900);
  });

  it('a shim of another protocol version is told in the log: the version rides on init, no handshake round trip', () => {
    const logs: string[] = [];
    const api = createWorkerApi({ transport: createFakeTransport(), clock: systemClock });
    const callbacks = { log: (_l: string, m: string) => void logs.push(m), campaign() {}, segmentFlags() {}, guideState() {} };
    api.init({ ...init, protocolVersion: PROTOCOL_VERSION - 1 }, callbacks);
    expect(logs).toContain(`the Waymark worker speaks protocol ${PROTOCOL_VERSION}, the shim ${PROTOCOL_VERSION - 1}: reload the page`);
    logs.length = 0;
    createWorkerApi({ transport: createFakeTransport(), clock: systemClock }).init({ ...init, protocolVersion: PROTOCOL_VERSION }, callbacks);
    expect(logs.filter((l) => l.includes('speaks protocol'))).toEqual([]);
  });

  it('returns errors as { code, message } values, never as thrown objects', async () => {
    const { bridge } = connect();
    const outcome = await bridge.call((api) => api.stepForGuide('nope'));
    expect(outcome).toEqual({ ok: false, error: { code: 'unknown_guide', message: 'no guide with id nope' } });
  });

  it('issue #18: asks whether the page records, takes recorded events in batches, and flush posts them as a recording chunk', async () => {
    const { bridge, transport } = connect('{"enabled":true,"sampleRate":1}');
    expect(await bridge.call((api) => api.recordingDecision())).toBe(true);
    const fullSnapshot = { type: 2, timestamp: 1, data: { node: { type: 0, childNodes: [] } } };
    await bridge.call((api) => api.pushRecording([{ type: 4, timestamp: 0, data: {} }, fullSnapshot]));
    const outcome = await bridge.call((api) => api.flush());
    expect(outcome.ok).toBe(true);
    const posts = transport.requests.filter((r) => r.url.includes('/data/recording/contract-key?'));
    expect(posts).toHaveLength(1);
    const body = JSON.parse(inflateSync(posts[0]!.bytes!).toString('utf8'));
    expect(body).toMatchObject({ sessionId: init.session.sessionId, visitorId: 'v-1', accountId: 'a-1', tabId: 'tab-1', frameId: 'frame-1', chunk: 0 });
    expect(typeof body.recordingId).toBe('string');
    expect(body.events).toEqual([{ type: 4, timestamp: 0, data: {} }, fullSnapshot]);
  });

  it('issue #18: a page whose app has recording off takes no recorded events', async () => {
    const { bridge, transport } = connect('{"enabled":false,"sampleRate":1}');
    expect(await bridge.call((api) => api.recordingDecision())).toBe(false);
    await bridge.call((api) => api.pushRecording([{ type: 4, timestamp: 0, data: {} }]));
    await bridge.call((api) => api.flush());
    expect(transport.requests.filter((r) => r.url.includes('/data/recording/'))).toHaveLength(0);
  });
});
