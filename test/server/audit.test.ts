/**
 * The audit trail (issue #33, docs/users-and-roles.md "Audit trail"): each change through the API is recorded once it
 * succeeded, with its actor (the admin token, a user's console session, a personal token), address, app, target
 * and before/after; sign-ins and refused sign-ins without the password; only admins read it; filters and paging;
 * CSV with formula-injection defused; no route and no SQL can change or delete an entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes } from '../../server/auth/registerAuth';
import { csvField } from '../../server/audit/auditCsv';
import { createAuditLog } from '../../server/audit/createAuditLog';
import { openDatabase } from '../../server/storage/openDatabase';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';
import { makeUser, TEST_PASSWORD, type TestUser } from './users';
import { pgliteTemplate } from './pgliteTemplate';

let server: TestServer;
let editor: TestUser;
let viewer: TestUser;

const guide = (text: string) => ({ id: 'welcome', name: 'Welcome', launchMethod: 'auto', steps: [{ id: 's1', type: 'lightbox', markdown: text }] });
type Entry = { id: number; action: string; actor: Record<string, string>; address: string; apiKey?: string; target?: string; before?: any; after?: any };
const audit = async (query = '', headers: Record<string, string> = ADMIN_HEADERS) => {
  const response = await server.app.inject({ method: 'GET', url: `/api/audit${query}`, headers });
  return { status: response.statusCode, body: response.json() as { entries: Entry[]; next?: number; error?: string; field?: string } };
};

beforeAll(async () => {
  server = await startTestServer({});
  editor = await makeUser(server.app, 'editor');
  viewer = await makeUser(server.app, 'viewer');
}, SERVER_TIMEOUT * 3);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('audit trail: who did what, before and after', () => {
  it('a guide saved by the admin token, then changed by an editor\'s token, published and deleted by the editor\'s console session', async () => {
    const put = (payload: object, headers: Record<string, string>) =>
      server.app.inject({ method: 'PUT', url: '/api/apps/audit-app/guides/welcome', headers, payload, remoteAddress: '203.0.113.9' });
    expect((await put(guide('Hello'), ADMIN_HEADERS)).statusCode).toBe(201);
    expect((await put(guide('Hello there'), editor.bearer)).statusCode).toBe(200);
    const publish = await server.app.inject({ method: 'POST', url: '/api/apps/audit-app/guides/welcome/state', headers: editor.console, payload: { state: 'public' } });
    expect(publish.statusCode).toBe(200);
    const remove = await server.app.inject({ method: 'DELETE', url: '/api/apps/audit-app/guides/welcome', headers: editor.console });
    expect(remove.statusCode).toBe(204);

    const { body } = await audit('?apiKey=audit-app');
    const [deleted, published, changed, saved] = body.entries;
    expect(saved).toMatchObject({ action: 'guide.saved', actor: { kind: 'admin token' }, address: '203.0.113.9', target: 'welcome', after: { version: 1, state: 'draft' } });
    expect(saved!.before).toBeUndefined();
    expect(changed).toMatchObject({
      action: 'guide.saved', actor: { kind: 'api token', userId: editor.id, email: editor.email, tokenName: 'tests' },
      before: { guide: { steps: [{ markdown: 'Hello' }] } }, after: { version: 2, guide: { steps: [{ markdown: 'Hello there' }] } },
    });
    expect(published).toMatchObject({ action: 'guide.published', actor: { kind: 'user', userId: editor.id, email: editor.email }, before: { state: 'draft' }, after: { state: 'public' } });
    expect(deleted).toMatchObject({ action: 'guide.deleted', actor: { kind: 'user', email: editor.email }, before: { state: 'public' } });
    expect(deleted!.after).toBeUndefined();
  });

  it('settings, theme, users, role changes, invitations, tokens, designer sessions and sign-ins are recorded', async () => {
    const inject = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
      server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const newTheme = { accent: '#123456' };
    expect((await inject('PUT', '/api/apps/audit-app/settings/theme', editor.bearer, newTheme)).statusCode).toBe(200);
    const invited = await inject('POST', '/api/users', ADMIN_HEADERS, { email: 'new.person@example.com', role: 'viewer' });
    expect(invited.statusCode).toBe(201);
    const invitation = String(invited.json().invitationUrl).split('/').pop();
    expect((await inject('POST', `/api/invitations/${invitation}`, {}, { password: TEST_PASSWORD })).statusCode).toBe(204);
    expect((await inject('PATCH', `/api/users/${invited.json().id}`, ADMIN_HEADERS, { role: 'editor' })).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/users/${invited.json().id}`, ADMIN_HEADERS)).statusCode).toBe(204);
    const token = await inject('POST', '/api/me/tokens', viewer.console, { name: 'nightly export' });
    expect((await inject('DELETE', `/api/me/tokens/${token.json().id}`, viewer.console)).statusCode).toBe(204);
    const designer = await inject('POST', '/api/designer-sessions', editor.bearer, { apiKey: 'audit-app' });
    expect(designer.statusCode).toBe(201);
    expect((await inject('DELETE', '/api/designer-sessions/current', { authorization: `Bearer ${designer.json().token}` })).statusCode).toBe(204);
    expect((await inject('POST', '/api/login', {}, { email: viewer.email, password: 'not the password at all' })).statusCode).toBe(401);
    expect((await inject('POST', '/api/login', {}, { token: 'wrong-admin-token' })).statusCode).toBe(401);

    const { body } = await audit('?limit=1000');
    const find = (action: string, target?: string) => body.entries.find((e) => e.action === action && (target === undefined || e.target === target));
    expect(find('theme.saved')).toMatchObject({ apiKey: 'audit-app', actor: { kind: 'api token', email: editor.email }, after: newTheme });
    expect(find('user.created', 'new.person@example.com')).toMatchObject({ actor: { kind: 'admin token' }, after: { role: 'viewer' } });
    expect(find('user.invited', 'new.person@example.com')).toMatchObject({ actor: { kind: 'admin token' } });
    expect(find('invitation.accepted', 'new.person@example.com')).toMatchObject({ actor: { kind: 'user', email: 'new.person@example.com' } });
    expect(find('user.roleChanged', 'new.person@example.com')).toMatchObject({ before: { role: 'viewer' }, after: { role: 'editor' } });
    expect(find('user.removed', 'new.person@example.com')).toMatchObject({ before: { role: 'editor' } });
    expect(find('token.created', 'nightly export')).toMatchObject({ actor: { kind: 'user', email: viewer.email }, after: { name: 'nightly export' } });
    expect(find('token.revoked', 'nightly export')).toMatchObject({ actor: { kind: 'user', email: viewer.email } });
    expect(find('designerSession.opened')).toMatchObject({ apiKey: 'audit-app', actor: { kind: 'api token', email: editor.email } });
    expect(find('designerSession.ended')).toMatchObject({ apiKey: 'audit-app', actor: { kind: 'designer', email: editor.email } });
    expect(find('login.succeeded', viewer.email)).toMatchObject({ actor: { kind: 'user', userId: viewer.id } });
    expect(find('login.refused', viewer.email)).toMatchObject({ actor: { kind: 'anonymous' }, after: { error: expect.any(String) } });
    expect(find('login.refused', 'admin token')).toMatchObject({ actor: { kind: 'anonymous' } });
    // Neither a password nor a token's secret is ever written.
    const all = JSON.stringify(body.entries);
    expect(all).not.toContain(TEST_PASSWORD);
    expect(all).not.toContain('not the password at all');
    expect(all).not.toContain(token.json().token);
    expect(all).not.toContain(designer.json().token);
    expect(all).not.toContain(invitation);
  });
});

describe('audit trail: reading it', () => {
  it('only admins read it: viewers and editors are 403', async () => {
    for (const who of [viewer.bearer, editor.bearer, editor.console]) {
      expect((await audit('', who)).status).toBe(403);
      expect((await server.app.inject({ method: 'GET', url: '/api/audit.csv', headers: who })).statusCode).toBe(403);
    }
    expect((await audit('', {})).status).toBe(401);
  });

  it('filters by app, actor, action (or its prefix), time; pages newest first with next', async () => {
    const byEditor = (await audit(`?actor=${encodeURIComponent(editor.email)}&limit=1000`)).body.entries;
    expect(byEditor.length).toBeGreaterThan(3);
    expect(byEditor.every((e) => e.actor.email === editor.email)).toBe(true);
    expect((await audit('?actor=admin%20token')).body.entries.every((e) => e.actor.kind === 'admin token')).toBe(true);
    expect((await audit('?action=guide.published')).body.entries.map((e) => e.action)).toEqual(['guide.published']);
    expect(new Set((await audit('?action=guide.')).body.entries.map((e) => e.action))).toEqual(new Set(['guide.saved', 'guide.published', 'guide.deleted']));
    expect((await audit('?apiKey=no-such-app')).body.entries).toEqual([]);
    expect((await audit(`?from=${Date.now() + 60_000}`)).body.entries).toEqual([]);
    expect((await audit(`?to=1`)).body.entries).toEqual([]);

    const first = (await audit('?limit=2')).body;
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0]!.id).toBeGreaterThan(first.entries[1]!.id);
    const second = (await audit(`?limit=2&before=${first.next}`)).body;
    expect(second.entries[0]!.id).toBeLessThan(first.entries[1]!.id);
    const everything = (await audit('?limit=1000')).body;
    expect(everything.next).toBeUndefined();
  });

  it('bad parameters are a 400 naming the parameter', async () => {
    for (const [query, field] of [['?limit=0', 'limit'], ['?limit=1001', 'limit'], ['?from=yesterday', 'from'], ['?from=10&to=5', 'to'], ['?before=-1', 'before'], ['?who=me', 'who'], ['?actor=a&actor=b', 'actor']] as const) {
      const { status, body } = await audit(query);
      expect([query, status, body.field]).toEqual([query, 400, field]);
    }
  });

  it('CSV: a header row, quoting, and values a spreadsheet would run as formulas prefixed', async () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)']) expect(csvField(formula)).toBe(`'${formula}`);
    expect(csvField('=HYPERLINK("x",1)')).toBe(`"'=HYPERLINK(""x"",1)"`);

    // A token named as a formula reaches the CSV defused.
    await server.app.inject({ method: 'POST', url: '/api/me/tokens', headers: viewer.console, payload: { name: '=cmd|calc' } });
    const csv = await server.app.inject({ method: 'GET', url: '/api/audit.csv?action=token.created', headers: ADMIN_HEADERS });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actorKind,actorUserId,actorEmail,actorToken,address,apiKey,action,target,before,after');
    expect(lines[1]).toContain(",'=cmd|calc,");
    expect(lines[1]).not.toMatch(/,=cmd/);
  });

  it('append-only: no route changes or deletes an entry, and the database refuses it', async () => {
    // The route list is the server's own: under /api/audit only reads, and no route anywhere names the audit.
    const auditRoutes = listRoutes(server.app).filter((r) => r.url.includes('audit'));
    expect(auditRoutes.map((r) => r.url).sort()).toEqual(['/api/audit', '/api/audit.csv']);
    expect(auditRoutes.every((r) => r.method === 'GET')).toBe(true);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      expect((await server.app.inject({ method, url: '/api/audit', headers: ADMIN_HEADERS, payload: {} })).statusCode).toBe(404);
    }
    const db = await openDatabase({ dataDir: 'memory://', memoryTemplate: await pgliteTemplate() });
    try {
      await migrateSchema(db);
      await createAuditLog(db).append({ at: 1, actor: { kind: 'admin token' }, address: '127.0.0.1', action: 'guide.saved' });
      await expect(db.query("update audit_log set action = 'x'")).rejects.toThrow(/append-only/);
      await expect(db.query('delete from audit_log')).rejects.toThrow(/append-only/);
      expect((await db.query('select action from audit_log')).rows).toEqual([{ action: 'guide.saved' }]);
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
