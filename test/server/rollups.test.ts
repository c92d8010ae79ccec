/**
 * issue #35 "Fast at real volumes": features and pages read from per-visitor, per-day rollups kept by the
 * summarizer's drain, with rule keys from a background backfill and from the matching of new dictionary entries.
 * Exact counts on small known data: through the real beacon and routes (a replayed batch counted once, a rule made
 * after its events, a new element after its rule, a changed rule), and on the database itself, stored with the
 * ingest statement and drained by the summarizer (rollups equal to the reference scan of the events, retention,
 * two backfills at once, a backfill interrupted, a rule changed mid-backfill). PGlite here, PostgreSQL with
 * vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillStep, BACKFILL_LEASE_MS, claimBackfill } from '../../server/analytics/backfillRule';
import { runBackfills } from '../../server/analytics/createRuleBackfill';
import { createRuleStore, type RuleStore } from '../../server/analytics/createRuleStore';
import { matchNewEntries } from '../../server/analytics/matchNewEntries';
import { queryFeatureRollups, queryPageRollups, readBackfillState } from '../../server/analytics/queryRollupUse';
import { queryFeatureUse, queryPageUse } from '../../server/analytics/queryRuleUse';
import { createEventStore, type EventStore } from '../../server/ingest/createEventStore';
import { applyRetention } from '../../server/storage/createRetention';
import type { Database } from '../../server/storage/Database';
import { migrateSchema, MIGRATIONS } from '../../server/storage/migrations/MIGRATIONS';
import { runMigrations } from '../../server/storage/migrations/runMigrations';
import { openDatabase } from '../../server/storage/openDatabase';
import { ensurePartitions } from '../../server/storage/partitions/eventPartitions';
import { createSummarizer, type Summarizer } from '../../server/summaries/createSummarizer';
import { openAnalyticsTestDatabase } from './analyticsTestDatabase';
import { weekOf } from '../../shared/analytics/utcWeek';
import { pgliteTemplate } from './pgliteTemplate';
import { ADMIN_HEADERS, freshPostgresDatabase, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

const D = 86_400_000;
const H = 3_600_000;
/** A UTC midnight. */
const T0 = Date.UTC(2026, 0, 10);

const target = (tag: string, cls: string, id = '') => ({ tag, id, cls, title: null, attrs: {}, myIndex: 0, childIndex: 0, parentElem: { tag: 'DIV', id: '', cls: 'toolbar', title: null, attrs: {}, myIndex: 0, childIndex: 0 } });
const SAVE = target('BUTTON', 'save');
const EXPORT = target('BUTTON', 'export');
const HELP = target('A', 'help');
const url = (path: string) => `http://app.test${path}`;
const click = (t: number, visitor: string, account: string, path: string, element: object) =>
  wireEvent({ type: 'click', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: { target: element } });
const load = (t: number, visitor: string, account: string, path: string) =>
  wireEvent({ type: 'load', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: {} });

describe('issue #35 rollups through the beacon and the routes', () => {
  let server: TestServer;
  const KEY = 'rollups-app';
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
    server.app.inject({ method, url: `/api/apps/${KEY}${path}`, headers: ADMIN_HEADERS, ...(payload ? { payload } : {}) });
  async function beacon(events: unknown[]) {
    const response = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/${KEY}?v=1&ct=1&jzb=${nodeJzb(events)}` });
    expect(response.statusCode).toBe(200);
  }
  async function make(kind: 'features' | 'pages', body: object): Promise<string> {
    const response = await call('POST', `/${kind}`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }
  const use = async (kind: 'features' | 'pages', id: string) => {
    const response = await call('GET', `/${kind}/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    const { events, visitors, accounts, backfill } = response.json();
    return { events, visitors, accounts, backfill };
  };
  const ready = { state: 'ready', progress: 1 };

  // Sent once, then again as the agent replays a batch it got no answer for: stored (and counted) once.
  const BATCH = [
    load(T0 + H, 'v1', 'acme', '/reports'),
    click(T0 + H, 'v1', 'acme', '/reports', SAVE),
    click(T0 + 2 * H, 'v1', 'acme', '/reports', SAVE),
    click(T0 + D + H, 'v2', 'beta', '/settings', SAVE),
    click(T0 + D + H, 'v2', 'beta', '/settings', EXPORT),
  ];

  beforeAll(async () => {
    server = await startTestServer();
    await beacon(BATCH);
    await beacon(BATCH);
    // A later batch adding to a rollup row the first one made (same visitor, day, element and address).
    await beacon([click(T0 + 3 * H, 'v1', 'acme', '/reports', SAVE)]);
  }, SERVER_TIMEOUT);
  afterAll(() => server?.close(), SERVER_TIMEOUT);

  it('a rule made after its events counts them once, a replayed batch included, and says it is ready', async () => {
    const save = await make('features', { name: 'Save', rule: { selector: 'button.save' } });
    expect(await use('features', save)).toEqual({ events: 4, visitors: 2, accounts: 2, backfill: ready });
    // Read again: the backfill is not run twice.
    expect(await use('features', save)).toEqual({ events: 4, visitors: 2, accounts: 2, backfill: ready });
    const reports = await make('pages', { name: 'Reports', rule: { url: '/reports' } });
    expect(await use('pages', reports)).toEqual({ events: 1, visitors: 1, accounts: 1, backfill: ready });
    const saveOnReports = await make('features', { name: 'Save on reports', rule: { selector: '.save', page: reports } });
    expect(await use('features', saveOnReports)).toEqual({ events: 3, visitors: 1, accounts: 1, backfill: ready });
  });

  it('an element clicked for the first time after the rule is counted, and so is a new address', async () => {
    const help = await make('features', { name: 'Help', rule: { selector: 'a.help' } });
    expect(await use('features', help)).toMatchObject({ events: 0 });
    const inbox = await make('pages', { name: 'Inbox', rule: { url: '/inbox' } });
    await beacon([click(T0 + 3 * D, 'v3', '', '/inbox', HELP), load(T0 + 3 * D, 'v3', '', '/inbox')]);
    expect(await use('features', help)).toEqual({ events: 1, visitors: 1, accounts: 0, backfill: ready });
    expect(await use('pages', inbox)).toEqual({ events: 1, visitors: 1, accounts: 0, backfill: ready });
  });

  it('a changed rule counts what the new rule matches, and no longer what the old one did', async () => {
    const id = await make('features', { name: 'Changing', rule: { selector: 'button.export' } });
    expect(await use('features', id)).toMatchObject({ events: 1 });
    expect((await call('PATCH', `/features/${id}`, { rule: { selector: 'button' } })).statusCode).toBe(200);
    expect(await use('features', id)).toEqual({ events: 5, visitors: 2, accounts: 2, backfill: ready });
  });
});

describe('issue #35 rollups on the database', () => {
  let db: Database;
  let store: EventStore;
  let rules: RuleStore;
  let summarizer: Summarizer;
  const KEY = 'rollups-db';
  let batch = 0;
  /** Stores `events` as the beacon does (the ingest statement), received at `receivedAt`. */
  const ingest = (events: Array<Record<string, unknown>>, receivedAt: number, apiKey = KEY) =>
    store.insertBatch(apiKey, 'analytics', events.map((e) => ({ ...e, tabId: `db-tab-${++batch}` })) as never, receivedAt);

  beforeAll(async () => {
    ({ db, store, rules, summarizer } = await openAnalyticsTestDatabase(T0 - 60 * D, T0 + 40 * D));
    // Three days, times in the middle of days, two pages, four elements, a visitor without an account, one
    // visitor in two accounts on one day, and an event without a visitor.
    const days = [0, 1, 2].map((d) => T0 + d * D);
    const events = days.flatMap((day, d) => [
      load(day + 5 * H, 'v1', 'acme', '/reports/1'),
      click(day + 5 * H, 'v1', 'acme', '/reports/1', SAVE),
      click(day + 13 * H, 'v1', 'beta', '/reports/2', EXPORT),
      click(day + 23 * H, 'v2', '', '/settings', d === 1 ? HELP : SAVE),
      load(day + 23 * H, 'v2', '', '/settings?tab=x'),
      click(day + 12 * H, '', 'acme', '/reports/1', target('BUTTON', 'save primary', `b${d}`)),
    ]);
    await ingest(events, T0 + 3 * D);
    await summarizer.flush();
    // A second batch adding to rollup rows of the first (the upserts' update path).
    await ingest(events.slice(0, 6), T0 + 3 * D + 1);
    await summarizer.flush();
  }, SERVER_TIMEOUT);
  afterAll(async () => {
    await summarizer?.stop();
    await db?.close();
  });

  it('rollup reads equal the reference scan of the events: all time and whole-day spans, page-limited features', async () => {
    const reports = await rules.createPage(KEY, 'Reports', { url: '/reports/:id' }, T0);
    const settings = await rules.createPage(KEY, 'Settings', { url: '/settings' }, T0);
    if (typeof reports === 'string' || typeof settings === 'string') throw new Error(String(reports));
    const selectors: Array<[string, typeof reports | undefined]> = [
      ['button.save', undefined], ['button', undefined], ['.toolbar > *', reports], ['button.save', settings], ['a.help', undefined], ['#b1', undefined], ['nav', undefined],
    ];
    const features = [];
    for (const [selector, page] of selectors) {
      const made = await rules.createFeature(KEY, selector, { selector, ...(page ? { page: page.id } : {}) }, T0);
      if (typeof made === 'string') throw new Error(made);
      features.push({ made, page });
    }
    await runBackfills(db, 'test', 2);
    const ranges = [null, { from: T0 + D, to: T0 + 2 * D, bucket: 'day' as const }, { from: T0, to: T0 + 2 * D, bucket: 'day' as const }];
    let counted = 0;
    for (const range of ranges) {
      for (const { made, page } of features) {
        const rollup = await queryFeatureRollups(db, KEY, made.id, page?.id, range);
        expect(rollup, `${made.rule.selector} ${JSON.stringify(range)}`).toEqual(await queryFeatureUse(db, KEY, made.rule, page?.rule, range));
        counted += rollup.events;
      }
      for (const page of [reports, settings]) expect(await queryPageRollups(db, KEY, page.id, range)).toEqual(await queryPageUse(db, KEY, page.rule, range));
    }
    // The comparison compared counts, not empty answers.
    expect(counted).toBeGreaterThan(20);
    expect(await queryFeatureRollups(db, KEY, features[0].made.id, undefined, null)).toMatchObject({ events: 11, visitors: 2, accounts: 1 });
  });

  it('two backfills at once share the work and count each key once', async () => {
    const made = await rules.createFeature(KEY, 'twice', { selector: 'button' }, T0);
    if (typeof made === 'string') throw new Error(made);
    await Promise.all([runBackfills(db, 'collector-a', 1), runBackfills(db, 'collector-b', 1)]);
    const keys = await db.query<{ n: unknown }>("select count(*) as n from analytics_rule_keys where api_key = $1 and rule_id = $2", [KEY, made.id]);
    // button.save, button.export, and the three buttons with an id.
    expect(Number(keys.rows[0].n)).toBe(5);
    const state = await db.query<{ done: unknown; total: unknown }>('select backfill_done as done, backfill_total as total from analytics_features where api_key = $1 and id = $2', [KEY, made.id]);
    expect(Number(state.rows[0].done)).toBe(Number(state.rows[0].total));
    expect(await readBackfillState(db, 'feature', KEY, made.id)).toEqual({ state: 'ready', progress: 1 });
  });

  it('a collector stopped mid-backfill: the job waits for its lease, then the next goes on from its cursor', async () => {
    const made = await rules.createFeature(KEY, 'interrupted', { selector: 'button' }, T0 + 1);
    if (typeof made === 'string') throw new Error(made);
    const now = Date.now();
    const only = { apiKey: KEY, id: made.id };
    const first = await claimBackfill(db, 'feature', 'dies', now, only);
    expect(first).toBeDefined();
    expect(await backfillStep(db, first!, now, 2)).toBe('more');
    expect(await readBackfillState(db, 'feature', KEY, made.id)).toMatchObject({ state: 'counting' });
    // Its lease holds it from another collector...
    expect(await claimBackfill(db, 'feature', 'next', now + 1000, only)).toBeUndefined();
    // ...until it lapses.
    const next = await claimBackfill(db, 'feature', 'next', now + BACKFILL_LEASE_MS + 1, only);
    expect(next?.cursor).toBe(first!.cursor);
    while ((await backfillStep(db, next!, now + BACKFILL_LEASE_MS + 2, 2)) === 'more');
    // The first collector, back, finds its job taken: it stores nothing.
    expect(await backfillStep(db, first!, now + BACKFILL_LEASE_MS + 3, 2)).toBe('lost');
    expect(await queryFeatureRollups(db, KEY, made.id, undefined, null)).toEqual(await queryFeatureUse(db, KEY, made.rule, undefined, null));
    expect(await readBackfillState(db, 'feature', KEY, made.id)).toEqual({ state: 'ready', progress: 1 });
  });

  it('a rule changed mid-backfill ends with the new rule’s counts', async () => {
    const made = await rules.createFeature(KEY, 'changed', { selector: 'button' }, T0 + 2);
    if (typeof made === 'string') throw new Error(made);
    const now = Date.now();
    const job = await claimBackfill(db, 'feature', 'old', now, { apiKey: KEY, id: made.id });
    expect(await backfillStep(db, job!, now, 2)).toBe('more');
    const changed = await rules.updateFeature(KEY, made.id, { rule: { selector: 'a.help' } }, now);
    if (!changed || typeof changed === 'string') throw new Error('not changed');
    expect(await backfillStep(db, job!, now, 100)).toBe('lost');
    await runBackfills(db, 'new', 1);
    const rollup = await queryFeatureRollups(db, KEY, made.id, undefined, null);
    expect(rollup).toEqual(await queryFeatureUse(db, KEY, changed.rule, undefined, null));
    expect(rollup).toMatchObject({ events: 1, visitors: 1, accounts: 0 });
    // The old generation's keys are gone.
    const keys = await db.query<{ n: unknown }>('select count(*) as n from analytics_rule_keys where api_key = $1 and rule_id = $2', [KEY, made.id]);
    expect(Number(keys.rows[0].n)).toBe(1);
  });

  it('retention drops the rollups of the days it drops and the units\' weeks of the weeks it drops, and keeps the newer ones', async () => {
    const OLD = 'rollups-retention';
    await ingest([click(T0 - 40 * D + H, 'v1', 'acme', '/', SAVE)], T0 - 40 * D + 2 * H, OLD);
    await ingest([click(T0 + 20 * D + H, 'v1', 'acme', '/', SAVE)], T0 + 20 * D + 2 * H, OLD);
    await summarizer.flush();
    const days = async () => (await db.query<{ day: unknown }>('select day from analytics_click_days where api_key = $1 order by day', [OLD])).rows.map((r) => Number(r.day));
    // Retention's rows (issue #35): a week's first and last times, per unit and per unit and element.
    const weeks = async (table: string) => (await db.query<{ week: unknown }>(`select distinct week from ${table} where api_key = $1 order by week`, [OLD])).rows.map((r) => Number(r.week));
    const before = [weekOf(T0 - 40 * D + H), weekOf(T0 + 20 * D + H)];
    expect(await days()).toEqual([T0 - 40 * D, T0 + 20 * D]);
    expect(await weeks('analytics_unit_weeks')).toEqual(before);
    expect(await weeks('analytics_unit_key_weeks')).toEqual(before);
    await applyRetention(db, 30, T0 + 21 * D);
    expect(await days()).toEqual([T0 + 20 * D]);
    expect(await weeks('analytics_unit_weeks')).toEqual([before[1]]);
    expect(await weeks('analytics_unit_key_weeks')).toEqual([before[1]]);
  });
});

describe('issue #35 migration 19 counts the events stored before it', () => {
  it('events already summarized are filled in by the migration, queued ones by the next drain: each once', async () => {
    const databaseUrl = await freshPostgresDatabase();
    const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
    try {
      await runMigrations(db, MIGRATIONS.filter((m) => m.version < 19));
      await ensurePartitions(db, T0);
      const store = createEventStore(db);
      const KEY = 'rollups-upgraded';
      const events = (tab: string) => [
        click(T0 + H, 'v1', 'acme', '/reports', SAVE),
        click(T0 + D + H, 'v2', 'beta', '/reports', SAVE),
        load(T0 + H, 'v1', 'acme', '/reports'),
      ].map((e) => ({ ...e, tabId: tab }));
      await store.insertBatch(KEY, 'analytics', events('before-1') as never, T0 + 2 * D);
      // The first batch was summarized by a collector of before the rollups (its queue row gone); the second waits.
      await db.query('delete from summary_queue where id = (select min(id) from summary_queue)');
      await store.insertBatch(KEY, 'analytics', events('before-2') as never, T0 + 2 * D);
      expect(await migrateSchema(db)).toEqual(MIGRATIONS.filter((m) => m.version >= 19).map((m) => m.version));
      const summarizer = createSummarizer(db, { intervalMs: 3_600_000, afterDrain: () => matchNewEntries(db) });
      await summarizer.flush();
      await summarizer.stop();
      const rules = createRuleStore(db);
      const feature = await rules.createFeature(KEY, 'Save', { selector: '.save' }, T0);
      const page = await rules.createPage(KEY, 'Reports', { url: '/reports' }, T0);
      if (typeof feature === 'string' || typeof page === 'string') throw new Error('not made');
      await runBackfills(db, 'test', 10);
      expect(await queryFeatureRollups(db, KEY, feature.id, undefined, null)).toMatchObject({ events: 4, visitors: 2, accounts: 2 });
      expect(await queryFeatureRollups(db, KEY, feature.id, undefined, null)).toEqual(await queryFeatureUse(db, KEY, feature.rule, undefined, null));
      expect(await queryPageRollups(db, KEY, page.id, null)).toMatchObject({ events: 2, visitors: 1, accounts: 1 });
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
