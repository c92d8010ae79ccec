import { describe, expect, it } from 'vitest';
import { GET_URL_LIMIT, SEND_SILO_LIMIT } from '../../shared/constants';
import { cutBatches } from '../../shared/wire/cutBatches';
import { decodeJzb, encodeJsonAsJzb } from '../../shared/wire/jzb';
import { MESSAGES } from '../../shared/messages';
import { nextRetryDelay } from '../../shared/wire/nextRetryDelay';
import { createSendQueue } from '../../worker/createSendQueue';
import { encodeBatches } from '../../worker/encodeBatches';
import { createMemoryQueueStore, nativeDeflate } from '../../worker/ports';
import { inflateSync } from 'node:zlib';
import { createFakeClock, createFakeTransport, queryOf } from './fakes';

/** An event whose JSON does not compress well, so sizes are predictable. */
function noisyEvent(i: number, size = 400): string {
  let s = '';
  let x = i * 2654435761;
  while (s.length < size) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += x.toString(36);
  }
  return JSON.stringify({ type: 'track', sequence: i, props: { noise: s.slice(0, size) } });
}

describe('analytics §9 retry back-off', () => {
  it('waits 1 s doubled per failure, capped at 2^6 (64 s), and gives up at 100 failures', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50, 99].map((n) => nextRetryDelay(n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 64000, 64000, 64000, 64000,
    ]);
    expect(nextRetryDelay(100)).toBeNull();
  });
});

describe('analytics §9 batch cutting', () => {
  it('cuts on the estimated size (JSON length / ratio) and never leaves an event out', async () => {
    const lengths = [100, 100, 100, 100, 100];
    // budget 250 * 2 = 500 characters of JSON: brackets + 4 events with commas = 2 + 400 + 3 = 405; a 5th makes 506.
    expect(cutBatches(lengths, 250, 2)).toEqual([[0, 4], [4, 5]]);
    expect(cutBatches([9999], 10, 2)).toEqual([[0, 1]]);
    expect(cutBatches([], 10, 2)).toEqual([]);
  });

  it('sends a small run as one GET within 1900 characters', async () => {
    const jsons = [1, 2, 3].map((i) => JSON.stringify({ type: 'click', i }));
    const { batches } = await encodeBatches(jsons, 'get-or-post');
    expect(batches).toHaveLength(1);
    expect(batches[0]!.method).toBe('GET');
    expect(batches[0]!.jzb.length).toBeLessThanOrEqual(GET_URL_LIMIT);
    expect(decodeJzb(batches[0]!.jzb)).toEqual(jsons.map((j) => JSON.parse(j)));
  });

  it('switches to POST silos of at most 65536 characters once the run outgrows one GET', async () => {
    const jsons = Array.from({ length: 600 }, (_, i) => noisyEvent(i));
    const { batches, oversize } = await encodeBatches(jsons, 'get-or-post');
    expect(oversize).toEqual([]);
    expect(batches.length).toBeGreaterThan(1);
    for (const b of batches) {
      expect(b.method).toBe('POST');
      expect(b.jzb.length).toBeLessThanOrEqual(SEND_SILO_LIMIT);
    }
    const all = batches.flatMap((b) => decodeJzb(b.jzb) as Array<{ sequence: number }>);
    expect(all.map((e) => e.sequence)).toEqual(jsons.map((_, i) => i));
  });

  it('chooses GET exactly while the jzb is within 1900 characters, POST beyond', async () => {
    const jsons = Array.from({ length: 60 }, (_, i) => noisyEvent(i, 40));
    // The largest run that still goes as one GET, and the next one up.
    let n = 1;
    while (n < jsons.length && (await encodeBatches(jsons.slice(0, n + 1), 'get-or-post')).batches[0]!.method === 'GET') n++;
    expect(n).toBeLessThan(jsons.length);
    const fits = (await encodeBatches(jsons.slice(0, n), 'get-or-post')).batches;
    const over = (await encodeBatches(jsons.slice(0, n + 1), 'get-or-post')).batches;
    expect(fits).toHaveLength(1);
    expect(fits[0]!.jzb.length).toBeLessThanOrEqual(GET_URL_LIMIT);
    expect(over.every((b) => b.method === 'POST')).toBe(true);
    // One more event really crosses the limit when compressed whole, so the switch is not an estimate's whim.
    expect(encodeJsonAsJzb(`[${jsons.slice(0, n + 1).join(',')}]`).length).toBeGreaterThan(GET_URL_LIMIT);
    expect((await encodeBatches(jsons.slice(0, n), 'post-only')).batches[0]!.method).toBe('POST');
  });

  it('cuts get-only runs (the guide beacon) into several GETs within the limit', async () => {
    const jsons = Array.from({ length: 40 }, (_, i) => noisyEvent(i, 200));
    const { batches } = await encodeBatches(jsons, 'get-only');
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.every((b) => b.method === 'GET' && b.jzb.length <= GET_URL_LIMIT)).toBe(true);
    expect(batches.reduce((n, b) => n + b.count, 0)).toBe(40);
  });

  it('compresses with the platform zlib stream when given it, readable by an independent inflater', async () => {
    const deflate = nativeDeflate();
    expect(deflate, 'Node 20 has CompressionStream').toBeDefined();
    const jsons = Array.from({ length: 30 }, (_, i) => noisyEvent(i, 300));
    const { batches } = await encodeBatches(jsons, 'get-or-post', deflate);
    const events = batches.flatMap((b) => JSON.parse(inflateSync(Buffer.from(b.jzb, 'base64url')).toString('utf8')) as unknown[]);
    expect(events).toEqual(jsons.map((j) => JSON.parse(j)));
    expect(Buffer.from(batches[0]!.jzb, 'base64url').subarray(0, 2).toString('hex')).toBe('789c');
  });

  it('reports a single event over the send silo after compression instead of sending it', async () => {
    const { batches, oversize } = await encodeBatches([noisyEvent(1, 120_000)], 'post-only');
    expect(batches).toEqual([]);
    expect(oversize).toHaveLength(1);
    expect(oversize[0]!.length).toBeGreaterThan(SEND_SILO_LIMIT);
  });
});

/** A ptm.gif send queue on fake ports, persisting into `store` under `frame`'s key. */
function setup(statuses: number[] = [], store = createMemoryQueueStore(), frame = 'frame-1') {
  const clock = createFakeClock();
  const transport = createFakeTransport();
  transport.statuses = statuses;
  const logs: string[] = [];
  const done: number[] = [];
  const queue = createSendQueue({
    apiKey: 'key-1',
    dataHost: 'http://127.0.0.1:1',
    endpoint: 'ptm.gif',
    mode: 'get-or-post',
    delayMs: 1000,
    persistKey: `key-1|ptm.gif|${frame}`,
    onDone: (items) => items.forEach((i) => i.sequence !== undefined && done.push(i.sequence)),
    ports: { clock, transport, store },
    log: (_level, message) => logs.push(message),
  });
  return { clock, transport, logs, queue, store, done };
}

describe('analytics §7 send queue', () => {

  it('sends queued events as one GET beacon with v, ct and jzb after the send delay', async () => {
    const { clock, transport, queue } = setup();
    queue.enqueue([{ json: JSON.stringify({ type: 'click', sequence: 0 }), track: false }]);
    queue.enqueue([{ json: JSON.stringify({ type: 'click', sequence: 1 }), track: false }]);
    await clock.advance(999);
    expect(transport.requests).toHaveLength(0);
    await clock.advance(1);
    expect(transport.requests).toHaveLength(1);
    const req = transport.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('http://127.0.0.1:1/data/ptm.gif/key-1?v=')).toBe(true);
    const q = queryOf(req.url);
    expect(q.get('ct')).toBe(String(clock.now()));
    expect(q.get('rt')).toBeNull();
    expect(decodeJzb(q.get('jzb')!)).toEqual([{ type: 'click', sequence: 0 }, { type: 'click', sequence: 1 }]);
    expect(queue.pendingCount()).toBe(0);
  });

  it('puts track events in beacons of their own with type=track, keeping order', async () => {
    const { transport, queue } = setup();
    queue.enqueue([{ json: '{"type":"click","sequence":0}', track: false }]);
    queue.enqueue([{ json: '{"type":"track","sequence":1}', track: true }]);
    queue.enqueue([{ json: '{"type":"click","sequence":2}', track: false }]);
    await queue.flush();
    expect(transport.requests.map((r) => queryOf(r.url).get('type'))).toEqual([null, 'track', null]);
    expect(transport.requests.map((r) => (decodeJzb(queryOf(r.url).get('jzb')!) as Array<{ sequence: number }>)[0]!.sequence)).toEqual([0, 1, 2]);
  });

  it("retries a rejected beacon with back-off, rt set, and logs 'received status code N: text'", async () => {
    const { clock, transport, logs, queue } = setup([503, 503, 503]);
    queue.enqueue([{ json: '{"type":"click","sequence":0}', track: false }]);
    await clock.advance(1000);
    expect(logs[0]).toBe(MESSAGES.badStatus(503, 'upstream unavailable'));
    expect(logs[0]).toBe('received status code 503: upstream unavailable');
    expect(clock.pendingTimers()).toEqual([1000]);
    await clock.advance(1000);
    expect(clock.pendingTimers()).toEqual([2000]);
    await clock.advance(2000);
    expect(clock.pendingTimers()).toEqual([4000]);
    await clock.advance(4000);
    expect(transport.requests.map((r) => queryOf(r.url).get('rt'))).toEqual([null, '1', '2', '3']);
    expect(queue.pendingCount()).toBe(0);
    // The same batch each time, so the collector can dedupe it.
    const bodies = new Set(transport.requests.map((r) => queryOf(r.url).get('jzb')));
    expect(bodies.size).toBe(1);
  });

  it('drops a beacon after 100 failures and goes on with the next', async () => {
    const { clock, transport, logs, queue } = setup(Array(100).fill(500));
    queue.enqueue([{ json: '{"type":"click","sequence":0}', track: false }]);
    await clock.advance(1000);
    for (let i = 0; i < 99; i++) await clock.advance(64_000);
    expect(transport.requests).toHaveLength(100);
    expect(logs.at(-1)).toBe('Dropped a beacon of 1 events after 100 failures');
    queue.enqueue([{ json: '{"type":"click","sequence":1}', track: false }]);
    await queue.flush();
    expect(transport.requests).toHaveLength(101);
    expect(queue.pendingCount()).toBe(0);
  });

  it('60 s offline, then online: retried at 1, 2, 4, 8, 16 and 32 s with rt counting, then every event delivered once', async () => {
    const { clock, transport, queue } = setup();
    const start = clock.now();
    const tried: number[] = [];
    const online = transport.request.bind(transport);
    // Offline for the first 60 s: every request fails as fetch does without a network.
    transport.request = async (req) => {
      tried.push(clock.now() - start);
      if (clock.now() - start < 60_000) throw new TypeError('Failed to fetch');
      return online(req);
    };
    queue.enqueue([0, 1, 2].map((n) => ({ json: JSON.stringify({ type: 'click', sequence: n }), track: false })));
    await clock.advance(60_000);
    // The send delay (1 s), then back-off 1, 2, 4, 8, 16 s: six tries inside the minute, none delivered.
    expect(tried).toEqual([1000, 2000, 4000, 8000, 16000, 32000]);
    expect(queue.pendingCount()).toBe(3);
    expect(clock.pendingTimers()).toEqual([4000]); // the 32 s wait after the 6th failure ends at 64 s
    queue.enqueue([{ json: JSON.stringify({ type: 'click', sequence: 3 }), track: false }]);
    await clock.advance(10_000);
    expect(queue.pendingCount()).toBe(0);
    const delivered = transport.requests.flatMap((r) => decodeJzb(queryOf(r.url).get('jzb')!) as Array<{ sequence: number }>).map((e) => e.sequence);
    expect(delivered.sort()).toEqual([0, 1, 2, 3]);
    expect(queryOf(transport.requests[0]!.url).get('rt')).toBe('6');
  });

  it('flush sends at once and reports what was sent and what failed', async () => {
    const { transport, queue } = setup([502]);
    queue.enqueue([{ json: '{"type":"click","sequence":0}', track: false }]);
    const failed = await queue.flush();
    expect(failed).toMatchObject({ sent: 0, pending: 1 });
    expect(failed.errors[0]).toEqual({ code: 'bad_status', message: 'received status code 502: upstream unavailable' });
    const ok = await queue.flush();
    expect(ok).toEqual({ sent: 1, pending: 0, errors: [] });
    expect(transport.requests).toHaveLength(2);
  });
});

describe('analytics §9 durability: unsent events survive the page', () => {

  it('keeps each hand-over in the store until all its events are delivered, and acknowledges them', async () => {
    const store = createMemoryQueueStore();
    const { queue, done } = setup([], store, 'f1');
    queue.enqueue([{ json: '{"sequence":0}', track: false, sequence: 0 }, { json: '{"sequence":1}', track: false, sequence: 1 }]);
    await Promise.resolve();
    expect([...store.data.keys()]).toEqual(['key-1|ptm.gif|f1|0']);
    await queue.flush();
    expect(store.data.size).toBe(0);
    expect(done).toEqual([0, 1]);
  });

  it('a later page load sends what an earlier one left, oldest first, and drops what is over 6 days old', async () => {
    const store = createMemoryQueueStore();
    const first = setup([503], store, 'load-1');
    first.queue.enqueue([{ json: '{"from":"load-1"}', track: false, sequence: 0 }]);
    await first.queue.flush();
    expect(store.data.size).toBe(1);
    store.data.set('key-1|ptm.gif|ancient|0', { savedAt: first.clock.now() - 518_400_001, items: [{ json: '{"from":"ancient"}', track: false }] });
    store.data.set('other-key|ptm.gif|x|0', { savedAt: first.clock.now(), items: [{ json: '{"from":"other api key"}', track: false }] });

    const second = setup([], store, 'load-2');
    second.queue.enqueue([{ json: '{"from":"load-2"}', track: false, sequence: 0 }]);
    expect(await second.queue.restore()).toBe(1);
    await second.queue.flush();
    const sent = second.transport.requests.flatMap((r) => decodeJzb(queryOf(r.url).get('jzb')!) as unknown[]);
    expect(sent).toEqual([{ from: 'load-1' }, { from: 'load-2' }]);
    // Restored events are not this page's: they are not acknowledged to its shim.
    expect(second.done).toEqual([0]);
    expect([...store.data.keys()]).toEqual(['other-key|ptm.gif|x|0']);
  });
});

describe("analytics §8 'Max length exceeded for an event'", () => {
  it('shortens the long fields of an event too large alone to 2000 characters and sends it', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const logs: string[] = [];
    const queue = createSendQueue({
      apiKey: 'k', dataHost: 'http://127.0.0.1:1', endpoint: 'ptm.gif', mode: 'get-or-post', delayMs: 10,
      ports: { clock, transport }, log: (_l, m) => void logs.push(m),
    });
    const huge = JSON.parse(noisyEvent(1, 150_000));
    queue.enqueue([{ json: JSON.stringify(huge), track: false }]);
    const report = await queue.flush();
    expect(report.sent).toBe(1);
    expect(logs[0]).toMatch(/^Max length exceeded for an event: \d+ characters after compression/);
    const req = transport.requests[0]!;
    const jzb = req.method === 'GET' ? queryOf(req.url).get('jzb')! : (JSON.parse(req.body!) as { events: string }).events;
    const [event] = decodeJzb(jzb) as Array<{ props: { noise: string } }>;
    expect(event!.props.noise).toBe(huge.props.noise.slice(0, 2000));
  });
});
