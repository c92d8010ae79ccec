/**
 * Run by vitest.postgres.config.ts only (issue #33 on issue #31's "State every collector shares"): two collectors
 * on one PostgreSQL database. A role change or a token revoked on one holds on the other at once; wrong passwords
 * count against the account whichever collector they reach; two admins demoted at the same moment on the two
 * collectors leave one admin (the users lock); an invitation accepted on both at once signs in once. Users, invitations and tokens
 * are stored without anything that opens the console.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUserStore } from '../../../server/auth/users/createUserStore';
import { PASSWORD_COST } from '../../../server/auth/users/passwords';
import type { Database } from '../../../server/storage/Database';
import { createPgDatabase } from '../../../server/storage/createPgDatabase';
import { makeUser, TEST_PASSWORD } from '../users';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from '../testServer';

vi.setConfig({ testTimeout: 60_000 });

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  // At the production cost (not the test servers' cheap one): the stored hash below is checked for it.
  first = await startTestServer({}, { passwordCost: PASSWORD_COST });
  second = await startTestServer({}, { databaseUrl: first.databaseUrl });
}, SERVER_TIMEOUT);
afterAll(async () => {
  await second?.close();
  await first?.close();
}, SERVER_TIMEOUT);

const get = (server: TestServer, url: string, headers: Record<string, string>) => server.app.inject({ method: 'GET', url, headers });

describe('issue #33 users, roles and tokens shared by every collector', () => {
  it('a role change on one collector ends the sessions on the other; a token revoked on one is a 401 on the other', async () => {
    const editor = await makeUser(first.app, 'editor');
    expect((await get(second, '/api/session', editor.console)).statusCode).toBe(200);
    expect((await second.app.inject({ method: 'PATCH', url: `/api/users/${editor.id}`, headers: ADMIN_HEADERS, payload: { role: 'viewer' } })).statusCode).toBe(200);
    expect((await get(first, '/api/session', editor.console)).statusCode).toBe(401);
    const put = await first.app.inject({ method: 'PUT', url: '/api/apps/a/guides/g', headers: editor.bearer, payload: {} });
    expect(put.json().error).toBe('this needs the editor role; you are a viewer');
    const tokens = (await get(first, '/api/me/tokens', editor.bearer)).json().tokens;
    expect((await second.app.inject({ method: 'DELETE', url: `/api/me/tokens/${tokens[0].id}`, headers: editor.bearer })).statusCode).toBe(204);
    expect((await get(first, '/api/apps', editor.bearer)).statusCode).toBe(401);
  });

  it('counts wrong passwords for one account across both collectors: the eleventh try waits on either', async () => {
    const user = await makeUser(first.app, 'viewer');
    const login = (server: TestServer, password: string, address: string) =>
      server.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password }, remoteAddress: address });
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? first : second, `wrong password ${i}`, `10.40.0.${i}`)).statusCode).toBe(401);
    for (const server of [first, second]) expect((await login(server, TEST_PASSWORD, '10.40.1.1')).statusCode).toBe(429);
  });

  it('two admins demoted at the same moment on two collectors: one demotion passes, the other is the last admin', async () => {
    // Two collectors' pools on one database, each pausing 300 ms after it reads who else is admin: without the
    // lock both would read "another admin remains", and both demotions would pass.
    const slow = (db: Database): Database => ({
      ...db,
      async query<T>(sql: string, params?: unknown[]) {
        const result = await db.query<T>(sql, params);
        if (sql.includes("role = 'admin'")) await new Promise((resolve) => setTimeout(resolve, 300));
        return result;
      },
      exclusive: (key, fn) => db.exclusive(key, (conn) => fn(slow(conn))),
    });
    const pools = [await createPgDatabase(first.databaseUrl!), await createPgDatabase(first.databaseUrl!)];
    try {
      const [one, two] = pools.map((db) => createUserStore(slow(db)));
      const made = await Promise.all(['race-a', 'race-b'].map((name) => one!.create({ email: `${name}@example.com`, name, role: 'admin', passwordHash: null }, Date.now())));
      const [a, b] = made as Array<{ id: string }>;
      // Only these two are admins of this database's users for the race: the others made above are demoted first.
      for (const user of await one!.list()) if (user.role === 'admin' && user.id !== a!.id && user.id !== b!.id) await one!.update(user.id, { role: 'viewer' });
      const answers = await Promise.all([one!.update(a!.id, { role: 'editor' }), two!.update(b!.id, { role: 'editor' })]);
      expect(answers.map((r) => (typeof r === 'string' ? r : r?.role)).sort()).toEqual(['editor', 'last admin']);
      expect((await one!.list()).filter((u) => u.role === 'admin')).toHaveLength(1);
    } finally {
      await Promise.all(pools.map((db) => db.close()));
    }
  });

  it('an invitation accepted on both collectors at once signs in once; the other answer is 410', async () => {
    const made = (await first.app.inject({ method: 'POST', url: '/api/users', headers: ADMIN_HEADERS, payload: { email: 'race@example.com', role: 'editor' } })).json();
    const url = `/api/invitations/${made.invitationUrl.split('/').pop()}`;
    const answers = await Promise.all([first, second].map((server, i) => server.app.inject({ method: 'POST', url, payload: { password: `password number ${i}` } })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([204, 410]);
    const winner = answers.findIndex((r) => r.statusCode === 204);
    const login = (password: string) => second.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'race@example.com', password }, remoteAddress: '10.41.0.1' });
    expect((await login(`password number ${winner}`)).statusCode).toBe(204);
  });

  it('the database holds no password, token or invitation that opens anything: hashes only', async () => {
    const user = await makeUser(first.app, 'viewer', 'stored@example.com');
    const token = user.bearer.authorization.slice('Bearer '.length);
    const client = new pg.Client({ connectionString: first.databaseUrl });
    await client.connect();
    try {
      const dump = JSON.stringify([
        (await client.query('select * from users')).rows,
        (await client.query('select * from user_tokens')).rows,
        (await client.query('select * from user_invitations')).rows,
        (await client.query('select * from auth_sessions')).rows,
      ]);
      expect(dump).not.toContain(TEST_PASSWORD);
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(token.slice(4));
      expect(dump).toMatch(/"password_hash":"scrypt\$32768\$8\$1\$/);
    } finally {
      await client.end();
    }
  });
});
