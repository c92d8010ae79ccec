/**
 * issue #35 "Features and pages, retroactive": pages (a named URL rule: wildcards, path parameters, "ignore after",
 * query parameters, fragments) counted over the page loads stored before they were defined, with exact counts on a
 * small known set stored through the real beacon; their routes' roles, 404s across apps and refusals of bad input;
 * and compileUrlRule itself. On PGlite here and on the real PostgreSQL (vitest.postgres.config.ts). Features:
 * features.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileUrlRule } from '../../server/analytics/compileUrlRule';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const D = 86_400_000;
const T0 = Date.UTC(2026, 0, 10);
const KEY = 'pages-app';
const OTHER = 'pages-other-app';

const load = (day: number, visitor: string, account: string, url: string) =>
  wireEvent({ type: 'load', browser_time: T0 + day * D + 500, visitor_id: visitor, account_id: account, url, props: {} });

/** Page loads of 4 visitors (v4 without an account) on days 0-3, and a click (not a page load). */
const EVENTS = [
  load(0, 'v1', 'acme', 'http://app.test/reports/7'),
  load(0, 'v1', 'acme', 'http://app.test/reports/7'),
  load(1, 'v2', 'acme', 'http://app.test/reports/9?tab=x&sort=asc'),
  load(2, 'v3', 'beta', 'http://app.test/reports/7#top'),
  load(2, 'v4', '', 'http://app.test/reports/12/'),
  load(3, 'v1', 'acme', 'http://app.test/settings'),
  load(3, 'v2', 'acme', 'http://app.test/settings/users/3'),
  load(3, 'v3', 'beta', 'http://app.test/caf%C3%A9'),
  wireEvent({ type: 'click', browser_time: T0 + 500, visitor_id: 'v1', account_id: 'acme', url: 'http://app.test/reports/7', props: { target: { tag: 'A' } } }),
];

let server: TestServer;
let viewer: TestUser;

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function makePage(url: string, apiKey = KEY, name = url): Promise<string> {
  const response = await call('POST', `/api/apps/${apiKey}/pages`, { name, rule: { url } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}
async function use(id: string, query = '', apiKey = KEY) {
  const response = await call('GET', `/api/apps/${apiKey}/pages/${id}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const counts = async (url: string) => {
  const { events, visitors, accounts } = await use(await makePage(url));
  return { events, visitors, accounts };
};

beforeAll(async () => {
  server = await startTestServer();
  for (const [apiKey, events] of [[KEY, EVENTS], [OTHER, [load(0, 'o1', 'other', 'http://app.test/reports/7')]]] as const) {
    const response = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${nodeJzb(events)}` });
    expect(response.statusCode).toBe(200);
  }
  viewer = await makeUser(server.app, 'viewer');
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('issue #35 pages count the page loads stored before them', () => {
  it('a page made after the loads counts them: events, distinct visitors and accounts, a series per UTC day', async () => {
    const id = await makePage('//*/reports/:id', KEY, 'Report');
    const page = await use(id);
    expect(page).toEqual({
      id,
      name: 'Report',
      rule: { url: '//*/reports/:id' },
      createdAt: expect.any(Number),
      updatedAt: page.createdAt,
      range: null,
      events: 5,
      visitors: 4,
      accounts: 2,
      series: [
        { t: T0, events: 2, visitors: 1, accounts: 1 },
        { t: T0 + D, events: 1, visitors: 1, accounts: 1 },
        { t: T0 + 2 * D, events: 2, visitors: 2, accounts: 1 },
      ],
      // Its past use counted (issue #35 "Fast at real volumes": the backfill of a small app ends within the read).
      backfill: { state: 'ready', progress: 1 },
    });
    const ranged = await use(id, `?from=${T0 + D}&to=${T0 + 2 * D}`);
    expect(ranged).toMatchObject({ range: { from: T0 + D, to: T0 + 2 * D, bucket: 'day' }, events: 1, visitors: 1, accounts: 1 });
  });

  it('the rule syntax over stored addresses', async () => {
    const one = { events: 1, visitors: 1, accounts: 1 };
    const none = { events: 0, visitors: 0, accounts: 0 };
    expect(await counts('/reports/7')).toEqual({ events: 3, visitors: 2, accounts: 2 });
    expect(await counts('//app.test/reports/*/')).toEqual({ events: 5, visitors: 4, accounts: 2 });
    expect(await counts('http://*.test/reports/:id')).toEqual({ events: 5, visitors: 4, accounts: 2 });
    expect(await counts('https://app.test/reports/:id')).toEqual(none);
    expect(await counts('//other.test/reports/:id')).toEqual(none);
    expect(await counts('/reports/:id?tab=x')).toEqual(one);
    expect(await counts('/reports/:id?sort=a*&tab')).toEqual(one);
    expect(await counts('/reports/:id?tab=y')).toEqual(none);
    expect(await counts('/reports/7#top')).toEqual(one);
    expect(await counts('/reports')).toEqual(none);
    expect(await counts('/settings/**')).toEqual({ events: 2, visitors: 2, accounts: 1 });
    expect(await counts('/settings/*')).toEqual(none);
    expect(await counts('/**')).toEqual({ events: 8, visitors: 4, accounts: 2 });
    expect(await counts('/café')).toEqual(one);
  });
});

describe('issue #35 pages: list, rename, change, delete, apps kept apart, roles', () => {
  it('lists, renames, changes the rule, deletes; an id of another app is a 404', async () => {
    const id = await makePage('/settings', 'pages-crud', 'Settings');
    expect((await call('GET', '/api/apps/pages-crud/pages')).json()).toEqual([
      { id, name: 'Settings', rule: { url: '/settings' }, createdAt: expect.any(Number), updatedAt: expect.any(Number) },
    ]);
    const renamed = await call('PATCH', `/api/apps/pages-crud/pages/${id}`, { name: 'All settings', rule: { url: '/settings/**' } });
    expect([renamed.statusCode, renamed.json().name, renamed.json().rule]).toEqual([200, 'All settings', { url: '/settings/**' }]);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expect((await call(method, `/api/apps/${OTHER}/pages/${id}`, method === 'PATCH' ? { name: 'x' } : undefined)).statusCode).toBe(404);
    }
    expect((await call('DELETE', `/api/apps/pages-crud/pages/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/apps/pages-crud/pages/${id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/apps/pages-crud/pages/${id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', '/api/apps/pages-crud/pages')).json()).toEqual([]);
  });

  it('401 without credentials; viewers read; a viewer writing is 403', async () => {
    const id = await makePage('/reports/:id');
    expect((await call('GET', `/api/apps/${KEY}/pages`, undefined, {})).statusCode).toBe(401);
    expect((await call('POST', `/api/apps/${KEY}/pages`, { name: 'n', rule: { url: '/' } }, {})).statusCode).toBe(401);
    expect((await call('GET', `/api/apps/${KEY}/pages/${id}`, undefined, viewer.bearer)).json().events).toBe(5);
    for (const [method, url, body] of [
      ['POST', `/api/apps/${KEY}/pages`, { name: 'n', rule: { url: '/' } }],
      ['PATCH', `/api/apps/${KEY}/pages/${id}`, { name: 'n' }],
      ['DELETE', `/api/apps/${KEY}/pages/${id}`, undefined],
    ] as const) {
      const refused = await call(method, url, body, viewer.bearer);
      expect([refused.statusCode, refused.json().error]).toEqual([403, 'this needs the editor role; you are a viewer']);
    }
  });

  it('bad input is a 400 naming the field', async () => {
    const refused = async (body: unknown, field: string) => {
      const response = await call('POST', `/api/apps/${KEY}/pages`, body);
      expect([response.statusCode, response.json().field], JSON.stringify(body).slice(0, 80)).toEqual([400, field]);
      return response.json().error as string;
    };
    expect(await refused({ name: 'n', rule: { url: 'reports' } }, 'rule.url')).toBe('rule.url must start with /, // or a scheme such as https://, e.g. //*/reports/:id');
    for (const url of [undefined, '', 5, ['/'], 'https://', '//', '/a b', '/a\tb', `/${'x'.repeat(2000)}`, `/${'x'.repeat(500_000)}`, '/a?x=%zz', '/\u0000']) {
      await refused({ name: 'n', rule: { url } }, 'rule.url');
    }
    await refused({ name: 'n', rule: { url: '/', selector: 'a' } }, 'rule.selector');
    await refused({ name: 'n', rule: { url: '/', page: 'p' } }, 'rule.page');
    await refused({ name: '', rule: { url: '/' } }, 'name');
    await refused({ rule: { url: '/' } }, 'name');
    await refused({ name: 'n' }, 'rule');
    const id = await makePage('/x');
    const patched = await call('PATCH', `/api/apps/${KEY}/pages/${id}`, { rule: { url: 'x' } });
    expect([patched.statusCode, patched.json().field]).toEqual([400, 'rule.url']);
  });
});

describe('issue #35 compileUrlRule', () => {
  const matches = (rule: string, url: string) => {
    const compiled = compileUrlRule(rule);
    if ('problem' in compiled) throw new Error(compiled.problem);
    return compiled.matches(url);
  };

  it('wildcards, parameters, ignore after, trailing slash, query, fragment, host and scheme', () => {
    expect(matches('/a/*/c', 'https://h/a/b/c')).toBe(true);
    expect(matches('/a/*/c', 'https://h/a/b/x/c')).toBe(false);
    expect(matches('/a/**/c', 'https://h/a/b/x/c')).toBe(true);
    expect(matches('/a/b*', 'https://h/a/bcd')).toBe(true);
    expect(matches('/a/:id', 'https://h/a/')).toBe(false);
    expect(matches('/a/:id/edit', 'https://h/a/9/edit/')).toBe(true);
    expect(matches('/a/**', 'https://h/a')).toBe(true);
    expect(matches('/a/**', 'https://h/ab')).toBe(false);
    expect(matches('/', 'https://h')).toBe(true);
    expect(matches('/?q', 'https://h/?q=1#x')).toBe(true);
    expect(matches('/?q=1', 'https://h/?q=2&q=1')).toBe(true);
    expect(matches('/?q=a+b', 'https://h/?q=a%20b')).toBe(true);
    expect(matches('/#/reports/:id', 'https://h/#/reports/3')).toBe(true);
    expect(matches('/#/reports/:id', 'https://h/#/reports/3/x')).toBe(false);
    expect(matches('//H.example:8080/x', 'http://h.example:8080/x')).toBe(true);
    expect(matches('//h.example/x', 'http://h.example:8080/x')).toBe(false);
    expect(matches('HTTPS://h/x', 'https://h/x')).toBe(true);
    expect(matches('/Reports', 'https://h/reports')).toBe(false);
    expect(matches('/STAR', 'https://h/STAR')).toBe(true);
    expect(matches('/STAR', 'https://h/x')).toBe(false);
    expect(matches('/caf\u00e9/*', 'https://h/caf\u00e9/x')).toBe(true);
    expect(matches('/x', 'not a url')).toBe(false);
  });

  it('a backslash makes the next character literal: a path\'s own `*` and `:`, a query value\'s `*`', () => {
    expect(matches('/files/\\*', 'https://h/files/*')).toBe(true);
    expect(matches('/files/\\*', 'https://h/files/x')).toBe(false);
    expect(matches('/a/\\*\\*', 'https://h/a/**')).toBe(true);
    expect(matches('/a/\\*\\*', 'https://h/a/b/c')).toBe(false);
    // An escaped star, then a wildcard one.
    expect(matches('/a/\\**', 'https://h/a/*x')).toBe(true);
    expect(matches('/a/\\**', 'https://h/a/x')).toBe(false);
    expect(matches('/wiki/\\:Main', 'https://h/wiki/:Main')).toBe(true);
    expect(matches('/wiki/\\:Main', 'https://h/wiki/Other')).toBe(false);
    expect(matches('/wiki/Special\\:Search', 'https://h/wiki/Special:Search')).toBe(true);
    expect(matches('/?q=\\*', 'https://h/?q=*')).toBe(true);
    expect(matches('/?q=\\*', 'https://h/?q=x')).toBe(false);
    expect(matches('/#/\\:id', 'https://h/#/:id')).toBe(true);
    expect(matches('/#/\\:id', 'https://h/#/7')).toBe(false);
  });

  it('time is rule length × address length: no backtracking on an address that almost matches', () => {
    const rule = `/${'*a'.repeat(300)}*b`;
    const started = performance.now();
    expect(matches(rule, `https://h/${'a'.repeat(5000)}`)).toBe(false);
    expect(matches('/**a**a**a**a**a**a**a**a**b', `https://h/${'a/'.repeat(3000)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
