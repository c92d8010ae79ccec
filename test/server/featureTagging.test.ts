/**
 * issue #35 "Tagged from the designer too": the designer's preview of a feature being tagged
 * (`POST /api/apps/{apiKey}/designer/feature-preview`), exact over clicks stored through the real beacon before the
 * question; a designer session's rights on it and on making features and pages; a feature's `eventProperties`
 * (analytics §3 event property rules), checked with field-named 400s, and served in guide.json's `features` with the
 * features file's, a page's features only on that page. On PGlite here and on the real PostgreSQL
 * (vitest.postgres.config.ts runs every test/server file).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSelector, type ElementMatcher } from '../../server/analytics/compileSelector';
import { compileUrlRule, type UrlRule } from '../../server/analytics/compileUrlRule';
import { queryFeaturePreview } from '../../server/analytics/queryFeaturePreview';
import { MAX_EVENT_PROPERTIES } from '../../server/analytics/readEventProperties';
import type { Database } from '../../server/storage/Database';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { openDatabase } from '../../server/storage/openDatabase';
import { pgliteTemplate } from './pgliteTemplate';
import { analyticsRequests } from './analyticsRequests';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, freshPostgresDatabase, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const H = 3_600_000;
const D = 24 * H;
/** The present of the server's analytics clock: the preview counts 30 UTC days back from today's start, T0 + 11 d. */
const NOW = Date.UTC(2026, 1, 9, 15);
const DAY0 = Date.UTC(2026, 1, 9) - 29 * D;
const KEY = 'tagging-app';
const OTHER = 'tagging-other-app';

const TOOLBAR = { tag: 'DIV', id: 'toolbar', cls: 'toolbar', title: null, attrs: {}, myIndex: 0, childIndex: 0 };
const EXPORT = { tag: 'BUTTON', id: '', cls: 'export primary', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export', parentElem: TOOLBAR };
const ICON = { tag: 'SPAN', id: '', cls: 'icon', title: null, attrs: {}, myIndex: 0, childIndex: 0, parentElem: EXPORT };
const SAVE = { tag: 'BUTTON', id: 'save', cls: 'save', title: null, attrs: {}, myIndex: 1, childIndex: 1, txt: 'Save', parentElem: TOOLBAR };
const click = (t: number, visitor: string, path: string, target: object) =>
  wireEvent({ type: 'click', browser_time: t, visitor_id: visitor, account_id: 'acme', url: `http://app.test${path}`, props: { target } });

/**
 * Export (button.export): v1 twice on /reports/1 on the first day counted, v2 on its icon on /reports/2 today,
 * v3 on /settings, v4 on /reports/3 a millisecond before the first day (not counted); Save: v1 once.
 * The other app: Export clicked 5 times by o1 (never counted for this app).
 */
const EVENTS = [
  click(DAY0, 'v1', '/reports/1', EXPORT),
  click(DAY0 + H, 'v1', '/reports/1', EXPORT),
  click(NOW - H, 'v2', '/reports/2', ICON),
  click(DAY0 + 5 * D, 'v3', '/settings', EXPORT),
  click(DAY0 - 1, 'v4', '/reports/3', EXPORT),
  click(DAY0 + 2 * D, 'v1', '/settings', SAVE),
];

let server: TestServer;
let viewer: TestUser;
let designer: { authorization: string };
const { beacon, post, make } = analyticsRequests(() => server, KEY);
const preview = (body: unknown, headers: Record<string, string> = ADMIN_HEADERS, app = KEY) => post(`/api/apps/${app}/designer/feature-preview`, body, headers);
async function counts(body: object) {
  const response = await preview(body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  server = await startTestServer({}, { analyticsNow: () => NOW });
  await beacon(KEY, EVENTS);
  await beacon(OTHER, [1, 2, 3, 4, 5].map((i) => click(NOW - i * H, 'o1', '/reports/9', EXPORT)));
  viewer = await makeUser(server.app, 'viewer');
  const editor = await makeUser(server.app, 'editor');
  const session = await post('/api/designer-sessions', { apiKey: KEY }, editor.bearer);
  expect(session.statusCode, session.body).toBe(201);
  designer = { authorization: `Bearer ${session.json().token}` };
}, SERVER_TIMEOUT * 2);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('issue #35 designer: the past clicks of a feature being tagged, last 30 days', () => {
  it('counts clicks and visitors of the matching elements (or inside them) since the first of the 30 UTC days', async () => {
    expect(await counts({ selector: 'button.export' })).toEqual({ clicks: 4, visitors: 3, from: DAY0, to: NOW, partial: false });
    expect(await counts({ selector: '#toolbar button' })).toMatchObject({ clicks: 5, visitors: 3 });
    expect(await counts({ selector: '#save' })).toMatchObject({ clicks: 1, visitors: 1 });
    expect(await counts({ selector: 'a.nothing' })).toMatchObject({ clicks: 0, visitors: 0 });
  });

  it('limited to a page by its URL rule: only the clicks on matching addresses', async () => {
    expect(await counts({ selector: 'button.export', url: '//*/reports/:id' })).toMatchObject({ clicks: 3, visitors: 2 });
    expect(await counts({ selector: 'button.export', url: '/settings' })).toMatchObject({ clicks: 1, visitors: 1 });
    expect(await counts({ selector: 'button.export', url: '/nowhere' })).toMatchObject({ clicks: 0, visitors: 0 });
  });

  it('counts a click answered just before the question (the summaries are flushed first)', async () => {
    await beacon(KEY, [click(NOW - 2 * H, 'v5', '/reports/5', { ...EXPORT, cls: 'export late' })]);
    expect(await counts({ selector: 'button.late' })).toMatchObject({ clicks: 1, visitors: 1 });
  });

  it('refuses a bad body with a 400 naming the field, and a body over 8 KB with a 413', async () => {
    const refusals: Array<[unknown, string]> = [
      [{}, 'selector'],
      [{ selector: 'button:hover' }, 'selector'],
      [{ selector: 'button[' }, 'selector'],
      [{ selector: 'a', url: 'reports' }, 'url'],
      [{ selector: 'a', url: 7 }, 'url'],
      [{ selector: 'a', page: 'x' }, 'page'],
      [[], 'body'],
    ];
    for (const [body, field] of refusals) {
      const response = await preview(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field).toBe(field);
    }
    expect((await preview({ selector: 'a'.repeat(9000) })).statusCode).toBe(413);
  });

  it('viewers and a designer session of the app may ask; none of another app, nor anyone signed out', async () => {
    expect((await preview({ selector: 'button.export' }, viewer.bearer)).json()).toMatchObject({ clicks: 5 });
    expect((await preview({ selector: 'button.export' }, designer)).json()).toMatchObject({ clicks: 5 });
    expect((await preview({ selector: 'button.export' }, designer, OTHER)).statusCode).toBe(403);
    expect((await preview({ selector: 'button.export' }, {})).statusCode).toBe(401);
    // The other app's own clicks, never this app's.
    expect((await preview({ selector: 'button.export' }, ADMIN_HEADERS, OTHER)).json()).toMatchObject({ clicks: 5, visitors: 1 });
  });
});

describe('issue #35 designer: a designer session tags a feature of its own app', () => {
  it('lists and makes pages and makes features; never of another app, never more than its author may', async () => {
    const page = await post(`/api/apps/${KEY}/pages`, { name: 'Reports', rule: { url: '//*/reports/:id' } }, designer);
    expect(page.statusCode, page.body).toBe(201);
    const listed = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/pages`, headers: designer });
    expect(listed.json().map((p: { id: string }) => p.id)).toContain(page.json().id);
    const feature = await post(`/api/apps/${KEY}/features`, { name: 'Export', rule: { selector: 'button.export', page: page.json().id } }, designer);
    expect(feature.statusCode, feature.body).toBe(201);
    // Reading its use is the console's (viewer routes without designer: true).
    expect((await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/features/${feature.json().id}`, headers: designer })).statusCode).toBe(403);
    expect((await post(`/api/apps/${OTHER}/features`, { name: 'Export', rule: { selector: 'button.export' } }, designer)).statusCode).toBe(403);
    expect((await post(`/api/apps/${KEY}/features`, { name: 'Export', rule: { selector: 'button.export' } }, viewer.bearer)).statusCode).toBe(403);
  });
});

describe('analytics §3 event property rules of console features', () => {
  const base = { name: 'Buy', rule: { selector: 'button.buy' } };

  it('keeps a feature\'s eventProperties; PATCH replaces them, null clears them', async () => {
    const properties = [{ name: 'plan', source: 'data-plan' }, { name: 'seats', selector: '#seats' }, { name: 'tier', path: 'app.account.tier' }];
    const id = await make('features', { ...base, eventProperties: properties });
    const read = async () => (await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/features/${id}`, headers: ADMIN_HEADERS })).json();
    expect((await read()).eventProperties).toEqual(properties);
    const patch = (body: object) => server.app.inject({ method: 'PATCH', url: `/api/apps/${KEY}/features/${id}`, headers: ADMIN_HEADERS, payload: body });
    expect((await patch({ eventProperties: [{ name: 'plan', source: 'data-tier' }] })).json().eventProperties).toEqual([{ name: 'plan', source: 'data-tier' }]);
    expect((await read()).rule).toEqual(base.rule);
    expect((await patch({ eventProperties: null })).json().eventProperties).toBeUndefined();
    expect((await patch({ eventProperties: [] })).json().eventProperties).toBeUndefined();
    await server.app.inject({ method: 'DELETE', url: `/api/apps/${KEY}/features/${id}`, headers: ADMIN_HEADERS });
  });

  it('refuses bad event properties with a 400 naming the field', async () => {
    const refusals: Array<[unknown, string]> = [
      ['plan', 'eventProperties'],
      [[{ name: 'plan' }], 'eventProperties[0]'],
      [[{ name: 'plan', source: 'data-plan', path: 'a.b' }], 'eventProperties[0]'],
      [[{ source: 'data-plan' }], 'eventProperties[0].name'],
      [[{ name: 'a b', source: 'data-plan' }], 'eventProperties[0].name'],
      [[{ name: 'plan', source: 'data-plan' }, { name: 'plan', path: 'x' }], 'eventProperties[1].name'],
      [[{ name: 'plan', path: 'window.a-b' }], 'eventProperties[0].path'],
      [[{ name: 'plan', path: Array(12).fill('a').join('.') }], 'eventProperties[0].path'],
      [[{ name: 'plan', source: 'data plan' }], 'eventProperties[0].source'],
      [[{ name: 'plan', selector: 'input[' }], 'eventProperties[0].selector'],
      [[{ name: 'plan', selector: 7 }], 'eventProperties[0].selector'],
      [[{ name: 'plan', source: 'x', extra: 1 }], 'eventProperties[0].extra'],
      [Array.from({ length: MAX_EVENT_PROPERTIES + 1 }, (_, i) => ({ name: `p${i}`, source: 'data-x' })), 'eventProperties'],
    ];
    for (const [eventProperties, field] of refusals) {
      const response = await post(`/api/apps/${KEY}/features`, { ...base, eventProperties });
      expect(response.statusCode, JSON.stringify(eventProperties)).toBe(400);
      expect(response.json().field).toBe(field);
    }
  });

  it('guide.json serves the file\'s features, then the app\'s with event properties, a page\'s only on that page', async () => {
    const server2 = await startTestServer();
    try {
      const inject = (method: 'POST', url: string, payload: object) => server2.app.inject({ method, url, headers: ADMIN_HEADERS, payload });
      const made = async (kind: string, body: object, app = 'served-app') => (await inject('POST', `/api/apps/${app}/${kind}`, body)).json().id as string;
      const file = [{ featureId: 'file', featureRules: ['#file'], eventProperties: [{ name: 'f', source: 'data-f' }] }];
      writeFileSync(join(server2.root, 'features.json'), JSON.stringify(file));
      const settings = await made('pages', { name: 'Settings', rule: { url: '/settings/**' } });
      const buy = await made('features', { name: 'Buy', rule: { selector: 'button.buy' }, eventProperties: [{ name: 'plan', source: 'data-plan' }] });
      const save = await made('features', { name: 'Save', rule: { selector: '#save', page: settings }, eventProperties: [{ name: 'tz', selector: '#tz' }] });
      await made('features', { name: 'Plain', rule: { selector: 'a.plain' } });
      await made('features', { name: 'Elsewhere', rule: { selector: 'button.buy' }, eventProperties: [{ name: 'x', path: 'x' }] }, 'served-other');
      const load = async (url?: string) => {
        const payload = { visitorId: 'v', accountId: 'a', ...(url ? { url } : {}), metadata: {} };
        const response = await server2.app.inject({ method: 'GET', url: `/data/guide.json/served-app?id=1&jzb=${nodeJzb(payload)}` });
        expect(response.statusCode, response.body).toBe(200);
        return response.json().features;
      };
      const buyServed = { featureId: buy, featureRules: ['button.buy'], eventProperties: [{ name: 'plan', source: 'data-plan' }] };
      const saveServed = { featureId: save, featureRules: ['#save'], eventProperties: [{ name: 'tz', selector: '#tz' }] };
      expect(await load('http://app.test/settings/profile')).toEqual([...file, buyServed, saveServed]);
      expect(await load('http://app.test/reports/1')).toEqual([...file, buyServed]);
      expect(await load()).toEqual([...file, buyServed]);
    } finally {
      await server2.close();
    }
  }, SERVER_TIMEOUT);
});

describe('issue #35 designer preview: bounded to the first entries of the dictionary', () => {
  it('matches at most `limit` elements (then addresses) in key order and says partial', async () => {
    const databaseUrl = await freshPostgresDatabase();
    const db: Database = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
    try {
      await migrateSchema(db);
      // Three elements the selector matches (k1..k3), each clicked by one visitor on its own address (a1..a3).
      for (const i of [1, 2, 3]) {
        await db.query(`insert into analytics_elements (api_key, key, target, first_seen) values ('b', $1, $2::jsonb, 0)`, [`k${i}`, JSON.stringify(EXPORT)]);
        await db.query(`insert into analytics_addresses (api_key, key, url, first_seen) values ('b', $1, $2, 0)`, [`a${i}`, `http://app.test/reports/${i}`]);
        await db.query(
          `insert into analytics_click_days (api_key, element_key, day, address_key, visitor_id, account_id, events) values ('b', $1, $2, $3, $4, '', $5)`,
          [`k${i}`, DAY0, `a${i}`, `v${i}`, i],
        );
      }
      const selector = compileSelector('button.export') as ElementMatcher;
      const reports = compileUrlRule('/reports/:id') as UrlRule;
      expect(await queryFeaturePreview(db, 'b', selector, undefined, NOW, 3)).toMatchObject({ clicks: 6, visitors: 3, partial: false });
      expect(await queryFeaturePreview(db, 'b', selector, undefined, NOW, 2)).toMatchObject({ clicks: 3, visitors: 2, partial: true });
      expect(await queryFeaturePreview(db, 'b', selector, reports, NOW, 3)).toMatchObject({ clicks: 6, visitors: 3, partial: false });
      // Addresses are bounded too: one element clicked on three addresses, the first two counted.
      await db.query(`insert into analytics_elements (api_key, key, target, first_seen) values ('c', 'k1', $1::jsonb, 0)`, [JSON.stringify(EXPORT)]);
      for (const i of [1, 2, 3]) {
        await db.query(`insert into analytics_addresses (api_key, key, url, first_seen) values ('c', $1, $2, 0)`, [`a${i}`, `http://app.test/reports/${i}`]);
        await db.query(
          `insert into analytics_click_days (api_key, element_key, day, address_key, visitor_id, account_id, events) values ('c', 'k1', $1, $2, $3, '', $4)`,
          [DAY0 + D, `a${i}`, `v${i}`, i],
        );
      }
      expect(await queryFeaturePreview(db, 'c', selector, reports, NOW, 3)).toMatchObject({ clicks: 6, visitors: 3, partial: false });
      expect(await queryFeaturePreview(db, 'c', selector, reports, NOW, 2)).toMatchObject({ clicks: 3, visitors: 2, partial: true });
      // A day before the 30: not counted.
      expect(await queryFeaturePreview(db, 'c', selector, reports, NOW + 30 * D, 3)).toMatchObject({ clicks: 0, partial: false });
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
