/**
 * The agent's health reports (shared/wire/monitorReport.ts, spec: analytics §9 "monitoring flush 300000 ms") on the
 * collector and the console's Health view: a report stored and read back, sendBeacon's text/plain, every refusal a
 * 400 naming its field, the /api guard, and the view's range, buckets, versions and grouped errors. On PGlite, and on
 * the real PostgreSQL under vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_COUNT_NAMES, type MonitorReport } from '../../shared/wire/monitorReport';
import { createLogStore } from '../../server/ingest/createLogStore';
import { createMonitorStore } from '../../server/ingest/createMonitorStore';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { openDatabase } from '../../server/storage/openDatabase';
import { queryHealth } from '../../server/queries/queryHealth';
import { ADMIN_HEADERS, freshPostgresDatabase, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

const HOUR = 3_600_000;
const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const ZERO = { eventsSent: 0, beaconsFailed: 0, eventsDropped: 0, guideLoads: 0, guideLoadFailures: 0, errors: 0, warnings: 0 };

/** A report of one page's agent, counts as given over zeros. */
function report(fields: Partial<Omit<MonitorReport, 'counts'>> = {}, counts: Partial<MonitorReport['counts']> = {}): MonitorReport {
  const to = Date.now();
  return { version: '0.1.0', visitorId: 'visitor-1', sessionId: 'session-1', from: to - 300_000, to, ...fields, counts: { ...ZERO, ...counts } };
}

const post = (apiKey: string, body: unknown, contentType = 'application/json') =>
  server.app.inject({
    method: 'POST',
    url: `/data/monitor?apiKey=${encodeURIComponent(apiKey)}`,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** The Health view's answer for `apiKey`, over the last day unless a query is given. */
async function readHealth(apiKey: string, query = `from=${Date.now() - DAY}&to=${Date.now() + HOUR}`): Promise<any> {
  const response = await server.app.inject({ method: 'GET', url: `/api/apps/${apiKey}/health?${query}`, headers: ADMIN_HEADERS });
  if (response.statusCode !== 200) throw new Error(`health answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

describe('agent health reports: POST /data/monitor?apiKey=', () => {
  it('stores a report, answers {stored: 1} with CORS, and the Health view reads its counts back', async () => {
    const counts = { eventsSent: 120, beaconsFailed: 3, eventsDropped: 2, guideLoads: 4, guideLoadFailures: 1, errors: 5, warnings: 6 };
    const before = Date.now();
    const response = await post('health-one', report({}, counts));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ stored: 1 });
    expect(response.headers['access-control-allow-origin']).toBe('*');

    const health = await readHealth('health-one');
    expect(health.totals).toEqual({ reports: 1, sessions: 1, visitors: 1, ...counts });
    expect(health.versions).toEqual([{ version: '0.1.0', reports: 1, sessions: 1, lastReport: expect.any(Number), ...counts }]);
    expect(health.versions[0].lastReport).toBeGreaterThanOrEqual(before);
    const { guideLoads, warnings, ...charted } = counts;
    expect(health.series).toEqual([{ t: expect.any(Number), ...charted }]);
    expect(health.range.bucket).toBe('hour');
    expect(health.errors).toEqual([]);
  });

  it('takes the JSON as text/plain (navigator.sendBeacon), and counts a missing key as 0', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/json; charset=utf-8']) {
      const response = await post('health-plain', JSON.stringify(report({}, { eventsSent: 10 })), type);
      expect(response.statusCode, `${type}: ${response.body}`).toBe(200);
      expect(response.json()).toEqual({ stored: 1 });
    }
    const { counts, ...rest } = report();
    expect((await post('health-plain', { ...rest, counts: { errors: 1 } }, 'text/plain')).json()).toEqual({ stored: 1 });
    expect((await readHealth('health-plain')).totals).toEqual({ reports: 4, sessions: 1, visitors: 1, ...ZERO, eventsSent: 30, errors: 1 });
  });

  it('answers 400 naming the field and the shape expected for bad input, and stores nothing', async () => {
    const good = report();
    const { counts: _counts, ...noCounts } = good;
    const cases: Array<{ field: string; body: unknown; says: RegExp; type?: string; url?: string }> = [
      { field: 'apiKey', body: good, url: '/data/monitor', says: /apiKey is required/ },
      { field: 'apiKey', body: good, url: '/data/monitor?apiKey=', says: /apiKey is required/ },
      { field: 'apiKey', body: good, url: '/data/monitor?apiKey=a&apiKey=b', says: /apiKey must be given once/ },
      { field: 'body', body: '{not json', says: /body is not JSON/ },
      { field: 'body', body: '{not json', type: 'text/plain', says: /body is not JSON/ },
      { field: 'body', body: '', type: 'text/plain', says: /body is not JSON/ },
      { field: 'body', body: [good], says: /body must be a JSON object/ },
      { field: 'body', body: 'null', says: /body must be a JSON object/ },
      { field: 'body', body: good, type: 'application/x-www-form-urlencoded', says: /application\/json or text\/plain/ },
      { field: 'page', body: { ...good, page: '/x' }, says: /unknown field page/ },
      { field: 'version', body: { ...good, version: undefined }, says: /version must be a non-empty string/ },
      { field: 'version', body: { ...good, version: 1 }, says: /version must be a non-empty string/ },
      { field: 'version', body: { ...good, version: '' }, says: /version must be a non-empty string/ },
      { field: 'version', body: { ...good, version: 'v'.repeat(65) }, says: /version must be at most 64 characters/ },
      { field: 'visitorId', body: { ...good, visitorId: null }, says: /visitorId must be a non-empty string/ },
      { field: 'visitorId', body: { ...good, visitorId: 'v'.repeat(257) }, says: /visitorId must be at most 256 characters/ },
      { field: 'visitorId', body: { ...good, visitorId: 'nul \u0000' }, says: /visitorId must not contain the NUL character/ },
      { field: 'sessionId', body: { ...good, sessionId: ['s'] }, says: /sessionId must be a non-empty string/ },
      { field: 'sessionId', body: { ...good, sessionId: 's'.repeat(257) }, says: /sessionId must be at most 256 characters/ },
      { field: 'from', body: { ...good, from: undefined }, says: /from must be epoch milliseconds/ },
      { field: 'from', body: { ...good, from: '1790000000000' }, says: /from must be epoch milliseconds/ },
      { field: 'from', body: { ...good, from: 1.5 }, says: /from must be epoch milliseconds/ },
      { field: 'from', body: { ...good, from: -1 }, says: /from must be epoch milliseconds/ },
      { field: 'to', body: { ...good, to: 1e300 }, says: /to must be epoch milliseconds/ },
      { field: 'from', body: { ...good, from: good.to + 1 }, says: /from \(\d+\) must not be after to/ },
      { field: 'counts', body: noCounts, says: /counts must be an object/ },
      { field: 'counts', body: { ...good, counts: [1, 2] }, says: /counts must be an object/ },
      { field: 'counts', body: { ...good, counts: null }, says: /counts must be an object/ },
      { field: 'counts.pageViews', body: { ...good, counts: { eventsSent: 1, pageViews: 2, clicks: 3 } }, says: /counts has unknown keys pageViews, clicks/ },
      { field: 'counts.eventsSent', body: { ...good, counts: { eventsSent: -1 } }, says: /counts\.eventsSent must be an integer from 0 to 1000000000/ },
      { field: 'counts.beaconsFailed', body: { ...good, counts: { beaconsFailed: 2.5 } }, says: /counts\.beaconsFailed must be an integer/ },
      { field: 'counts.eventsDropped', body: { ...good, counts: { eventsDropped: '3' } }, says: /counts\.eventsDropped must be an integer/ },
      { field: 'counts.guideLoads', body: { ...good, counts: { guideLoads: null } }, says: /counts\.guideLoads must be an integer/ },
      { field: 'counts.errors', body: { ...good, counts: { errors: 1_000_000_001 } }, says: /counts\.errors must be an integer from 0 to 1000000000/ },
    ];
    for (const c of cases) {
      const response = await server.app.inject({
        method: 'POST',
        url: c.url ?? '/data/monitor?apiKey=health-bad',
        headers: { 'content-type': c.type ?? 'application/json' },
        payload: typeof c.body === 'string' ? c.body : JSON.stringify(c.body),
      });
      const what = `${c.field}: ${JSON.stringify(c.body).slice(0, 120)}`;
      expect(response.statusCode, what).toBe(400);
      expect(response.json().field, what).toBe(c.field);
      expect(response.json().error, what).toMatch(c.says);
      // The shape expected, after the problem, in every refusal of the body.
      if (c.field !== 'apiKey') expect(response.json().error, what).toContain('body must be a JSON object {"version": string');
    }
    expect((await readHealth('health-bad')).totals.reports).toBe(0);
  });

  it('refuses a body over 16 KB with 413, saying the limit', async () => {
    const response = await post('health-big', { ...report(), version: 'x'.repeat(17 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ field: 'body', error: expect.stringContaining('over 16384 bytes (16 KB)') });
    expect((await readHealth('health-big')).totals.reports).toBe(0);
  });

  it('answers the CORS preflight of the JSON POST', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/data/monitor?apiKey=health-one',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
  });
});

describe('the Health view: GET /api/apps/{apiKey}/health', () => {
  it('is refused without the admin token', async () => {
    await post('health-guarded', report());
    for (const headers of [{}, { authorization: 'Bearer not-the-admin-token-at-all' }]) {
      const response = await server.app.inject({ method: 'GET', url: '/api/apps/health-guarded/health', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual(expect.any(String));
    }
  });

  it('counts reports received in the range only; a bad range is a 400 naming the parameter', async () => {
    await post('health-range', report({}, { eventsSent: 7 }));
    const now = Date.now();
    expect((await readHealth('health-range', `from=${now - 2 * DAY}&to=${now - DAY}`)).totals).toEqual({ reports: 0, sessions: 0, visitors: 0, ...ZERO });
    expect((await readHealth('health-range', `from=${now - DAY}&to=${now + HOUR}`)).totals.eventsSent).toBe(7);
    // The default range is the last 7 days.
    expect((await readHealth('health-range', '')).totals.eventsSent).toBe(7);
    expect((await readHealth('other-app')).totals.reports).toBe(0);
    for (const [query, field] of [['from=yesterday', 'from'], [`from=${now}&to=${now - 1}`, 'from'], ['bucket=week', 'bucket']]) {
      const response = await server.app.inject({ method: 'GET', url: `/api/apps/health-range/health?${query}`, headers: ADMIN_HEADERS });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe(field);
    }
  });

  it('groups by agent version: sessions (distinct), reports and totals of each', async () => {
    const sends: Array<[version: string, visitorId: string, sessionId: string, eventsSent: number]> = [
      ['0.1.0', 'v1', 's1', 10],
      ['0.1.0', 'v1', 's1', 20],
      ['0.1.0', 'v2', 's2', 30],
      ['0.2.0', 'v1', 's3', 40],
    ];
    for (const [version, visitorId, sessionId, eventsSent] of sends) {
      const response = await post('health-versions', report({ version, visitorId, sessionId }, { eventsSent, beaconsFailed: 1 }));
      expect(response.statusCode).toBe(200);
    }
    const health = await readHealth('health-versions');
    expect(health.totals).toMatchObject({ reports: 4, sessions: 3, visitors: 2, eventsSent: 100, beaconsFailed: 4 });
    const versions = [...health.versions].sort((a, b) => (a.version < b.version ? -1 : 1));
    expect(versions).toEqual([
      { version: '0.1.0', reports: 3, sessions: 2, lastReport: expect.any(Number), ...ZERO, eventsSent: 60, beaconsFailed: 3 },
      { version: '0.2.0', reports: 1, sessions: 1, lastReport: expect.any(Number), ...ZERO, eventsSent: 40, beaconsFailed: 1 },
    ]);
  });

  it('lists the error log of the app grouped by message: times, last seen and the version it was last logged with', async () => {
    const logError = async (apiKey: string, error: string, version?: string) => {
      const response = await server.app.inject({ method: 'POST', url: `/data/errorlog?apiKey=${apiKey}`, payload: { error, ...(version ? { version } : {}) } });
      expect(response.statusCode).toBe(200);
    };
    await logError('health-errors', 'TypeError: boom', '0.1.0');
    await logError('health-errors', 'TypeError: boom', '0.2.0');
    await logError('health-errors', 'guide content hash mismatch');
    await logError('health-other', 'not this app');
    await server.app.inject({ method: 'GET', url: '/data/log.gif/health-errors?msg=a+log+line+is+no+error&version=0.1.0' });
    const errors = [...(await readHealth('health-errors')).errors].sort((a, b) => (a.message < b.message ? -1 : 1));
    expect(errors).toEqual([
      { message: 'TypeError: boom', count: 2, lastSeen: expect.any(Number), version: '0.2.0' },
      { message: 'guide content hash mismatch', count: 1, lastSeen: expect.any(Number), version: null },
    ]);
  });
});

describe('queryHealth: range edges, buckets and order', () => {
  it('counts [from, to) by received time, per hour or day (UTC), versions and errors the latest first, errors at most 50', async () => {
    const databaseUrl = await freshPostgresDatabase();
    const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
    try {
      await migrateSchema(db);
      const reports = createMonitorStore(db);
      const logs = createLogStore(db);
      const day = Date.UTC(2026, 10, 25);
      const at = (version: string, receivedAt: number, eventsSent: number, sessionId = 's1') =>
        reports.insert('q-app', { version, visitorId: 'v1', sessionId, from: receivedAt - 300_000, to: receivedAt, counts: { ...ZERO, eventsSent, errors: 1 } }, receivedAt);
      await at('0.1.0', day - 1, 1000); // before the range
      await at('0.1.0', day, 1, 's1');
      await at('0.1.0', day + 30 * 60_000, 2, 's1');
      await at('0.2.0', day + 2 * HOUR + 5, 4, 's2');
      await at('0.1.0', day + DAY - 1, 8, 's3');
      await at('0.1.0', day + DAY, 2000); // at the range's end: out
      await reports.insert('other', report({}, { eventsSent: 3000 }), day + HOUR);
      for (let i = 0; i < 55; i++) await logs.insert('q-app', { kind: 'error', message: `error ${i}`, version: '0.1.0', visitorId: null }, day + i * 60_000);
      await logs.insert('q-app', { kind: 'error', message: 'too late', version: '0.1.0', visitorId: null }, day + DAY);

      const hourly = await queryHealth(db, 'q-app', { from: day, to: day + DAY, bucket: 'hour' });
      expect(hourly.totals).toEqual({ reports: 4, sessions: 3, visitors: 1, ...ZERO, eventsSent: 15, errors: 4 });
      expect(hourly.series.map((p) => [p.t, p.eventsSent, p.errors])).toEqual([[day, 3, 2], [day + 2 * HOUR, 4, 1], [day + 23 * HOUR, 8, 1]]);
      // The version heard from last first.
      expect(hourly.versions.map((v) => [v.version, v.sessions, v.reports, v.lastReport, v.eventsSent])).toEqual([
        ['0.1.0', 2, 3, day + DAY - 1, 11],
        ['0.2.0', 1, 1, day + 2 * HOUR + 5, 4],
      ]);
      expect(hourly.errors).toHaveLength(50);
      expect(hourly.errors[0]).toEqual({ message: 'error 54', count: 1, lastSeen: day + 54 * 60_000, version: '0.1.0' });

      const daily = await queryHealth(db, 'q-app', { from: day - DAY, to: day + 2 * DAY, bucket: 'day' });
      expect(daily.series.map((p) => [p.t, p.eventsSent])).toEqual([[day - DAY, 1000], [day, 15], [day + DAY, 2000]]);
      expect(Object.keys(daily.totals).sort()).toEqual([...MONITOR_COUNT_NAMES, 'reports', 'sessions', 'visitors'].sort());
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
