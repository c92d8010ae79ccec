/**
 * issue #35 "Did the guide work?": a guide's goal and experiment. The assignment (a SHA-256 point per guide and
 * visitor: its share on 10,000 ids, its stickiness, guide.json serving `control: true` to the control arm only),
 * the checks of the fields, and `GET .../guides/{id}/experiment` with exact counts on small known data stored
 * through the real beacons (goal events before and after the exposure, past withinDays, anonymous visitors, a
 * visitor exposed in both arms), its interval against Newcombe 1998's published values and a reference computed
 * here in Newcombe's own form, and the too-small sentence.
 * On PGlite here and on the real PostgreSQL (vitest.postgres.config.ts runs every test/server file).
 */
import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentPoint, isControlVisitor } from '../../server/analytics/experiments/experimentArm';
import { newcombeInterval, wilsonInterval } from '../../server/analytics/experiments/newcombeInterval';
import { judgeExperiment, armOf } from '../../server/analytics/experiments/judgeExperiment';
import { analyticsRequests } from './analyticsRequests';
import { makeUser, type TestUser } from './users';
import { ADMIN_HEADERS, guideEvent, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const H = 3_600_000;
const D = 24 * H;
/** Midnight UTC: the exposures of the small data set are on this day. */
const T = Date.UTC(2026, 1, 10);
const KEY = 'experiments-app';
const OTHER = 'experiments-other-app';

const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };
const track = (t: number, visitor: string, name = 'report shared') =>
  wireEvent({ type: 'track', browser_time: t, visitor_id: visitor, account_id: 'acme', url: 'http://app.test/', track_event_name: name, props: {} });
const click = (t: number, visitor: string) =>
  wireEvent({ type: 'click', browser_time: t, visitor_id: visitor, account_id: 'acme', url: 'http://app.test/reports/1', props: { target: EXPORT } });
const seen = (t: number, visitor: string, guideId: string, stepId = `${guideId}-1`) =>
  guideEvent('guideSeen', { guide_id: guideId, guide_step_id: stepId }, { browser_time: t, visitor_id: visitor, account_id: 'acme', tabId: `tab-${visitor}` });
const control = (t: number, visitor: string, guideId: string) =>
  guideEvent('control', { guide_id: guideId, guide_step_id: `${guideId}-1`, reason: 'control' }, { browser_time: t, visitor_id: visitor, account_id: 'acme', tabId: `tab-${visitor}` });

/** A public guide of two lightbox steps with the given goal and experiment. */
const guideBody = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  launchMethod: 'auto',
  state: 'public',
  steps: [1, 2].map((n) => ({ id: `${id}-${n}`, type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [] } })),
  ...extra,
});

/**
 * The small set of guide `small` (goal: track "report shared" within 7 days), exposures on day T:
 * - t1 seen, goal 1 h later: converted; t2 seen, goal only 1 h before: not; t3 seen, goal 8 days later: not;
 * - t4 seen step 1 and step 2 on T + 1 d, goal 6 days after the first: converted;
 * - t5 seen 20 days before T, goal 1 h later: converted (counted in all time only);
 * - c1 control, goal 2 h later: converted; c2 control, no goal; c3 control, then seen 1 h later (first exposure
 *   control), goal 3 h after the control: control, converted;
 * - _WM_anon seen and goal (anonymous: neither arm); t6 a goal of another name; `other app`'s o1 seen and goal.
 */
const SMALL_ANALYTICS = [
  track(T + H, 't1'),
  track(T - H, 't2'),
  track(T + 8 * D, 't3'),
  track(T + 7 * D, 't4'),
  track(T - 20 * D + H, 't5'),
  track(T + 2 * H, 'c1'),
  track(T + 3 * H, 'c3'),
  track(T + H, '_WM_anon123456'),
  track(T + H, 't6', 'something else'),
];
const SMALL_GUIDE = [
  seen(T, 't1', 'small'),
  seen(T, 't2', 'small'),
  seen(T, 't3', 'small'),
  seen(T + D, 't4', 'small'),
  seen(T + D + 1000, 't4', 'small', 'small-2'),
  seen(T - 20 * D, 't5', 'small'),
  seen(T, 't6', 'small'),
  control(T, 'c1', 'small'),
  control(T, 'c2', 'small'),
  control(T, 'c3', 'small'),
  seen(T + H, 'c3', 'small'),
  seen(T, '_WM_anon123456', 'small'),
];

/** Guide `big`: 40 treatment visitors of whom 20 reach the goal (a feature click), 40 control of whom 8. */
const BIG_T = T + 30 * D;
const bigVisitors = (arm: 'bt' | 'bc', converted: number) => Array.from({ length: 40 }, (_, i) => ({ id: `${arm}${i}`, converts: i < converted }));
const BIG_EVENTS = [...bigVisitors('bt', 20), ...bigVisitors('bc', 8)].map(({ id, converts }) => ({ id, converts }));

let server: TestServer;
let viewer: TestUser;
let exportFeature: string;
const { beacon, make } = analyticsRequests(() => server, KEY);

const put = (body: Record<string, unknown>, apiKey = KEY) =>
  server.app.inject({ method: 'PUT', url: `/api/apps/${apiKey}/guides/${String(body.id)}`, headers: ADMIN_HEADERS, payload: body });
const results = (guideId: string, query = '', headers: Record<string, string> = ADMIN_HEADERS, apiKey = KEY) =>
  server.app.inject({ method: 'GET', url: `/api/apps/${apiKey}/guides/${guideId}/experiment${query}`, headers });
async function loadGuides(visitorId: string) {
  const payload = { visitorId, accountId: 'acme', url: 'http://app.test/', oldVisitorId: null, metadata: {} };
  const response = await server.app.inject({ method: 'GET', url: `/data/guide.json/${KEY}?id=1&jzb=${nodeJzb(payload)}&v=0.1.0&ct=1` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().guides as Array<Record<string, unknown>>;
}

beforeAll(async () => {
  server = await startTestServer();
  viewer = await makeUser(server.app, 'viewer');
  await beacon(KEY, SMALL_ANALYTICS);
  await beacon(KEY, SMALL_GUIDE, 'guide.gif');
  await beacon(OTHER, [track(T + H, 'o1')]);
  await beacon(OTHER, [seen(T, 'o1', 'small')], 'guide.gif');
  await beacon(KEY, BIG_EVENTS.flatMap(({ id, converts }) => (converts ? [click(BIG_T + 2 * H, id)] : [])));
  await beacon(KEY, BIG_EVENTS.map(({ id }) => (id.startsWith('bt') ? seen(BIG_T, id, 'big') : control(BIG_T, id, 'big'))), 'guide.gif');
  exportFeature = await make('features', { name: 'Export', rule: { selector: 'button.export' } });
  for (const body of [
    guideBody('small', { goal: { track: 'report shared', withinDays: 7 }, experiment: { controlShare: 0.2 } }),
    guideBody('big', { goal: { feature: exportFeature, withinDays: 1 }, experiment: { controlShare: 0.5 } }),
    guideBody('goal-only', { goal: { track: 'report shared', withinDays: 7 } }),
    guideBody('no-goal'),
  ]) {
    const response = await put(body);
    expect(response.statusCode, response.body).toBe(201);
  }
}, SERVER_TIMEOUT * 3);
afterAll(() => server?.close(), SERVER_TIMEOUT);

/** The point of (guide, visitor) computed here with WebCrypto, as the collector's is specified. */
async function referencePoint(guideId: string, visitorId: string): Promise<number> {
  const digest = new Uint8Array(await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([guideId, visitorId]))));
  return digest.slice(0, 6).reduce((n, byte) => n * 256 + byte, 0) / 2 ** 48;
}

describe('issue #35 experiment assignment (guides §4 Control group)', () => {
  it('a SHA-256 point per (guide, visitor): the share on 10,000 ids is exact for the hash and within tolerance', async () => {
    const points = Array.from({ length: 10_000 }, (_, i) => experimentPoint('g-exp', `visitor-${i}`));
    for (const i of [0, 1, 42, 9999]) expect(points[i]).toBe(await referencePoint('g-exp', `visitor-${i}`));
    const tenth = points.filter((p) => p < 0.1).length;
    const fifth = points.filter((p) => p < 0.2).length;
    expect([tenth, fifth]).toEqual([1019, 2015]);
    // Within 3 standard deviations of the share (sqrt(10000 * 0.1 * 0.9) = 30).
    expect(Math.abs(tenth - 1000)).toBeLessThan(90);
    // A share raised from 10% to 20% moves only the visitors between the two, all from treatment to control.
    const arms = (share: number) => Array.from({ length: 10_000 }, (_, i) => isControlVisitor({ id: 'g-exp', experiment: { controlShare: share } }, `visitor-${i}`));
    const [before, after] = [arms(0.1), arms(0.2)];
    const moved = before.flatMap((inControl, i) => (inControl !== after[i] ? [{ inControl, point: points[i]! }] : []));
    expect(moved.length).toBe(fifth - tenth);
    expect(moved.every(({ inControl, point }) => !inControl && point >= 0.1 && point < 0.2)).toBe(true);
    // Another guide's arms are drawn afresh.
    const otherGuide = Array.from({ length: 10_000 }, (_, i) => experimentPoint('g-other', `visitor-${i}`) < 0.1);
    const both = points.filter((p, i) => p < 0.1 && otherGuide[i]).length;
    expect(both).toBeLessThan(200);
  });

  it('guide.json serves control: true to the control arm only, the same on every request; anonymous visitors see the guide', async () => {
    const visitors = Array.from({ length: 40 }, (_, i) => `visitor-${i}`);
    const controlOf = async (visitor: string) => (await loadGuides(visitor)).find((g) => g.id === 'big')!;
    const served = await Promise.all(visitors.map(controlOf));
    const expected = await Promise.all(visitors.map(async (v) => (await referencePoint('big', v)) < 0.5));
    expect(served.map((g) => g.control === true)).toEqual(expected);
    expect(expected.filter(Boolean).length).toBeGreaterThan(5);
    expect(expected.filter((c) => !c).length).toBeGreaterThan(5);
    // Sticky: asked again, each visitor is in the same arm.
    const again = await Promise.all(visitors.map(controlOf));
    expect(again.map((g) => g.control === true)).toEqual(expected);
    // No goal or experiment reaches the agent; a treatment guide carries no control flag.
    expect(served.every((g) => g.goal === undefined && g.experiment === undefined)).toBe(true);
    expect(served.filter((g) => !g.control).every((g) => !('control' in g))).toBe(true);
    // Anonymous visitors and requests without a visitor id are outside the experiment.
    const anonymous = Array.from({ length: 20 }, (_, i) => `_WM_anonymous${i}`);
    expect(anonymous.some((v) => isControlVisitor({ id: 'big', experiment: { controlShare: 0.5 } }, v))).toBe(false);
    for (const v of [...anonymous.slice(0, 5), '']) expect((await loadGuides(v)).find((g) => g.id === 'big')!.control).toBeUndefined();
  }, SERVER_TIMEOUT);
});

describe('issue #35 a guide\'s goal and experiment fields', () => {
  it('are checked with a 400 naming the field; a feature of another app is unknown', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ goal: { track: 'x', withinDays: 0 } }, 'goal.withinDays'],
      [{ goal: { track: 'x', withinDays: 91 } }, 'goal.withinDays'],
      [{ goal: { track: 'x', withinDays: 1.5 } }, 'goal.withinDays'],
      [{ goal: { track: '', withinDays: 3 } }, 'goal.track'],
      [{ goal: { track: 'x'.repeat(201), withinDays: 3 } }, 'goal.track'],
      [{ goal: { track: 'x', page: 'p', withinDays: 3 } }, 'goal'],
      [{ goal: { track: 'x', withinDays: 3, extra: 1 } }, 'goal.extra'],
      [{ goal: 'signup' }, 'goal'],
      [{ goal: { track: 'x', withinDays: 3 }, experiment: { controlShare: 0.6 } }, 'experiment.controlShare'],
      [{ goal: { track: 'x', withinDays: 3 }, experiment: { controlShare: 0.005 } }, 'experiment.controlShare'],
      [{ goal: { track: 'x', withinDays: 3 }, experiment: { controlShare: '0.1' } }, 'experiment.controlShare'],
      [{ goal: { track: 'x', withinDays: 3 }, experiment: { share: 0.1 } }, 'experiment.share'],
      [{ experiment: { controlShare: 0.1 } }, 'goal'],
      [{ goal: { feature: 'no-such-feature', withinDays: 3 } }, 'goal.feature'],
      [{ goal: { page: 'no-such-page', withinDays: 3 } }, 'goal.page'],
    ];
    for (const [extra, field] of cases) {
      const response = await put(guideBody('checked', extra));
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(response.json().field, JSON.stringify(extra)).toBe(field);
    }
    const foreign = await put(guideBody('checked', { goal: { feature: exportFeature, withinDays: 3 } }), OTHER);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().field).toBe('goal.feature');
  });

  it('are stored with the guide and kept by its history', async () => {
    const stored = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/guides/small`, headers: ADMIN_HEADERS });
    expect(stored.json().guide).toMatchObject({ goal: { track: 'report shared', withinDays: 7 }, experiment: { controlShare: 0.2 } });
    const version = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/guides/small/versions/1`, headers: ADMIN_HEADERS });
    expect(version.json().guide).toMatchObject({ goal: { track: 'report shared', withinDays: 7 }, experiment: { controlShare: 0.2 } });
  });
});

describe('issue #35 GET .../guides/{id}/experiment', () => {
  it('counts each arm exactly: first exposure, goal within withinDays after it, anonymous and other apps left out', async () => {
    const response = await results('small', '', viewer.bearer);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    // Treatment t1..t6 (t6's goal is another event), converted t1, t4, t5; control c1..c3, converted c1, c3.
    expect(answer.treatment).toEqual({ exposed: 6, converted: 3, rate: 0.5 });
    expect(answer.control).toEqual({ exposed: 3, converted: 2, rate: 0.6667 });
    expect(answer).toMatchObject({ goal: { track: 'report shared', withinDays: 7 }, experiment: { controlShare: 0.2 }, method: 'newcombe-wilson-95', verdict: 'too small' });
    expect(answer.sentence).toBe(
      'Too few visitors to say yet: each group needs at least 30 exposed visitors and 5 who reached the goal (treatment has 6 exposed and 3 converted; control has 3 exposed and 2 converted).',
    );
    // The lift is answered even so: 0.5 - 0.6667.
    expect(answer.lift.absolute).toBe(-0.1667);
    expect(answer.lift.relative).toBe(-0.25);
  });

  it('counts the first exposures in from..to only (t5 was exposed 20 days before)', async () => {
    const answer = (await results('small', `?from=${T - D}&to=${T + 5 * D}`)).json();
    expect(answer.treatment).toEqual({ exposed: 5, converted: 2, rate: 0.4 });
    expect(answer.control).toEqual({ exposed: 3, converted: 2, rate: 0.6667 });
    expect([answer.from, answer.to]).toEqual([T - D, T + 5 * D]);
    const none = (await results('small', `?from=${T + 60 * D}&to=${T + 61 * D}`)).json();
    expect([none.treatment, none.control, none.lift]).toEqual([{ exposed: 0, converted: 0, rate: null }, { exposed: 0, converted: 0, rate: null }, null]);
    expect(none.verdict).toBe('too small');
  });

  it('a feature goal over 40 + 40 visitors: the lift and its interval as Newcombe\'s method gives them', async () => {
    const answer = (await results('big')).json();
    expect(answer.treatment).toEqual({ exposed: 40, converted: 20, rate: 0.5 });
    expect(answer.control).toEqual({ exposed: 40, converted: 8, rate: 0.2 });
    const reference = referenceNewcombe(20, 40, 8, 40);
    expect(answer.lift.absolute).toBe(0.3);
    expect(answer.lift.lower).toBeCloseTo(reference.lower, 4);
    expect(answer.lift.upper).toBeCloseTo(reference.upper, 4);
    expect(answer.lift.relative).toBe(1.5);
    expect(answer.verdict).toBe('helped');
    expect(answer.sentence).toMatch(/^The guide helped: those who saw it reached the goal within 1 day 30\.0 points more often than the control group \(95% interval \+\d+\.\d points to \+\d+\.\d points\)\.$/);
  });

  it('a goal without an experiment: the treatment arm alone; no goal: 409; another app\'s or an unknown guide: 404', async () => {
    const goalOnly = (await results('goal-only')).json();
    expect(goalOnly).toMatchObject({ experiment: null, control: null, lift: null, verdict: 'no experiment', treatment: { exposed: 0, converted: 0, rate: null } });
    expect((await results('no-goal')).statusCode).toBe(409);
    expect((await results('nothing')).statusCode).toBe(404);
    expect((await results('small', '', ADMIN_HEADERS, OTHER)).statusCode).toBe(404);
    expect((await results('small', '?from=x')).json().field).toBe('from');
  });

  it('a goal whose feature was deleted since is a 400 naming goal.feature', async () => {
    const gone = await make('features', { name: 'Soon gone', rule: { selector: 'button.gone' } });
    expect((await put(guideBody('orphan', { goal: { feature: gone, withinDays: 2 } }))).statusCode).toBe(201);
    const before = await results('orphan');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().treatment).toEqual({ exposed: 0, converted: 0, rate: null });
    const deleted = await server.app.inject({ method: 'DELETE', url: `/api/apps/${KEY}/features/${gone}`, headers: ADMIN_HEADERS });
    expect(deleted.statusCode).toBe(204);
    const answer = await results('orphan');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().field).toBe('goal.feature');
  });
});

/**
 * Newcombe's method 10 as his paper writes it: L = d - z·sqrt(l1(1-l1)/n1 + u2(1-u2)/n2),
 * U = d + z·sqrt(u1(1-u1)/n1 + l2(1-l2)/n2), with each Wilson limit the root of |p - π| = z·sqrt(π(1-π)/n).
 */
function referenceNewcombe(x1: number, n1: number, x2: number, n2: number) {
  const z = 1.959963984540054;
  const wilson = (x: number, n: number) => {
    // (1 + z²/n)π² - (2p + z²/n)π + p² = 0.
    const p = x / n;
    const a = 1 + (z * z) / n;
    const b = -(2 * p + (z * z) / n);
    const root = Math.sqrt(b * b - 4 * a * p * p);
    return [(-b - root) / (2 * a), (-b + root) / (2 * a)] as const;
  };
  const [l1, u1] = wilson(x1, n1);
  const [l2, u2] = wilson(x2, n2);
  const d = x1 / n1 - x2 / n2;
  return { lower: d - z * Math.sqrt((l1 * (1 - l1)) / n1 + (u2 * (1 - u2)) / n2), upper: d + z * Math.sqrt((u1 * (1 - u1)) / n1 + (l2 * (1 - l2)) / n2) };
}

describe('issue #35 Newcombe\'s interval (newcombeInterval)', () => {
  it('gives Newcombe 1998\'s published limits (Table II, method 10) for his eight examples', () => {
    const table: Array<[number, number, number, number, number, number]> = [
      [56, 70, 48, 80, 0.0524, 0.3339],
      [9, 10, 3, 10, 0.1705, 0.809],
      [6, 7, 2, 7, 0.0582, 0.8062],
      [5, 56, 0, 29, -0.0381, 0.1926],
      [0, 10, 0, 20, -0.1611, 0.2775],
      [0, 10, 0, 10, -0.2775, 0.2775],
      [10, 10, 0, 20, 0.6791, 1],
      [10, 10, 0, 10, 0.6075, 1],
    ];
    for (const [x1, n1, x2, n2, lower, upper] of table) {
      const got = newcombeInterval(x1, n1, x2, n2);
      expect([Number(got.lower.toFixed(4)), Number(got.upper.toFixed(4))], `${x1}/${n1} - ${x2}/${n2}`).toEqual([lower, upper]);
      const reference = referenceNewcombe(x1, n1, x2, n2);
      // The quadratic's roots lose a few digits at p = 0 or 1 (its discriminant is then ~0).
      expect(got.lower).toBeCloseTo(reference.lower, 6);
      expect(got.upper).toBeCloseTo(reference.upper, 6);
    }
  });

  it('builds on Wilson\'s interval: Newcombe 1998\'s single-proportion examples', () => {
    const table: Array<[number, number, number, number]> = [[81, 263, 0.2553, 0.3662], [15, 148, 0.0624, 0.1605], [0, 20, 0, 0.1611], [1, 29, 0.0061, 0.1718]];
    for (const [x, n, lower, upper] of table) {
      const got = wilsonInterval(x, n);
      expect([Number(got.lower.toFixed(4)), Number(got.upper.toFixed(4))]).toEqual([lower, upper]);
    }
  });

  it('too small under 30 exposed or 5 converted in an arm; otherwise helped, hurt or unclear by the interval', () => {
    expect(judgeExperiment(armOf(30, 5), armOf(29, 10), 7).verdict).toBe('too small');
    expect(judgeExperiment(armOf(30, 4), armOf(100, 10), 7).verdict).toBe('too small');
    expect(judgeExperiment(armOf(300, 90), armOf(300, 45), 7).verdict).toBe('helped');
    expect(judgeExperiment(armOf(300, 45), armOf(300, 90), 7).verdict).toBe('hurt');
    const unclear = judgeExperiment(armOf(100, 20), armOf(100, 18), 7);
    expect(unclear.verdict).toBe('unclear');
    expect(unclear.sentence).toMatch(/^No clear difference yet: \+2\.0 points against the control group, but the 95% interval −\d+\.\d points to \+\d+\.\d points includes no change\.$/);
    expect(judgeExperiment(armOf(10, 3), null, 7)).toEqual({ lift: null, verdict: 'no experiment', sentence: 'No experiment, so no comparison: 3 of 10 visitors who saw it reached the goal within 7 days.' });
  });
});
