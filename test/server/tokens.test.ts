/**
 * Issue #33: a user's own account (GET and PATCH /api/me) and personal API tokens, on PGlite and on the real
 * PostgreSQL: a token shown once, stored hashed, listed without itself, acting with its user's role, revoked at
 * once; a password changed only with the current one, ending the user's other sessions.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listRoutes } from '../../server/auth/registerAuth';
import { MAX_TOKENS_PER_USER } from '../../server/auth/users/createTokenStore';
import { cookieOf, makeUser, TEST_PASSWORD } from './users';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

// Each password is an scrypt hash of 0.1-0.5 s on a busy machine: more than vitest's 5 s for a test of several.
vi.setConfig({ testTimeout: 60_000 });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe('issue #33 personal API tokens', () => {
  it('shown once, listed without the token, used as Bearer with the user\'s role, last use stamped, revoked at once', async () => {
    const viewer = await makeUser(server.app, 'viewer');
    const made = await call('POST', '/api/me/tokens', viewer.console, { name: ' nightly export ' });
    expect(made.statusCode).toBe(201);
    const { token, id } = made.json();
    expect(made.json()).toEqual({ id: expect.any(String), name: 'nightly export', token: expect.stringMatching(/^wmu_[\w-]{43}$/), createdAt: expect.any(Number), lastUsedAt: null });
    const bearer = { authorization: `Bearer ${token}` };
    expect((await call('GET', '/api/apps', bearer)).statusCode).toBe(200);
    expect((await call('PUT', '/api/apps/a/settings', bearer, {})).json().error).toBe('this needs the admin role; you are a viewer');
    const listed = await call('GET', '/api/me/tokens', viewer.console);
    expect(listed.body).not.toContain(token);
    expect(listed.json().tokens.find((t: { id: string }) => t.id === id)).toEqual({ id, name: 'nightly export', createdAt: expect.any(Number), lastUsedAt: expect.any(Number) });
    expect((await call('GET', '/api/me', bearer)).json()).toMatchObject({ role: 'viewer', via: 'api token', token: { id, name: 'nightly export' }, user: { id: viewer.id } });

    // Another user cannot revoke it; its owner can, and it is a 401 at once.
    const other = await makeUser(server.app, 'admin');
    expect((await call('DELETE', `/api/me/tokens/${id}`, other.bearer)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/me/tokens/${id}`, viewer.bearer)).statusCode).toBe(204);
    const revoked = await call('GET', '/api/apps', bearer);
    expect([revoked.statusCode, revoked.json().error]).toEqual([401, 'the API token is not valid (it may have been revoked)']);
    expect((await call('DELETE', `/api/me/tokens/${id}`, viewer.bearer)).statusCode).toBe(404);
  });

  it(`holds at most ${MAX_TOKENS_PER_USER} tokens a user (409); the admin token has none (403)`, async () => {
    const editor = await makeUser(server.app, 'editor');
    for (let i = 1; i < MAX_TOKENS_PER_USER; i++) expect((await call('POST', '/api/me/tokens', editor.bearer, { name: `t${i}` })).statusCode).toBe(201);
    const over = await call('POST', '/api/me/tokens', editor.bearer, { name: 'one too many' });
    expect([over.statusCode, over.json().error]).toEqual([409, `at most ${MAX_TOKENS_PER_USER} tokens per user: revoke one first`]);
    const admin = await call('POST', '/api/me/tokens', ADMIN_HEADERS, { name: 'x' });
    expect([admin.statusCode, admin.json().error]).toEqual([403, "the admin token has no account of its own: sign in with a user's email and password for this"]);
    expect((await call('GET', '/api/me', ADMIN_HEADERS)).json()).toEqual({ role: 'admin', via: 'admin token', user: null });
  }, 60_000);

  it('a token that was never made, or is cut short, is a 401 naming the token kind; no token route is open', async () => {
    for (const token of ['wmu_', 'wmu_x', `wmu_${'A'.repeat(43)}`, `wmu_${'A'.repeat(5000)}`]) {
      const refused = await call('GET', '/api/apps', { authorization: `Bearer ${token}` });
      expect([refused.statusCode, refused.json().error], token.slice(0, 10)).toEqual([401, 'the API token is not valid (it may have been revoked)']);
    }
    expect(listRoutes(server.app).filter((r) => r.url.startsWith('/api/me')).every((r) => r.access === 'viewer')).toBe(true);
  });
});

describe('issue #33 the own account: PATCH /api/me', () => {
  it('changes the name; a new password needs the current one; it ends the other sessions and keeps this one', async () => {
    const editor = await makeUser(server.app, 'editor');
    expect((await call('PATCH', '/api/me', editor.console, { name: 'Edith' })).json()).toMatchObject({ name: 'Edith', role: 'editor' });
    const second = await server.app.inject({ method: 'POST', url: '/api/login', payload: { email: editor.email, password: TEST_PASSWORD }, remoteAddress: '10.6.0.1' });
    const other = { cookie: cookieOf(second), 'x-waymark-console': '1' };
    const missing = await call('PATCH', '/api/me', editor.console, { password: 'a brand new password' });
    expect([missing.statusCode, missing.json().field]).toEqual([400, 'currentPassword']);
    const wrong = await call('PATCH', '/api/me', editor.console, { password: 'a brand new password', currentPassword: 'not the password' });
    expect([wrong.statusCode, wrong.json().error]).toEqual([403, 'the current password is wrong']);
    const short = await call('PATCH', '/api/me', editor.console, { password: 'short', currentPassword: TEST_PASSWORD });
    expect([short.statusCode, short.json().error]).toEqual([400, 'password is too short: at least 12 characters']);
    expect((await call('PATCH', '/api/me', editor.console, { password: 'a brand new password', currentPassword: TEST_PASSWORD })).statusCode).toBe(200);
    expect((await call('GET', '/api/session', editor.console)).statusCode).toBe(200);
    expect((await call('GET', '/api/session', other)).statusCode).toBe(401);
    // Tokens are not sessions: they stay until revoked.
    expect((await call('GET', '/api/session', editor.bearer)).statusCode).toBe(200);
    const login = (password: string) => server.app.inject({ method: 'POST', url: '/api/login', payload: { email: editor.email, password }, remoteAddress: '10.6.0.2' });
    expect((await login(TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login('a brand new password')).statusCode).toBe(204);
  });

  it('wrong current passwords count against the account as logins do: the 11th try waits (429)', async () => {
    const viewer = await makeUser(server.app, 'viewer');
    for (let i = 0; i < 10; i++) expect((await call('PATCH', '/api/me', viewer.bearer, { password: 'a brand new password', currentPassword: `guess number ${i}` })).statusCode).toBe(403);
    const limited = await call('PATCH', '/api/me', viewer.bearer, { password: 'a brand new password', currentPassword: TEST_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^too many attempts for this email: try again in \d+ s$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  }, 60_000);
});
