/**
 * issue #35 "Funnels, paths, retention" (paths): `POST /api/apps/{apiKey}/paths` over events stored through the
 * real beacons before the question, with the exact counts a hand count gives on a small known set: next and
 * previous, the depth cut, `(end)`, sessions broken by their id and by a 30-minute gap, repeats collapsed, a page's
 * rule before a raw path, clicks no feature matches left out, `(other)` past `top`, visitors beside occurrences;
 * refusals naming the field, roles, bounds. On PGlite here and on the real PostgreSQL (vitest.postgres.config.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleStore } from '../../server/analytics/createRuleStore';
import { MAX_PATH_EVENTS, PATH_VISITOR_BATCH, queryPaths } from '../../server/analytics/pathsQuery';
import type { Database } from '../../server/storage/Database';
import { analyticsRequests } from './analyticsRequests';
import { HELP, pathEvents } from './pathEvents';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

const M = 60_000;
const H = 60 * M;
const D = 24 * H;
const T0 = Date.UTC(2026, 1, 2);
const KEY = 'paths-app';
const OTHER = 'paths-other-app';
const RANGE = { from: T0, to: T0 + D };

const { load, click, track } = pathEvents(T0);

/**
 * Pages Home (`/home`), Reports (any host's `/reports/:id`), then Everything under reports (`/reports/` and below, made after Reports:
 * never a load's page); the feature Export (`button.export`); `button.help` is no feature.
 * - v1 (session s1): Home, Home again with a query (one step), a Help click (no step), Reports, Export, /settings;
 * - v2: Home, /settings in s2; Reports in s3 (another session);
 * - v3 (no session id): Home, `track: report shared` 10 min later, Reports 40 min after that (another session);
 * - v4 (s4): Home, Reports, Home, Reports: two occurrences of Home;
 * - v5 (s5): Home 30 min before the range, Reports inside it: a path from Home never begins;
 * - v6 (s6): Reports, Export twice in a row (one step), /help.
 */
const EVENTS = [
  load(0, 'v1', 's1', '/home'),
  load(1 * M, 'v1', 's1', '/home?tab=2'),
  click(2 * M, 'v1', 's1', '/home', HELP),
  load(3 * M, 'v1', 's1', '/reports/7'),
  click(4 * M, 'v1', 's1', '/reports/7'),
  load(5 * M, 'v1', 's1', '/settings?x=1'),
  load(H, 'v2', 's2', '/home'),
  load(H + M, 'v2', 's2', '/settings'),
  load(H + 2 * M, 'v2', 's3', '/reports/1'),
  load(2 * H, 'v3', null, '/home'),
  track(2 * H + 10 * M, 'v3', null, 'report shared'),
  load(2 * H + 50 * M, 'v3', null, '/reports/2'),
  load(3 * H, 'v4', 's4', '/home'),
  load(3 * H + M, 'v4', 's4', '/reports/3'),
  load(3 * H + 2 * M, 'v4', 's4', '/home'),
  load(3 * H + 3 * M, 'v4', 's4', '/reports/4'),
  load(-30 * M, 'v5', 's5', '/home'),
  load(M, 'v5', 's5', '/reports/5'),
  load(4 * H, 'v6', 's6', '/reports/6'),
  click(4 * H + M, 'v6', 's6', '/reports/6'),
  click(4 * H + 2 * M, 'v6', 's6', '/reports/6'),
  load(4 * H + 3 * M, 'v6', 's6', '/help'),
];

let server: TestServer;
let viewer: TestUser;
let ids: { home: string; reports: string; everything: string; export: string; otherPage: string };

const { beacon, post, make } = analyticsRequests(() => server, KEY);
async function paths(body: object, apiKey = KEY) {
  const response = await post(`/api/apps/${apiKey}/paths`, { ...RANGE, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
/** Nodes as `id count/visitors`, links as `source > target count/visitors`: a whole answer readable in one line each. */
const nodesOf = (answer: { nodes: Array<{ id: string; count: number; visitors: number }> }) => answer.nodes.map((n) => `${n.id} ${n.count}/${n.visitors}`);
const linksOf = (answer: { links: Array<{ source: string; target: string; count: number; visitors: number }> }) =>
  answer.links.map((l) => `${l.source} > ${l.target} ${l.count}/${l.visitors}`);

beforeAll(async () => {
  server = await startTestServer();
  // Everything is stored before any page or feature exists.
  await beacon(KEY, EVENTS);
  await beacon(OTHER, [load(0, 'o1', 'o', '/home')]);
  ids = {
    home: await make('pages', { name: 'Home', rule: { url: '/home' } }),
    reports: await make('pages', { name: 'Reports', rule: { url: '//*/reports/:id' } }),
    everything: await make('pages', { name: 'Everything under reports', rule: { url: '/reports/**' } }),
    export: await make('features', { name: 'Export', rule: { selector: 'button.export' } }),
    otherPage: await make('pages', { name: 'Home', rule: { url: '/home' } }, OTHER),
  };
  viewer = await makeUser(server.app, 'viewer');
}, SERVER_TIMEOUT * 2);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('issue #35 paths: the steps after and before a start, counted exactly', () => {
  it('next from a page, depth 3: pages before raw paths, repeats collapsed, unmatched clicks left out, sessions, (end)', async () => {
    const answer = await paths({ start: { page: ids.home } });
    const [home, reports, exp] = [`page:${ids.home}`, `page:${ids.reports}`, `feature:${ids.export}`];
    expect(answer).toMatchObject({ start: { label: 'Home', kind: 'page', ref: ids.home }, direction: 'next', depth: 3, ...RANGE, occurrences: 5, visitors: 4 });
    expect(nodesOf(answer)).toEqual([
      `0/${home} 5/4`,
      // v1 (past the Help click and the repeated Home), v4 twice.
      `1/${reports} 3/2`,
      '1/track:report shared 1/1',
      '1/url:/settings 1/1',
      `2/${exp} 1/1`,
      `2/${home} 1/1`,
      // v2 (s3 is another session), v3 (40 minutes later), v4's second Home.
      '2/end: 3/3',
      `3/${reports} 1/1`,
      '3/url:/settings 1/1',
    ]);
    expect(linksOf(answer)).toEqual([
      `0/${home} > 1/${reports} 3/2`,
      `0/${home} > 1/track:report shared 1/1`,
      `0/${home} > 1/url:/settings 1/1`,
      `1/${reports} > 2/end: 1/1`,
      `1/${reports} > 2/${exp} 1/1`,
      `1/${reports} > 2/${home} 1/1`,
      `1/track:report shared > 2/end: 1/1`,
      `1/url:/settings > 2/end: 1/1`,
      `2/${exp} > 3/url:/settings 1/1`,
      `2/${home} > 3/${reports} 1/1`,
    ]);
    const settings = answer.nodes.find((n: { id: string }) => n.id === '1/url:/settings');
    expect(settings).toEqual({ id: '1/url:/settings', level: 1, label: '/settings', kind: 'url', count: 1, visitors: 1 });
    expect(answer.nodes.find((n: { id: string }) => n.id === `2/${exp}`)).toEqual({ id: `2/${exp}`, level: 2, label: 'Export', kind: 'feature', ref: ids.export, count: 1, visitors: 1 });
  });

  it('depth cuts the paths: depth 1 has no (end) when every path has a first step', async () => {
    const answer = await paths({ start: { page: ids.home }, depth: 1 });
    expect(nodesOf(answer)).toEqual([`0/page:${ids.home} 5/4`, `1/page:${ids.reports} 3/2`, '1/track:report shared 1/1', '1/url:/settings 1/1']);
    expect(answer.links).toHaveLength(3);
  });

  it('top: the most common steps of each level keep their node, the rest are (other); paths go on through it', async () => {
    const answer = await paths({ start: { page: ids.home }, top: 1 });
    const [home, reports, exp] = [`page:${ids.home}`, `page:${ids.reports}`, `feature:${ids.export}`];
    // Level 2 and 3 tie at 1 path each: the first key in code-unit order is kept (feature: < page: < url:).
    expect(nodesOf(answer)).toEqual([`0/${home} 5/4`, `1/${reports} 3/2`, '1/other: 2/2', `2/${exp} 1/1`, '2/other: 1/1', '2/end: 3/3', `3/${reports} 1/1`, '3/other: 1/1']);
    expect(linksOf(answer)).toEqual([
      `0/${home} > 1/${reports} 3/2`,
      `0/${home} > 1/other: 2/2`,
      `1/other: > 2/end: 2/2`,
      `1/${reports} > 2/end: 1/1`,
      `1/${reports} > 2/${exp} 1/1`,
      `1/${reports} > 2/other: 1/1`,
      `2/${exp} > 3/other: 1/1`,
      `2/other: > 3/${reports} 1/1`,
    ]);
    expect(answer.nodes.find((n: { id: string }) => n.id === '1/other:')).toEqual({ id: '1/other:', level: 1, label: '(other)', kind: 'other', count: 2, visitors: 2 });
  });

  it('previous from a feature: the steps before it, nearest first, links in time order', async () => {
    const answer = await paths({ start: { feature: ids.export }, direction: 'previous' });
    const [home, reports, exp] = [`page:${ids.home}`, `page:${ids.reports}`, `feature:${ids.export}`];
    // v1: Reports, Home (the Help click left out, the two Home loads one step), (end); v6: Reports, (end): its two
    // Export clicks are one occurrence.
    expect(answer).toMatchObject({ start: { label: 'Export', kind: 'feature', ref: ids.export }, direction: 'previous', occurrences: 2, visitors: 2 });
    expect(nodesOf(answer)).toEqual([`0/${exp} 2/2`, `1/${reports} 2/2`, `2/${home} 1/1`, '2/end: 1/1', '3/end: 1/1']);
    expect(linksOf(answer)).toEqual([`1/${reports} > 0/${exp} 2/2`, `2/end: > 1/${reports} 1/1`, `2/${home} > 1/${reports} 1/1`, `3/end: > 2/${home} 1/1`]);
  });

  it('a track event as the start; the 30-minute gap ends a session without ids', async () => {
    const next = await paths({ start: { track: 'report shared' }, depth: 2 });
    expect(next).toMatchObject({ start: { label: 'track: report shared', kind: 'track' }, occurrences: 1, visitors: 1 });
    expect(nodesOf(next)).toEqual(['0/track:report shared 1/1', '1/end: 1/1']);
    const previous = await paths({ start: { track: 'report shared' }, direction: 'previous', depth: 2 });
    expect(nodesOf(previous)).toEqual(['0/track:report shared 1/1', `1/page:${ids.home} 1/1`, '2/end: 1/1']);
  });

  it('only occurrences in [from, to) begin a path (a run of repeats from where it began); its steps may follow up to 2 hours past to', async () => {
    // v5's Home is 30 minutes before T0: from T0 - 1 h it begins a path to Reports.
    const wider = await paths({ start: { page: ids.home }, depth: 1, from: T0 - H });
    expect(wider).toMatchObject({ occurrences: 6, visitors: 5 });
    // v1's Home at T0 and nothing else in [T0, T0 + 1 ms); its next steps still count.
    const first = await paths({ start: { page: ids.home }, depth: 1, from: T0, to: T0 + 1 });
    expect(nodesOf(first)).toEqual([`0/page:${ids.home} 1/1`, `1/page:${ids.reports} 1/1`]);
    // v1's second Home load (T0 + 1 min) repeats the one at T0: one step that began before this range.
    expect(await paths({ start: { page: ids.home }, from: T0 + 30_000, to: T0 + 2 * M })).toMatchObject({ occurrences: 0, nodes: [] });
  });

  it('nothing: a start never seen answers no nodes; an app with no events likewise', async () => {
    expect(await paths({ start: { track: 'never' } })).toMatchObject({ occurrences: 0, visitors: 0, nodes: [], links: [] });
    expect(await paths({ start: { page: ids.everything } })).toMatchObject({ start: { label: 'Everything under reports' }, occurrences: 0, nodes: [] });
    expect(await paths({ start: { track: 'x' } }, 'paths-empty-app')).toMatchObject({ occurrences: 0, nodes: [], links: [] });
  });
});

describe('issue #35 paths read only the timelines of the visitors who did the start ("Fast at real volumes")', () => {
  const CROWD = 'paths-crowd-app';
  const FIRST = 'paths-first-rule-app';
  /** An answer with the ids of `made` read as their names, so answers of two apps compare. */
  const named = (answer: object, made: Record<string, string>) =>
    Object.entries(made).reduce((text, [name, id]) => text.replaceAll(id, name), JSON.stringify(answer));
  let crowdIds: Record<string, string>;
  let firstIds: Record<string, string>;

  beforeAll(async () => {
    // The same events as KEY's, and 150 visitors who never do the start in the range: Home only 3 hours before it
    // (past the margin) or at its end, a page no rule names, Help clicks, track events, two sessions each.
    const crowd = Array.from({ length: 150 }, (_, n) => {
      const v = `crowd-${n}`;
      const t = (n % 20) * H;
      return [
        load(n % 3 === 0 ? -3 * H : D, v, `c${n}`, '/home'),
        load(t, v, `d${n}`, `/reports/${n}`),
        click(t + M, v, `d${n}`, `/reports/${n}`, HELP),
        track(t + 2 * M, v, `d${n}`, 'report viewed'),
        load(t + 3 * M, v, `d${n}`, '/homepage'),
        load(t + 4 * M, v, `d${n}`, '/settings'),
      ];
    }).flat();
    // 2,000 more who do `track: report viewed` then /homepage: with the 150, more visitors than one batch reads.
    const viewers = Array.from({ length: PATH_VISITOR_BATCH }, (_, n) => [
      track(n * 1000, `viewer-${n}`, `e${n}`, 'report viewed'), load(n * 1000 + 500, `viewer-${n}`, `e${n}`, '/homepage'),
    ]).flat();
    for (const events of [crowd, viewers]) for (let i = 0; i < events.length; i += 1000) await beacon(CROWD, events.slice(i, i + 1000));
    await beacon(CROWD, EVENTS);
    crowdIds = {
      HOME: await make('pages', { name: 'Home', rule: { url: '/home' } }, CROWD),
      REPORTS: await make('pages', { name: 'Reports', rule: { url: '//*/reports/:id' } }, CROWD),
      EVERYTHING: await make('pages', { name: 'Everything under reports', rule: { url: '/reports/**' } }, CROWD),
      EXPORT: await make('features', { name: 'Export', rule: { selector: 'button.export' } }, CROWD),
    };
    // w1's only load under /reports/ and its clicks: each read as the rule made first that matches it (Export in
    // settings only on the settings page).
    await beacon(FIRST, [load(0, 'w1', 'w', '/reports/9'), click(M, 'w1', 'w', '/reports/9'), load(2 * M, 'w1', 'w', '/settings'), click(3 * M, 'w1', 'w', '/settings')]);
    const reports = await make('pages', { name: 'Reports', rule: { url: '/reports/:id' } }, FIRST);
    const everything = await make('pages', { name: 'Everything under reports', rule: { url: '/reports/**' } }, FIRST);
    const settings = await make('pages', { name: 'Settings', rule: { url: '/settings' } }, FIRST);
    firstIds = {
      REPORTS: reports, EVERYTHING: everything, SETTINGS: settings,
      IN_SETTINGS: await make('features', { name: 'Export in settings', rule: { selector: 'button.export', page: settings } }, FIRST),
      EXPORT: await make('features', { name: 'Export', rule: { selector: 'button.export' } }, FIRST),
      BUTTONS: await make('features', { name: 'Buttons', rule: { selector: 'button' } }, FIRST),
    };
  }, SERVER_TIMEOUT * 2);

  it('the events of 2,150 visitors who never do the start change no answer; a start done by more visitors than one batch', async () => {
    const base = { HOME: ids.home, REPORTS: ids.reports, EVERYTHING: ids.everything, EXPORT: ids.export };
    for (const question of [
      { start: { page: ids.home }, crowd: { page: crowdIds.HOME } },
      { start: { page: ids.home }, crowd: { page: crowdIds.HOME }, direction: 'previous', depth: 5, top: 2 },
      { start: { feature: ids.export }, crowd: { feature: crowdIds.EXPORT }, direction: 'previous' },
      { start: { track: 'report shared' }, crowd: { track: 'report shared' }, depth: 2 },
    ]) {
      const { start, crowd, ...rest } = question;
      const expected = named(await paths({ start, ...rest }), base);
      expect(expected).toMatch(/"occurrences":[1-9]/);
      expect(named(await paths({ start: crowd, ...rest }, CROWD), crowdIds)).toBe(expected);
    }
    // The crowd's steps are there to be read: from a step they did, they make up the paths, over two batches.
    const viewed = 150 + PATH_VISITOR_BATCH;
    expect(await paths({ start: { track: 'report viewed' }, depth: 1 }, CROWD))
      .toMatchObject({ occurrences: viewed, visitors: viewed, nodes: [{ count: viewed, visitors: viewed }, { label: '/homepage', count: viewed, visitors: viewed }] });
  });

  it('a load whose first matching page is another page, a click whose first matching feature is another feature: no occurrence; a feature limited to a page', async () => {
    for (const start of [{ page: firstIds.EVERYTHING }, { feature: firstIds.BUTTONS }]) {
      expect(await paths({ start }, FIRST)).toMatchObject({ occurrences: 0, visitors: 0, nodes: [], links: [] });
    }
    // The same events read from the rules they are: Reports, Export, Settings, Export in settings.
    expect(nodesOf(await paths({ start: { page: firstIds.REPORTS } }, FIRST))).toEqual([
      `0/page:${firstIds.REPORTS} 1/1`, `1/feature:${firstIds.EXPORT} 1/1`, `2/page:${firstIds.SETTINGS} 1/1`, `3/feature:${firstIds.IN_SETTINGS} 1/1`,
    ]);
    // A feature limited to a page: only its click on that page.
    expect(nodesOf(await paths({ start: { feature: firstIds.IN_SETTINGS }, direction: 'previous', depth: 1 }, FIRST)))
      .toEqual([`0/feature:${firstIds.IN_SETTINGS} 1/1`, `1/page:${firstIds.SETTINGS} 1/1`]);
    expect(await paths({ start: { feature: firstIds.EXPORT } }, FIRST)).toMatchObject({ occurrences: 1, visitors: 1 });
  });
});

describe('issue #35 paths: roles', () => {
  it('401 without credentials; viewers may ask; a designer session is refused', async () => {
    const body = { ...RANGE, start: { page: ids.home } };
    expect((await post(`/api/apps/${KEY}/paths`, body, {})).statusCode).toBe(401);
    const byViewer = await post(`/api/apps/${KEY}/paths`, body, viewer.bearer);
    expect([byViewer.statusCode, byViewer.json().occurrences]).toEqual([200, 5]);
    expect((await post(`/api/apps/${KEY}/paths`, body, viewer.console)).statusCode).toBe(200);
    const designer = await post('/api/designer-sessions', { apiKey: KEY });
    const refused = await post(`/api/apps/${KEY}/paths`, body, { authorization: `Bearer ${designer.json().token}` });
    expect([refused.statusCode, refused.json().error]).toEqual([403, expect.stringMatching(/^a designer session may only/)]);
  });
});

describe('issue #35 paths: bad input is a 400 naming the field', () => {
  const refused = async (body: unknown, field: string, apiKey = KEY) => {
    const response = await server.app.inject({
      method: 'POST', url: `/api/apps/${apiKey}/paths`, headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect([response.statusCode, response.json().field], JSON.stringify(body).slice(0, 120)).toEqual([400, field]);
    return response.json().error as string;
  };
  const ask = (fields: object) => ({ ...RANGE, start: { page: ids.home }, ...fields });

  it('the body and its fields', async () => {
    for (const body of ['[]', '"x"', 'null', '7']) await refused(body, 'body');
    expect(await refused(ask({ color: 'red' }), 'color')).toBe('unknown field "color" (known: start, direction, depth, top, from, to)');
    await refused(ask({ ['k'.repeat(5000)]: 1 }), 'k'.repeat(40));
    for (const direction of ['up', '', null, 1, ['next']]) await refused(ask({ direction }), 'direction');
    for (const depth of [0, 6, -1, 2.5, '3', null, 1e300]) await refused(ask({ depth }), 'depth');
    for (const top of [0, 21, 1e9, '8', null, 1.5]) await refused(ask({ top }), 'top');
    for (const from of [undefined, null, '0', -1, 1.5, 2 ** 60]) await refused(ask({ from }), 'from');
    for (const to of [undefined, '1', -5, 1e300]) await refused(ask({ to }), 'to');
    expect(await refused(ask({ from: T0, to: T0 }), 'from')).toBe('from must be before to');
    expect(await refused(ask({ from: T0, to: T0 + 92 * D + 1 }), 'to')).toMatch(/92 days/);
  });

  it('the start: its shape, unknown ids, ids of another app, no guide', async () => {
    await refused({ ...RANGE }, 'start');
    for (const start of [null, 'home', [], 5, {}, { page: ids.home, track: 'x' }]) await refused(ask({ start }), 'start');
    expect(await refused(ask({ start: { guide: 'g1', event: 'seen' } }), 'start.guide')).toMatch(/unknown field "start\.guide"/);
    await refused(ask({ start: { track: 'a', event: 'seen' } }), 'start.event');
    for (const page of ['', 5, ['x'], 'p'.repeat(201), 'a\u0000']) await refused(ask({ start: { page } }), 'start.page');
    for (const track of ['', 7, 't'.repeat(201), '\ud800']) await refused(ask({ start: { track } }), 'start.track');
    expect(await refused(ask({ start: { page: 'no-such-page' } }), 'start.page')).toBe("start.page 'no-such-page' is not a page of this app (GET .../pages)");
    await refused(ask({ start: { feature: ids.home } }), 'start.feature');
    // Another app's page reads as unknown, both ways.
    await refused(ask({ start: { page: ids.otherPage } }), 'start.page');
    await refused(ask({ start: { page: ids.home } }), 'start.page', OTHER);
  });

  it('bounds: depth 5, top 20 and 92 days are allowed; a body over 8 KB is 413', async () => {
    const widest = await paths({ start: { page: ids.home }, depth: 5, top: 20, from: T0 - 46 * D, to: T0 + 46 * D });
    expect(widest).toMatchObject({ depth: 5, occurrences: 6, visitors: 5 });
    const huge = await post(`/api/apps/${KEY}/paths`, { ...RANGE, start: { track: 'x'.repeat(9000) } });
    expect(huge.statusCode).toBe(413);
  });

  it(`more than ${MAX_PATH_EVENTS} events in the range is a 400 naming to, not a sample`, async () => {
    const rules = { getPage: async () => ({ id: 'p', name: 'P', rule: { url: '/p' }, createdAt: 0, updatedAt: 0 }), listFeatures: async () => [], listPages: async () => [] } as unknown as RuleStore;
    let limit = 0;
    const db = { query: async (_sql: string, params: unknown[]) => {
      limit = Number(params[3]);
      return { rows: Array.from({ length: limit }, (_, i) => ({ visitor: 'v', time: i, type: 'load', session: null, url: '/p', target: null, track: null })) };
    } } as unknown as Database;
    const question = { start: { page: 'p' }, direction: 'next' as const, depth: 3, top: 8, ...RANGE };
    await expect(queryPaths(db, rules, 'k', question)).rejects.toMatchObject({ statusCode: 400, field: 'to', message: expect.stringMatching(/more than 500000/) });
    expect(limit).toBe(MAX_PATH_EVENTS + 1);
  });
});
