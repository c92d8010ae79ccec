/** Fake worker ports: a scripted transport that records requests, and a manual clock. */
import type { WorkerInit } from '../../shared/protocol';
import type { Clock, Transport, TransportRequest } from '../../worker/ports';

export interface FakeClock extends Clock {
  /** Advances time, running due timers in order (timers they add run too when due). */
  advance(ms: number): Promise<void>;
  pendingTimers(): number[];
}

export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        let due: [number, { at: number; fn: () => void }] | null = null;
        for (const entry of timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        // Let the promise chains the timer started settle before looking for the next one.
        for (let i = 0; i < 20; i++) await Promise.resolve();
      }
      now = end;
      for (let i = 0; i < 20; i++) await Promise.resolve();
    },
    pendingTimers: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
  };
}

export interface FakeTransport extends Transport {
  requests: TransportRequest[];
  /** Status codes to answer, in order; after the list runs out every request gets 200. */
  statuses: number[];
  /** Bodies to answer by URL substring. */
  bodies: Array<{ match: string; body: string; status?: number }>;
  /** Retry-After headers to answer, in order, beside `statuses`; absent: none. */
  retryAfters?: string[];
}

export function createFakeTransport(): FakeTransport {
  const transport: FakeTransport = {
    requests: [],
    statuses: [],
    bodies: [],
    async request(req) {
      transport.requests.push(req);
      const scripted = transport.bodies.find((b) => req.url.includes(b.match));
      const status = scripted?.status ?? transport.statuses.shift() ?? 200;
      const body = scripted?.body ?? (status === 200 ? '' : 'upstream unavailable');
      return { status, statusText: status === 200 ? 'OK' : 'Service Unavailable', retryAfter: transport.retryAfters?.shift() ?? null, text: async () => body };
    },
  };
  return transport;
}

/** The query parameters of a recorded request. */
export function queryOf(url: string): URLSearchParams {
  return new URL(url).searchParams;
}

/** The worker init of these tests; `guides` as given (PROBED: the availability probe passed earlier). */
export function engineInit(guides?: WorkerInit['guides']): WorkerInit {
  return {
    apiKey: 'k',
    dataHost: 'http://127.0.0.1:9',
    contentHost: 'http://127.0.0.1:9',
    agentVersion: 't',
    identity: { visitorId: 'v', accountId: 'a' },
    session: { sessionId: 's'.repeat(16), tabId: 't', frameId: 'f', parentTabId: '' },
    metadata: { visitor: {}, account: {}, parentAccount: {} },
    utm: {},
    device: 'desktop',
    ...(guides ? { guides } : {}),
  };
}
export const PROBED: NonNullable<WorkerInit['guides']> = { state: { visitorId: 'v', probe: { ok: true, until: Number.MAX_SAFE_INTEGER } } };
