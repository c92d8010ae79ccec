/**
 * issue #35 "Funnels": `POST /api/apps/{apiKey}/funnels` over events stored through the real beacons before the
 * question, with exact counts a hand count gives on a small known set: order (a step before step 1 does not count),
 * the window from the first step-1 entry, repeat entries, medians, accounts' merged timelines, a metadata breakdown,
 * dropped lists, track and guide steps, a feature limited to a page; refusals naming the field, roles, bounds.
 * On PGlite here and on the real PostgreSQL (vitest.postgres.config.ts runs every test/server file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleStore } from '../../server/analytics/createRuleStore';
import { MAX_DISTINCT_VALUES, MAX_MATCHED_VALUES, resolveSteps } from '../../server/analytics/funnelSteps';
import { countFunnel, medianMs, walkFunnel } from '../../server/analytics/funnelWalk';
import type { Database } from '../../server/storage/Database';
import { analyticsRequests } from './analyticsRequests';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, guideEvent, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2026, 0, 10);
const KEY = 'funnels-app';
const OTHER = 'funnels-other-app';
/** The range of step-1 entries of most questions below: 10 days. */
const RANGE = { from: T0, to: T0 + 10 * D };

const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };
const URL_OF = (path: string) => `http://app.test${path}`;
const at = (t: number, visitor: string, account: string, fields: Record<string, unknown>) =>
  wireEvent({ browser_time: T0 + t, visitor_id: visitor, account_id: account, ...fields });
const load = (t: number, visitor: string, account: string, path: string) => at(t, visitor, account, { type: 'load', url: URL_OF(path), props: {} });
const click = (t: number, visitor: string, account: string, path: string) => at(t, visitor, account, { type: 'click', url: URL_OF(path), props: { target: EXPORT } });
const track = (t: number, visitor: string, account: string, name: string) => at(t, visitor, account, { type: 'track', url: URL_OF('/'), track_event_name: name, props: {} });
const meta = (t: number, visitor: string, account: string, props: object) => at(t, visitor, account, { type: 'meta', url: URL_OF('/'), props });

/**
 * The funnel home page -> Export (limited to report pages) -> track "report shared", 7-day window, over [T0, T0 + 10 d):
 * - v1 (acme, plan pro): all three, 1 h then 3 h apart;
 * - v2 (acme, pro): Export before home (out of order), home after: step 1 only;
 * - v3 (beta, free): home, Export on /settings 1 h later (not a report page), Export on a report 3 h after home,
 *   the track event 8 days after home (past the window): step 2;
 * - v4 (no account, no metadata): home on day 2 and again on day 5, Export on day 9 + 12 h: inside 7 days of the
 *   second entry, not of the first: step 1 only;
 * - v5 (beta; plan free, then team): all three on day 3, 2 h then 4 h apart;
 * - v6: the track event only; v7: home after the range: neither enters;
 * - v8 (gamma, no plan): home on day 4; v9 (gamma): Export 1 h later (gamma's merged timeline reaches step 2).
 */
const EVENTS = [
  meta(0, 'v1', 'acme', { visitor: { plan: 'pro' }, account: { tier: 'gold' } }),
  load(1 * H, 'v1', 'acme', '/home'),
  click(2 * H, 'v1', 'acme', '/reports/7'),
  track(5 * H, 'v1', 'acme', 'report shared'),
  meta(0, 'v2', 'acme', { visitor: { plan: 'pro' } }),
  click(H / 2, 'v2', 'acme', '/reports/7'),
  load(1.5 * H, 'v2', 'acme', '/home'),
  meta(D, 'v3', 'beta', { visitor: { plan: 'free' }, account: { tier: 'silver' } }),
  load(D, 'v3', 'beta', '/home'),
  click(D + H, 'v3', 'beta', '/settings'),
  click(D + 3 * H, 'v3', 'beta', '/reports/9'),
  track(9 * D, 'v3', 'beta', 'report shared'),
  load(2 * D, 'v4', '', '/home'),
  load(5 * D, 'v4', '', '/home?again=1'),
  click(9 * D + 12 * H, 'v4', '', '/reports/1'),
  meta(3 * D - 1, 'v5', 'beta', { visitor: { plan: 'free' } }),
  load(3 * D, 'v5', 'beta', '/home'),
  click(3 * D + 2 * H, 'v5', 'beta', '/reports/2'),
  track(3 * D + 6 * H, 'v5', 'beta', 'report shared'),
  meta(3 * D + 7 * H, 'v5', 'beta', { visitor: { plan: 'team' } }),
  track(D, 'v6', 'acme', 'report shared'),
  load(12 * D, 'v7', 'acme', '/home'),
  meta(4 * D - 1, 'v8', 'gamma', { visitor: { seats: 3 } }),
  load(4 * D, 'v8', 'gamma', '/home'),
  click(4 * D + H, 'v9', 'gamma', '/reports/3'),
];

const GUIDE = {
  id: 'g1',
  launchMethod: 'auto',
  steps: ['s1', 's2'].map((id) => ({
    id,
    guideId: 'g1',
    type: 'lightbox',
    domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'div', props: { id: 't' }, content: id }] },
  })),
};
const guide = (t: number, type: string, visitor: string, stepId: string) =>
  guideEvent(type, { guide_id: 'g1', guide_step_id: stepId }, { browser_time: T0 + t, visitor_id: visitor, account_id: 'acme', tabId: `gtab-${visitor}` });
/** v1 sees g1 and completes it (advances its last step); v2 sees it and dismisses its first step; v3 meets only its last step. */
const GUIDE_EVENTS = [
  guide(6 * D, 'guideSeen', 'v1', 's1'),
  guide(6 * D + 1000, 'guideAdvanced', 'v1', 's1'),
  guide(6 * D + 2000, 'guideSeen', 'v1', 's2'),
  guide(6 * D + 3000, 'guideAdvanced', 'v1', 's2'),
  guide(6 * D + 5000, 'guideSeen', 'v2', 's1'),
  guide(6 * D + 6000, 'guideDismissed', 'v2', 's1'),
  guide(6 * D + 7000, 'guideSeen', 'v3', 's2'),
  guide(6 * D + 8000, 'guideDismissed', 'v3', 's2'),
];

let server: TestServer;
let viewer: TestUser;
let ids: { home: string; reports: string; settings: string; export: string; exportAnywhere: string };

const { beacon, post, make } = analyticsRequests(() => server, KEY);
async function funnel(body: object, apiKey = KEY) {
  const response = await post(`/api/apps/${apiKey}/funnels`, { ...RANGE, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
/** The main funnel: home -> Export on a report page -> "report shared". */
const mainSteps = () => [{ page: ids.home }, { feature: ids.export }, { track: 'report shared' }];

beforeAll(async () => {
  server = await startTestServer();
  // Everything is stored before any feature, page or funnel exists.
  await beacon(KEY, EVENTS);
  await beacon(KEY, GUIDE_EVENTS, 'guide.gif');
  await beacon(OTHER, [load(H, 'o1', 'other', '/home')]);
  const put = await server.app.inject({ method: 'PUT', url: `/api/apps/${KEY}/guides/g1`, headers: ADMIN_HEADERS, payload: GUIDE });
  expect(put.statusCode, put.body).toBe(201);
  const reports = await make('pages', { name: 'Report', rule: { url: '//*/reports/:id' } });
  ids = {
    home: await make('pages', { name: 'Home', rule: { url: '/home' } }),
    reports,
    settings: await make('pages', { name: 'Settings', rule: { url: '/settings' } }),
    export: await make('features', { name: 'Export a report', rule: { selector: 'button.export', page: reports } }),
    exportAnywhere: await make('features', { name: 'Export', rule: { selector: 'button.export' } }),
  };
  viewer = await makeUser(server.app, 'viewer');
}, SERVER_TIMEOUT * 2);
afterAll(() => server?.close(), SERVER_TIMEOUT);

describe('issue #35 funnels: ordered steps within a window, counted exactly', () => {
  it('visitors per step, conversion from the previous step and from step 1, medians, dropped visitors', async () => {
    expect(await funnel({ steps: mainSteps() })).toEqual({
      ...RANGE,
      windowMs: 7 * D,
      by: 'visitor',
      steps: [
        { visitors: 6, conversion: 1, overall: 1, medianMsFromPrevious: null },
        // v1 (1 h), v3 (3 h: its click on /settings is not a report page), v5 (2 h).
        { visitors: 3, conversion: 0.5, overall: 0.5, medianMsFromPrevious: 2 * H, dropped: ['v2', 'v4', 'v8'] },
        // v1 (3 h), v5 (4 h); v3's track event is 8 days after its entry.
        { visitors: 2, conversion: 0.6667, overall: 0.3333, medianMsFromPrevious: 3.5 * H, dropped: ['v3'] },
      ],
      overall: 0.3333,
    });
  });

  it('order matters: a step done before step 1 does not count, one done after it does', async () => {
    // v2 clicked Export at 0:30 and loaded home at 1:30: Export -> home reaches step 2, home -> Export step 1 only.
    const reversed = await funnel({ steps: [{ feature: ids.export }, { page: ids.home }] });
    // Export entries: v1 (then no later home), v2, v3, v5, v9 (no home), v4 (day 9 + 12 h, no later home).
    expect(reversed.steps.map((s: { visitors: number }) => s.visitors)).toEqual([6, 1]);
    expect(reversed.steps[1].dropped).toEqual(['v1', 'v3', 'v4', 'v5', 'v9']);
  });

  it('the window runs from the first step-1 entry and includes its last millisecond', async () => {
    // v1's track event is exactly 4 h after its entry; v5's 6 h.
    const four = await funnel({ steps: mainSteps(), windowMs: 4 * H });
    expect(four.steps.map((s: { visitors: number }) => s.visitors)).toEqual([6, 3, 1]);
    const under = await funnel({ steps: mainSteps(), windowMs: 4 * H - 1 });
    expect(under.steps.map((s: { visitors: number }) => s.visitors)).toEqual([6, 3, 0]);
    expect(under.steps[2]).toEqual({ visitors: 0, conversion: 0, overall: 0, medianMsFromPrevious: null, dropped: ['v1', 'v3', 'v5'] });
    // The window may end after `to`: v3's track event (day 9) counts from an entry on day 1 with a 9-day window.
    const late = await funnel({ steps: mainSteps(), from: T0 + D, to: T0 + 2 * D, windowMs: 9 * D });
    expect(late.steps.map((s: { visitors: number }) => s.visitors)).toEqual([1, 1, 1]);
  });

  it('repeat entries: only the first step-1 entry of the range is walked', async () => {
    // v4's Export (day 9 + 12 h) is within 7 days of its second home load (day 5), not of its first (day 2).
    const repeat = await funnel({ steps: [{ page: ids.home }, { feature: ids.export }] });
    expect(repeat.steps[1].dropped).toContain('v4');
    // From day 3 on, the day-5 load is v4's first entry, and the click converts.
    const later = await funnel({ steps: [{ page: ids.home }, { feature: ids.export }], from: T0 + 3 * D });
    expect(later.steps[1].dropped).not.toContain('v4');
    expect(later.steps.map((s: { visitors: number }) => s.visitors)).toEqual([3, 2]);
  });

  it('one event never fills two steps: the same page twice needs two loads', async () => {
    const twice = await funnel({ steps: [{ page: ids.home }, { page: ids.home }] });
    expect(twice.steps[1]).toEqual({ visitors: 1, conversion: 0.1667, overall: 0.1667, medianMsFromPrevious: 3 * D, dropped: ['v1', 'v2', 'v3', 'v5', 'v8'] });
  });

  it('a feature limited to a page counts its clicks on that page only', async () => {
    // Export anywhere: v3's click on /settings 1 h after home counts; medians v1 1 h, v3 1 h, v5 2 h.
    const anywhere = await funnel({ steps: [{ page: ids.home }, { feature: ids.exportAnywhere }] });
    expect(anywhere.steps[1]).toMatchObject({ visitors: 3, medianMsFromPrevious: H });
    const limited = await funnel({ steps: [{ page: ids.home }, { feature: ids.export }] });
    expect(limited.steps[1]).toMatchObject({ visitors: 3, medianMsFromPrevious: 2 * H });
    const onSettings = await funnel({ steps: [{ page: ids.settings }, { feature: ids.exportAnywhere }] });
    expect(onSettings.steps.map((s: { visitors: number }) => s.visitors)).toEqual([0, 0]);
  });

  it('track and guide steps: seen is the first step seen, completed the last step advanced or dismissed', async () => {
    const seen = await funnel({ steps: [{ guide: 'g1', event: 'seen' }, { guide: 'g1', event: 'completed' }] });
    // v3 dismissed the last step without seeing the first: not entered. v2 dismissed the first step only.
    expect(seen.steps).toEqual([
      { visitors: 2, conversion: 1, overall: 1, medianMsFromPrevious: null },
      { visitors: 1, conversion: 0.5, overall: 0.5, medianMsFromPrevious: 3000, dropped: ['v2'] },
    ]);
    const completedFirst = await funnel({ steps: [{ guide: 'g1', event: 'completed' }, { track: 'report shared' }] });
    // v1 and v3 completed on day 6 (v3 without having seen it first: completion alone enters here); only v3 shares a report after (day 9).
    expect(completedFirst.steps.map((s: { visitors: number }) => s.visitors)).toEqual([2, 1]);
    expect(completedFirst.steps[1].dropped).toEqual(['v1']);
    const tracks = await funnel({ steps: [{ track: 'report shared' }, { track: 'no such event' }] });
    expect(tracks.steps.map((s: { visitors: number }) => s.visitors)).toEqual([4, 0]);
  });

  it('by account: an account reaches a step when any of its visitors does, in order over their merged timeline', async () => {
    expect(await funnel({ steps: mainSteps(), by: 'account' })).toEqual({
      ...RANGE,
      windowMs: 7 * D,
      by: 'account',
      steps: [
        { accounts: 3, conversion: 1, overall: 1, medianMsFromPrevious: null },
        // acme: v1's home 1 h, v1's Export 2 h (v2's earlier Export comes before the entry); beta 3 h; gamma: v8's
        // home, v9's Export 1 h later.
        { accounts: 3, conversion: 1, overall: 1, medianMsFromPrevious: H, dropped: [] },
        // acme 3 h; beta: v3's Export (day 1 + 3 h) then v5's share (day 3 + 6 h), 51 h.
        { accounts: 2, conversion: 0.6667, overall: 0.6667, medianMsFromPrevious: 27 * H, dropped: ['gamma'] },
      ],
      overall: 0.6667,
    });
  });

  it('breakdown by a visitor metadata field: the latest metadata, "(none)" without it', async () => {
    const split = await funnel({ steps: mainSteps(), breakdown: 'plan' });
    expect(split.steps.map((s: { visitors: number }) => s.visitors)).toEqual([6, 3, 2]);
    expect(split.breakdown).toEqual({
      field: 'plan',
      values: [
        { value: 'pro', overall: 0.5, steps: [
          { visitors: 2, conversion: 1, overall: 1, medianMsFromPrevious: null },
          { visitors: 1, conversion: 0.5, overall: 0.5, medianMsFromPrevious: H },
          { visitors: 1, conversion: 1, overall: 0.5, medianMsFromPrevious: 3 * H },
        ] },
        { value: 'free', overall: 0, steps: [
          { visitors: 1, conversion: 1, overall: 1, medianMsFromPrevious: null },
          { visitors: 1, conversion: 1, overall: 1, medianMsFromPrevious: 3 * H },
          { visitors: 0, conversion: 0, overall: 0, medianMsFromPrevious: null },
        ] },
        // v5 was free, then team: its latest metadata.
        { value: 'team', overall: 1, steps: [
          { visitors: 1, conversion: 1, overall: 1, medianMsFromPrevious: null },
          { visitors: 1, conversion: 1, overall: 1, medianMsFromPrevious: 2 * H },
          { visitors: 1, conversion: 1, overall: 1, medianMsFromPrevious: 4 * H },
        ] },
        { value: '(none)', overall: 0, steps: [
          { visitors: 2, conversion: 1, overall: 1, medianMsFromPrevious: null },
          { visitors: 0, conversion: 0, overall: 0, medianMsFromPrevious: null },
          { visitors: 0, conversion: 0, overall: 0, medianMsFromPrevious: null },
        ] },
      ],
    });
    const byAccount = await funnel({ steps: mainSteps(), by: 'account', breakdown: 'tier' });
    expect(byAccount.breakdown.values.map((v: { value: string; steps: Array<{ accounts: number }> }) => [v.value, v.steps.map((s) => s.accounts)])).toEqual([
      ['gold', [1, 1, 1]], ['silver', [1, 1, 1]], ['(none)', [1, 1, 0]],
    ]);
  });

  it('breakdown: 20 values with the most entries, the rest as "(other)"', async () => {
    const events = Array.from({ length: 23 }, (_, i) => {
      const v = `w${String(i).padStart(2, '0')}`;
      // w00 and w01 share a value (the most common); w02..w22 have one each.
      return [meta(0, v, 'x', { visitor: { plan: i < 2 ? 'shared' : `p${String(i).padStart(2, '0')}` } }), track(H, v, 'x', 'a'), ...(i % 2 ? [track(2 * H, v, 'x', 'b')] : [])];
    }).flat();
    await beacon('funnels-many', events);
    const split = await funnel({ steps: [{ track: 'a' }, { track: 'b' }], breakdown: 'plan' }, 'funnels-many');
    const values = split.breakdown.values.map((v: { value: string; steps: Array<{ visitors: number }> }) => [v.value, v.steps[0]!.visitors, v.steps[1]!.visitors]);
    expect(values).toHaveLength(21);
    expect(values[0]).toEqual(['shared', 2, 1]);
    expect(values.slice(1, 20).map((v: unknown[]) => v[0])).toEqual(Array.from({ length: 19 }, (_, i) => `p${String(i + 2).padStart(2, '0')}`));
    // p21 (w21, converted) and p22 (w22, not).
    expect(values[20]).toEqual(['(other)', 2, 1]);
  });

  it('an app with no events, and ids of another app', async () => {
    const home = await make('pages', { name: 'Home', rule: { url: '/home' } }, OTHER);
    const empty = await funnel({ steps: [{ page: home }, { track: 'x' }] }, OTHER);
    expect(empty.steps).toEqual([
      { visitors: 1, conversion: 1, overall: 1, medianMsFromPrevious: null },
      { visitors: 0, conversion: 0, overall: 0, medianMsFromPrevious: null, dropped: ['o1'] },
    ]);
    const refused = await post(`/api/apps/${OTHER}/funnels`, { ...RANGE, steps: [{ page: home }, { feature: ids.export }] });
    expect([refused.statusCode, refused.json()]).toEqual([400, { error: `steps[1].feature '${ids.export}' is not a feature of this app (GET .../features)`, field: 'steps[1].feature' }]);
  });
});

describe('issue #35 funnels: roles', () => {
  it('401 without credentials or with a bad token; viewers may ask; a designer session is refused', async () => {
    const body = { ...RANGE, steps: mainSteps() };
    expect((await post(`/api/apps/${KEY}/funnels`, body, {})).statusCode).toBe(401);
    expect((await post(`/api/apps/${KEY}/funnels`, body, { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    const byViewer = await post(`/api/apps/${KEY}/funnels`, body, viewer.bearer);
    expect([byViewer.statusCode, byViewer.json().steps[0].visitors]).toEqual([200, 6]);
    expect((await post(`/api/apps/${KEY}/funnels`, body, viewer.console)).statusCode).toBe(200);
    const designer = await post('/api/designer-sessions', { apiKey: KEY });
    expect(designer.statusCode).toBe(201);
    const refused = await post(`/api/apps/${KEY}/funnels`, body, { authorization: `Bearer ${designer.json().token}` });
    expect([refused.statusCode, refused.json().error]).toEqual([403, expect.stringMatching(/^a designer session may only/)]);
  });
});

describe('issue #35 funnels: bad input is a 400 naming the field', () => {
  const refused = async (body: unknown, field: string) => {
    const response = await server.app.inject({
      method: 'POST', url: `/api/apps/${KEY}/funnels`, headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect([response.statusCode, response.json().field], JSON.stringify(body).slice(0, 120)).toEqual([400, field]);
    return response.json().error as string;
  };
  const two = () => [{ page: ids.home }, { track: 'report shared' }];

  it('the body and its fields', async () => {
    for (const body of ['[]', '"x"', 'null', '7']) await refused(body, 'body');
    expect(await refused({ ...RANGE, steps: two(), color: 'red' }, 'color')).toBe('unknown field "color" (known: steps, from, to, windowMs, by, breakdown)');
    await refused({ ...RANGE, steps: two(), ['k'.repeat(5000)]: 1 }, 'k'.repeat(40));
    for (const steps of [undefined, null, 'x', {}, [], [{ page: ids.home }], Array.from({ length: 11 }, () => ({ track: 'a' }))]) await refused({ ...RANGE, steps }, 'steps');
    for (const from of [undefined, null, '0', -1, 1.5, 2 ** 60, true]) await refused({ ...RANGE, from, steps: two() }, 'from');
    for (const to of [undefined, '1', -5, 1e300]) await refused({ ...RANGE, to, steps: two() }, 'to');
    expect(await refused({ from: T0, to: T0, steps: two() }, 'from')).toBe('from must be before to');
    expect(await refused({ from: T0, to: T0 + 366 * D + 1, steps: two() }, 'to')).toMatch(/366 days/);
    for (const windowMs of [0, -1, 90 * D + 1, '1000', 1.5, null]) await refused({ ...RANGE, windowMs, steps: two() }, 'windowMs');
    for (const by of ['session', '', null, 1]) await refused({ ...RANGE, by, steps: two() }, 'by');
    for (const breakdown of ['', 5, null, 'x'.repeat(101), 'a\nb', 'a\u0000b', ['plan']]) await refused({ ...RANGE, breakdown, steps: two() }, 'breakdown');
  });

  it('each step, named by its place', async () => {
    const with2 = (step: unknown) => ({ ...RANGE, steps: [{ page: ids.home }, { track: 'a' }, step] });
    for (const step of [null, 'x', [], 5, {}, { feature: ids.export, page: ids.home }]) await refused(with2(step), 'steps[2]');
    expect(await refused(with2({ feature: ids.export, color: 1 }), 'steps[2].color')).toMatch(/unknown field "steps\[2\]\.color"/);
    for (const feature of ['', 5, ['x'], 'f'.repeat(201), 'a\u0000']) await refused(with2({ feature }), 'steps[2].feature');
    expect(await refused(with2({ feature: 'no-such-feature' }), 'steps[2].feature')).toBe("steps[2].feature 'no-such-feature' is not a feature of this app (GET .../features)");
    await refused(with2({ feature: ids.home }), 'steps[2].feature');
    await refused(with2({ page: ids.export }), 'steps[2].page');
    for (const track of ['', 7, 't'.repeat(201), '\ud800']) await refused(with2({ track }), 'steps[2].track');
    await refused(with2({ track: 'a', event: 'seen' }), 'steps[2].event');
    for (const event of [undefined, 'advanced', 1]) await refused(with2({ guide: 'g1', event }), 'steps[2].event');
    await refused(with2({ guide: 'nope', event: 'seen' }), 'steps[2].guide');
    await refused(with2({ guide: '', event: 'seen' }), 'steps[2].guide');
  });

  it('bounds: 10 steps, a 90-day window and 366 days are allowed; a body over 32 KB is 413', async () => {
    const ten = await funnel({ steps: Array.from({ length: 10 }, () => ({ track: 'report shared' })), from: T0, to: T0 + 366 * D, windowMs: 90 * D });
    // v1, v3, v5, v6 share a report once each: none reaches step 2.
    expect(ten.steps.map((s: { visitors: number }) => s.visitors)).toEqual([4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const huge = await post(`/api/apps/${KEY}/funnels`, { ...RANGE, steps: two(), breakdown: 'x'.repeat(40_000) });
    expect(huge.statusCode).toBe(413);
  });
});

describe('issue #35 funnelWalk: which occurrence counts', () => {
  it('the earliest entry, then the earliest next occurrence after the one matched, within the window', () => {
    const o = (time: number, id = time) => ({ time, id });
    expect(walkFunnel([[o(10)], [o(5), o(20), o(30)], [o(25)]], 100)).toEqual([o(10), o(20), o(25)]);
    // The same time: the order the events were stored in.
    expect(walkFunnel([[o(10, 2)], [o(10, 1), o(10, 3)]], 100)).toEqual([o(10, 2), o(10, 3)]);
    expect(walkFunnel([[o(10)], [o(110)]], 100)).toEqual([o(10), o(110)]);
    expect(walkFunnel([[o(10)], [o(111)]], 100)).toEqual([o(10)]);
    expect(walkFunnel([[], [o(5)]], 100)).toEqual([]);
    expect(countFunnel([[o(0), o(4)], [o(0), o(6)], [o(0)]], 2)).toEqual([
      { count: 3, conversion: 1, overall: 1, medianMsFromPrevious: null },
      { count: 2, conversion: 0.6667, overall: 0.6667, medianMsFromPrevious: 5 },
    ]);
    expect([medianMs([]), medianMs([3]), medianMs([1, 2]), medianMs([9, 1, 5])]).toEqual([null, 3, 2, 5]);
  });
});

describe('issue #35 funnelSteps: bounds of the values matched', () => {
  // A database whose every distinct read answers `values` (keyed by their place), and one feature, `button`
  // anywhere, not backfilled yet (readRuleEntries finds no ready rule): the scan's bounds.
  const dbOf = (values: string[]) => ({
    query: async (sql: string) => ({ rows: sql.includes('backfilled_at is not null') ? [] : values.map((value, i) => ({ value, key: String(i) })) }),
  }) as unknown as Database;
  const rules = {
    getFeature: async () => ({ id: 'f', name: 'Buttons', rule: { selector: 'button' }, createdAt: 0, updatedAt: 0 }),
    getPage: async () => undefined,
  } as unknown as RuleStore;
  const sources = { rules, guideStepIds: async () => undefined };
  const buttons = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ ...EXPORT, id: `b${i}` }));
  const resolve = (values: string[]) => resolveSteps(dbOf(values), 'k', [{ track: 'x' }, { feature: 'f' }], { from: 0, to: D }, sources);

  it(`a step may match ${MAX_MATCHED_VALUES} distinct elements; one more is a 400 naming the step`, async () => {
    const [, feature] = await resolve(buttons(MAX_MATCHED_VALUES));
    expect(feature).toMatchObject({ type: 'click', targets: expect.any(Array) });
    expect((feature as { targets: string[] }).targets).toHaveLength(MAX_MATCHED_VALUES);
    await expect(resolve(buttons(MAX_MATCHED_VALUES + 1))).rejects.toMatchObject({ statusCode: 400, field: 'steps[1].feature', message: expect.stringMatching(/more than 10000 distinct clicked elements/) });
  });

  it(`more than ${MAX_DISTINCT_VALUES} distinct elements in the range is a 400 before any is matched`, async () => {
    await expect(resolve(Array.from({ length: MAX_DISTINCT_VALUES + 1 }, () => '{}'))).rejects.toMatchObject({ statusCode: 400, field: 'steps[1].feature' });
  });
});
