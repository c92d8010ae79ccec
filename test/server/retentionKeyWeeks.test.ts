/**
 * issue #35 "Fast at real volumes": retention whose start or return is a feature (not limited to a page) or a page
 * reads the units' weeks of its element and address keys (unitKeyWeeksSql.ts, migration 23) instead of the events.
 * On known data, stored with the ingest statement and drained by the real summarizer, its answers equal the
 * reference read of the same steps' events (retentionSql with stepWhere, the path before migration 23), for features
 * and pages as start and return, by visitor and by account, with units whose first use is before the range and
 * returns on the weeks' boundaries (a millisecond before, on, after, the week's last); migration 23's fill of events
 * already stored gives the same rows as the drain, and an event drained after the fill (queued when it ran) counts
 * once. PGlite here, PostgreSQL with vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfills } from '../../server/analytics/createRuleBackfill';
import { type RuleStore } from '../../server/analytics/createRuleStore';
import { stepWhere } from '../../server/analytics/funnelQuery';
import { resolveSteps } from '../../server/analytics/funnelSteps';
import { readRetentionBody, type RetentionQuery } from '../../server/analytics/retentionBody';
import { queryRetention, retentionAnswer, retentionSql, sourceOf } from '../../server/analytics/retentionQuery';
import { FILL_UNIT_KEY_WEEKS } from '../../server/analytics/unitKeyWeeksSql';
import { type EventStore } from '../../server/ingest/createEventStore';
import type { Database } from '../../server/storage/Database';
import { type Summarizer } from '../../server/summaries/createSummarizer';
import { WEEK_MS } from '../../shared/analytics/utcWeek';
import { openAnalyticsTestDatabase } from './analyticsTestDatabase';
import { SERVER_TIMEOUT, wireEvent } from './testServer';

const H = 3_600_000;
const D = 24 * H;
const W = WEEK_MS;
/** Monday 5 January 2026, 00:00 UTC. */
const W0 = Date.UTC(2026, 0, 5);
/** Every week of the data has passed. */
const NOW = W0 + 40 * W;
/** The app of the boundary data, and of the hand count. */
const KEY = 'key-weeks-app';
/** 60 questions read both ways, on a loaded machine. */
const AGREEMENT_TIMEOUT = 180_000;
const HAND_KEY = 'key-weeks-hand';

const target = (cls: string) => ({ tag: 'BUTTON', id: '', cls, title: null, attrs: {}, myIndex: 0, childIndex: 0 });
const EXPORT = target('export');
const SAVE = target('save');
const url = (path: string) => `http://app.test${path}`;
const click = (t: number, visitor: string, account: string, element: object, path = '/home') =>
  wireEvent({ type: 'click', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: { target: element } });
const load = (t: number, visitor: string, account: string, path = '/home') =>
  wireEvent({ type: 'load', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: {} });

/**
 * Counted by hand (Export as start and return; the Reports page /reports/:id as a return):
 * - p (x): Export on W0 + 1 d (cohort W0) and W0 + 8 d (week 1), a report on W0 + 15 d (week 2 exactly);
 * - q (x): Export on W0 - 2 d (first use before W0: no cohort from W0) and W0 + 2 d;
 * - r (y): a report on W0 + 1 d, Export on W1 + 1 d (cohort W1), 7 d - 1 ms after (week 0), 7 d after (week 1).
 */
const HAND = [
  click(W0 + D, 'p', 'x', EXPORT), click(W0 + 8 * D, 'p', 'x', EXPORT), load(W0 + 15 * D, 'p', 'x', '/reports/1'),
  click(W0 - 2 * D, 'q', 'x', EXPORT), click(W0 + 2 * D, 'q', 'x', EXPORT),
  load(W0 + D, 'r', 'y', '/reports/2'), click(W0 + W + D, 'r', 'y', EXPORT),
  click(W0 + 2 * W + D - 1, 'r', 'y', EXPORT), click(W0 + 2 * W + D, 'r', 'y', EXPORT, '/reports/2'),
];

/**
 * Eight visitors in three accounts (and one without), first uses at odd times from 9 days before W0, then each week
 * an Export or Save click, a report or a home load, around the boundaries of the weeks after the first use.
 */
function boundaryEvents(): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 8; i++) {
    const first = W0 - 9 * D + i * 37 * H + i * 1000;
    const visitor = `w${i}`;
    const account = i === 7 ? '' : ['acme', 'beta', 'gamma'][i % 3]!;
    events.push(i % 2 ? click(first, visitor, account, EXPORT, '/reports/9') : load(first, visitor, account, '/reports/9'));
    for (let k = 1; k <= 10; k++) {
      const pick = (i * 7 + k * 3) % 6;
      if (pick === 5) continue;
      const at = first + k * W + [-1, 0, 1, W - 1, 3 * D][pick]!;
      const kind = (i + k) % 4;
      events.push(kind === 0 ? click(at, visitor, account, EXPORT) : kind === 1 ? click(at, visitor, account, SAVE, '/reports/3')
        : kind === 2 ? load(at, visitor, account, '/reports/3') : load(at, visitor, account, '/home'));
    }
  }
  return events;
}

let db: Database;
let store: EventStore;
let rules: RuleStore;
let summarizer: Summarizer;
let batch = 0;
type Ids = { export: string; reports: string; exportOnReports: string };
const ids: Record<string, Ids> = {};
/** Stores `events` as the beacon does (the ingest statement), queued for the drain. */
const ingest = (events: Array<Record<string, unknown>>, apiKey = KEY) =>
  store.insertBatch(apiKey, 'analytics', events.map((e) => ({ ...e, tabId: `key-weeks-tab-${++batch}` })) as never, W0 + 30 * W);
const sources = () => ({ rules, guideStepIds: async () => undefined });

/** The question's answer as retention reads it (the units' weeks of the steps' keys where it can). */
const fromWeeks = (query: RetentionQuery, apiKey = KEY) => queryRetention(db, apiKey, query, sources(), NOW);

/** The reference: the same steps, every one read from its events (stepWhere), as before migration 23. */
async function fromEvents(query: RetentionQuery) {
  const named = (['start', 'return'] as const).flatMap((field) => (query[field] ? [{ field, step: query[field]! }] : []));
  const resolved = await resolveSteps(db, KEY, named.map((n) => n.step), { from: -8.64e15, to: query.to + (query.weeks + 2) * W }, sources());
  const where = (field: 'start' | 'return', params: unknown[]) => {
    const filter = resolved[named.findIndex((n) => n.field === field)];
    return filter && (stepWhere(filter, params) ?? 'false');
  };
  const params: unknown[] = [KEY, query.from, query.to, query.weeks];
  const sql = retentionSql(query.by === 'visitor' ? 'visitor_id' : 'account_id', { start: where('start', params), back: where('return', params) });
  const { rows } = await db.query<Record<string, unknown>>(sql, params);
  return retentionAnswer(rows.map((r) => ({ week: Number(r.week), k: Number(r.k), n: Number(r.n), last: r.last === null ? null : Number(r.last) })), query, NOW);
}

const cohortsOf = (answer: { cohorts: Array<{ week: number; size: number; back: unknown[] }> }) =>
  answer.cohorts.map((c) => [(c.week - W0) / W, c.size, c.back]);

/** Every pairing of the Export feature, the Reports page and any event, by visitor and by account, over two ranges. */
function questions(): RetentionQuery[] {
  const { export: exported, reports, exportOnReports } = ids[KEY]!;
  const steps = [{ feature: exported }, { page: reports }, { feature: exportOnReports }, undefined];
  const all: RetentionQuery[] = [];
  for (const by of ['visitor', 'account'] as const) {
    for (const [from, to] of [[W0 - 2 * W, W0 + 4 * W], [W0, W0 + 2 * W]] as const) {
      for (const start of steps) {
        for (const back of steps) {
          if (start || back) all.push(readRetentionBody({ from, to, weeks: 8, by, ...(start ? { start } : {}), ...(back ? { return: back } : {}) }));
        }
      }
    }
  }
  return all;
}

/** Both reads of every question; answers the number of cohorts compared. */
async function expectAgreement(): Promise<number> {
  let cohorts = 0;
  for (const query of questions()) {
    const expected = await fromEvents(query);
    expect(await fromWeeks(query), JSON.stringify(query)).toEqual(expected);
    cohorts += expected.cohorts.length;
  }
  return cohorts;
}

beforeAll(async () => {
  ({ db, store, rules, summarizer } = await openAnalyticsTestDatabase(W0 - 60 * D, W0 + 300 * D));
  await ingest(HAND, HAND_KEY);
  await ingest(boundaryEvents());
  await summarizer.flush();
  for (const apiKey of [KEY, HAND_KEY]) {
    const exported = await rules.createFeature(apiKey, 'Export', { selector: 'button.export' }, W0);
    const reports = await rules.createPage(apiKey, 'Reports', { url: '/reports/:id' }, W0);
    if (typeof exported === 'string' || typeof reports === 'string') throw new Error(String(exported));
    const exportOnReports = await rules.createFeature(apiKey, 'Export a report', { selector: 'button.export', page: reports.id }, W0);
    if (typeof exportOnReports === 'string') throw new Error(exportOnReports);
    ids[apiKey] = { export: exported.id, reports: reports.id, exportOnReports: exportOnReports.id };
  }
  await runBackfills(db, 'test', 100);
}, SERVER_TIMEOUT);
afterAll(async () => {
  await summarizer?.stop();
  await db?.close();
});

describe('issue #35 retention of a feature or a page from the units\' weeks of its keys', () => {
  const hand = (body: object) => readRetentionBody({ from: W0, to: W0 + 2 * W, weeks: 2, start: { feature: ids[HAND_KEY]!.export }, ...body });
  const exported = () => ({ feature: ids[HAND_KEY]!.export });
  const reports = () => ({ page: ids[HAND_KEY]!.reports });

  it('answers the hand count: a feature as start and return, a page as return, by visitor and by account', async () => {
    expect(cohortsOf(await fromWeeks(hand({ return: exported() }), HAND_KEY))).toEqual([[0, 1, [1, 1, 0]], [1, 1, [1, 1, 0]]]);
    expect(cohortsOf(await fromWeeks(hand({ return: reports() }), HAND_KEY))).toEqual([[0, 1, [1, 0, 1]], [1, 1, [1, 0, 0]]]);
    // Account x's first Export is q's, before W0: no cohort; y's is r's.
    expect(cohortsOf(await fromWeeks(hand({ by: 'account', return: exported() }), HAND_KEY))).toEqual([[1, 1, [1, 1, 0]]]);
  });

  it('reads the weeks, not the events: without their rows a feature has no cohort', async () => {
    const rows = await db.query<{ n: unknown }>("select count(*) as n from analytics_unit_key_weeks where api_key = $1 and key_kind = 'element'", [HAND_KEY]);
    // Export's weeks: p's two, q's two, r's two (two clicks in one week); account x's three, y's two.
    expect(Number(rows.rows[0]!.n)).toBe(11);
    const params: unknown[] = [];
    expect(sourceOf({ type: 'click', targets: ['{}'], keys: ['k'] }, params)).toEqual({ keyKind: 'element', keys: '$1' });
    expect(typeof sourceOf({ type: 'click', targets: ['{}'], keys: ['k'], addressKeys: ['a'] }, params), 'a feature limited to a page').toBe('string');
    await db.query("delete from analytics_unit_key_weeks where api_key = $1 and key_kind = 'element'", [HAND_KEY]);
    try {
      expect((await fromWeeks(hand({ return: exported() }), HAND_KEY)).cohorts).toEqual([]);
    } finally {
      await db.query(FILL_UNIT_KEY_WEEKS);
    }
    expect(cohortsOf(await fromWeeks(hand({ return: exported() }), HAND_KEY))).toEqual([[0, 1, [1, 1, 0]], [1, 1, [1, 1, 0]]]);
  });

  it('equals the read of the events for every pairing of feature, page and any event, by visitor and by account', async () => {
    expect(await expectAgreement(), 'cohorts compared').toBeGreaterThan(100);
  }, AGREEMENT_TIMEOUT);

  it('migration 23\'s fill gives the drain\'s rows; an event queued when it ran, drained after it, counts once', async () => {
    const snapshot = () => db.query('select * from analytics_unit_key_weeks where api_key = $1 order by unit_kind, key_kind, key, unit_id, week', [KEY]);
    const drained = (await snapshot()).rows;
    await db.query('delete from analytics_unit_key_weeks where api_key = $1', [KEY]);
    await db.query(FILL_UNIT_KEY_WEEKS);
    expect((await snapshot()).rows).toEqual(drained);
    // p exports again in its week 2 and r loads a report in its week 1; queued, filled, then drained.
    await ingest([click(W0 + 15 * D + 1, 'p', 'x', EXPORT), load(W0 + W + 8 * D, 'r', 'y', '/reports/2')], HAND_KEY);
    await db.query(FILL_UNIT_KEY_WEEKS);
    await summarizer.flush();
    expect(cohortsOf(await fromWeeks(hand({ return: exported() }), HAND_KEY))).toEqual([[0, 1, [1, 1, 1]], [1, 1, [1, 1, 0]]]);
    expect(cohortsOf(await fromWeeks(hand({ return: reports() }), HAND_KEY))).toEqual([[0, 1, [1, 0, 1]], [1, 1, [1, 1, 0]]]);
    await expectAgreement();
  }, AGREEMENT_TIMEOUT);
});
