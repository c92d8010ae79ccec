/**
 * Issue #33 "People and roles": every /api route declares the role it needs, and every role is tried against every
 * route, on PGlite (vitest.config.ts) and on the real PostgreSQL (vitest.postgres.config.ts runs this file too).
 * The route list is the server's own (listRoutes), compared with the table below: a route added without a rule,
 * or with another rule than the table's, fails here until the table says what it should be.
 *
 * Callers: the admin token; an admin, an editor and a viewer, each by a personal API token; the viewer by the
 * console's cookie too; designer sessions (of the app `x`) opened by the editor and by the admin token. A caller
 * whose role falls short is answered 403 naming the role; one whose role suffices is never answered by the guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes } from '../../server/auth/registerAuth';
import { roleRefusal, type Role } from '../../server/auth/roles';
import { makeUser } from './users';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

/** Every /api route and what it needs: `open`, a role, `+designer` when a designer session of its app may call it. */
const EXPECTED: Record<string, string> = {
  'POST /api/login': 'open',
  'POST /api/invitations/:token': 'open',
  'GET /api/invitations/:token': 'open',
  'GET /api/health': 'open',
  'POST /api/logout': 'viewer',
  'GET /api/session': 'viewer+designer',
  'POST /api/designer-sessions': 'editor',
  'POST /api/designer-login': 'open',
  'GET /api/login-options': 'open',
  'GET /api/sso/start': 'open',
  'GET /api/sso/callback': 'open',
  'DELETE /api/designer-sessions/current': 'viewer+designer',
  'POST /api/users': 'admin',
  'GET /api/users': 'admin',
  'GET /api/users/:id': 'admin',
  'PATCH /api/users/:id': 'admin',
  'DELETE /api/users/:id': 'admin',
  'POST /api/users/:id/invitation': 'admin',
  'GET /api/me': 'viewer+designer',
  'PATCH /api/me': 'viewer',
  'POST /api/me/tokens': 'viewer',
  'GET /api/me/tokens': 'viewer',
  'DELETE /api/me/tokens/:id': 'viewer',
  'GET /api/events': 'viewer',
  'GET /api/apps/:apiKey/guides': 'viewer+designer',
  'GET /api/apps/:apiKey/guides/:guideId': 'viewer+designer',
  'PUT /api/apps/:apiKey/guides/:guideId': 'editor+designer',
  'POST /api/apps/:apiKey/guides/:guideId/state': 'editor+designer',
  'POST /api/apps/:apiKey/guides/:guideId/duplicate': 'editor+designer',
  'DELETE /api/apps/:apiKey/guides/:guideId': 'editor+designer',
  'GET /api/s/:subscriptionId/guide/:guideId/preview': 'editor+designer',
  'GET /api/s/:subscriptionId/resourcecenter/:guideId/preview': 'editor+designer',
  'GET /api/apps/:apiKey/settings': 'editor',
  'GET /api/apps/:apiKey/settings/theme': 'viewer+designer',
  'PUT /api/apps/:apiKey/settings/theme': 'editor',
  'PUT /api/apps/:apiKey/settings': 'admin',
  'POST /api/apps': 'admin',
  'GET /api/apps/:apiKey/recordings': 'viewer',
  'GET /api/apps/:apiKey/recordings/:id': 'viewer',
  'GET /api/logs': 'viewer',
  'GET /api/apps/:apiKey/health': 'viewer',
  'GET /api/apps': 'viewer',
  'GET /api/apps/:apiKey/overview': 'viewer',
  'GET /api/apps/:apiKey/events': 'viewer',
  'GET /api/apps/:apiKey/events.csv': 'viewer',
  'GET /api/apps/:apiKey/events/:id': 'viewer',
  'GET /api/apps/:apiKey/visitors': 'viewer',
  'GET /api/apps/:apiKey/visitors/:visitorId': 'viewer',
  'GET /api/apps/:apiKey/visitors/:visitorId/guides': 'viewer',
  'GET /api/apps/:apiKey/accounts': 'viewer',
  'GET /api/apps/:apiKey/accounts/:accountId': 'viewer',
  'GET /api/apps/:apiKey/guides/:guideId/stats': 'viewer',
  'GET /api/audit': 'admin',
  'GET /api/audit.csv': 'admin',
  'GET /api/apps/:apiKey/guides/:guideId/versions': 'viewer',
  'GET /api/apps/:apiKey/guides/:guideId/versions/:version': 'viewer',
  'GET /api/apps/:apiKey/guides/:guideId/versions/:version/diff/:other': 'viewer',
  'POST /api/apps/:apiKey/guides/:guideId/versions/:version/restore': 'editor',
  'GET /api/apps/:apiKey/features': 'viewer',
  'POST /api/apps/:apiKey/features': 'editor+designer',
  'GET /api/apps/:apiKey/features/:id': 'viewer',
  'PATCH /api/apps/:apiKey/features/:id': 'editor',
  'DELETE /api/apps/:apiKey/features/:id': 'editor',
  'GET /api/apps/:apiKey/pages': 'viewer+designer',
  'POST /api/apps/:apiKey/pages': 'editor+designer',
  'GET /api/apps/:apiKey/pages/:id': 'viewer',
  'PATCH /api/apps/:apiKey/pages/:id': 'editor',
  'DELETE /api/apps/:apiKey/pages/:id': 'editor',
  'POST /api/apps/:apiKey/designer/feature-preview': 'viewer+designer',
  'POST /api/apps/:apiKey/funnels': 'viewer',
  'GET /api/apps/:apiKey/guides/:guideId/experiment': 'viewer',
  'GET /api/apps/:apiKey/segments': 'viewer',
  'POST /api/apps/:apiKey/segments': 'editor',
  'GET /api/apps/:apiKey/segments/:id': 'viewer',
  'GET /api/apps/:apiKey/segments/:id/members': 'viewer',
  'PATCH /api/apps/:apiKey/segments/:id': 'editor',
  'DELETE /api/apps/:apiKey/segments/:id': 'editor',
  'POST /api/apps/:apiKey/paths': 'viewer',
  'POST /api/apps/:apiKey/retention': 'viewer',
};

/** Routes that end the caller's own session: called last, so the others see it alive. */
const LAST = ['DELETE /api/designer-sessions/current', 'POST /api/logout'];
/** Where a route goes in a caller's sweep: the rest first, then a designer session's DELETE or a console's logout. */
const rank = (route: { method: string; url: string }, designer = false) => {
  const last = LAST.indexOf(`${route.method} ${route.url}`);
  return last < 0 ? 0 : designer ? 2 - last : 1 + last;
};
/** The refusals of the guard itself (a handler's own 403, such as the admin token's lack of an account, is not one). */
const GUARD_REFUSAL = /^(this needs the \w+ role; you are an? \w+$|a designer session may only|this designer session is for|authentication required|cross-site request refused|the (admin token|API token|designer session) is not valid)/;

interface Who {
  name: string;
  role: Role;
  headers: Record<string, string>;
  designer?: boolean;
}

let server: TestServer;
let callers: Who[];
beforeAll(async () => {
  server = await startTestServer();
  const [admin, editor, viewer] = [await makeUser(server.app, 'admin'), await makeUser(server.app, 'editor'), await makeUser(server.app, 'viewer')];
  const designerOf = async (headers: Record<string, string>) => {
    const made = await server.app.inject({ method: 'POST', url: '/api/designer-sessions', headers, payload: { apiKey: 'x' } });
    expect(made.statusCode).toBe(201);
    return { authorization: `Bearer ${made.json().token}` };
  };
  callers = [
    { name: 'the admin token', role: 'admin', headers: ADMIN_HEADERS },
    { name: "an admin's token", role: 'admin', headers: admin.bearer },
    { name: "an editor's token", role: 'editor', headers: editor.bearer },
    { name: "a viewer's token", role: 'viewer', headers: viewer.bearer },
    { name: "a viewer's console login", role: 'viewer', headers: viewer.console },
    { name: "an editor's designer session", role: 'editor', headers: await designerOf(editor.bearer), designer: true },
    { name: "the admin token's designer session", role: 'admin', headers: await designerOf(ADMIN_HEADERS), designer: true },
  ];
}, SERVER_TIMEOUT * 2);
afterAll(() => server?.close(), SERVER_TIMEOUT);

const apiRoutes = () => listRoutes(server.app).filter((r) => r.url === '/api' || r.url.startsWith('/api/'));

describe('issue #33 roles on every route', () => {
  it('every /api route declares its access, and it is the one the table gives', () => {
    const routes = apiRoutes();
    expect(routes.filter((r) => !r.declared).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const declared = Object.fromEntries(routes.map((r) => [`${r.method} ${r.url}`, r.access + (r.designer ? '+designer' : '')]));
    expect(declared).toEqual(EXPECTED);
  });

  it('every caller against every route: 403 naming the role when it falls short, past the guard when it suffices', async () => {
    const guarded = apiRoutes().filter((r) => r.access !== 'open');
    const wrong: string[] = [];
    for (const who of callers) {
      // What ends the caller's own session comes last: a designer session's DELETE, a console login's logout.
      const routes = [...guarded].sort((a, b) => rank(a, who.designer) - rank(b, who.designer));
      for (const { method, url, access, designer } of routes) {
        const path = url.replace(/:(\w+)\??/g, 'x');
        const response = await server.app.inject({ method: method as 'GET', url: path, headers: who.headers, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
        const error = response.headers['content-type']?.toString().startsWith('application/json') ? String(response.json().error ?? '') : '';
        const where = `${who.name}: ${method} ${url} -> ${response.statusCode} ${error}`;
        if (who.designer && !designer) {
          if (response.statusCode !== 403 || !error.startsWith('a designer session may only')) wrong.push(where);
        } else if (access !== 'open' && !hasAtLeast(who.role, access)) {
          if (response.statusCode !== 403 || error !== roleRefusal(access, who.role)) wrong.push(where);
        } else if (response.statusCode === 401 || GUARD_REFUSAL.test(error)) {
          // Recordings: a viewer is refused by the app's setting (below), not by the guard.
          if (!(url.includes('/recordings') && who.role === 'viewer' && /viewersSeeRecordings/.test(error))) wrong.push(where);
        } else if (response.statusCode >= 500) {
          wrong.push(where);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('a refusal names the role needed and the one held', async () => {
    const viewer = callers.find((c) => c.name === "a viewer's token")!;
    const editor = callers.find((c) => c.name === "an editor's token")!;
    const put = await server.app.inject({ method: 'PUT', url: '/api/apps/x/guides/g', headers: viewer.headers, payload: {} });
    expect([put.statusCode, put.json()]).toEqual([403, { error: 'this needs the editor role; you are a viewer' }]);
    const users = await server.app.inject({ method: 'GET', url: '/api/users', headers: editor.headers });
    expect([users.statusCode, users.json()]).toEqual([403, { error: 'this needs the admin role; you are an editor' }]);
  });
});

describe('issue #33 what each role may do with an app\'s settings and recordings', () => {
  const by = (name: string) => callers.find((c) => c.name === name)!.headers;
  const call = (method: 'GET' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('recordings: editors read them; viewers only once the admin sets recording.viewersSeeRecordings', async () => {
    const viewer = by("a viewer's token");
    expect((await call('GET', '/api/apps/rec-app/recordings', by("an editor's token"))).statusCode).toBe(200);
    const refused = await call('GET', '/api/apps/rec-app/recordings', viewer);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      "this needs the editor role; you are a viewer, and this app's admin has not let viewers see recordings (settings: recording.viewersSeeRecordings)",
    ]);
    expect((await call('GET', '/api/apps/rec-app/recordings/r1', viewer)).statusCode).toBe(403);
    const settings = { recording: { enabled: true, sampleRate: 1, viewersSeeRecordings: true } };
    expect((await call('PUT', '/api/apps/rec-app/settings', by("an editor's token"), settings)).statusCode).toBe(403);
    expect((await call('PUT', '/api/apps/rec-app/settings', by("an admin's token"), settings)).statusCode).toBe(200);
    expect((await call('GET', '/api/apps/rec-app/recordings', viewer)).statusCode).toBe(200);
    expect((await call('GET', '/api/apps/rec-app/recordings/r1', viewer)).statusCode).toBe(404);
    // Another app keeps its own setting; the agent's recording.json never shows this one.
    expect((await call('GET', '/api/apps/other-app/recordings', viewer)).statusCode).toBe(403);
    expect((await server.app.inject({ method: 'GET', url: '/data/recording.json/rec-app' })).json()).toEqual({ enabled: true, sampleRate: 1 });
    const bad = await call('PUT', '/api/apps/rec-app/settings', ADMIN_HEADERS, { recording: { enabled: true, viewersSeeRecordings: 'yes' } });
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'recording.viewersSeeRecordings']);
  });

  it('the theme is an editor\'s (PUT .../settings/theme), the rest of the settings an admin\'s; viewers read the theme only', async () => {
    const theme = { accent: '#0055aa', radius: 6 };
    const viewer = by("a viewer's token");
    expect((await call('PUT', '/api/apps/theme-app/settings/theme', viewer, theme)).json().error).toBe('this needs the editor role; you are a viewer');
    const saved = await call('PUT', '/api/apps/theme-app/settings/theme', by("an editor's token"), theme);
    expect([saved.statusCode, saved.json()]).toEqual([200, theme]);
    expect((await call('GET', '/api/apps/theme-app/settings/theme', viewer)).json()).toEqual(theme);
    expect((await call('GET', '/api/apps/theme-app/settings', viewer)).statusCode).toBe(403);
    expect((await call('GET', '/api/apps/theme-app/settings', by("an editor's token"))).json().theme).toEqual(theme);
    const bad = await call('PUT', '/api/apps/theme-app/settings/theme', by("an editor's token"), { accent: 'url(javascript:x)' });
    expect(bad.statusCode).toBe(400);
  });
});

function hasAtLeast(held: Role, needed: Role): boolean {
  const order: Role[] = ['viewer', 'editor', 'admin'];
  return order.indexOf(held) >= order.indexOf(needed);
}
