/**
 * Run by vitest.postgres.config.ts only: the server tests of that run are on the real PostgreSQL, and what a
 * beacon stores can be read back from it with a plain `pg` client (the collector's rows, the console's summaries).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from '../testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

describe('the server tests on a real PostgreSQL', () => {
  it('stores a beacon in PostgreSQL once, and the console reads it', async () => {
    expect(server.databaseUrl).toMatch(/^postgres:\/\/waymark@127\.0\.0\.1:\d+\/test_/);
    const batch = [wireEvent({ type: 'click' }), wireEvent({ type: 'load' })];
    for (let i = 0; i < 2; i++) {
      const response = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/on-pg?v=1&ct=1&jzb=${nodeJzb(batch)}` });
      expect(response.statusCode).toBe(200);
    }
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const version = await client.query<{ server_version_num: string }>('show server_version_num');
      expect(Number(version.rows[0].server_version_num)).toBeGreaterThanOrEqual(140000);
      const rows = await client.query<{ n: string }>("select count(*) as n from events where api_key = 'on-pg'");
      expect(Number(rows.rows[0].n)).toBe(2);
    } finally {
      await client.end();
    }
    const apps = (await server.app.inject({ method: 'GET', url: '/api/apps', headers: ADMIN_HEADERS })).json();
    expect(apps.find((a: { apiKey: string }) => a.apiKey === 'on-pg')).toMatchObject({ events: 2, visitors: 1 });
  });
});
