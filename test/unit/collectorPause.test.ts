/**
 * The pause lock (analytics §9 "pause lock default 10 s"; ours: what it locks): a collector answering 429 or 503
 * holds every send queue of the agent for its Retry-After, else 10 s; nothing is dropped meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { collectorPauseMs, PAUSE_LOCK_DEFAULT_MS, PAUSE_LOCK_MAX_MS } from '../../shared/wire/collectorPause';
import { decodeJzb } from '../../shared/wire/jzb';
import { createCollectorPause } from '../../worker/createCollectorPause';
import { createSendQueue } from '../../worker/createSendQueue';
import { createMemoryQueueStore } from '../../worker/ports';
import { createFakeClock, createFakeTransport, queryOf } from './fakes';

describe('analytics §9 pause lock: how long a collector answer pauses sending', () => {
  const now = Date.parse('2026-11-26T04:00:00Z');
  it('is 10 s for a 429 or 503 that names no time (or an unreadable one)', () => {
    expect(PAUSE_LOCK_DEFAULT_MS).toBe(10_000);
    expect(collectorPauseMs(503, null, now)).toBe(10_000);
    expect(collectorPauseMs(429, '', now)).toBe(10_000);
    expect(collectorPauseMs(503, 'soon', now)).toBe(10_000);
    expect(collectorPauseMs(503, '-5', now)).toBe(10_000);
  });
  it("follows Retry-After in seconds or as an HTTP date, capped at 5 minutes", () => {
    expect(collectorPauseMs(503, '5', now)).toBe(5000);
    expect(collectorPauseMs(429, ' 0 ', now)).toBe(0);
    expect(collectorPauseMs(503, 'Thu, 26 Nov 2026 04:00:30 GMT', now)).toBe(30_000);
    expect(collectorPauseMs(503, '86400', now)).toBe(PAUSE_LOCK_MAX_MS);
  });
  it('is not asked for by other answers', () => {
    for (const status of [200, 400, 404, 451, 500, 502, 504]) expect(collectorPauseMs(status, '5', now)).toBeNull();
  });
});

describe('analytics §9 pause lock: every queue of the agent waits', () => {
  function setup(answers: Array<{ status: number; retryAfter?: string }>) {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const request = transport.request.bind(transport);
    transport.request = async (req) => {
      const answer = answers.shift();
      if (!answer) return request(req);
      transport.requests.push(req);
      return { status: answer.status, statusText: 'Service Unavailable', retryAfter: answer.retryAfter ?? null, text: async () => 'busy' };
    };
    const logs: string[] = [];
    const pause = createCollectorPause();
    const store = createMemoryQueueStore();
    const queue = (endpoint: string) =>
      createSendQueue({
        apiKey: 'key-p',
        dataHost: 'http://127.0.0.1:1',
        endpoint,
        mode: 'get-only',
        delayMs: 500,
        persistKey: `key-p|${endpoint}|f`,
        pause,
        ports: { clock, transport, store },
        log: (_level, message) => logs.push(message),
      });
    return { clock, transport, logs, events: queue('ptm.gif'), guides: queue('guide.gif') };
  }
  const sent = (t: ReturnType<typeof createFakeTransport>) => t.requests.map((r) => `${new URL(r.url).pathname.split('/')[2]} ${(decodeJzb(queryOf(r.url).get('jzb')!) as Array<{ n: number }>).map((e) => e.n).join(',')}`);

  it('a 503 without Retry-After holds the event and guide queues 10 s; then both deliver everything once', async () => {
    const { clock, transport, logs, events, guides } = setup([{ status: 503 }]);
    events.enqueue([{ json: '{"n":1}', track: false }]);
    await clock.advance(500);
    expect(sent(transport)).toEqual(['ptm.gif 1']);
    expect(logs).toEqual(['received status code 503: busy', 'collector asked for a pause: beacons wait 10 s']);
    // Another queue's beacon and a flushNow wait out the pause too, without a request.
    guides.enqueue([{ json: '{"n":2}', track: false }]);
    await clock.advance(500);
    expect(await events.flush()).toEqual({ sent: 0, pending: 1, errors: [] });
    expect(await guides.flush()).toEqual({ sent: 0, pending: 1, errors: [] });
    // Back-off alone would have tried again 1 s after the answer; the pause ends 10 s after it.
    await clock.advance(9_499);
    expect(sent(transport)).toEqual(['ptm.gif 1']);
    await clock.advance(1);
    expect(sent(transport).sort()).toEqual(['guide.gif 2', 'ptm.gif 1', 'ptm.gif 1']);
    // The retried beacon says it is one (rt), so the collector can tell.
    expect(transport.requests.slice(1).map((r) => queryOf(r.url).get('rt')).sort()).toEqual(['1', null]);
    expect(events.pendingCount() + guides.pendingCount()).toBe(0);
  });

  it("a 429's Retry-After sets the pause for both queues", async () => {
    const { clock, transport, logs, events, guides } = setup([{ status: 429, retryAfter: '3' }]);
    events.enqueue([{ json: '{"n":1}', track: false }]);
    await clock.advance(500);
    guides.enqueue([{ json: '{"n":2}', track: false }]);
    await clock.advance(2_999);
    expect(transport.requests).toHaveLength(1);
    expect(logs.at(-1)).toBe('collector asked for a pause: beacons wait 3 s');
    await clock.advance(1);
    expect(sent(transport).sort()).toEqual(['guide.gif 2', 'ptm.gif 1', 'ptm.gif 1']);
    expect(events.pendingCount() + guides.pendingCount()).toBe(0);
  });

  it('a later, shorter pause does not cut a longer one short', () => {
    const pause = createCollectorPause();
    pause.until(10_000);
    pause.until(4_000);
    expect(pause.left(1_000)).toBe(9_000);
    expect(pause.left(12_000)).toBe(0);
  });

  it('a 500 is no pause: plain back-off (1 s)', async () => {
    const { clock, transport, events } = setup([{ status: 500, retryAfter: '30' }]);
    events.enqueue([{ json: '{"n":1}', track: false }]);
    await clock.advance(500);
    await clock.advance(1000);
    expect(transport.requests).toHaveLength(2);
    expect(events.pendingCount()).toBe(0);
  });
});
