/**
 * issue #35 "Fast at real volumes" (paths): once every feature is backfilled, the walks around a start's occurrences
 * leave out the clicks of no feature's element where they cannot end a session (occurrencePaths: a row whose
 * session id is its neighbours' on both sides). On random timelines made for the cases that could go wrong (one
 * visitor on two devices, so two sessions interleave; events without a session id, where a 30-minute gap decides;
 * long runs of clicks of no step between steps), every question answers as the scan of the whole timelines does,
 * and the walks did read with the features' keys. PGlite here, PostgreSQL with vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfills } from '../../server/analytics/createRuleBackfill';
import { type RuleStore } from '../../server/analytics/createRuleStore';
import { readPathsBody } from '../../server/analytics/pathsBody';
import { queryPaths } from '../../server/analytics/pathsQuery';
import { type EventStore } from '../../server/ingest/createEventStore';
import type { Database } from '../../server/storage/Database';
import { type Summarizer } from '../../server/summaries/createSummarizer';
import type { PathsAnswer } from '../../shared/api/paths';
import { EXPORT, HELP, pathEvents } from './pathEvents';
import { openAnalyticsTestDatabase } from './analyticsTestDatabase';
import { SERVER_TIMEOUT } from './testServer';
import { seededRandom } from '../seededRandom';

const M = 60_000;
const D = 24 * 60 * M;
const T0 = Date.UTC(2026, 4, 4);
const KEY = 'path-steps-only-app';
const RANGE = { from: T0, to: T0 + 2 * D };
const SAVE = { ...EXPORT, cls: 'save', txt: 'Save' };

const { load, click, track } = pathEvents(T0);
const PATHS = ['/home', '/reports/1', '/settings'];

/**
 * 30 visitors, 60 events each, 1 to 12 minutes apart (gaps over 30 minutes now and then): half of them clicks of
 * Help (no feature), the rest page loads, Export and Save clicks and track events. A third of the visitors use two
 * devices (each event's session one of two ids at random), a third send no session id, a third one per day.
 */
function timelines(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const events: Array<Record<string, unknown>> = [];
  for (let v = 0; v < 30; v++) {
    const visitor = `sv${v}`;
    let t = -2 * 60 * M + Math.floor(next() * D);
    for (let i = 0; i < 60; i++) {
      t += (next() < 0.08 ? 31 : 1 + Math.floor(next() * 12)) * M;
      const session = v % 3 === 0 ? pick([`${visitor}-a`, `${visitor}-b`]) : v % 3 === 1 ? null : `${visitor}-${Math.floor(t / D)}`;
      const r = next();
      events.push(r < 0.5 ? click(t, visitor, session, pick(PATHS), HELP)
        : r < 0.7 ? load(t, visitor, session, pick(PATHS))
          : r < 0.8 ? click(t, visitor, session, pick(PATHS), EXPORT)
            : r < 0.9 ? click(t, visitor, session, pick(PATHS), SAVE)
              : track(t, visitor, session, pick(['done', 'shared'])));
    }
  }
  return events;
}

let db: Database;
let store: EventStore;
let rules: RuleStore;
let summarizer: Summarizer;
let ids: Record<'home' | 'reports' | 'export' | 'save' | 'exportOnReports', string>;
/** The element keys each walk statement was given ($9): null when it read every click. */
let stepKeys: unknown[] = [];
const recording = (): Database => ({
  ...db,
  query: (sql: string, params?: unknown[]) => {
    if (sql.includes('cross join lateral')) stepKeys.push(params?.[8]);
    return db.query(sql, params);
  },
}) as Database;
const setBackfilled = (ready: boolean) => Promise.all(['analytics_features', 'analytics_pages'].map((table) =>
  db.query(`update ${table} set backfilled_at = ${ready ? '1' : 'null'} where api_key = $1`, [KEY])));
const paths = (body: object): Promise<PathsAnswer> => queryPaths(recording(), rules, KEY, readPathsBody({ ...RANGE, ...body }));

beforeAll(async () => {
  ({ db, store, rules, summarizer } = await openAnalyticsTestDatabase(T0 - 40 * D, T0 + 40 * D));
  const events = timelines(7);
  for (let i = 0; i < events.length; i += 200) {
    await store.insertBatch(KEY, 'analytics', events.slice(i, i + 200).map((e, j) => ({ ...e, tabId: `steps-only-${i}`, sequence: j })) as never, T0 + 3 * D);
  }
  await summarizer.flush();
  const made = async (rule: Promise<unknown>) => {
    const value = await rule;
    if (typeof value === 'string') throw new Error(value);
    return (value as { id: string }).id;
  };
  const home = await made(rules.createPage(KEY, 'Home', { url: '/home' }, T0));
  const reports = await made(rules.createPage(KEY, 'Reports', { url: '/reports/:id' }, T0));
  ids = {
    home, reports,
    exportOnReports: await made(rules.createFeature(KEY, 'Export on reports', { selector: 'button.export', page: reports }, T0)),
    export: await made(rules.createFeature(KEY, 'Export', { selector: 'button.export' }, T0 + 1)),
    save: await made(rules.createFeature(KEY, 'Save', { selector: 'button.save' }, T0 + 2)),
  };
  await runBackfills(db, 'test', 100);
}, SERVER_TIMEOUT);
afterAll(async () => {
  await summarizer?.stop();
  await db?.close();
});

describe('issue #35 paths: walks that leave out the clicks of no step answer as the whole timelines do', () => {
  it('every start, both directions, depths 1, 3 and 5, on interleaved sessions, no session ids and gaps', async () => {
    const questions = [{ page: ids.home }, { page: ids.reports }, { feature: ids.export }, { feature: ids.save }, { feature: ids.exportOnReports }, { track: 'done' }]
      .flatMap((start) => (['next', 'previous'] as const).flatMap((direction) => [1, 3, 5].map((depth) => ({ start, direction, depth }))));
    stepKeys = [];
    const walked: PathsAnswer[] = [];
    for (const question of questions) walked.push(await paths(question));
    // Every walk statement read with the features' keys: the clicks of Help were left out where they could be.
    expect(stepKeys.length).toBeGreaterThan(questions.length);
    expect(stepKeys.every((keys) => Array.isArray(keys) && keys.length === 2)).toBe(true);
    expect(walked.every((answer) => answer.occurrences > 0)).toBe(true);
    await setBackfilled(false);
    try {
      for (const [i, question] of questions.entries()) {
        // A track start still walks (its events are read by name); no feature backfilled: every click is read.
        stepKeys = [];
        expect(await paths(question), JSON.stringify(question)).toEqual(walked[i]);
        expect(stepKeys.every((keys) => keys === null)).toBe(true);
      }
    } finally {
      await setBackfilled(true);
    }
  }, SERVER_TIMEOUT);
});
