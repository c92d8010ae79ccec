/**
 * issue #35 "Fast at real volumes": funnels and retention read their steps' events by key. A backfilled rule's steps
 * come from its rule keys (readRuleEntries), a rule not backfilled yet from the scan of the span's events
 * (funnelSteps): both must answer the same, exactly, on known data; an element first clicked after the backfill
 * counts, whether the drain's matching has stored its rule keys or the entry still waits to be matched; paths' start
 * visitors likewise. Retention
 * without steps reads the units' weeks (unitWeeksSql.ts): its rows equal the reference scan of the events, with
 * events on the week boundaries' last and first milliseconds. Stored with the ingest statement, drained by the real
 * summarizer. PGlite here, PostgreSQL with vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfills } from '../../server/analytics/createRuleBackfill';
import { type RuleStore } from '../../server/analytics/createRuleStore';
import { readFunnelBody } from '../../server/analytics/funnelBody';
import { queryFunnel } from '../../server/analytics/funnelQuery';
import { resolveSteps } from '../../server/analytics/funnelSteps';
import { readPathsBody } from '../../server/analytics/pathsBody';
import { queryPaths } from '../../server/analytics/pathsQuery';
import { readRuleEntries } from '../../server/analytics/readRuleEntries';
import { readRetentionBody } from '../../server/analytics/retentionBody';
import { queryRetention, retentionSql } from '../../server/analytics/retentionQuery';
import { type EventStore } from '../../server/ingest/createEventStore';
import type { Database } from '../../server/storage/Database';
import { createSummarizer, type Summarizer } from '../../server/summaries/createSummarizer';
import { WEEK_MS, weekOf } from '../../shared/analytics/utcWeek';
import { openAnalyticsTestDatabase } from './analyticsTestDatabase';
import { SERVER_TIMEOUT, wireEvent } from './testServer';

const D = 86_400_000;
const H = 3_600_000;
/** A UTC midnight (a Saturday). */
const T0 = Date.UTC(2026, 0, 10);
const KEY = 'rule-keys-app';

const target = (cls: string, id = '') => ({ tag: 'BUTTON', id, cls, title: null, attrs: {}, myIndex: 0, childIndex: 0 });
const SAVE = target('save');
const EXPORT = target('export');
const url = (path: string) => `http://app.test${path}`;
const click = (t: number, visitor: string, account: string, path: string, element: object) =>
  wireEvent({ type: 'click', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: { target: element } });
const load = (t: number, visitor: string, account: string, path: string) =>
  wireEvent({ type: 'load', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: {} });
const track = (t: number, visitor: string, account: string, name: string) =>
  wireEvent({ type: 'track', browser_time: t, visitor_id: visitor, account_id: account, url: url('/'), track_event_name: name, props: {} });

/**
 * Home -> Save on a report page -> track "done":
 * - v1 (acme): all three, an hour apart;
 * - v2 (acme): home, Save on /settings (not a report page), "done": step 1 only;
 * - v3 (beta): home with a query, Export on a report: step 1 only (step 2 of "any button");
 * - v4 (no account): Save on a report without home: enters nothing.
 */
const EVENTS = [
  load(T0 + H, 'v1', 'acme', '/home'),
  click(T0 + 2 * H, 'v1', 'acme', '/reports/1', SAVE),
  track(T0 + 3 * H, 'v1', 'acme', 'done'),
  load(T0 + D, 'v2', 'acme', '/home'),
  click(T0 + D + H, 'v2', 'acme', '/settings', SAVE),
  track(T0 + D + 2 * H, 'v2', 'acme', 'done'),
  load(T0 + 2 * D, 'v3', 'beta', '/home?x=1'),
  click(T0 + 2 * D + H, 'v3', 'beta', '/reports/2', EXPORT),
  click(T0 + 3 * D, 'v4', '', '/reports/1', SAVE),
];

let db: Database;
let store: EventStore;
let rules: RuleStore;
let summarizer: Summarizer;
let batch = 0;
/** Stores `events` as the beacon does (the ingest statement). */
const ingest = (events: Array<Record<string, unknown>>, apiKey = KEY) =>
  store.insertBatch(apiKey, 'analytics', events.map((e) => ({ ...e, tabId: `keys-tab-${++batch}` })) as never, T0 + 5 * D);
const sources = () => ({ rules, guideStepIds: async () => undefined });

beforeAll(async () => {
  ({ db, store, rules, summarizer } = await openAnalyticsTestDatabase(T0 - 60 * D, T0 + 100 * D));
  await ingest(EVENTS);
  await summarizer.flush();
}, SERVER_TIMEOUT);
afterAll(async () => {
  await summarizer?.stop();
  await db?.close();
});

describe('issue #35 funnel steps from rule keys, and from the scan while a rule is not backfilled', () => {
  let ids: { home: string; reports: string; saveOnReports: string; button: string };
  /** Marks every rule of the app backfilled or not (the backfill's own columns; its keys stay). */
  const setBackfilled = (ready: boolean) => Promise.all(['analytics_features', 'analytics_pages'].map((table) =>
    db.query(`update ${table} set backfilled_at = ${ready ? '1' : 'null'} where api_key = $1`, [KEY])));
  const funnel = async (steps: object[]) =>
    (await queryFunnel(db, KEY, readFunnelBody({ steps, from: T0, to: T0 + 10 * D }), sources())).steps.map((s) => s.visitors);
  const retention = () => queryRetention(db, KEY, readRetentionBody({ from: weekOf(T0), to: T0 + 14 * D, start: { page: ids.home }, return: { feature: ids.button } }), sources(), T0 + 100 * D);

  beforeAll(async () => {
    const home = await rules.createPage(KEY, 'Home', { url: '/home' }, T0);
    const reports = await rules.createPage(KEY, 'Reports', { url: '/reports/:id' }, T0);
    if (typeof home === 'string' || typeof reports === 'string') throw new Error(String(home));
    const saveOnReports = await rules.createFeature(KEY, 'Save a report', { selector: 'button.save', page: reports.id }, T0);
    // Made after: paths read a click as the first feature that matches it (createStepReader).
    const button = await rules.createFeature(KEY, 'Any button', { selector: 'button' }, T0 + 1);
    if (typeof saveOnReports === 'string' || typeof button === 'string') throw new Error(String(saveOnReports));
    await runBackfills(db, 'test', 100);
    ids = { home: home.id, reports: reports.id, saveOnReports: saveOnReports.id, button: button.id };
  });

  it('a backfilled rule and the same rule not yet backfilled resolve the same keys and answer the same', async () => {
    const main = () => [{ page: ids.home }, { feature: ids.saveOnReports }, { track: 'done' }];
    // Backfilled: the keys come from the rules (a page's rule keys hold every address it matches).
    expect((await readRuleEntries(db, 'page', KEY, ids.home, 10, 10))?.map((e) => e.value).sort()).toEqual([url('/home'), url('/home?x=1')]);
    const fromKeys = await resolveSteps(db, KEY, main(), { from: T0, to: T0 + 17 * D }, sources());
    expect(await funnel(main())).toEqual([3, 1, 1]);
    expect(await funnel([{ page: ids.home }, { feature: ids.button }])).toEqual([3, 3]);
    const cohorts = await retention();
    // v1 and v2 in the week of Monday 5 January, v3 the next; none comes back to a button in a later week.
    expect(cohorts.cohorts.map((c) => [c.size, c.back[1]])).toEqual([[2, 0], [1, 0]]);
    await setBackfilled(false);
    try {
      expect(await readRuleEntries(db, 'page', KEY, ids.home, 10, 10)).toBeUndefined();
      const fromScan = await resolveSteps(db, KEY, main(), { from: T0, to: T0 + 17 * D }, sources());
      const sorted = (filters: typeof fromKeys) => filters.map((f) => JSON.stringify(f, (k, v) => (Array.isArray(v) ? [...v].sort() : v)));
      expect(sorted(fromScan)).toEqual(sorted(fromKeys));
      expect(await funnel(main())).toEqual([3, 1, 1]);
      expect(await funnel([{ page: ids.home }, { feature: ids.button }])).toEqual([3, 3]);
      expect(await retention()).toEqual(cohorts);
    } finally {
      await setBackfilled(true);
    }
  });

  it('paths from a backfilled start and from the same start not yet backfilled answer the same', async () => {
    const paths = async (start: object) => queryPaths(db, rules, KEY, readPathsBody({ start, direction: 'next', depth: 2, from: T0, to: T0 + 10 * D }));
    const fromHome = await paths({ page: ids.home });
    const fromSave = await paths({ feature: ids.saveOnReports });
    // v1, v2, v3 load home; v1 and v4 save on a report page (v2 saves on /settings).
    expect([fromHome.visitors, fromSave.visitors]).toEqual([3, 2]);
    await setBackfilled(false);
    try {
      expect(await paths({ page: ids.home })).toEqual(fromHome);
      expect(await paths({ feature: ids.saveOnReports })).toEqual(fromSave);
    } finally {
      await setBackfilled(true);
    }
  });

  it('an element first clicked after the backfill counts: matched by the drain, or still waiting to be matched', async () => {
    const main = () => [{ page: ids.home }, { feature: ids.saveOnReports }, { track: 'done' }];
    // v3 saves a report with a button never clicked before; the drain's matching stores its rule keys.
    await ingest([click(T0 + 2 * D + 2 * H, 'v3', 'beta', '/reports/2', target('save', 'new'))]);
    await summarizer.flush();
    expect(await funnel(main())).toEqual([3, 2, 1]);
    // v2 saves one on a new report with another new button, drained by a collector whose matching has not run.
    const other = createSummarizer(db, { intervalMs: 3_600_000 });
    try {
      await ingest([click(T0 + D + 3 * H, 'v2', 'acme', '/reports/3', target('save', 'newer'))]);
      await other.flush();
    } finally {
      await other.stop();
    }
    const pending = await db.query<{ n: unknown }>("select count(*) as n from analytics_elements where api_key = $1 and not matched", [KEY]);
    expect(Number(pending.rows[0]!.n)).toBe(1);
    // Counted at once; its "done" came before the click, so step 3 stays v1's.
    expect(await funnel(main())).toEqual([3, 3, 1]);
  });
});

describe('issue #35 retention of any event from the units\' weeks', () => {
  const APP = 'unit-weeks-app';
  const W = WEEK_MS;
  beforeAll(async () => {
    // Six visitors in two accounts (and one without), first uses at odd times; then events each week around the
    // boundaries of weeks after the first use: a millisecond before, on, after, and the week's last millisecond.
    const events: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 6; i++) {
      const first = T0 - 9 * D + i * 37 * H + i * 1000;
      const visitor = `w${i}`;
      const account = i === 5 ? '' : i % 2 ? 'acme' : 'beta';
      events.push(load(first, visitor, account, '/home'));
      for (let k = 1; k <= 10; k++) {
        const pick = (i * 7 + k * 3) % 5;
        if (pick === 4) continue;
        const at = first + k * W + [-1, 0, 1, W - 1][pick]!;
        events.push(pick % 2 ? click(at, visitor, account, '/reports/1', SAVE) : load(at, visitor, account, '/home'));
      }
    }
    await ingest(events, APP);
    await summarizer.flush();
  });

  it('cohorts and weeks back equal the scan of the events, by visitor and by account', async () => {
    const anyEvent = "kind = 'analytics'";
    for (const unit of ['visitor_id', 'account_id'] as const) {
      for (const [from, to] of [[weekOf(T0) - 2 * W, T0 + 4 * W], [weekOf(T0), T0 + 2 * W]] as const) {
        const params = [APP, from, to, 8];
        const weeks = await db.query(retentionSql(unit, {}), params);
        const scan = await db.query(retentionSql(unit, { start: anyEvent, back: anyEvent }), params);
        expect(weeks.rows.map((r) => JSON.stringify(r)), `${unit} ${from}`).toEqual(scan.rows.map((r) => JSON.stringify(r)));
        if (from < weekOf(T0)) expect(weeks.rows.length, 'rows to compare').toBeGreaterThan(6);
      }
    }
  });
});
