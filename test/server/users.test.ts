/**
 * Issue #33 "People and roles", the users API (docs/users-and-roles.md), on PGlite and on the real PostgreSQL
 * (vitest.postgres.config.ts): users made with a password or an invitation, emails unique whatever their case,
 * invitations used once and ending after 7 days, a role change or a removal ending the user's sessions at once, the
 * last admin kept, designer sessions carrying their author's role.
 */
import { createAuditLog } from '../../server/audit/createAuditLog';
import { registerAuditRoutes } from '../../server/audit/registerAuditRoutes';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthStore } from '../../server/auth/createAuthStore';
import { createTokenStore } from '../../server/auth/users/createTokenStore';
import { createUserStore, INVITATION_TTL_MS } from '../../server/auth/users/createUserStore';
import { registerAuth } from '../../server/auth/registerAuth';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { openDatabase } from '../../server/storage/openDatabase';
import { cookieOf, makeUser, TEST_PASSWORD } from './users';
import { ADMIN_HEADERS, freshPostgresDatabase, SERVER_TIMEOUT, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

// Each password is an scrypt hash of 0.1-0.5 s on a busy machine: more than vitest's 5 s for a test of several.
vi.setConfig({ testTimeout: 60_000 });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string> = ADMIN_HEADERS, payload?: unknown, remoteAddress?: string) =>
  server.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}), ...(remoteAddress ? { remoteAddress } : {}) });
const login = (email: string, password: string, remoteAddress = '10.5.0.1') => call('POST', '/api/login', {}, { email, password }, remoteAddress);
const tokenOf = (url: string) => url.split('/').pop()!;

describe('issue #33 users: made, listed, changed, removed', () => {
  it('makes a user with a password; answers no hash; the email is unique whatever its case, and signs in in any case', async () => {
    const made = await call('POST', '/api/users', ADMIN_HEADERS, { email: 'Ada@Example.com', role: 'editor', name: ' Ada ', password: TEST_PASSWORD });
    expect(made.statusCode).toBe(201);
    const user = made.json();
    expect(user).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'Ada@Example.com', name: 'Ada', role: 'editor', status: 'active', createdAt: expect.any(Number), lastSignInAt: null });
    const again = await call('POST', '/api/users', ADMIN_HEADERS, { email: ' ada@EXAMPLE.com', role: 'viewer' });
    expect([again.statusCode, again.json().field]).toEqual([409, 'email']);
    expect((await login('ADA@example.COM', TEST_PASSWORD, '10.5.1.1')).statusCode).toBe(204);
    const listed = (await call('GET', '/api/users')).json().users.find((u: { id: string }) => u.id === user.id);
    expect(listed.lastSignInAt).toBeGreaterThan(0);
    expect(JSON.stringify(listed)).not.toMatch(/scrypt|hash/i);
    expect((await call('GET', `/api/users/${user.id}`)).json().email).toBe('Ada@Example.com');
  });

  it('an invitation: a one-use link of 7 days; the password it sets signs in; a second use is 410', async () => {
    const made = (await call('POST', '/api/users', ADMIN_HEADERS, { email: 'grace@example.com', role: 'viewer' })).json();
    expect(made.status).toBe('invited');
    expect(made.invitationUrl).toMatch(/^http:\/\/localhost(:\d+)?\/console\/invitation\/[\w-]{43}$/);
    expect(made.invitationExpiresAt - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
    // Not yet accepted: the same refusal as a wrong password or an unknown email.
    expect((await login('grace@example.com', TEST_PASSWORD, '10.5.2.1')).json()).toEqual({ error: 'wrong email or password' });
    const url = `/api/invitations/${tokenOf(made.invitationUrl)}`;
    // The link says whom it is for before anything is typed, and is not cached.
    const shown = await call('GET', url, {});
    expect([shown.statusCode, shown.headers['cache-control'], shown.json()]).toEqual([
      200, 'no-store', { email: 'grace@example.com', name: '', role: 'viewer', expiresAt: made.invitationExpiresAt },
    ]);
    const short = await call('POST', url, {}, { password: 'elevenchars' });
    expect([short.statusCode, short.json()]).toEqual([400, { error: 'password is too short: at least 12 characters', field: 'password' }]);
    const accepted = await call('POST', url, {}, { password: 'a new password of mine', name: 'Grace' });
    expect(accepted.statusCode).toBe(204);
    const me = (await call('GET', '/api/me', { cookie: cookieOf(accepted) })).json();
    expect(me).toMatchObject({ role: 'viewer', via: 'console', user: { email: 'grace@example.com', name: 'Grace', status: 'active' } });
    const twice = await call('POST', url, {}, { password: 'another password here' });
    expect([twice.statusCode, twice.json().error]).toEqual([410, 'this invitation was already used: sign in with its password, or ask an admin for a new one']);
    const usedShown = await call('GET', url, {});
    expect([usedShown.statusCode, usedShown.json().error]).toEqual([410, 'this invitation was already used: sign in with its password, or ask an admin for a new one']);
    for (const odd of ['nope', '%2e%2e%2fusers', 'a'.repeat(42) + '%C3%A9', 'a'.repeat(44)]) {
      const answer = await call('GET', `/api/invitations/${odd}`, {});
      expect([odd, answer.statusCode, answer.json()]).toEqual([odd, 404, { error: 'no such invitation: the link may be mistyped, replaced by a newer one, or its user removed' }]);
    }
    // A path the route does not match (.., longer than a parameter may be) is an /api path without
    // credentials: 401, never a lookup.
    for (const odd of ['%2e%2e', 'a'.repeat(5000)]) expect([odd.slice(0, 20), (await call('GET', `/api/invitations/${odd}`, {})).statusCode]).toEqual([odd.slice(0, 20), 401]);
    const nul = await call('GET', `/api/invitations/${'a'.repeat(43)}%00`, {});
    expect([nul.statusCode, nul.json()]).toEqual([400, { error: 'token is not valid text: it holds U+0000 (NUL)', field: 'token' }]);
    expect((await login('grace@example.com', 'a new password of mine', '10.5.2.2')).statusCode).toBe(204);
    expect((await call('POST', '/api/invitations/nope', {}, { password: 'whatever it is now' })).statusCode).toBe(404);
  });

  it('a new invitation ends the earlier link; a removed user\'s link opens nothing', async () => {
    const made = (await call('POST', '/api/users', ADMIN_HEADERS, { email: 'linus@example.com', role: 'editor' })).json();
    const renewed = await call('POST', `/api/users/${made.id}/invitation`);
    expect(renewed.statusCode).toBe(201);
    expect((await call('POST', `/api/invitations/${tokenOf(made.invitationUrl)}`, {}, { password: TEST_PASSWORD })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/users/${made.id}`)).statusCode).toBe(204);
    expect((await call('POST', `/api/invitations/${tokenOf(renewed.json().invitationUrl)}`, {}, { password: TEST_PASSWORD })).statusCode).toBe(404);
  });

  it('a role change ends the user\'s console and designer sessions at once; their API token acts with the new role', async () => {
    const editor = await makeUser(server.app, 'editor');
    const designer = { authorization: `Bearer ${(await call('POST', '/api/designer-sessions', editor.bearer, { apiKey: 'app-r' })).json().token}` };
    expect((await call('GET', '/api/me', designer)).json()).toMatchObject({ role: 'editor', via: 'designer', apiKey: 'app-r', user: { email: editor.email } });
    expect((await call('GET', '/api/session', editor.console)).statusCode).toBe(200);
    const changed = await call('PATCH', `/api/users/${editor.id}`, ADMIN_HEADERS, { role: 'viewer' });
    expect([changed.statusCode, changed.json().role]).toEqual([200, 'viewer']);
    expect((await call('GET', '/api/session', editor.console)).statusCode).toBe(401);
    expect((await call('GET', '/api/apps/app-r/guides', designer)).statusCode).toBe(401);
    const refused = await call('PUT', '/api/apps/app-r/guides/g1', editor.bearer, {});
    expect([refused.statusCode, refused.json().error]).toEqual([403, 'this needs the editor role; you are a viewer']);
    // A name alone changes no role: sessions stay.
    const again = await makeUser(server.app, 'viewer');
    expect((await call('PATCH', `/api/users/${again.id}`, ADMIN_HEADERS, { name: 'Renamed' })).json().name).toBe('Renamed');
    expect((await call('GET', '/api/session', again.console)).statusCode).toBe(200);
  });

  it('removing a user ends their sessions and tokens at once; their email is free again', async () => {
    const viewer = await makeUser(server.app, 'viewer', 'leaver@example.com');
    expect((await call('DELETE', `/api/users/${viewer.id}`)).statusCode).toBe(204);
    expect((await call('GET', '/api/session', viewer.console)).statusCode).toBe(401);
    const token = await call('GET', '/api/apps', viewer.bearer);
    expect([token.statusCode, token.json().error]).toEqual([401, 'the API token is not valid (it may have been revoked)']);
    expect((await call('GET', `/api/users/${viewer.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/users/${viewer.id}`)).statusCode).toBe(404);
    expect((await login('leaver@example.com', TEST_PASSWORD, '10.5.3.1')).statusCode).toBe(401);
    expect((await call('POST', '/api/users', ADMIN_HEADERS, { email: 'LEAVER@example.com', role: 'viewer' })).statusCode).toBe(201);
  });

  it('the last admin can be neither demoted nor removed (409); with two, one can', async () => {
    const fresh = await startTestServer();
    try {
      const first = await makeUser(fresh.app, 'admin');
      const patch = (id: string, headers: Record<string, string>, payload: object) => fresh.app.inject({ method: 'PATCH', url: `/api/users/${id}`, headers, payload });
      const demote = await patch(first.id, ADMIN_HEADERS, { role: 'editor' });
      expect([demote.statusCode, demote.json().error]).toEqual([409, 'this is the last admin: taking away their admin role would leave no admin; make another user admin first']);
      const remove = await fresh.app.inject({ method: 'DELETE', url: `/api/users/${first.id}`, headers: first.bearer });
      expect([remove.statusCode, remove.json().error]).toEqual([409, 'this is the last admin: removing them would leave no admin; make another user admin first']);
      const second = await makeUser(fresh.app, 'admin');
      expect((await patch(second.id, first.bearer, { role: 'viewer' })).statusCode).toBe(200);
      expect((await patch(first.id, first.bearer, { role: 'viewer' })).statusCode).toBe(409);
      expect((await patch(second.id, first.bearer, { role: 'admin' })).statusCode).toBe(200);
      expect((await fresh.app.inject({ method: 'DELETE', url: `/api/users/${first.id}`, headers: first.bearer })).statusCode).toBe(204);
    } finally {
      await fresh.close();
    }
  }, SERVER_TIMEOUT * 2);
});

describe('issue #33 designer sessions carry their author\'s role', () => {
  it('a viewer may not open one (403 naming the role); an editor\'s saves its app\'s guides and nothing else', async () => {
    const viewer = await makeUser(server.app, 'viewer');
    const refused = await call('POST', '/api/designer-sessions', viewer.bearer, { apiKey: 'app-d' });
    expect([refused.statusCode, refused.json().error]).toEqual([403, 'this needs the editor role; you are a viewer']);
    const editor = await makeUser(server.app, 'editor');
    const made = await call('POST', '/api/designer-sessions', editor.console, { apiKey: 'app-d' });
    expect(made.statusCode).toBe(201);
    const designer = { authorization: `Bearer ${made.json().token}` };
    const guide = { id: 'd1', launchMethod: 'api', steps: [{ id: 'd1-1', type: 'lightbox', domJson: { type: 'div', props: {}, children: [] } }] };
    expect((await call('PUT', '/api/apps/app-d/guides/d1', designer, guide)).statusCode).toBe(201);
    expect((await call('PUT', '/api/apps/app-e/guides/d1', designer, guide)).statusCode).toBe(403);
    expect((await call('GET', '/api/users', designer)).json().error).toBe("a designer session may only use its own app's guides, previews, pages and features");
  });

  it('POST /api/designer-login: the author\'s email and password, no cookie; an editor\'s opens a session, a viewer\'s is 403', async () => {
    const editor = await makeUser(server.app, 'editor');
    const viewer = await makeUser(server.app, 'viewer');
    const signIn = (email: string, password: string, remoteAddress = '10.5.9.1') => call('POST', '/api/designer-login', {}, { apiKey: 'app-l', email, password }, remoteAddress);
    const made = await signIn(editor.email, TEST_PASSWORD);
    expect([made.statusCode, made.json().apiKey, made.json().token]).toEqual([201, 'app-l', expect.stringMatching(/^wmd_[\w-]{43}$/)]);
    expect(made.headers['set-cookie']).toBeUndefined();
    const designer = { authorization: `Bearer ${made.json().token}` };
    expect((await call('GET', '/api/me', designer)).json()).toMatchObject({ role: 'editor', via: 'designer', apiKey: 'app-l', user: { id: editor.id } });
    const refused = await signIn(viewer.email, TEST_PASSWORD);
    expect([refused.statusCode, refused.json().error]).toEqual([403, 'this needs the editor role; you are a viewer']);
    const wrong = await signIn(editor.email, 'not the password at all');
    expect([wrong.statusCode, wrong.json().error]).toEqual([401, 'wrong email or password']);
    const noApp = await call('POST', '/api/designer-login', {}, { email: editor.email, password: TEST_PASSWORD });
    expect([noApp.statusCode, noApp.json().field]).toEqual([400, 'apiKey']);
    // Its failures count with the logins': an address past ten waits here too.
    for (let i = 0; i < 10; i++) await signIn('nobody@example.com', `guess ${i} of many`, '10.5.9.9');
    expect((await signIn(editor.email, TEST_PASSWORD, '10.5.9.9')).statusCode).toBe(429);
  });
});

describe('issue #33 invitations end after 7 days (a pinned clock)', () => {
  it('a link used after its 7 days is 410 and says so; one second before, it opens', async () => {
    const databaseUrl = await freshPostgresDatabase();
    const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
    const app = Fastify();
    app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => reply.code(error.statusCode ?? 500).send({ error: error.message }));
    let clock = 1_800_000_000_000;
    try {
      await migrateSchema(db);
      const users = createUserStore(db);
      // Every changing route records itself in the audit trail (issue #33), as createServer wires it.
      registerAuditRoutes(app, createAuditLog(db), () => clock);
      registerAuth(app, { adminToken: TEST_ADMIN_TOKEN, store: createAuthStore(db), users, tokens: createTokenStore(db), now: () => clock });
      await app.ready();
      const invite = async (email: string) =>
        tokenOf((await app.inject({ method: 'POST', url: '/api/users', headers: ADMIN_HEADERS, payload: { email, role: 'editor' } })).json().invitationUrl);
      const late = await invite('late@example.com');
      const onTime = await invite('ontime@example.com');
      clock += INVITATION_TTL_MS - 1000;
      expect((await app.inject({ method: 'POST', url: `/api/invitations/${onTime}`, payload: { password: TEST_PASSWORD } })).statusCode).toBe(204);
      clock += 1000;
      const expired = await app.inject({ method: 'POST', url: `/api/invitations/${late}`, payload: { password: TEST_PASSWORD } });
      expect([expired.statusCode, expired.json().error]).toEqual([410, 'this invitation has expired (invitations last 7 days): ask an admin for a new one']);
      const expiredShown = await app.inject({ method: 'GET', url: `/api/invitations/${late}` });
      expect([expiredShown.statusCode, expiredShown.json().error]).toEqual([410, 'this invitation has expired (invitations last 7 days): ask an admin for a new one']);
      // Kept 30 days past its end so its link says why; then purged, and no such invitation.
      await users.purge(clock + 31 * 24 * 3_600_000);
      expect((await app.inject({ method: 'POST', url: `/api/invitations/${late}`, payload: { password: TEST_PASSWORD } })).statusCode).toBe(404);
    } finally {
      await app.close();
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
