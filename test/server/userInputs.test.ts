/**
 * Issue #33 with an attacker's inputs (issue #31's way, STYLE §9): the user, login, invitation, account and token
 * routes given bodies of the wrong type, fields of odd types, unknown fields, huge and control-character values,
 * and paths with odd or encoded ids. Every answer is a 4xx naming what is wrong, never a 5xx, never a change.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

vi.setConfig({ testTimeout: 60_000 });

let server: TestServer;
let viewer: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  viewer = await makeUser(server.app, 'viewer');
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

type Method = 'POST' | 'PATCH' | 'DELETE' | 'GET';
/** Sends a body as JSON (any JSON value), or as text/plain when given a `text`. */
const send = (method: Method, url: string, body: { json?: unknown; text?: string }, headers: Record<string, string> = ADMIN_HEADERS) =>
  server.app.inject({
    method,
    url,
    headers: { ...headers, 'content-type': body.text !== undefined ? 'text/plain' : 'application/json' },
    payload: body.text ?? JSON.stringify(body.json),
  });

const BODIES_NOT_OBJECTS = [{ json: [] }, { json: null }, { json: 'text' }, { json: 42 }, { json: true }, { text: 'email=a@b.c' }];

describe('issue #33 inputs an attacker sends', () => {
  it('bodies that are not JSON objects: 400 on every route that reads one', async () => {
    const admin = await makeUser(server.app, 'admin');
    const routes: Array<[Method, string, Record<string, string>]> = [
      ['POST', '/api/users', ADMIN_HEADERS],
      ['PATCH', `/api/users/${viewer.id}`, ADMIN_HEADERS],
      ['POST', '/api/invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', {}],
      ['PATCH', '/api/me', admin.bearer],
      ['POST', '/api/me/tokens', admin.bearer],
      ['POST', '/api/login', {}],
    ];
    for (const [method, url, headers] of routes) {
      for (const body of BODIES_NOT_OBJECTS) {
        const answer = await send(method, url, body, headers);
        expect(answer.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
        expect(typeof answer.json().error).toBe('string');
      }
    }
  });

  it('POST /api/users: each field of the wrong type, size or spelling is a 400 naming it; nothing is made', async () => {
    const good = { email: 'odd@example.com', role: 'viewer' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, email: ['odd@example.com'] }, 'email'],
      [{ ...good, email: { toString: 'x' } }, 'email'],
      [{ ...good, email: 7 }, 'email'],
      [{ ...good, email: `${'a'.repeat(250)}@example.com` }, 'email'],
      [{ ...good, email: `${'a'.repeat(100_000)}@example.com` }, 'email'],
      [{ ...good, email: 'two words@example.com' }, 'email'],
      [{ ...good, email: 'line\n@example.com' }, 'email'],
      [{ ...good, email: 'nul\u0000@example.com' }, 'email'],
      [{ ...good, email: 'a@b@example.com' }, 'email'],
      [{ ...good, email: '@example.com' }, 'email'],
      [{ ...good, email: '' }, 'email'],
      [{ ...good, email: '<script>@example.com' }, 'email'],
      [{ ...good, email: '"quoted"@example.com' }, 'email'],
      [{ ...good, email: 'a@example.com,b@example.com' }, 'email'],
      [{ ...good, role: 'Admin' }, 'role'],
      [{ ...good, role: 'owner' }, 'role'],
      [{ ...good, role: ['admin'] }, 'role'],
      [{ ...good, role: null }, 'role'],
      [{ email: 'odd@example.com' }, 'role'],
      [{ ...good, name: 'n'.repeat(101) }, 'name'],
      [{ ...good, name: 'n'.repeat(1_000_000) }, 'name'],
      [{ ...good, name: 'new\nline' }, 'name'],
      [{ ...good, name: 'bell\u0007' }, 'name'],
      [{ ...good, name: 12 }, 'name'],
      [{ ...good, password: 'x'.repeat(1025) }, 'password'],
      [{ ...good, password: 'x'.repeat(500_000) }, 'password'],
      [{ ...good, password: 123456789012345 }, 'password'],
      [{ ...good, password: 'short' }, 'password'],
      [{ ...good, password: `${'x'.repeat(12)}\uDC00` }, 'password'],
      [{ ...good, isAdmin: true }, 'isAdmin'],
      [{ ...good, id: '00000000-0000-0000-0000-000000000000' }, 'id'],
    ];
    for (const [body, field] of cases) {
      const answer = await send('POST', '/api/users', { json: body });
      expect([answer.statusCode, answer.json().field], JSON.stringify(body).slice(0, 80)).toEqual([400, field]);
    }
    // A JSON __proto__ key is refused by the parser itself.
    const polluted = await server.app.inject({ method: 'POST', url: '/api/users', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, payload: '{"email":"p@example.com","role":"viewer","__proto__":{"role":"admin"}}' });
    expect(polluted.statusCode).toBe(400);
    const listed = (await server.app.inject({ method: 'GET', url: '/api/users', headers: ADMIN_HEADERS })).json().users.map((u: { email: string }) => u.email);
    expect(listed.filter((email: string) => /odd@|p@example/.test(email))).toEqual([]);
  });

  it('login, invitation, account and token fields of odd types or sizes are 400s naming the field', async () => {
    const cases: Array<[Method, string, unknown, string, Record<string, string>?]> = [
      ['POST', '/api/login', { email: ['a@b.c'], password: 'x'.repeat(12) }, 'email'],
      ['POST', '/api/login', { email: 'a@b.c' }, 'password'],
      ['POST', '/api/login', { email: 'a@b.c', password: { length: 12 } }, 'password'],
      ['POST', '/api/login', { password: 'x'.repeat(12) }, 'email'],
      ['POST', '/api/login', { email: 'a@b.c', password: 'x'.repeat(12), token: 'y' }, 'token'],
      ['POST', '/api/invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { password: 'x'.repeat(12), role: 'admin' }, 'role'],
      ['POST', '/api/invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { password: 'x'.repeat(12), name: 'n'.repeat(5000) }, 'name'],
      ['PATCH', '/api/me', { role: 'admin' }, 'role', viewer.bearer],
      ['PATCH', '/api/me', { email: 'new@example.com' }, 'email', viewer.bearer],
      ['PATCH', '/api/me', { name: ['x'] }, 'name', viewer.bearer],
      ['PATCH', '/api/me', { password: 'a good long password', currentPassword: 'x'.repeat(100_000) }, 'currentPassword', viewer.bearer],
      ['PATCH', '/api/me', { currentPassword: 'whatever it was' }, 'currentPassword', viewer.bearer],
      ['POST', '/api/me/tokens', {}, 'name', viewer.bearer],
      ['POST', '/api/me/tokens', { name: '' }, 'name', viewer.bearer],
      ['POST', '/api/me/tokens', { name: '   ' }, 'name', viewer.bearer],
      ['POST', '/api/me/tokens', { name: 't'.repeat(101) }, 'name', viewer.bearer],
      ['POST', '/api/me/tokens', { name: 'tab\there' }, 'name', viewer.bearer],
      ['POST', '/api/me/tokens', { name: 5 }, 'name', viewer.bearer],
      ['PATCH', `/api/users/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`, { role: 'superuser' }, 'role'],
      ['PATCH', `/api/users/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`, { password: 'a good long password' }, 'password'],
    ];
    for (const [method, url, body, field, headers] of cases) {
      const answer = await send(method, url, { json: body }, headers ?? ADMIN_HEADERS);
      expect([answer.statusCode, answer.json().field], `${method} ${url} ${JSON.stringify(body).slice(0, 60)}`).toEqual([400, field]);
    }
  });

  it('odd and encoded ids in paths: a 4xx, no 5xx, no other user touched', async () => {
    const ids = ['x', '..', '%2e%2e', '..%2Fusers', '%00', '%ED%A0%80', 'a'.repeat(99), `${viewer.id}%20`, viewer.id.toUpperCase(), `${viewer.id}/`, `${viewer.id};x=1`];
    for (const id of ids) {
      for (const [method, url] of [['GET', `/api/users/${id}`], ['PATCH', `/api/users/${id}`], ['DELETE', `/api/users/${id}`], ['POST', `/api/users/${id}/invitation`], ['DELETE', `/api/me/tokens/${id}`], ['POST', `/api/invitations/${id}`]] as const) {
        const answer = await server.app.inject({ method, url, headers: url.startsWith('/api/me') ? viewer.bearer : ADMIN_HEADERS, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: { password: 'a good long password' } }) });
        expect(answer.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(answer.statusCode, `${method} ${url}`).toBeLessThan(500);
      }
    }
    expect((await server.app.inject({ method: 'GET', url: '/api/session', headers: viewer.bearer })).statusCode).toBe(200);
  });

  it('a viewer reaching an admin route by an encoded path still meets the guard: 403', async () => {
    for (const url of ['/api/%75sers', '/%61pi/users', '/%61%70%69/%75%73%65%72%73', `/api/users/${viewer.id}`, `/api/users/${encodeURIComponent(viewer.id)}`]) {
      const answer = await server.app.inject({ method: 'GET', url, headers: viewer.bearer });
      expect([answer.statusCode, answer.json().error], url).toEqual([403, 'this needs the admin role; you are a viewer']);
    }
    // Other spellings: the guard of whatever route the router chose (403), or no route (404); never the list.
    for (const url of ['/api/users/', '/api//users', '/API/users', '/api/users%2F', '/api/users/%2e%2e', '/api/me/../users']) {
      const answer = await server.app.inject({ method: 'GET', url, headers: viewer.bearer });
      expect([403, 404], `${url} -> ${answer.statusCode}`).toContain(answer.statusCode);
      expect(answer.body).not.toContain('"users"');
    }
  });
});
