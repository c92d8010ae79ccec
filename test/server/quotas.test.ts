/**
 * Issue #31 quotas per app on the open collector endpoints: the app's settings hold them (checked, naming the
 * field), a batch that would cross the events-per-minute quota is refused whole with 429, Retry-After and a
 * message naming the quota and its value, and nothing of it is stored; recording chunks count their bytes a day.
 * On PostgreSQL (vitest.postgres.config.ts), two collectors on one database share the count.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, nodeJzb, readEvents, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

const putSettings = (target: TestServer, apiKey: string, body: unknown) =>
  target.app.inject({ method: 'PUT', url: `/api/apps/${apiKey}/settings`, headers: ADMIN_HEADERS, payload: body as object });

const setQuotas = async (target: TestServer, apiKey: string, quotas: Record<string, number>, more: Record<string, unknown> = {}) => {
  const response = await putSettings(target, apiKey, { quotas, ...more });
  expect(response.statusCode, response.body).toBe(200);
};

/** A batch of `n` fresh events of `visitor`. */
const batchOf = (n: number, visitor: string) => Array.from({ length: n }, () => wireEvent({ visitor_id: visitor }));

const beacon = (target: TestServer, endpoint: string, apiKey: string, events: unknown[]) =>
  target.app.inject({ method: 'GET', url: `/data/${endpoint}/${apiKey}?v=1&ct=1&jzb=${nodeJzb(events)}` });

const postBeacon = (target: TestServer, apiKey: string, events: unknown[]) =>
  target.app.inject({ method: 'POST', url: `/data/ptm.gif/${apiKey}?v=1&ct=1`, payload: { events: nodeJzb(events) } });

/** A test that may wait for the next minute (withinOneMinute). */
const MINUTE_TEST_TIMEOUT = 30_000;

/**
 * Waits, when less than 15 s of the current UTC minute are left, for the next one: a test's requests then fall in
 * one quota window (a minute), whatever the moment the run reaches it.
 */
async function withinOneMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Checks a quota's refusal: 429, Retry-After within the window, the quota and its value named. */
function expectRefused(response: { statusCode: number; headers: Record<string, unknown>; json(): any }, quota: string, value: number, windowS: number) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowS, `Retry-After ${response.headers['retry-after']}`).toBe(true);
  expect(response.json().error).toContain(`quotas.${quota}`);
  expect(response.json().error).toContain(` ${value} `);
  // An agent on another origin can read the pause it asks for (shared/wire/collectorPause.ts).
  expect(response.headers['access-control-expose-headers']).toContain('retry-after');
}

describe('issue #31 quotas: settings', () => {
  it('answers the default quotas, stores set ones, and refuses -1, "abc", 1.5 and unknown quotas naming the field', async () => {
    const defaults = (await server.app.inject({ method: 'GET', url: '/api/apps/quota-settings/settings', headers: ADMIN_HEADERS })).json();
    expect(defaults.quotas).toEqual({ eventsPerMinute: 60_000, recordingBytesPerDay: 1_073_741_824 });
    const stored = await putSettings(server, 'quota-settings', { quotas: { eventsPerMinute: 0 } });
    expect(stored.statusCode).toBe(200);
    // An unset quota keeps its default.
    expect(stored.json().quotas).toEqual({ eventsPerMinute: 0, recordingBytesPerDay: 1_073_741_824 });
    const cases: Array<[unknown, string]> = [
      [{ eventsPerMinute: -1 }, 'quotas.eventsPerMinute'],
      [{ eventsPerMinute: 'abc' }, 'quotas.eventsPerMinute'],
      [{ eventsPerMinute: 1.5 }, 'quotas.eventsPerMinute'],
      [{ recordingBytesPerDay: -1 }, 'quotas.recordingBytesPerDay'],
      [{ recordingBytesPerDay: 'abc' }, 'quotas.recordingBytesPerDay'],
      [{ recordingBytesPerDay: 1.5 }, 'quotas.recordingBytesPerDay'],
      [{ recordingBytesPerDay: 2 ** 60 }, 'quotas.recordingBytesPerDay'],
      [{ bytesPerMinute: 5 }, 'quotas.bytesPerMinute'],
      [5, 'quotas'],
    ];
    for (const [quotas, field] of cases) {
      const response = await putSettings(server, 'quota-settings', { quotas });
      expect(response.statusCode, JSON.stringify(quotas)).toBe(400);
      expect(response.json().field, JSON.stringify(quotas)).toBe(field);
      expect(response.json().error).toContain(field);
    }
  });
});

describe('issue #31 quotas: events per minute', () => {
  it('refuses the batch that would cross the quota whole (429, Retry-After, the quota named) and stores nothing of it; guide and poll events count', async () => {
    await setQuotas(server, 'quota-events', { eventsPerMinute: 10 });
    await withinOneMinute();
    expect((await beacon(server, 'ptm.gif', 'quota-events', batchOf(6, 'first'))).statusCode).toBe(200);
    // 6 + 5 > 10: refused whole, by GET and by POST.
    expectRefused(await beacon(server, 'ptm.gif', 'quota-events', batchOf(5, 'over')), 'eventsPerMinute', 10, 60);
    const posted = await postBeacon(server, 'quota-events', batchOf(5, 'over'));
    expectRefused(posted, 'eventsPerMinute', 10, 60);
    expect(posted.json().error).toContain('quota quotas.eventsPerMinute of app "quota-events" is 10 events a minute: 6 taken this minute');
    // A refused batch took nothing: 4 more fit exactly.
    expect((await postBeacon(server, 'quota-events', batchOf(4, 'last'))).json()).toEqual({ stored: 4 });
    // Guide and poll events count with the analytics ones; the availability probe (no events) is never refused.
    const guide = [{ type: 'guideSeen', browser_time: 1, visitor_id: 'g', props: { guide_id: 'g1' } }];
    expectRefused(await beacon(server, 'guide.gif', 'quota-events', guide), 'eventsPerMinute', 10, 60);
    expectRefused(await beacon(server, 'poll.gif', 'quota-events', guide), 'eventsPerMinute', 10, 60);
    expect((await beacon(server, 'guide.gif', 'quota-events', [])).statusCode).toBe(200);
    const stored = await readEvents(server.app, { apiKey: 'quota-events' });
    expect(stored.map((e) => e.visitor_id).sort()).toEqual([...Array(6).fill('first'), ...Array(4).fill('last')]);
    // Another app has its own count.
    expect((await beacon(server, 'ptm.gif', 'quota-other', batchOf(11, 'other'))).statusCode).toBe(200);
  }, MINUTE_TEST_TIMEOUT);

  it('a quota of 0 refuses every batch with events', async () => {
    await setQuotas(server, 'quota-zero', { eventsPerMinute: 0 });
    expectRefused(await beacon(server, 'ptm.gif', 'quota-zero', batchOf(1, 'z')), 'eventsPerMinute', 0, 60);
    expect(await readEvents(server.app, { apiKey: 'quota-zero' })).toEqual([]);
  });
});

describe('issue #31 quotas: recording bytes per day', () => {
  const T0 = 1_790_000_000_000;
  const chunk = (n: number) =>
    deflateSync(
      Buffer.from(
        JSON.stringify({
          recordingId: 'rec-q', sessionId: 'abcdefghijklmnop', visitorId: 'visitor-1', accountId: 'acme', tabId: 'tab-1', frameId: 'frame-1',
          url: 'http://127.0.0.1/app', chunk: n,
          events: n === 0
            ? [{ type: 4, data: { href: 'http://127.0.0.1/app', width: 1280, height: 800 }, timestamp: T0 }, { type: 2, data: { node: { type: 0, childNodes: [], id: 1 } }, timestamp: T0 + 1 }]
            : [{ type: 3, data: { source: 2, type: 2, id: 5, x: n, y: 20 }, timestamp: T0 + 100 * n }],
        }),
        'utf8',
      ),
    );
  const post = (body: Buffer) =>
    server.app.inject({ method: 'POST', url: `/data/recording/quota-rec?v=1.0.0&ct=${T0}`, headers: { 'content-type': 'application/octet-stream' }, payload: body });

  it('stores chunks while their compressed bytes of the day fit, then refuses (429, Retry-After to the end of the UTC day) and stores nothing', async () => {
    const first = chunk(0);
    const second = chunk(1);
    await setQuotas(server, 'quota-rec', { recordingBytesPerDay: first.length + second.length - 1 }, { recording: { enabled: true, sampleRate: 1 } });
    expect((await post(first)).json()).toEqual({ stored: 1 });
    const refused = await post(second);
    expectRefused(refused, 'recordingBytesPerDay', first.length + second.length - 1, 86_400);
    // The seconds to the next UTC midnight, give or take the request's time.
    const toMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
    expect(Math.abs(Number(refused.headers['retry-after']) - toMidnight)).toBeLessThanOrEqual(2);
    expect(refused.json().error).toContain(`${first.length} taken today`);
    const list = (await server.app.inject({ method: 'GET', url: '/api/apps/quota-rec/recordings', headers: ADMIN_HEADERS })).json().recordings;
    expect(list).toMatchObject([{ id: 'rec-q', chunks: 1 }]);
  });
});

// On the real PostgreSQL only (vitest.postgres.config.ts): PGlite cannot open one database from two servers.
describe.runIf(process.env.WAYMARK_TEST_POSTGRES)('issue #31 quotas: several collectors on one database', () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({}, { databaseUrl: server.databaseUrl });
  }, SERVER_TIMEOUT);
  afterAll(() => second?.close(), SERVER_TIMEOUT);

  it('two servers share the count: what one took, the other refuses', async () => {
    await setQuotas(server, 'quota-shared', { eventsPerMinute: 10 });
    await withinOneMinute();
    expect((await beacon(server, 'ptm.gif', 'quota-shared', batchOf(6, 'one'))).statusCode).toBe(200);
    expectRefused(await beacon(second, 'ptm.gif', 'quota-shared', batchOf(5, 'two')), 'eventsPerMinute', 10, 60);
    expect((await beacon(second, 'ptm.gif', 'quota-shared', batchOf(4, 'two'))).statusCode).toBe(200);
    expectRefused(await beacon(server, 'ptm.gif', 'quota-shared', batchOf(1, 'one')), 'eventsPerMinute', 10, 60);
  }, MINUTE_TEST_TIMEOUT);

  it('concurrent batches on both servers: exactly the quota is accepted, and stored', async () => {
    await setQuotas(second, 'quota-race', { eventsPerMinute: 10 });
    await withinOneMinute();
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => beacon(i % 2 ? second : server, 'ptm.gif', 'quota-race', batchOf(1, `race-${i}`))));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(14);
    expect(await readEvents(second.app, { apiKey: 'quota-race' })).toHaveLength(10);
  }, MINUTE_TEST_TIMEOUT);

  it('WAYMARK_APPS=known: an app made on one collector is accepted at once by the other', async () => {
    const one = await startTestServer({}, { apps: 'known' });
    const other = await startTestServer({}, { apps: 'known', databaseUrl: one.databaseUrl });
    try {
      const url = `/data/ptm.gif/late-app?jzb=${nodeJzb(batchOf(1, 'late'))}`;
      expect((await other.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      expect((await one.app.inject({ method: 'POST', url: '/api/apps', headers: ADMIN_HEADERS, payload: { apiKey: 'late-app' } })).statusCode).toBe(201);
      expect((await other.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    } finally {
      await other.close();
      await one.close();
    }
  }, SERVER_TIMEOUT);
});

describe('issue #31 WAYMARK_APPS=known', () => {
  let known: TestServer;
  beforeAll(async () => {
    known = await startTestServer({}, { apps: 'known' });
  }, SERVER_TIMEOUT);
  afterAll(() => known?.close(), SERVER_TIMEOUT);

  const T = Date.now();
  const recordingChunk = deflateSync(
    Buffer.from(JSON.stringify({ recordingId: 'r', sessionId: 'abcdefghijklmnop', visitorId: 'v', accountId: 'a', tabId: 't', frameId: 'f', url: 'http://x/', chunk: 0, events: [{ type: 4, data: { href: 'http://x/' }, timestamp: T }] })),
  );
  const subject = { visitorId: 'v', accountId: 'a', url: 'http://x/', metadata: {} };
  const report = { version: '0.1.0', visitorId: 'v', sessionId: 's', from: T - 1000, to: T, counts: { eventsSent: 1, beaconsFailed: 0, eventsDropped: 0, guideLoads: 0, guideLoadFailures: 0, errors: 0, warnings: 0 } };
  /** A request that each /data route of an app would take (and store, where it stores), by route. */
  const requests: Record<string, (apiKey: string) => { method: 'GET' | 'POST' | 'HEAD'; url: string; payload?: string | Buffer; headers?: Record<string, string> }> = {
    'GET /data/ptm.gif/:apiKey?': (k) => ({ method: 'GET', url: `/data/ptm.gif/${k}?jzb=${nodeJzb(batchOf(1, 'v'))}` }),
    'POST /data/ptm.gif/:apiKey?': (k) => ({ method: 'POST', url: `/data/ptm.gif/${k}`, payload: JSON.stringify({ events: nodeJzb(batchOf(1, 'v')) }), headers: { 'content-type': 'text/plain' } }),
    'GET /data/guide.gif/:apiKey?': (k) => ({ method: 'GET', url: `/data/guide.gif/${k}?jzb=${nodeJzb(batchOf(1, 'v'))}` }),
    'POST /data/guide.gif/:apiKey?': (k) => ({ method: 'POST', url: `/data/guide.gif/${k}`, payload: JSON.stringify({ events: nodeJzb(batchOf(1, 'v')) }), headers: { 'content-type': 'application/json' } }),
    'GET /data/poll.gif/:apiKey?': (k) => ({ method: 'GET', url: `/data/poll.gif/${k}?jzb=${nodeJzb(batchOf(1, 'v'))}` }),
    'GET /data/guide.json/:apiKey?': (k) => ({ method: 'GET', url: `/data/guide.json/${k}?jzb=${nodeJzb(subject)}` }),
    'POST /data/guide.json/:apiKey?': (k) => ({ method: 'POST', url: `/data/guide.json/${k}`, payload: JSON.stringify({ events: nodeJzb(subject) }), headers: { 'content-type': 'application/json' } }),
    'GET /data/segmentflag.json/:apiKey?': (k) => ({ method: 'GET', url: `/data/segmentflag.json/${k}?jzb=${nodeJzb(subject)}` }),
    'POST /data/segmentflag.json/:apiKey?': (k) => ({ method: 'POST', url: `/data/segmentflag.json/${k}`, payload: JSON.stringify({ events: nodeJzb(subject) }), headers: { 'content-type': 'application/json' } }),
    'GET /data/log.gif/:apiKey?': (k) => ({ method: 'GET', url: `/data/log.gif/${k}?msg=hello&version=1` }),
    'GET /data/recording.json/:apiKey?': (k) => ({ method: 'GET', url: `/data/recording.json/${k}` }),
    'POST /data/recording/:apiKey?': (k) => ({ method: 'POST', url: `/data/recording/${k}?v=1&ct=1`, payload: recordingChunk, headers: { 'content-type': 'application/octet-stream' } }),
    'POST /data/errorlog': (k) => ({ method: 'POST', url: `/data/errorlog?apiKey=${k}`, payload: JSON.stringify({ error: 'boom' }), headers: { 'content-type': 'application/json' } }),
    'POST /data/monitor': (k) => ({ method: 'POST', url: `/data/monitor?apiKey=${k}`, payload: JSON.stringify(report), headers: { 'content-type': 'application/json' } }),
  };
  /** Sends the route's request; a HEAD route sends its GET route's request as HEAD. */
  const send = (target: TestServer, route: string, apiKey: string) => {
    const head = route.startsWith('HEAD ');
    const request = requests[head ? route.replace('HEAD', 'GET') : route]!(apiKey);
    return target.app.inject(head ? { ...request, method: 'HEAD' } : request);
  };

  /** What was stored for the app: events, logs, health reports, recordings, and whether the Apps list has it. */
  async function storedFor(target: TestServer, apiKey: string) {
    const get = async (url: string) => (await target.app.inject({ method: 'GET', url, headers: ADMIN_HEADERS })).json();
    return {
      events: (await readEvents(target.app, { apiKey })).length,
      logs: (await get(`/api/logs?apiKey=${apiKey}`)).logs.length,
      reports: (await get(`/api/apps/${apiKey}/health?from=${T - 86_400_000}&to=${Date.now() + 3_600_000}`)).totals.reports,
      recordings: (await get(`/api/apps/${apiKey}/recordings`)).recordings.length,
      listed: (await get('/api/apps')).some((a: { apiKey: string }) => a.apiKey === apiKey),
    };
  }

  it('guards every /data route that names an app (read from the server\'s routes), and each of them answers an unknown app 404 saying how to create it, storing nothing', async () => {
    const { listDataRoutes } = await import('../../server/ingest/registerKnownApps');
    const routes = listDataRoutes(known.app);
    const byPath = routes.filter((r) => r.apiKeyIn === 'path').map((r) => `${r.method} ${r.url}`);
    // Every route with an :apiKey (HEAD ones included) is sent a request here, so a new one is not left out unnoticed.
    expect(byPath.filter((r) => !(r.replace(/^HEAD/, 'GET') in requests))).toEqual([]);
    expect(Object.keys(requests).filter((r) => !byPath.includes(r))).toEqual(['POST /data/errorlog', 'POST /data/monitor']);
    expect(routes.filter((r) => r.apiKeyIn === 'query').map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['POST /data/errorlog', 'POST /data/monitor']));
    // The same requests store on an open server (the bodies are good), and are refused here.
    await setQuotas(server, 'open-app', {}, { recording: { enabled: true, sampleRate: 1 } });
    for (const route of [...byPath, 'POST /data/errorlog', 'POST /data/monitor']) {
      const open = await send(server, route, 'open-app');
      expect(open.statusCode, `${route} on an open server: ${open.body}`).toBe(200);
      const refused = await send(known, route, 'nobody-app');
      expect(refused.statusCode, route).toBe(404);
      if (!route.startsWith('HEAD')) expect(refused.json(), route).toEqual({ error: 'unknown app "nobody-app": create it in the console (Apps) or PUT /api/apps/nobody-app/settings' });
    }
    // The beacons' and log.gif's routes have no HEAD copy (a HEAD stores nothing): those stored by their GETs only.
    expect(await storedFor(server, 'open-app')).toEqual({ events: 5, logs: 2, reports: 1, recordings: 1, listed: true });
    expect(await storedFor(known, 'nobody-app')).toEqual({ events: 0, logs: 0, reports: 0, recordings: 0, listed: false });
    // A request that names no app still gets its route's 400.
    expect((await known.app.inject({ method: 'GET', url: '/data/ptm.gif/' })).statusCode).toBe(400);
    expect((await known.app.inject({ method: 'POST', url: '/data/errorlog', payload: { error: 'x' } })).statusCode).toBe(400);
  });

  it('an app made by PUT settings {} or POST /api/apps is accepted at once; POST /api/apps keeps an existing app\'s settings', async () => {
    expect((await send(known, 'GET /data/ptm.gif/:apiKey?', 'made-by-put')).statusCode).toBe(404);
    expect((await putSettings(known, 'made-by-put', {})).statusCode).toBe(200);
    expect((await send(known, 'GET /data/ptm.gif/:apiKey?', 'made-by-put')).statusCode).toBe(200);
    expect((await send(known, 'POST /data/errorlog', 'made-by-put')).statusCode).toBe(200);

    const create = (apiKey: unknown) => known.app.inject({ method: 'POST', url: '/api/apps', headers: ADMIN_HEADERS, payload: { apiKey } });
    expect((await send(known, 'POST /data/ptm.gif/:apiKey?', 'made-by-post')).statusCode).toBe(404);
    const made = await create('made-by-post');
    expect([made.statusCode, made.json()]).toEqual([201, { apiKey: 'made-by-post', created: true }]);
    // Listed in the console's Apps before its first event.
    expect(await storedFor(known, 'made-by-post')).toMatchObject({ events: 0, listed: true });
    expect((await send(known, 'POST /data/ptm.gif/:apiKey?', 'made-by-post')).statusCode).toBe(200);
    expect(await storedFor(known, 'made-by-post')).toMatchObject({ events: 1, listed: true });

    await putSettings(known, 'made-by-post', { quotas: { eventsPerMinute: 5 } });
    const again = await create('made-by-post');
    expect([again.statusCode, again.json()]).toEqual([200, { apiKey: 'made-by-post', created: false }]);
    const settings = (await known.app.inject({ method: 'GET', url: '/api/apps/made-by-post/settings', headers: ADMIN_HEADERS })).json();
    expect(settings.quotas.eventsPerMinute).toBe(5);
    for (const bad of ['', 'has space', 'x'.repeat(101), 5, undefined]) {
      const refused = await create(bad);
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json().field).toBe('apiKey');
    }
    // Admin only.
    expect((await known.app.inject({ method: 'POST', url: '/api/apps', payload: { apiKey: 'x' } })).statusCode).toBe(401);
  });
});
