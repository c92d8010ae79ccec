import { describe, expect, it } from 'vitest';
import { GET_URL_LIMIT } from '../../shared/constants';
import { decodeJzb } from '../../shared/wire/jzb';
import { MESSAGES } from '../../shared/messages';
import type { LogLevel, Metadata } from '../../shared/protocol';
import type { Transport, TransportRequest, TransportResponse } from '../../worker/ports';
import { createSegmentFlags, SEGMENT_FLAG_DEBOUNCE_MS, type SegmentFlagsOptions } from '../../worker/createSegmentFlags';
import { createFakeClock, createFakeTransport, queryOf, type FakeClock } from './fakes';

const DATA_HOST = 'https://data.example.com';
const FLAGS_URL = `${DATA_HOST}/data/segmentflag.json/key-1`;

/** A loader on fake ports whose request state, auth and logs the test controls. */
function setUp(transport: Transport = createFakeTransport(), overrides: Partial<SegmentFlagsOptions> = {}) {
  const clock: FakeClock = createFakeClock();
  const logs: Array<[LogLevel, string]> = [];
  const notified: string[][] = [];
  const state = {
    metadata: { visitor: { plan: 'pro' }, account: {}, parentAccount: {} } as Metadata,
    url: 'https://app.example.com/reports',
    auth: undefined as { jwt: string; signingKeyName: string } | undefined,
    acc: undefined as string | undefined,
  };
  const flags = createSegmentFlags({
    apiKey: 'key-1',
    dataHost: DATA_HOST,
    agentVersion: '0.1.0',
    ports: { transport, clock },
    log: (level, message) => void logs.push([level, message]),
    getRequest: () => ({ visitorId: 'visitor-1', accountId: 'acme', metadata: state.metadata, url: state.url }),
    getAuth: () => state.auth,
    getAcc: () => state.acc,
    onFlags: (list) => void notified.push(list),
    ...overrides,
  });
  return { flags, clock, logs, notified, state };
}

/** A response with the given body, status 200. */
function answer(body: unknown, status = 200): TransportResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, statusText: status === 200 ? 'OK' : 'Internal Server Error', text: async () => text };
}

/** Text that does not compress, so its jzb is about as long as the text. */
function noise(length: number): string {
  let s = '';
  let x = 12345;
  while (s.length < length) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += x.toString(36);
  }
  return s.slice(0, length);
}

describe('analytics §7 segment flags: request shape', () => {
  it('GETs segmentflag.json with id, the jzb of {visitorId, accountId, metadata, url}, v, ct and acc', async () => {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/segmentflag.json/', body: JSON.stringify({ id: '1', segmentFlags: ['beta-tester'] }) });
    const { flags, clock, state, notified } = setUp(transport);
    state.acc = 'YWNtZQ';
    expect(await flags.load()).toEqual(['beta-tester']);
    expect(transport.requests).toHaveLength(1);
    const [req] = transport.requests as [TransportRequest];
    expect(req.method).toBe('GET');
    expect(req.body).toBeUndefined();
    expect(req.url.startsWith(`${FLAGS_URL}?id=1&jzb=`)).toBe(true);
    const query = queryOf(req.url);
    expect([...query.keys()]).toEqual(['id', 'jzb', 'v', 'ct', 'acc']);
    expect(decodeJzb(query.get('jzb')!)).toEqual({
      visitorId: 'visitor-1',
      accountId: 'acme',
      metadata: { visitor: { plan: 'pro' }, account: {}, parentAccount: {} },
      url: 'https://app.example.com/reports',
    });
    expect(query.get('v')).toBe('0.1.0');
    expect(query.get('ct')).toBe(String(clock.now()));
    expect(query.get('acc')).toBe('YWNtZQ');
    expect(flags.current()).toEqual(['beta-tester']);
    expect(notified).toEqual([['beta-tester']]);
  });

  it('leaves acc out when there is no account, and numbers requests 1, 2, 3', async () => {
    const transport = createFakeTransport();
    let n = 0;
    const counting: Transport = {
      request: async (req) => {
        await transport.request(req);
        return answer({ id: String(++n), segmentFlags: [] });
      },
    };
    const { flags } = setUp(counting);
    for (let i = 0; i < 3; i++) expect(await flags.load()).toEqual([]);
    expect(transport.requests.map((r) => queryOf(r.url).get('id'))).toEqual(['1', '2', '3']);
    expect(queryOf(transport.requests[0]!.url).has('acc')).toBe(false);
  });

  it('POSTs {events: jzb, jwt, signingKeyName} as JSON when signed metadata is set', async () => {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/segmentflag.json/', body: JSON.stringify({ id: '1', segmentFlags: ['signed'] }) });
    const { flags, state } = setUp(transport);
    state.auth = { jwt: 'aaa.bbb.ccc', signingKeyName: 'key-a' };
    expect(await flags.load()).toEqual(['signed']);
    const [req] = transport.requests as [TransportRequest];
    expect(req.method).toBe('POST');
    expect(req.contentType).toBe('application/json');
    expect(req.url.startsWith(`${FLAGS_URL}?id=1&v=0.1.0&ct=`)).toBe(true);
    expect(queryOf(req.url).has('jzb')).toBe(false);
    const body = JSON.parse(req.body!);
    expect(Object.keys(body)).toEqual(['events', 'jwt', 'signingKeyName']);
    expect(body.jwt).toBe('aaa.bbb.ccc');
    expect(body.signingKeyName).toBe('key-a');
    expect(decodeJzb(body.events)).toMatchObject({ visitorId: 'visitor-1', accountId: 'acme' });
  });

  it(`POSTs {events: jzb} when the jzb is over ${GET_URL_LIMIT} characters, and GETs at the limit`, async () => {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/segmentflag.json/', body: JSON.stringify({ segmentFlags: [] }) });
    const { flags, state } = setUp(transport);
    state.metadata = { visitor: { notes: noise(3000) }, account: {}, parentAccount: {} };
    await flags.load();
    const [post] = transport.requests as [TransportRequest];
    expect(post.method).toBe('POST');
    const body = JSON.parse(post.body!);
    expect(Object.keys(body)).toEqual(['events']);
    expect(body.events.length).toBeGreaterThan(GET_URL_LIMIT);
    expect((decodeJzb(body.events) as { metadata: Metadata }).metadata.visitor.notes).toBe(noise(3000));

    // Find the longest notes whose jzb still fits: that one goes by GET.
    let length = 1000;
    for (;;) {
      state.metadata = { visitor: { notes: noise(length + 10) }, account: {}, parentAccount: {} };
      transport.requests.length = 0;
      await flags.load();
      if (transport.requests[0]!.method === 'POST') break;
      length += 10;
    }
    state.metadata = { visitor: { notes: noise(length) }, account: {}, parentAccount: {} };
    transport.requests.length = 0;
    await flags.load();
    const get = transport.requests[0]!;
    expect(get.method).toBe('GET');
    expect(queryOf(get.url).get('jzb')!.length).toBeLessThanOrEqual(GET_URL_LIMIT);
  });
});

describe('analytics §7 segment flags: stale responses', () => {
  it('discards a response whose id is not the request id, keeping the previous flags', async () => {
    let reply: unknown = { id: '1', segmentFlags: ['first'] };
    const { flags, logs, notified } = setUp({ request: async () => answer(reply) });
    expect(await flags.load()).toEqual(['first']);
    reply = { id: '1', segmentFlags: ['stale'] };
    expect(await flags.load()).toBeNull();
    expect(flags.current()).toEqual(['first']);
    expect(notified).toEqual([['first']]);
    expect(logs.filter(([level]) => level === 'warn')).toEqual([]);
  });

  it('discards the answer to an older request that arrives after a newer one went out', async () => {
    const pending: Array<{ id: string; resolve(response: TransportResponse): void }> = [];
    const transport: Transport = {
      request: (req) => new Promise((resolve) => pending.push({ id: queryOf(req.url).get('id')!, resolve })),
    };
    const { flags } = setUp(transport);
    const older = flags.load();
    const newer = flags.load();
    expect(pending.map((p) => p.id)).toEqual(['1', '2']);
    pending[1]!.resolve(answer({ id: '2', segmentFlags: ['newer'] }));
    expect(await newer).toEqual(['newer']);
    pending[0]!.resolve(answer({ id: '1', segmentFlags: ['older'] }));
    expect(await older).toBeNull();
    expect(flags.current()).toEqual(['newer']);
  });
});

describe('analytics §9 segment flag debounce 50 ms', () => {
  it(`collapses 5 requests within ${SEGMENT_FLAG_DEBOUNCE_MS} ms into one, sent ${SEGMENT_FLAG_DEBOUNCE_MS} ms after the last`, async () => {
    expect(SEGMENT_FLAG_DEBOUNCE_MS).toBe(50);
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/segmentflag.json/', body: JSON.stringify({ id: '1', segmentFlags: ['pro'] }) });
    const { flags, clock, state, notified } = setUp(transport);
    const start = clock.now();
    for (let i = 0; i < 5; i++) {
      state.metadata = { visitor: { plan: 'pro', step: i }, account: {}, parentAccount: {} };
      flags.request();
      if (i < 4) await clock.advance(10);
    }
    // The last request() was at +40 ms: nothing goes out before +90 ms.
    expect(clock.pendingTimers()).toEqual([50]);
    await clock.advance(49);
    expect(transport.requests).toHaveLength(0);
    await clock.advance(1);
    expect(transport.requests).toHaveLength(1);
    const query = queryOf(transport.requests[0]!.url);
    expect(query.get('ct')).toBe(String(start + 90));
    expect(query.get('id')).toBe('1');
    // The request carries the metadata as it was at send time.
    expect((decodeJzb(query.get('jzb')!) as { metadata: Metadata }).metadata.visitor).toEqual({ plan: 'pro', step: 4 });
    expect(notified).toEqual([['pro']]);
    await clock.advance(1000);
    expect(transport.requests).toHaveLength(1);
  });

  it('requests spaced further apart than 50 ms each send, and load() cancels a pending one', async () => {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/segmentflag.json/', body: JSON.stringify({ segmentFlags: [] }) });
    const { flags, clock } = setUp(transport);
    flags.request();
    await clock.advance(50);
    flags.request();
    await clock.advance(50);
    expect(transport.requests).toHaveLength(2);
    flags.request();
    await flags.load();
    expect(clock.pendingTimers()).toEqual([]);
    await clock.advance(100);
    expect(transport.requests).toHaveLength(3);
  });
});

describe('analytics §8 "Failed to load segment flags"', () => {
  const failures: Array<[string, Transport, string]> = [
    ['a 500', { request: async () => answer('database down', 500) }, `${MESSAGES.badStatus(500, 'database down')}`],
    ['a network error', { request: async () => Promise.reject(new TypeError('Failed to fetch')) }, 'Failed to fetch'],
    ['a body that is not JSON', { request: async () => answer('<html>') }, 'the response is not JSON'],
    ['segmentFlags that is not an array', { request: async () => answer({ id: '2', segmentFlags: 'beta' }) }, 'segmentFlags is not an array'],
    ['segmentFlags with a non-string', { request: async () => answer({ id: '2', segmentFlags: ['a', 1] }) }, 'segmentFlags holds a non-string'],
    ['an array body', { request: async () => answer([]) }, 'the response must be'],
  ];

  for (const [name, failing, reason] of failures) {
    it(`logs a warning on ${name}, keeps the previous flags and answers null`, async () => {
      let transport: Transport = { request: async () => answer({ id: '1', segmentFlags: ['kept'] }) };
      const { flags, logs, notified } = setUp({ request: (req) => transport.request(req) });
      expect(await flags.load()).toEqual(['kept']);
      transport = failing;
      expect(await flags.load()).toBeNull();
      expect(flags.current()).toEqual(['kept']);
      expect(notified).toEqual([['kept']]);
      const warnings = logs.filter(([level]) => level === 'warn').map(([, message]) => message);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.startsWith(`${MESSAGES.segmentFlagsFailed}: `)).toBe(true);
      expect(warnings[0]).toContain(reason);
    });
  }

  it('never throws, even when the metadata cannot be serialized or the listener throws', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/segmentflag.json/', body: JSON.stringify({ segmentFlags: ['ok'] }) });
    const { flags, logs, state } = setUp(transport, {
      onFlags: () => {
        throw new Error('listener broke');
      },
    });
    const good = state.metadata;
    state.metadata = { visitor: cyclic, account: {}, parentAccount: {} };
    await expect(flags.load()).resolves.toBeNull();
    expect(transport.requests).toHaveLength(0);
    expect(logs[0]![1].startsWith(`${MESSAGES.segmentFlagsFailed}: `)).toBe(true);
    state.metadata = good;
    await expect(flags.load()).resolves.toEqual(['ok']);
    expect(logs[1]).toEqual(['warn', 'segment flags listener failed: listener broke']);
    expect(MESSAGES.segmentFlagsFailed).toBe('Failed to load segment flags');
  });
});
