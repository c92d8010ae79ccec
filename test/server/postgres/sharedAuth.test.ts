/**
 * Run by vitest.postgres.config.ts only (issue #31 "State every collector shares"): two collectors on one
 * PostgreSQL database behind a load balancer. A login made on one is valid on the other, a logout on one ends it on
 * both at once, a designer session likewise, and wrong tokens count against the address whichever collector they
 * reach. Sessions are stored hashed: the database holds no token that opens the console.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../server/auth/registerAuth';
import { readCookie } from '../../../server/auth/requestCredentials';
import { SERVER_TIMEOUT, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../testServer';

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

const login = (server: TestServer, token: string, remoteAddress: string) =>
  server.app.inject({ method: 'POST', url: '/api/login', payload: { token }, remoteAddress });
const session = (server: TestServer, headers: Record<string, string>) => server.app.inject({ method: 'GET', url: '/api/session', headers });

describe('issue #31 sign-in state shared by every collector', () => {
  it('a login on one collector reads on the other; a logout on the other ends it on both', async () => {
    const ok = await login(first, TEST_ADMIN_TOKEN, '10.1.0.1');
    expect(ok.statusCode).toBe(204);
    const id = readCookie(String(ok.headers['set-cookie']), SESSION_COOKIE)!;
    const cookie = { cookie: `${SESSION_COOKIE}=${id}` };
    expect((await session(second, cookie)).statusCode).toBe(200);
    expect((await second.app.inject({ method: 'POST', url: '/api/logout', headers: { ...cookie, 'x-waymark-console': '1' } })).statusCode).toBe(204);
    expect((await session(first, cookie)).statusCode).toBe(401);
    expect((await session(second, cookie)).statusCode).toBe(401);

    // Stored by its hash only.
    const client = new pg.Client({ connectionString: first.databaseUrl });
    await client.connect();
    try {
      const rows = (await client.query('select token_hash from auth_sessions')).rows as Array<{ token_hash: string }>;
      expect(rows.some((r) => r.token_hash === id)).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('a designer session issued by one collector works on the other until revoked there', async () => {
    const issued = await first.app.inject({ method: 'POST', url: '/api/designer-sessions', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { apiKey: 'shared-app' } });
    const bearer = { authorization: `Bearer ${issued.json().token}` };
    expect((await second.app.inject({ method: 'GET', url: '/api/apps/shared-app/guides', headers: bearer })).statusCode).toBe(200);
    expect((await second.app.inject({ method: 'DELETE', url: '/api/designer-sessions/current', headers: bearer })).statusCode).toBe(204);
    expect((await first.app.inject({ method: 'GET', url: '/api/apps/shared-app/guides', headers: bearer })).statusCode).toBe(401);
  });

  it('counts wrong tokens from one address across both collectors: the 11th is 429 on either', async () => {
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? first : second, `wrong-${i}`, '10.1.0.9')).statusCode).toBe(401);
    for (const server of [first, second]) {
      const limited = await login(server, TEST_ADMIN_TOKEN, '10.1.0.9');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await login(second, TEST_ADMIN_TOKEN, '10.1.0.10')).statusCode).toBe(204);
  });
});
