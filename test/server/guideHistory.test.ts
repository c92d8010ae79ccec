/**
 * Guide history (issue #33, docs/users-and-roles.md "Guide history"): each save (and state change) keeps a version
 * with who, when, state and the guide; the difference between two versions in words (steps added and removed,
 * text changed step by step, targeting changed, state changed); a restore is a new draft version, audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffGuides } from '../../server/guides/history/diffGuides';
import type { Guide } from '../../shared/guides/guides';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';
import { makeUser, type TestUser } from './users';

let server: TestServer;
let editor: TestUser;
let viewer: TestUser;

const BASE = '/api/apps/history-app/guides/tour';
const step = (id: string, markdown: string, extra: object = {}) => ({ id, type: 'lightbox', markdown, ...extra });
const tour = (steps: object[], extra: object = {}) => ({ id: 'tour', name: 'Tour', launchMethod: 'auto', steps, ...extra });
const call = (method: 'GET' | 'PUT' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
  server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  server = await startTestServer({});
  editor = await makeUser(server.app, 'editor');
  viewer = await makeUser(server.app, 'viewer');
  // v1 by the admin token; v2 by the editor: a step added, step 1's text and page rule, the launch method, the
  // audience and the schedule changed; v3: published.
  expect((await call('PUT', BASE, ADMIN_HEADERS, tour([step('s1', 'Hello')]))).statusCode).toBe(201);
  expect((await call('PUT', BASE, editor.bearer, tour([step('s1', 'Hello there', { regexUrlRule: '^/home' }), step('s2', 'Next')], {
    launchMethod: 'badge', audience: { when: { 'visitor.role': 'admin' } }, expiresAfter: Date.UTC(2027, 0, 1),
  }))).statusCode).toBe(200);
  expect((await call('POST', `${BASE}/state`, editor.bearer, { state: 'public' })).statusCode).toBe(200);
}, SERVER_TIMEOUT * 3);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('guide history', () => {
  it('each save keeps a version: number, who, when, state; newest first; viewers read them', async () => {
    const list = await call('GET', `${BASE}/versions`, viewer.bearer);
    expect(list.statusCode).toBe(200);
    const versions = list.json().versions as Array<{ version: number; at: number; actor: Record<string, string>; state: string }>;
    expect(versions.map((v) => [v.version, v.state, v.actor.kind, v.actor.email])).toEqual([
      [3, 'public', 'api token', editor.email],
      [2, 'draft', 'api token', editor.email],
      [1, 'draft', 'admin token', undefined],
    ]);
    expect(versions.every((v) => typeof v.at === 'number' && v.at > 0)).toBe(true);
    const one = (await call('GET', `${BASE}/versions/1`, viewer.bearer)).json();
    expect(one).toMatchObject({ version: 1, state: 'draft', guide: { id: 'tour', steps: [{ id: 's1', markdown: 'Hello' }] } });
    expect((await call('GET', `${BASE}/versions/9`, viewer.bearer)).statusCode).toBe(404);
    expect((await call('GET', `${BASE}/versions/x`, viewer.bearer)).json()).toMatchObject({ field: 'version' });
    expect((await call('GET', '/api/apps/history-app/guides/none/versions', viewer.bearer)).statusCode).toBe(404);
  });

  it('the difference in words: step added, text changed, targeting changed, state changed', async () => {
    const diff = (await call('GET', `${BASE}/versions/1/diff/3`, viewer.bearer)).json();
    expect(diff.from).toBe(1);
    expect(diff.to).toBe(3);
    expect(diff.sentences).toEqual([
      'State changed from draft to public.',
      "Text of step 1 (s1) changed (markdown) from 'Hello' to 'Hello there'.",
      "Page rule of step 1 (s1) changed (regexUrlRule) from none to '^/home'.",
      'Added step 2 (s2).',
      "Launch method changed from 'auto' to 'badge'.",
      'Audience (audience) changed from none to {"when":{"visitor.role":"admin"}}.',
      'Schedule (expiresAfter) changed from none to 2027-01-01T00:00:00.000Z.',
    ]);
    expect(diff.changes.map((c: { kind: string }) => c.kind)).toEqual(['state', 'stepText', 'stepTarget', 'stepAdded', 'launchMethod', 'audience', 'schedule']);
    const back = (await call('GET', `${BASE}/versions/2/diff/1`, viewer.bearer)).json();
    expect(back.sentences).toContain('Removed step 2 (s2).');
  });

  it('diffGuides: steps removed and added by id, nothing for the server-set fields', () => {
    const a = { guide: tour([step('a', 'A'), step('b', 'B')], { publishedAt: 1 }) as Guide, state: 'public' };
    const b = { guide: tour([step('b', 'B'), step('c', 'C')], { publishedAt: 2 }) as Guide, state: 'public' };
    expect(diffGuides(a, b).map((c) => c.sentence)).toEqual(['Removed step 1 (a).', 'Added step 2 (c).']);
    expect(diffGuides(a, a)).toEqual([]);
  });

  it('restore: the version\'s guide as a new draft version, audited; editors only', async () => {
    expect((await call('POST', `${BASE}/versions/1/restore`, viewer.bearer)).statusCode).toBe(403);
    const restored = await call('POST', `${BASE}/versions/1/restore`, editor.bearer);
    expect(restored.statusCode).toBe(201);
    expect(restored.json()).toMatchObject({ version: 4, restoredFrom: 1, state: 'draft', guide: { steps: [{ id: 's1', markdown: 'Hello' }] } });
    const current = (await call('GET', BASE, viewer.bearer)).json();
    expect(current).toMatchObject({ state: 'draft', guide: { launchMethod: 'auto', steps: [{ markdown: 'Hello' }] } });
    expect(current.guide.steps).toHaveLength(1);
    const v4 = (await call('GET', `${BASE}/versions`, viewer.bearer)).json().versions[0];
    expect(v4).toMatchObject({ version: 4, state: 'draft', actor: { kind: 'api token', email: editor.email } });
    expect((await call('GET', `${BASE}/versions/1/diff/4`, viewer.bearer)).json().sentences).toEqual([]);
    const audit = (await call('GET', '/api/audit?action=guide.restored', ADMIN_HEADERS)).json().entries;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ apiKey: 'history-app', target: 'tour', actor: { email: editor.email }, before: { state: 'public' }, after: { version: 4, state: 'draft' } });
  });
});
