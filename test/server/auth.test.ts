import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listRoutes, SESSION_COOKIE } from '../../server/auth/registerAuth';
import { readCookie } from '../../server/auth/requestCredentials';
import { loginWaitMs } from '../../server/auth/registerLoginRoutes';
import { resolveAdminToken } from '../../server/auth/resolveAdminToken';
import { tokenEquals } from '../../server/auth/tokenEquals';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const login = (token: unknown, remoteAddress = '10.0.0.1') =>
  server.app.inject({ method: 'POST', url: '/api/login', payload: { token }, remoteAddress });
const sessionCookie = (response: { headers: Record<string, unknown> }) => readCookie(String(response.headers['set-cookie']), SESSION_COOKIE);

describe('issue #14 access: every /api route needs the admin token', () => {
  it('answers 401 JSON for every /api route the server registered, except /api/health, the logins, an invitation and SSO', async () => {
    const routes = listRoutes(server.app).filter((r) => r.url.startsWith('/api'));
    expect(routes.length).toBeGreaterThanOrEqual(5);
    // The only /api routes open to anyone.
    expect(routes.filter((r) => r.access === 'open').map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/health',
      'GET /api/invitations/:token',
      'GET /api/login-options',
      'GET /api/sso/callback',
      'GET /api/sso/start',
      'POST /api/designer-login',
      'POST /api/invitations/:token',
      'POST /api/login',
    ]);
    for (const { method, url, access } of routes) {
      const path = url.replace(/:(\w+)\??/g, 'x').replace('*', 'x');
      const response = await server.app.inject({ method: method as 'GET', url: path });
      if (access === 'open') {
        expect(response.statusCode, `${method} ${url}`).not.toBe(401);
      } else {
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expect(response.json().error, `${method} ${url}`).toMatch(/authentication required/);
      }
    }
    const names = routes.map((r) => `${r.method} ${r.url}`);
    expect(names).toContain('GET /api/events');
    expect(names).toContain('GET /api/logs');
    expect(names).toContain('PUT /api/apps/:apiKey/guides/:guideId');
    expect(names).toContain('PUT /api/apps/:apiKey/settings');
  });

  it('an unknown /api path is 401 without the token (no hint of what exists), 404 with it', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/nothing' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/nothing', headers: ADMIN_HEADERS })).statusCode).toBe(404);
  });

  it('a wrong bearer token is 401; the right one reads; /data stays open', async () => {
    const wrong = await server.app.inject({ method: 'GET', url: '/api/events?apiKey=k', headers: { authorization: 'Bearer nope' } });
    expect([wrong.statusCode, wrong.json().error]).toEqual([401, 'the admin token is not valid']);
    expect((await server.app.inject({ method: 'GET', url: '/api/events?apiKey=k', headers: ADMIN_HEADERS })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
    expect((await server.app.inject({ method: 'GET', url: '/data/ptm.gif/k?jzb=eJyLjgUAARUAuQ' })).statusCode).toBe(200);
  });
});

describe('issue #15 access: designer sessions for a designer on another origin', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    server.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('the admin trades the token for one app\'s session: its guides and previews, nothing else', async () => {
    expect((await server.app.inject({ method: 'POST', url: '/api/designer-sessions', payload: { apiKey: 'app-a' } })).statusCode).toBe(401);
    const missing = await server.app.inject({ method: 'POST', url: '/api/designer-sessions', headers: ADMIN_HEADERS, payload: {} });
    expect([missing.statusCode, missing.json().error]).toEqual([400, 'apiKey is required: { "apiKey": "..." }']);
    const issued = await server.app.inject({ method: 'POST', url: '/api/designer-sessions', headers: ADMIN_HEADERS, payload: { apiKey: 'app-a' } });
    expect(issued.statusCode).toBe(201);
    const { token, apiKey, expiresAt } = issued.json();
    expect(token).toMatch(/^wmd_[\w-]{43}$/);
    expect(apiKey).toBe('app-a');
    expect(expiresAt - Date.now()).toBeGreaterThan(11.9 * 3600_000);

    expect((await call('GET', '/api/session', token)).json()).toEqual({ authenticated: true });
    expect((await call('GET', '/api/apps/app-a/guides', token)).statusCode).toBe(200);
    const guide = { id: 'd1', launchMethod: 'api', steps: [{ id: 'd1-1', type: 'lightbox', domJson: { type: 'div', props: {}, children: [] } }] };
    expect((await call('PUT', '/api/apps/app-a/guides/d1', token, guide)).statusCode).toBe(201);
    expect((await call('POST', '/api/apps/app-a/guides/d1/state', token, { state: 'public' })).statusCode).toBe(200);
    expect((await call('GET', '/api/s/app-a/guide/d1/preview?apiKey=app-a&url=http%3A%2F%2Fh%2F', token)).statusCode).toBe(200);
    // The app's guide theme, which the designer draws its live step in: read, never written.
    expect((await call('GET', '/api/apps/app-a/settings/theme', token)).json()).toEqual({});
    // The analytics, the settings, minting more sessions: refused.
    for (const [method, url] of [['GET', '/api/events?apiKey=app-a'], ['PUT', '/api/apps/app-a/settings'], ['GET', '/api/apps/app-a/settings'], ['POST', '/api/designer-sessions'], ['GET', '/api/apps/app-a/guides/d1/stats']] as const) {
      const refused = await call(method, url, token, method === 'GET' ? undefined : { apiKey: 'app-a' });
      expect([refused.statusCode, refused.json().error], `${method} ${url}`).toEqual([403, "a designer session may only use its own app's guides, previews, pages and features"]);
    }
    // Another app, by its path or by ?apiKey (issue #31: the preview took the app from the query alone).
    const other = 'this designer session is for the app "app-a", not "app-b"';
    for (const [method, url] of [['GET', '/api/apps/app-b/guides'], ['GET', '/api/apps/app-b/guides/d1'], ['PUT', '/api/apps/app-b/guides/d1'], ['DELETE', '/api/apps/app-b/guides/d1'], ['GET', '/api/apps/app-b/settings/theme'], ['GET', '/api/s/app-a/guide/d1/preview?apiKey=app-b'], ['GET', '/api/s/app-b/resourcecenter/d1/preview?apiKey=app-b'], ['GET', '/api/s/app-a/guide/d1/preview?apiKey=app-a&apiKey=app-b'], ['GET', '/api/apps/app-a/guides?apiKey=app-b'], ['GET', '/api/apps/app-%62/guides']] as const) {
      const refused = await call(method, url, token, method === 'PUT' ? guide : undefined);
      expect([refused.statusCode, refused.json().error], `${method} ${url}`).toEqual([403, other]);
    }
    // Signing out ends it.
    expect((await call('DELETE', '/api/designer-sessions/current', token)).statusCode).toBe(204);
    const ended = await call('GET', '/api/session', token);
    expect([ended.statusCode, ended.json().error]).toEqual([401, 'the designer session is not valid (it may have expired): sign in again']);
  });

  it('answers the preflight of a cross-origin designer call: its headers and methods, any origin, no credentials', async () => {
    const preflight = await server.app.inject({ method: 'OPTIONS', url: '/api/apps/app-a/guides/d1', headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type, x-waymark-console' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
    expect(String(preflight.headers['access-control-allow-headers'])).toBe('authorization, content-type, x-waymark-console');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('issue #14 access: the console session', () => {
  it('login with a wrong token is 401; the right one sets an HttpOnly SameSite=Strict cookie that reads /api; logout ends it', async () => {
    expect((await login('wrong-token', '10.0.0.2')).statusCode).toBe(401);
    expect((await login(undefined, '10.0.0.2')).statusCode).toBe(400);
    const ok = await login(TEST_ADMIN_TOKEN, '10.0.0.2');
    expect(ok.statusCode).toBe(204);
    expect(String(ok.headers['set-cookie'])).toMatch(/^waymark_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/);
    const cookie = `${SESSION_COOKIE}=${sessionCookie(ok)}`;
    expect((await server.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).json()).toEqual({ authenticated: true });
    const out = await server.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, 'x-waymark-console': '1' } });
    expect(out.statusCode).toBe(204);
    expect((await server.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(401);
  });

  it('refuses cookie mutations without the console header or from another origin (403); a bearer mutation needs neither', async () => {
    const cookie = `${SESSION_COOKIE}=${sessionCookie(await login(TEST_ADMIN_TOKEN, '10.0.0.3'))}`;
    const noHeader = await server.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(noHeader.statusCode).toBe(403);
    const foreign = await server.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, 'x-waymark-console': '1', origin: 'https://evil.example', host: 'localhost:80' } });
    expect(foreign.statusCode).toBe(403);
    expect((await server.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'POST', url: '/api/logout', headers: ADMIN_HEADERS })).statusCode).toBe(204);
  });

  it('rate-limits wrong tokens per address: the 11th attempt within a minute is 429 with Retry-After, other addresses unaffected', async () => {
    for (let i = 0; i < 10; i++) expect((await login(`wrong-${i}`, '10.0.0.9')).statusCode).toBe(401);
    const limited = await login(TEST_ADMIN_TOKEN, '10.0.0.9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/^too many attempts: try again in \d+ s$/);
    expect((await login(TEST_ADMIN_TOKEN, '10.0.0.10')).statusCode).toBe(204);
  });
});

describe('issue #14 access: the pieces', () => {
  it('the limiter lets attempts through again once the oldest failure is a minute old', () => {
    expect(loginWaitMs({ count: 3, first: 0 }, 30, 3, 60_000)).toBe(59_970);
    expect(loginWaitMs({ count: 2, first: 0 }, 30, 3, 60_000)).toBe(0);
    expect(loginWaitMs({ count: 3, first: 0 }, 60_000, 3, 60_000)).toBe(0);
    expect(loginWaitMs({ count: 0 }, 60_001, 3, 60_000)).toBe(0);
  });

  it('compares tokens whatever their lengths', () => {
    expect(tokenEquals('same-token-value', 'same-token-value')).toBe(true);
    expect(tokenEquals('short', 'same-token-value')).toBe(false);
    expect(tokenEquals('', 'same-token-value')).toBe(false);
  });

  it('generates the token once into the data folder (mode 0600) and reads it back; refuses a short configured one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-token-'));
    try {
      const first = resolveAdminToken(undefined, dir);
      expect(first.source).toBe('generated');
      expect(first.token).toMatch(/^[\w-]{32}$/);
      expect(readFileSync(join(dir, 'admin-token'), 'utf8').trim()).toBe(first.token);
      expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
      expect(resolveAdminToken(undefined, dir)).toEqual({ token: first.token, source: 'file', file: join(dir, 'admin-token') });
      expect(resolveAdminToken('a-configured-token-123', dir)).toEqual({ token: 'a-configured-token-123', source: 'env' });
      expect(() => resolveAdminToken('short', dir)).toThrow('WAYMARK_ADMIN_TOKEN must be at least 16 characters');
      expect(resolveAdminToken(undefined, undefined).source).toBe('generated');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('issue #31 sign-in state in the database', () => {
  it('a restart signs no one out: the login and a designer session still read after the server is started again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'waymark-restart-'));
    try {
      const before = await startTestServer({}, { dataDir });
      const ok = await before.app.inject({ method: 'POST', url: '/api/login', payload: { token: TEST_ADMIN_TOKEN } });
      const cookie = `${SESSION_COOKIE}=${sessionCookie(ok)}`;
      const designer = (await before.app.inject({ method: 'POST', url: '/api/designer-sessions', headers: ADMIN_HEADERS, payload: { apiKey: 'app-r' } })).json().token;
      await before.app.close();
      const after = await startTestServer({}, { dataDir, ...(before.databaseUrl ? { databaseUrl: before.databaseUrl } : {}) });
      try {
        expect((await after.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(200);
        expect((await after.app.inject({ method: 'GET', url: '/api/apps/app-r/guides', headers: { authorization: `Bearer ${designer}` } })).statusCode).toBe(200);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, SERVER_TIMEOUT * 2);

  it('an expired session reads no more, and the purge deletes it', async () => {
    const { createAuthStore } = await import('../../server/auth/createAuthStore');
    const { openDatabase } = await import('../../server/storage/openDatabase');
    const { migrateSchema } = await import('../../server/storage/migrations/MIGRATIONS');
    const db = await openDatabase({ dataDir: 'memory://', memoryTemplate: await pgliteTemplate() });
    try {
      await migrateSchema(db);
      const store = createAuthStore(db);
      const { token } = await store.open('console', 1000, 5_000);
      expect(await store.find(token, 5_999)).toEqual({ kind: 'console', expiresAt: 6_000 });
      expect(await store.find(token, 6_000)).toBeUndefined();
      await store.failed('10.0.0.1', 100);
      await store.purge(6_000, 200);
      expect((await db.query('select count(*)::int as n from auth_sessions')).rows[0]).toEqual({ n: 0 });
      expect(await store.failures('10.0.0.1', 0)).toEqual({ count: 0 });
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
