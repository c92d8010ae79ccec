/**
 * issue #35 "Funnels, paths, retention", retention: `POST /api/apps/{apiKey}/retention` over events stored through the
 * real beacons, with the counts a hand count gives on a small known set: cohorts by the UTC week of first use over all
 * stored time (a visitor first seen before `from` is in no cohort), returns counted from each one's own first use
 * (day 6 is week 0, day 7 week 1, day 14 - 1 ms week 1, day 14 week 2), a week not yet passed for every member is
 * null, a start feature and a return page, by account; refusals naming the field, roles, bounds.
 * (Not retention.test.ts: that is the retention of stored data.) On PGlite here and on the real PostgreSQL
 * (vitest.postgres.config.ts runs every test/server file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionAnswer } from '../../server/analytics/retentionQuery';
import { weekOf, WEEK_MS } from '../../shared/analytics/utcWeek';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const H = 3_600_000;
const D = 24 * H;
const W = 7 * D;
/** Monday 5 January 2026, 00:00 UTC: the first cohort week. */
const W0 = Date.UTC(2026, 0, 5);
/** The server's clock in most tests: Thursday of the sixth week, W0 + 5 weeks + 3 days. */
const NOW = W0 + 5 * W + 3 * D;
const KEY = 'retention-app';
/** The app of the feature and page steps. */
const FKEY = 'retention-steps-app';
/** Cohort weeks W0 to W0 + 3 weeks. */
const RANGE = { from: W0, to: W0 + 4 * W };

const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };
const load = (t: number, visitor: string, account: string, path = '/home') =>
  wireEvent({ type: 'load', browser_time: t, visitor_id: visitor, account_id: account, url: `http://app.test${path}`, props: {} });
const click = (t: number, visitor: string, account: string, path = '/home') =>
  wireEvent({ type: 'click', browser_time: t, visitor_id: visitor, account_id: account, url: `http://app.test${path}`, props: { target: EXPORT } });

// First uses (earliest event) of KEY's visitors.
const tA = W0 + D + 10 * H;
const tB = W0 + 2 * D;
const tC = W0 + 3 * D;
const tD = W0 + 4 * D;
const tF = W0 + W + 6 * D + 23 * H;
const tG = W0 + W;
const tH = W0 + 3 * W + 2 * D;

/**
 * KEY: any event is a use.
 * - week W0: a (acme) back on day 6 + 23 h only (week 0); b (acme) on day 7 exactly (week 1); c (beta) on day
 *   14 - 1 ms (week 1); d (beta) on day 14 (week 2);
 * - e (account old) first seen 3 days before W0, then in W0's week and a week later: in no cohort;
 * - week W1: g (gamma) on Monday 00:00, back on day 21 (week 3); f (gamma) on Sunday 23:00, back a day later
 *   (Monday: still its week 0) and on day 8 (week 1);
 * - week W3: h (no account) back on day 7 + 1 h; i first seen on W0 + 4 weeks, the range's end: no cohort.
 */
const EVENTS = [
  load(tA, 'a', 'acme'), load(tA + 6 * D + 23 * H, 'a', 'acme'),
  load(tB, 'b', 'acme'), load(tB + 7 * D, 'b', 'acme'),
  load(tC, 'c', 'beta'), load(tC + 14 * D - 1, 'c', 'beta'),
  load(tD, 'd', 'beta'), load(tD + 14 * D, 'd', 'beta'),
  load(W0 - 3 * D, 'e', 'old'), load(W0 + D, 'e', 'old'), load(W0 + 8 * D, 'e', 'old'),
  load(tF, 'f', 'gamma'), load(tF + D, 'f', 'gamma'), load(tF + 8 * D, 'f', 'gamma'),
  load(tG, 'g', 'gamma'), load(tG + 21 * D, 'g', 'gamma'),
  load(tH, 'h', ''), load(tH + 7 * D + H, 'h', ''),
  load(W0 + 4 * W, 'i', 'acme'), load(W0 + 4 * W + 8 * D, 'i', 'acme'),
];

/**
 * FKEY: the Export feature (button.export anywhere) and the Reports page (/reports/:id).
 * - p: home on day 1, Export on day 2 (first Export: W0), a report 7 days 1 h after that;
 * - q: Export on day 3, home 8 days later (not a report), a report 15 days after Export (week 2);
 * - r: a report on day 1, Export first on W1 + 1 day, a report 7 days after it;
 * - s: reports on day 1 and day 9, never Export;
 * - t: Export the day before W0 and again on day 2: first Export before the range.
 */
const STEP_EVENTS = [
  load(W0 + D, 'p', 'x'), click(W0 + 2 * D, 'p', 'x'), load(W0 + 9 * D + H, 'p', 'x', '/reports/1'),
  click(W0 + 3 * D, 'q', 'x'), load(W0 + 11 * D, 'q', 'x'), load(W0 + 18 * D, 'q', 'x', '/reports/2'),
  load(W0 + D, 'r', 'x', '/reports/3'), click(W0 + W + D, 'r', 'x'), load(W0 + W + 8 * D, 'r', 'x', '/reports/3'),
  load(W0 + D, 's', 'x', '/reports/4'), load(W0 + 9 * D, 's', 'x', '/reports/4'),
  click(W0 - D, 't', 'x'), click(W0 + 2 * D, 't', 'x'),
];

let server: TestServer;
let viewer: TestUser;
/** The server's clock: tests move it. */
let now = NOW;
let ids: { export: string; reports: string };

async function beacon(apiKey: string, events: unknown[]) {
  const response = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${nodeJzb(events)}` });
  expect(response.statusCode).toBe(200);
}
const post = (url: string, payload: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
  server.app.inject({ method: 'POST', url, headers, payload: payload as object });
async function make(kind: 'features' | 'pages', body: object): Promise<string> {
  const response = await post(`/api/apps/${FKEY}/${kind}`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}
async function retention(body: object, apiKey = KEY) {
  const response = await post(`/api/apps/${apiKey}/retention`, { ...RANGE, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const nulls = (n: number) => new Array<null>(n).fill(null);
const cohortsOf = (answer: { cohorts: Array<{ week: number; size: number; back: unknown[] }> }) =>
  answer.cohorts.map((c) => [(c.week - W0) / W, c.size, c.back]);

beforeAll(async () => {
  server = await startTestServer({}, { analyticsNow: () => now });
  // Everything is stored before any feature, page or question exists.
  await beacon(KEY, EVENTS);
  await beacon(FKEY, STEP_EVENTS);
  ids = {
    export: await make('features', { name: 'Export', rule: { selector: 'button.export' } }),
    reports: await make('pages', { name: 'Reports', rule: { url: '//*/reports/:id' } }),
  };
  viewer = await makeUser(server.app, 'viewer');
}, SERVER_TIMEOUT * 2);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('issue #35 retention: cohorts by the week of first use, counted exactly', () => {
  it('visitors: weeks counted from each first use, null until the week has passed for every member', async () => {
    expect(await retention({})).toEqual({
      weeks: 8,
      by: 'visitor',
      cohorts: [
        // a (day 6 + 23 h: week 0), b (day 7: week 1), c (day 14 - 1 ms: week 1), d (day 14: week 2); e was first
        // seen before W0. Latest first use d's (W0 + 4 d): weeks 1 to 3 have passed by NOW.
        { week: W0, size: 4, back: [4, 2, 1, 0, ...nulls(5)] },
        // f back on day 1 (week 0) and day 8 (week 1); g's return in week 3 is not answered: f's week 3 has not passed.
        { week: W0 + W, size: 2, back: [2, 1, 0, ...nulls(6)] },
        { week: W0 + 3 * W, size: 1, back: [1, 1, ...nulls(7)] },
      ],
      overall: [
        { week: 0, share: 1, cohorts: 3 },
        { week: 1, share: 0.5714, cohorts: 3 },
        { week: 2, share: 0.1667, cohorts: 2 },
        { week: 3, share: 0, cohorts: 1 },
        ...[4, 5, 6, 7, 8].map((week) => ({ week, share: null, cohorts: 0 })),
      ],
    });
  });

  it('a week is answered from the millisecond it has passed for the cohort\'s latest first use', async () => {
    try {
      now = tF + 4 * W - 1;
      expect((await retention({ weeks: 3 })).cohorts[1]).toEqual({ week: W0 + W, size: 2, back: [2, 1, 0, null] });
      now = tF + 4 * W;
      expect((await retention({ weeks: 3 })).cohorts[1]).toEqual({ week: W0 + W, size: 2, back: [2, 1, 0, 1] });
    } finally {
      now = NOW;
    }
  });

  it('first use is over all stored time: a range starting earlier holds the visitor first seen before W0', async () => {
    const earlier = await retention({ from: W0 - W, weeks: 2 });
    // e: first on W0 - 3 d, back on W0 + 1 d (day 4: week 0) and W0 + 8 d (day 11: week 1).
    expect(cohortsOf(earlier)).toEqual([[-1, 1, [1, 1, 0]], [0, 4, [4, 2, 1]], [1, 2, [2, 1, 0]], [3, 1, [1, 1, null]]]);
    // Cohort weeks start in [from, to): a `to` inside W3's week leaves it in, one on its Monday leaves it out.
    expect(cohortsOf(await retention({ to: W0 + 3 * W + 1, weeks: 1 }))).toEqual([[0, 4, [4, 2]], [1, 2, [2, 1]], [3, 1, [1, 1]]]);
    expect(cohortsOf(await retention({ to: W0 + 3 * W, weeks: 1 }))).toEqual([[0, 4, [4, 2]], [1, 2, [2, 1]]]);
    // A `from` after W0's Monday leaves W0's cohort out; a visitor's first use never moves into the next week.
    expect(cohortsOf(await retention({ from: W0 + 1, weeks: 1 }))).toEqual([[1, 2, [2, 1]], [3, 1, [1, 1]]]);
  });

  it('by account: first use is the earliest member\'s, back when any member is; no account, no cohort', async () => {
    expect(await retention({ by: 'account', weeks: 5 })).toEqual({
      weeks: 5,
      by: 'account',
      cohorts: [
        // acme from a (W0 + 1 d 10 h): b's day-7 return is 7 d 14 h after it (week 1), and i, a member first seen
        // after the range, is acme back in weeks 3 and 4 (W0 + 28 d, W0 + 36 d). beta from c (W0 + 3 d): c's day
        // 14 - 1 ms is week 1, d's day 18 week 2. Latest first use W0 + 3 d: weeks 1 to 4 have passed.
        { week: W0, size: 2, back: [2, 2, 1, 1, 1, null] },
        // gamma from g (W1 Monday): f's returns 7 d 23 h (week 1) and 14 d 23 h (week 2) after it, g's day 21 week 3.
        { week: W0 + W, size: 1, back: [1, 1, 1, 1, null, null] },
      ],
      overall: [
        { week: 0, share: 1, cohorts: 2 },
        { week: 1, share: 1, cohorts: 2 },
        { week: 2, share: 0.6667, cohorts: 2 },
        { week: 3, share: 0.6667, cohorts: 2 },
        { week: 4, share: 0.5, cohorts: 1 },
        { week: 5, share: null, cohorts: 0 },
      ],
    });
  });

  it('a start feature and a return page', async () => {
    // p (Export W0 + 2 d: a report 7 d 1 h later) and q (Export W0 + 3 d: home on day 8, a report on day 15);
    // r: Export W1 + 1 d, a report 7 d later. s never exports; t exported first before W0.
    const both = await retention({ weeks: 2, start: { feature: ids.export }, return: { page: ids.reports } }, FKEY);
    expect(cohortsOf(both)).toEqual([[0, 2, [2, 1, 1]], [1, 1, [1, 1, 0]]]);
    // Any return: q's home load on day 8 counts in week 1.
    expect(cohortsOf(await retention({ weeks: 2, start: { feature: ids.export } }, FKEY))).toEqual([[0, 2, [2, 2, 1]], [1, 1, [1, 1, 0]]]);
    // Any start (t first seen before W0): p and r from day 1, s from day 1, q from day 3. Reports: p day 8 (week 1),
    // q day 15 (week 2), r day 14 (week 2), s day 8 (week 1).
    expect(cohortsOf(await retention({ weeks: 2, return: { page: ids.reports } }, FKEY))).toEqual([[0, 4, [4, 2, 2]]]);
    // A start no event matched: no cohort.
    expect(await retention({ weeks: 1, start: { track: 'never sent' } }, FKEY)).toEqual({
      weeks: 1, by: 'visitor', cohorts: [], overall: [{ week: 0, share: null, cohorts: 0 }, { week: 1, share: null, cohorts: 0 }],
    });
  });
});

describe('issue #35 retention: the answer from its rows', () => {
  it('weeks start on Monday 00:00 UTC, before and after the epoch', () => {
    expect([weekOf(W0), weekOf(W0 + W - 1), weekOf(W0 - 1)]).toEqual([W0, W0, W0 - W]);
    expect([weekOf(0), weekOf(Date.UTC(1969, 11, 29, 5))]).toEqual([Date.UTC(1969, 11, 29), Date.UTC(1969, 11, 29)]);
    expect(WEEK_MS).toBe(W);
  });

  it('a count of a week not passed is null even when members came back', () => {
    const rows = [{ week: W0, k: 0, n: 3, last: W0 + D }, { week: W0, k: 1, n: 2, last: null }, { week: W0, k: 2, n: 1, last: null }];
    expect(retentionAnswer(rows, { weeks: 2, by: 'visitor' }, W0 + D + 3 * W - 1).cohorts).toEqual([{ week: W0, size: 3, back: [3, 2, null] }]);
    expect(retentionAnswer(rows, { weeks: 2, by: 'visitor' }, W0 + D + 3 * W).overall).toEqual([
      { week: 0, share: 1, cohorts: 1 }, { week: 1, share: 0.6667, cohorts: 1 }, { week: 2, share: 0.3333, cohorts: 1 },
    ]);
  });
});

describe('issue #35 retention: roles', () => {
  it('401 without credentials; viewers may ask; a designer session is refused', async () => {
    expect((await post(`/api/apps/${KEY}/retention`, RANGE, {})).statusCode).toBe(401);
    const byViewer = await post(`/api/apps/${KEY}/retention`, RANGE, viewer.bearer);
    expect([byViewer.statusCode, byViewer.json().cohorts.length]).toEqual([200, 3]);
    expect((await post(`/api/apps/${KEY}/retention`, RANGE, viewer.console)).statusCode).toBe(200);
    const designer = await post('/api/designer-sessions', { apiKey: KEY });
    expect(designer.statusCode).toBe(201);
    const refused = await post(`/api/apps/${KEY}/retention`, RANGE, { authorization: `Bearer ${designer.json().token}` });
    expect([refused.statusCode, refused.json().error]).toEqual([403, expect.stringMatching(/^a designer session may only/)]);
  });
});

describe('issue #35 retention: bad input is a 400 naming the field', () => {
  const refused = async (body: unknown, field: string, apiKey = KEY) => {
    const response = await server.app.inject({
      method: 'POST', url: `/api/apps/${apiKey}/retention`, headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect([response.statusCode, response.json().field], JSON.stringify(body).slice(0, 120)).toEqual([400, field]);
    return response.json().error as string;
  };

  it('the body and its fields', async () => {
    for (const body of ['[]', '"x"', 'null', '7']) await refused(body, 'body');
    expect(await refused({ ...RANGE, steps: [] }, 'steps')).toBe('unknown field "steps" (known: from, to, weeks, by, start, return)');
    await refused({ ...RANGE, ['k'.repeat(5000)]: 1 }, 'k'.repeat(40));
    for (const from of [undefined, null, '0', -1, 1.5, 2 ** 60, 1e300, true]) await refused({ ...RANGE, from }, 'from');
    for (const to of [undefined, '1', -5, 1e300, [1]]) await refused({ ...RANGE, to }, 'to');
    expect(await refused({ from: W0, to: W0 }, 'from')).toBe('from must be before to');
    expect(await refused({ from: W0, to: W0 + 731 * D + 1 }, 'to')).toMatch(/two years/);
    for (const weeks of [0, 13, -1, 1.5, '8', null, 2 ** 60, 1e300]) await refused({ ...RANGE, weeks }, 'weeks');
    for (const by of ['session', '', null, 1]) await refused({ ...RANGE, by }, 'by');
  });

  it('the steps, by their field: shapes, unknown ids and ids of another app', async () => {
    for (const start of [null, 'x', [], 5, {}, { track: 'a', page: ids.reports }]) await refused({ ...RANGE, start }, 'start');
    for (const feature of ['', 5, ['x'], 'f'.repeat(201), 'a\u0000']) await refused({ ...RANGE, start: { feature } }, 'start.feature');
    expect(await refused({ ...RANGE, start: { feature: 'no-such-feature' } }, 'start.feature')).toBe("start.feature 'no-such-feature' is not a feature of this app (GET .../features)");
    // FKEY's ids read as unknown in KEY.
    await refused({ ...RANGE, start: { feature: ids.export } }, 'start.feature');
    await refused({ ...RANGE, return: { page: ids.reports } }, 'return.page');
    await refused({ ...RANGE, return: { page: ids.export } }, 'return.page', FKEY);
    await refused({ ...RANGE, start: { feature: ids.export }, return: { feature: ids.reports } }, 'return.feature', FKEY);
    for (const track of ['', 7, 't'.repeat(201), '\ud800']) await refused({ ...RANGE, return: { track } }, 'return.track');
    await refused({ ...RANGE, return: { track: 'a', event: 'seen' } }, 'return.event');
    await refused({ ...RANGE, start: { guide: 'g', event: 'shown' } }, 'start.event');
    await refused({ ...RANGE, start: { guide: 'no-such-guide', event: 'seen' } }, 'start.guide');
    expect(await refused({ ...RANGE, return: { page: ids.reports, color: 1 } }, 'return.color')).toMatch(/unknown field "return\.color"/);
  });

  it('bounds: 12 weeks and two years are allowed; a body over 8 KB is 413', async () => {
    const long = await retention({ from: W0 - 700 * D, to: W0 - 700 * D + 731 * D, weeks: 12 });
    expect(long.cohorts.map((c: { size: number }) => c.size)).toEqual([1, 4, 2, 1, 1]);
    expect(long.overall).toHaveLength(13);
    const huge = await post(`/api/apps/${KEY}/retention`, { ...RANGE, start: { track: 'x'.repeat(10_000) } });
    expect(huge.statusCode).toBe(413);
  });
});
