/**
 * issue #35 "Features and pages, retroactive": features (a CSS selector over clicked elements, optionally on one
 * page) counted over the clicks stored before they were defined, with exact counts on a small known set stored
 * through the real beacon; their routes' roles, 404s across apps and refusals of bad input. On PGlite here and on
 * the real PostgreSQL (vitest.postgres.config.ts runs every test/server file). Pages: featuresPages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSelector } from '../../server/analytics/compileSelector';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const D = 86_400_000;
/** A UTC midnight: the days of the series. */
const T0 = Date.UTC(2026, 0, 10);
const KEY = 'features-app';
const OTHER = 'features-other-app';

/** A stored element level as shim/captureElementPath and the worker's serializer write it (ElementData). */
function el(tag: string, fields: { id?: string; cls?: string; attrs?: Record<string, string>; myIndex?: number; childIndex?: number; txt?: string } = {}, parentElem?: object) {
  const { id = '', cls = '', attrs = {}, myIndex = 0, childIndex = 0, txt } = fields;
  return { tag, id, cls, title: null, attrs, myIndex, childIndex, ...(txt === undefined ? {} : { txt }), ...(parentElem ? { parentElem } : {}) };
}

// BODY > DIV#app (3rd child) > MAIN.reports > DIV.toolbar > [BUTTON.save, BUTTON.export > SPAN.icon]; NAV > A.
const BODY = el('BODY', { childIndex: 1 });
const APP = el('DIV', { id: 'app', childIndex: 2, myIndex: 1 }, BODY);
const TOOLBAR = el('DIV', { cls: 'toolbar', attrs: { role: 'toolbar' } }, el('MAIN', { cls: 'reports' }, APP));
const SAVE = el('BUTTON', { cls: 'save', txt: 'Save' }, TOOLBAR);
const EXPORT = el('BUTTON', { cls: 'export primary', attrs: { 'data-action': 'export', type: 'button' }, myIndex: 1, childIndex: 1, txt: 'Export' }, TOOLBAR);
const EXPORT_ICON = el('SPAN', { cls: 'icon' }, EXPORT);
const NAV_LINK = el('A', { attrs: { href: '/reports' }, txt: 'Reports' }, el('NAV', {}, APP));

const URL_OF = (path: string) => `http://app.test${path}`;
function click(day: number, visitor: string, account: string, path: string, target: object) {
  return wireEvent({ type: 'click', browser_time: T0 + day * D + 1000, visitor_id: visitor, account_id: account, url: URL_OF(path), props: { target } });
}
const load = (day: number, visitor: string, account: string, path: string) =>
  wireEvent({ type: 'load', browser_time: T0 + day * D + 500, visitor_id: visitor, account_id: account, url: URL_OF(path), props: {} });

/** 4 visitors (v4 without an account), 2 accounts, clicks on days 0-3. */
const EVENTS = [
  load(0, 'v1', 'acme', '/reports/7'),
  click(0, 'v1', 'acme', '/reports/7', EXPORT),
  click(0, 'v1', 'acme', '/reports/7', EXPORT_ICON),
  click(0, 'v2', 'acme', '/settings', EXPORT),
  load(1, 'v2', 'acme', '/reports/9?tab=x'),
  click(1, 'v2', 'acme', '/reports/9', SAVE),
  load(2, 'v3', 'beta', '/reports/7#top'),
  click(2, 'v3', 'beta', '/reports/7', EXPORT_ICON),
  click(2, 'v4', '', '/reports/12', EXPORT),
  load(3, 'v1', 'acme', '/settings'),
  click(3, 'v3', 'beta', '/settings', NAV_LINK),
];

let server: TestServer;
let editor: TestUser;
let viewer: TestUser;

async function beacon(apiKey: string, events: unknown[]) {
  const response = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${nodeJzb(events)}` });
  expect(response.statusCode).toBe(200);
}
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Makes a feature (or a page) and answers its id. */
async function make(kind: 'features' | 'pages', body: object, apiKey = KEY): Promise<string> {
  const response = await call('POST', `/api/apps/${apiKey}/${kind}`, body);
  expect(response.statusCode, response.body).toBe(201);
  expect(Object.keys(response.json())).toEqual(['id']);
  return response.json().id;
}
async function use(apiKey: string, id: string, query = '') {
  const response = await call('GET', `/api/apps/${apiKey}/features/${id}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const counts = async (selector: string, page?: string) => {
  const { events, visitors, accounts } = await use(KEY, await make('features', { name: selector, rule: { selector, ...(page ? { page } : {}) } }));
  return { events, visitors, accounts };
};

beforeAll(async () => {
  server = await startTestServer();
  // Every click is stored before any feature exists.
  await beacon(KEY, EVENTS);
  await beacon(OTHER, [click(0, 'o1', 'other', '/reports/7', EXPORT)]);
  [editor, viewer] = [await makeUser(server.app, 'editor'), await makeUser(server.app, 'viewer')];
}, SERVER_TIMEOUT * 2);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('issue #35 features count the clicks stored before them', () => {
  it('a feature made after the clicks counts them: events, distinct visitors and accounts, a series per UTC day', async () => {
    const id = await make('features', { name: 'Export', rule: { selector: 'button.export' } });
    const feature = await use(KEY, id);
    expect(feature).toEqual({
      id,
      name: 'Export',
      rule: { selector: 'button.export' },
      createdAt: expect.any(Number),
      updatedAt: feature.createdAt,
      range: null,
      // Clicks on the button and on the icon inside it; v4 has no account; the other app's click is not counted.
      events: 5,
      visitors: 4,
      accounts: 2,
      series: [
        { t: T0, events: 3, visitors: 2, accounts: 1 },
        { t: T0 + 2 * D, events: 2, visitors: 2, accounts: 1 },
      ],
      // Its past use counted (issue #35 "Fast at real volumes": the backfill of a small app ends within the read).
      backfill: { state: 'ready', progress: 1 },
    });
  });

  it('from/to: the days of the range only, widened to whole UTC days', async () => {
    const id = await make('features', { name: 'Export in range', rule: { selector: 'button.export' } });
    const feature = await use(KEY, id, `?from=${T0 + D + 5}&to=${T0 + 3 * D - 5}`);
    expect(feature).toMatchObject({ range: { from: T0 + D, to: T0 + 3 * D, bucket: 'day' }, events: 2, visitors: 2, accounts: 1 });
    expect(feature.series).toEqual([{ t: T0 + 2 * D, events: 2, visitors: 2, accounts: 1 }]);
    expect((await use(KEY, id, `?from=${T0 + 3 * D}&to=${T0 + 9 * D}`)).events).toBe(0);
  });

  it('a page-limited feature counts only the clicks on that page', async () => {
    const reports = await make('pages', { name: 'Report', rule: { url: '//*/reports/:id' } });
    const settings = await make('pages', { name: 'Settings', rule: { url: '/settings' } });
    expect(await counts('button.export', reports)).toEqual({ events: 4, visitors: 3, accounts: 2 });
    expect(await counts('button.export', settings)).toEqual({ events: 1, visitors: 1, accounts: 1 });
    expect(await counts('button.save', settings)).toEqual({ events: 0, visitors: 0, accounts: 0 });
  });

  it('selectors over the stored element path: ancestors, positions, attributes, case', async () => {
    expect(await counts('#app main > .toolbar button:nth-child(2)')).toEqual({ events: 5, visitors: 4, accounts: 2 });
    expect(await counts('html body > div#app [data-action="export"]')).toEqual({ events: 5, visitors: 4, accounts: 2 });
    expect(await counts('button:first-child')).toEqual({ events: 1, visitors: 1, accounts: 1 });
    expect(await counts('div:nth-of-type(2) .toolbar button:first-of-type')).toEqual({ events: 1, visitors: 1, accounts: 1 });
    expect(await counts('.toolbar')).toEqual({ events: 6, visitors: 4, accounts: 2 });
    expect(await counts('a[href^="/rep"]')).toEqual({ events: 1, visitors: 1, accounts: 1 });
    expect(await counts('BUTTON.export:not(.primary)')).toEqual({ events: 0, visitors: 0, accounts: 0 });
    // Tags are read without case (HTML), classes with it.
    expect(await counts('Button.EXPORT')).toEqual({ events: 0, visitors: 0, accounts: 0 });
    expect(await counts(':is(span.icon, nav a)')).toEqual({ events: 3, visitors: 2, accounts: 2 });
  });

  it('clicks stored after the feature count too', async () => {
    const id = await make('features', { name: 'Save', rule: { selector: '.save' } }, 'features-later');
    expect((await use('features-later', id)).events).toBe(0);
    await beacon('features-later', [click(5, 'v9', 'gamma', '/x', SAVE), click(5, 'v9', 'gamma', '/x', EXPORT)]);
    expect(await use('features-later', id)).toMatchObject({ events: 1, visitors: 1, accounts: 1, series: [{ t: T0 + 5 * D, events: 1, visitors: 1, accounts: 1 }] });
  });

  it('a stored click that is not an element record matches nothing and breaks nothing', async () => {
    await beacon('features-odd', [
      click(0, 'v1', 'a', '/', { tag: 7 }),
      wireEvent({ type: 'click', browser_time: T0, visitor_id: 'v1', url: URL_OF('/'), props: { target: 'BUTTON' } }),
      click(0, 'v1', 'a', '/', { ...el('BUTTON', { cls: 'save' }), myIndex: -3, childIndex: 1e9, attrs: { x: 5 }, parentElem: [] }),
    ]);
    const id = await make('features', { name: 'Save', rule: { selector: 'button.save:first-child, .save' } }, 'features-odd');
    expect(await use('features-odd', id)).toMatchObject({ events: 1, visitors: 1, accounts: 1 });
  });
});

describe('issue #35 features: list, rename, change, delete, and apps kept apart', () => {
  it('lists, renames, changes the rule, deletes', async () => {
    const id = await make('features', { name: 'Tools', rule: { selector: '.toolbar' } }, 'features-crud');
    const list = await call('GET', '/api/apps/features-crud/features');
    expect(list.json()).toEqual([{ id, name: 'Tools', rule: { selector: '.toolbar' }, createdAt: expect.any(Number), updatedAt: expect.any(Number) }]);
    const renamed = await call('PATCH', `/api/apps/features-crud/features/${id}`, { name: '  Toolbar  ' });
    expect([renamed.statusCode, renamed.json().name, renamed.json().rule]).toEqual([200, 'Toolbar', { selector: '.toolbar' }]);
    const page = await make('pages', { name: 'Reports', rule: { url: '/reports/**' } }, 'features-crud');
    const changed = await call('PATCH', `/api/apps/features-crud/features/${id}`, { rule: { selector: 'button.save', page } });
    expect([changed.statusCode, changed.json().name, changed.json().rule]).toEqual([200, 'Toolbar', { selector: 'button.save', page }]);
    // The page cannot go while the feature is limited to it.
    const inUse = await call('DELETE', `/api/apps/features-crud/pages/${page}`);
    expect([inUse.statusCode, inUse.json().error]).toEqual([409, `page '${page}' is the page of feature 'Toolbar': change or delete it first`]);
    expect((await call('DELETE', `/api/apps/features-crud/features/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/apps/features-crud/features/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/apps/features-crud/features/${id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/apps/features-crud/features')).json()).toEqual([]);
    expect((await call('DELETE', `/api/apps/features-crud/pages/${page}`)).statusCode).toBe(204);
    const audit = await call('GET', '/api/audit?apiKey=features-crud&action=feature.');
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual(['feature.deleted', 'feature.updated', 'feature.updated', 'feature.created']);
  });

  it('an id of another app is a 404 everywhere; a page of another app cannot limit a feature', async () => {
    const id = await make('features', { name: 'Export', rule: { selector: '.export' } });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await call(method, `/api/apps/${OTHER}/features/${id}`, method === 'PATCH' ? { name: 'Mine' } : undefined);
      expect([method, response.statusCode]).toEqual([method, 404]);
    }
    expect((await use(KEY, id)).name).toBe('Export');
    const page = await make('pages', { name: 'Reports', rule: { url: '/reports/*' } });
    const refused = await call('POST', `/api/apps/${OTHER}/features`, { name: 'x', rule: { selector: 'a', page } });
    expect([refused.statusCode, refused.json().field]).toEqual([400, 'rule.page']);
    const patched = await call('PATCH', `/api/apps/${OTHER}/features/${await make('features', { name: 'y', rule: { selector: 'a' } }, OTHER)}`, { rule: { selector: 'a', page } });
    expect([patched.statusCode, patched.json().field]).toEqual([400, 'rule.page']);
  });
});

describe('issue #35 features: roles', () => {
  it('401 without credentials; viewers read, editors write, a viewer writing is 403', async () => {
    const id = await make('features', { name: 'Export', rule: { selector: '.export' } });
    for (const [method, url] of [['GET', `/api/apps/${KEY}/features`], ['GET', `/api/apps/${KEY}/features/${id}`], ['POST', `/api/apps/${KEY}/features`], ['DELETE', `/api/apps/${KEY}/features/${id}`]] as const) {
      expect((await call(method, url, method === 'POST' ? { name: 'n', rule: { selector: 'a' } } : undefined, {})).statusCode).toBe(401);
    }
    expect((await call('GET', `/api/apps/${KEY}/features/${id}`, undefined, viewer.bearer)).json().events).toBe(5);
    expect((await call('GET', `/api/apps/${KEY}/features`, undefined, viewer.console)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', `/api/apps/${KEY}/features`, { name: 'n', rule: { selector: 'a' } }],
      ['PATCH', `/api/apps/${KEY}/features/${id}`, { name: 'n' }],
      ['DELETE', `/api/apps/${KEY}/features/${id}`, undefined],
    ] as const) {
      const refused = await call(method, url, body, viewer.bearer);
      expect([refused.statusCode, refused.json().error]).toEqual([403, 'this needs the editor role; you are a viewer']);
    }
    const made = await call('POST', `/api/apps/${KEY}/features`, { name: 'By an editor', rule: { selector: 'nav a' } }, editor.bearer);
    expect(made.statusCode).toBe(201);
    expect((await call('DELETE', `/api/apps/${KEY}/features/${made.json().id}`, undefined, editor.console)).statusCode).toBe(204);
  });
});

describe('issue #35 features: bad input is a 400 naming the field', () => {
  const refused = async (body: unknown, field: string, contentType = 'application/json') => {
    const response = await server.app.inject({
      method: 'POST', url: `/api/apps/${KEY}/features`, headers: { ...ADMIN_HEADERS, 'content-type': contentType },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect([response.statusCode, response.json().field], JSON.stringify(body).slice(0, 80)).toEqual([400, field]);
    return response.json().error as string;
  };
  const rule = { selector: 'button' };

  it('the body and the name', async () => {
    for (const body of ['[]', '"x"', 'null', '7']) await refused(body, 'body');
    await refused('not json', 'body', 'text/plain');
    expect(await refused({ rule }, 'name')).toBe('name must be text of 1 to 200 characters without control characters or line breaks');
    for (const name of ['', '   ', 7, null, ['Export'], { en: 'Export' }, 'x'.repeat(201), 'x'.repeat(600_000), 'a\nb', 'a\u0000b', '\ud800']) await refused({ name, rule }, 'name');
    expect(await refused({ name: 'n', rule, color: 'red' }, 'color')).toBe('unknown field "color" (known: name, rule, eventProperties)');
    expect(await refused({ name: 'n', rule, ['k'.repeat(5000)]: 1 }, 'k'.repeat(40))).toContain(`"${'k'.repeat(40)}"`);
  });

  it('the rule, its selector and its page', async () => {
    for (const bad of [undefined, null, 'button', ['button'], 5]) await refused({ name: 'n', rule: bad }, 'rule');
    expect(await refused({ name: 'n', rule: { selector: 'a', url: '/x' } }, 'rule.url')).toBe('unknown field "rule.url" (known: rule.selector, rule.page)');
    for (const selector of [undefined, '', '  ', 5, ['a'], { a: 1 }, 'a'.repeat(1001), 'a\u0000']) await refused({ name: 'n', rule: { selector } }, 'rule.selector');
    for (const page of [5, '', ['p'], 'p'.repeat(101), 'no-such-page']) await refused({ name: 'n', rule: { selector: 'a', page } }, 'rule.page');
  });

  it('selectors that do not parse, and those the stored path cannot answer, each with its reason', async () => {
    const reasons: Record<string, RegExp> = {
      'a[': /not a CSS selector/,
      'button + button': /\+ combinator/,
      'li ~ li': /~ combinator/,
      'li:last-child': /siblings after/,
      'li:nth-child(2 of .x)': /An\+B of S/,
      'div:has(span)': /children/,
      ':empty': /children/,
      'a:hover': /state/,
      'input:checked': /state/,
      'a:contains(Save)': /text/,
      ':root > body': /root/,
      'a::before': /pseudo-element/,
      '> button': /start with a combinator/,
      'svg|rect': /namespace/,
      '[style*=red]': /style attribute/,
      ':not(:not(:not(:not(:not(:not(:not(:not(:not(a)))))))))': /nests/,
      'li:nth-child(foo)': /not a CSS selector/,
      ':not(a + b)': /\+ combinator/,
    };
    for (const [selector, reason] of Object.entries(reasons)) {
      expect([selector, await refused({ name: 'n', rule: { selector } }, 'rule.selector')]).toEqual([selector, expect.stringMatching(reason)]);
    }
  });

  it('PATCH: nothing to change, or a bad field; a body too large for the server is 413', async () => {
    const id = await make('features', { name: 'n', rule: { selector: 'a' } });
    for (const [body, field] of [[{}, 'body'], [{ name: '' }, 'name'], [{ rule: { selector: 'a +' } }, 'rule.selector'], [[], 'body']] as const) {
      const response = await call('PATCH', `/api/apps/${KEY}/features/${id}`, body);
      expect([response.statusCode, response.json().field]).toEqual([400, field]);
    }
    const huge = await call('POST', `/api/apps/${KEY}/features`, { name: 'x'.repeat(2 * 1024 * 1024), rule });
    expect(huge.statusCode).toBe(413);
  });

  it('paths and queries as an attacker spells them', async () => {
    expect((await call('GET', `/api/apps/${KEY}/features/%2e%2e`)).statusCode).toBe(404);
    expect((await call('GET', `/api/apps/${KEY}/features/..%2F..%2Fpages`)).statusCode).toBe(404);
    expect((await call('GET', `/api/apps/${KEY}/features/${'9'.repeat(150)}`)).statusCode).toBe(404);
    const nul = await call('GET', `/api/apps/${KEY}/features/%00`);
    expect([nul.statusCode, nul.json().field]).toEqual([400, 'id']);
    expect((await call('GET', `/api/apps/%66eatures-crud/features`)).json()).toEqual([]);
    const id = await make('features', { name: 'n', rule: { selector: 'a' } });
    for (const [query, field] of [['?from=abc', 'from'], ['?to=-1', 'to'], ['?from=5&from=6', 'from'], [`?from=${T0}&to=${T0 - 1}`, 'from'], ['?bucket=hour', 'bucket']]) {
      const response = await call('GET', `/api/apps/${KEY}/features/${id}${query}`);
      expect([query, response.statusCode, response.json().field]).toEqual([query, 400, field]);
    }
  });
});

describe('issue #35 compileSelector: the stored path through css-select', () => {
  it('matches the clicked element or an ancestor; positions from myIndex and childIndex', () => {
    const match = (selector: string, target: object) => {
      const compiled = compileSelector(selector);
      if ('problem' in compiled) throw new Error(compiled.problem);
      return compiled.matchesClick(target);
    };
    expect(match('button.export > span', EXPORT_ICON)).toBe(true);
    expect(match('.toolbar > span', EXPORT_ICON)).toBe(false);
    expect(match('button:nth-of-type(2)', EXPORT)).toBe(true);
    expect(match('button:nth-of-type(1)', EXPORT)).toBe(false);
    expect(match('div#app:nth-child(3)', SAVE)).toBe(true);
    expect(match('div#app:nth-of-type(2)', SAVE)).toBe(true);
    expect(match('[title]', SAVE)).toBe(false);
    expect(match('[type=BUTTON i]', EXPORT)).toBe(true);
    // A path cut before BODY has nothing above its last level.
    expect(match('body .toolbar', TOOLBAR)).toBe(true);
    expect(match('body .toolbar', el('DIV', { cls: 'toolbar' }))).toBe(false);
  });
});
