/**
 * Run by vitest.postgres.config.ts only (a first part of issue #19): two collectors on one PostgreSQL database.
 * A beacon replayed to both, at the same time, is stored once, and the console's summaries count it once;
 * collectors started at the same moment on an empty database take turns at the schema migrations.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../server/storage/migrations/MIGRATIONS';
import { ADMIN_HEADERS, freshPostgresDatabase, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from '../testServer';

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({}, { databaseUrl: first.databaseUrl });
}, SERVER_TIMEOUT);
afterAll(async () => {
  await second?.close();
  await first?.close();
}, SERVER_TIMEOUT);

describe('issue #19 several collectors on one database', () => {
  it('stores a beacon replayed concurrently to two collectors once, and counts it once', async () => {
    const batch = Array.from({ length: 9 }, () => wireEvent({ type: 'click', visitor_id: 'shared-visitor' }));
    const url = `/data/ptm.gif/two-collectors?v=1&ct=1&jzb=${nodeJzb(batch)}`;
    const sends = Array.from({ length: 10 }, (_, i) => (i % 2 ? second : first).app.inject({ method: 'GET', url }));
    for (const response of await Promise.all(sends)) expect(response.statusCode).toBe(200);
    for (const server of [first, second]) {
      const events = (await server.app.inject({ method: 'GET', url: '/api/events?apiKey=two-collectors', headers: ADMIN_HEADERS })).json().events;
      expect(events).toHaveLength(9);
      const apps = (await server.app.inject({ method: 'GET', url: '/api/apps', headers: ADMIN_HEADERS })).json();
      expect(apps.find((a: { apiKey: string }) => a.apiKey === 'two-collectors')).toMatchObject({ events: 9, visitors: 1 });
    }
  });
});

describe('issue #19 schema migrations on one database', () => {
  it('three collectors started at once on an empty database all come up, and each migration is applied once', async () => {
    const databaseUrl = await freshPostgresDatabase();
    const servers = await Promise.all([0, 1, 2].map(() => startTestServer({}, { databaseUrl })));
    const client = new pg.Client({ connectionString: databaseUrl });
    try {
      for (const server of servers) {
        const response = await server.app.inject({ method: 'GET', url: '/api/apps', headers: ADMIN_HEADERS });
        expect(response.statusCode).toBe(200);
      }
      await client.connect();
      const rows = (await client.query('select version, name from schema_migrations order by version')).rows;
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    } finally {
      await client.end();
      for (const server of servers) await server.close();
    }
  }, SERVER_TIMEOUT);
});
