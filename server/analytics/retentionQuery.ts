/**
 * Retention cohorts (issue #35 "Funnels, paths, retention"): units (visitors, or accounts) grouped by the UTC week of
 * their first use, and how many of each cohort came back in each week after it.
 * - First use: the unit's earliest event of the `start` step (absent: its earliest analytics event of any type) over
 *   ALL stored time, not only the range: a visitor first seen before `from` is in no cohort.
 * - Cohort: the UTC week (Monday 00:00 UTC) of first use; only cohorts whose week starts in [from, to) are answered.
 * - Back in week k (1..weeks): at least one `return` event (absent: any analytics event) in
 *   [firstUse + k * 7 d, firstUse + (k + 1) * 7 d). Week 0 is the cohort itself.
 * - By account: an account's events are those its visitors sent with its id (non-empty account ids only), so its
 *   first use is its earliest member's and it is back when any member is.
 * - A count is null until its week has fully passed for every member (latest first use + (k + 1) weeks <= now);
 *   `overall` shares sum the cohorts that have passed the week.
 * Steps resolve to their events as a funnel's do (funnelSteps, funnelQuery's stepWhere: read by the steps' indexes).
 * One SQL statement groups: the first use per unit with min(time), then the return weeks with a join of the cohorts'
 * members to their events, each week's distinct members counted; Node only shapes the rows.
 * Without a step (any analytics event), first uses and returns read the units' weeks instead of the events
 * (unitWeeksSql.ts: each unit's first and last event per UTC week, kept by the summarizer's drain), with the same
 * answer: a unit's first use is its least first time, and its week k is decided by the two UTC weeks it straddles.
 * A feature not limited to a page, and a page, read the same way the units' weeks of their element or address keys
 * (unitKeyWeeksSql.ts, migration 23); a feature limited to a page, a track event and a guide read their events.
 * One difference once the server's retention deletes old events: the weeks keep a unit's first use, so a visitor
 * whose first events were deleted stays in its first cohort instead of joining a later one.
 */
import type { Database } from '../storage/Database';
import { WEEK_MS } from '../../shared/analytics/utcWeek';
import type { RetentionAnswer, RetentionCohort, RetentionWeek } from '../../shared/api/retention';
import { stepWhere } from './funnelQuery';
import { resolveSteps, type StepFilter, type StepSources } from './funnelSteps';
import { ratio } from './funnelWalk';
import type { RetentionQuery } from './retentionBody';
import type { UnitKeyKind } from './unitKeyWeeksSql';
import { weekOfSql } from './unitWeeksSql';

/** The earliest time a Date may hold: "all stored time" starts here. */
const ALL_TIME = -8.64e15;

/** A row of the statement: k = 0 is a cohort's size (with its latest first use), k >= 1 its members back in week k. */
export interface RetentionRow {
  week: number;
  k: number;
  n: number;
  /** The cohort's latest first use (k = 0 only). */
  last: number | null;
}

/**
 * Where a retention statement reads a step's first uses or returns: undefined, any analytics event (the units'
 * weeks); a string, an SQL condition on events' own columns (the step's events, by its index); or the units' weeks
 * of the step's element or address keys (unitKeyWeeksSql.ts), `keys` the SQL of its text[] parameter.
 */
export type RetentionSource = undefined | string | { keyKind: UnitKeyKind; keys: string };

/** How a retention statement reads first uses (`start`) and returns (`back`). */
export interface RetentionSources {
  start?: RetentionSource;
  back?: RetentionSource;
}

/** The rows of the units' weeks of `source`'s keys (unitKeyWeeksSql.ts), of units of `unit`. */
const keyWeeks = (unit: 'visitor_id' | 'account_id', source: { keyKind: UnitKeyKind; keys: string }) =>
  `analytics_unit_key_weeks where api_key = $1 and unit_kind = '${unitKind(unit)}' and key_kind = '${source.keyKind}'
    and key = any(${source.keys}::text[])`;

/** `firsts`: (unit, t) each unit's first use before the last cohort's week could end. */
function firstsSql(unit: 'visitor_id' | 'account_id', start: RetentionSource): string {
  // First uses after the last cohort's week cannot be in a cohort; earlier ones all count for the minimum (and a
  // unit's least week before that bound holds its least time).
  if (start === undefined) {
    return `select unit_id as unit, min(first_time) as t from analytics_unit_weeks
  where api_key = $1 and unit_kind = '${unitKind(unit)}' and week < $3::bigint + ${WEEK_MS}
  group by unit_id`;
  }
  if (typeof start === 'object') {
    return `select unit_id as unit, min(first_time) as t from ${keyWeeks(unit, start)} and week < $3::bigint + ${WEEK_MS}
  group by unit_id`;
  }
  return `select ${unit} as unit, min(time) as t from events
  where api_key = $1 and ${unit} <> '' and time < $3::bigint + ${WEEK_MS} and (${start})
  group by ${unit}`;
}

/**
 * `back` from weeks rows `u` (week, first_time, last_time) joined to the members `m` in `join`: row u of week u.week
 * is d = (u.week - weekOf(t)) / 7 d weeks after the first use's own week. Week k's interval [t + k W, t + (k + 1) W)
 * straddles weekOf(t) + k W and the week after: row d holds week d's events from t + d W on (last_time >= t + d W)
 * and week d - 1's before t + d W (first_time < t + d W).
 */
function weeksBackSql(join: string): string {
  const d = `((u.week - ${weekOfSql('m.t')}) / ${WEEK_MS})`;
  // Each joined row once, then read twice (a lateral list of the two cost a nested loop per row: 4x slower at 10M).
  return `with rows as materialized (
    select m.week, m.unit, ${d} as d, u.last_time >= m.t + ${d} * ${WEEK_MS} as late, u.first_time < m.t + ${d} * ${WEEK_MS} as early
    from ${join}
      and u.week >= ${weekOfSql('m.t')} + ${WEEK_MS} and u.week <= ${weekOfSql('m.t')} + ($4::bigint + 1) * ${WEEK_MS}
  )
  select week, d as k, unit from rows where late and d <= $4::bigint
  union all
  select week, d - 1 as k, unit from rows where early and d >= 2`;
}

/** `back`: (week, k, unit) for each member back in week k, 1 <= k <= weeks (a member once per week or more). */
function backSql(unit: 'visitor_id' | 'account_id', back: RetentionSource): string {
  if (back === undefined) {
    return weeksBackSql(`members m
  join analytics_unit_weeks u on u.api_key = $1 and u.unit_kind = '${unitKind(unit)}' and u.unit_id = m.unit`);
  }
  if (typeof back === 'object') {
    // The keys' rows of the weeks a return may be in, read by the key first (as the events below), then joined.
    return weeksBackSql(`(
    select unit_id, week, first_time, last_time from ${keyWeeks(unit, back)}
      and week >= $2::bigint + ${WEEK_MS} and week < $3::bigint + ($4::bigint + 1) * ${WEEK_MS}
    offset 0
  ) u join members m on m.unit = u.unit_id`);
  }
  // The step's events of the span a return may be in, read by its index first (`offset 0`: not flattened into a
  // join that read each member's every event by visitor), then joined to the members.
  return `select m.week, (e.time - m.t) / ${WEEK_MS} as k, m.unit from (
    select ${unit} as unit, time from events
    where api_key = $1 and ${unit} <> '' and time >= $2::bigint + ${WEEK_MS} and time < $3::bigint + ($4::bigint + 2) * ${WEEK_MS}
      and (${back})
    offset 0
  ) e join members m on m.unit = e.unit
  where e.time >= m.t + ${WEEK_MS} and e.time < m.t + ($4::bigint + 1) * ${WEEK_MS}`;
}

const unitKind = (unit: 'visitor_id' | 'account_id') => (unit === 'visitor_id' ? 'visitor' : 'account');

/** The statement. $1 api key, $2 from, $3 to, $4 weeks; the steps' parameters after. */
export function retentionSql(unit: 'visitor_id' | 'account_id', { start, back }: RetentionSources): string {
  return `with firsts as (
  ${firstsSql(unit, start)}
),
members as (
  select unit, t, week from (select unit, t, ${weekOfSql('t')} as week from firsts) c where week >= $2::bigint and week < $3::bigint
),
back as (
  ${backSql(unit, back)}
)
select week, 0 as k, count(*) as n, max(t) as last from members group by week
union all
select week, k, count(distinct unit) as n, null::bigint as last from back group by week, k
order by week, k`;
}

/**
 * Where a step is read (RetentionSource), adding its parameters to `params`: a feature not limited to a page, or a
 * page, from the units' weeks of its keys; any other step from its events (`false` when it counts none); no step
 * (any analytics event) undefined.
 */
export function sourceOf(filter: StepFilter | undefined, params: unknown[]): RetentionSource {
  if (!filter) return undefined;
  if (filter.type === 'click' && !filter.addressKeys && filter.keys.length) return { keyKind: 'element', keys: `$${params.push(filter.keys)}` };
  if (filter.type === 'load' && filter.addressKeys.length) return { keyKind: 'address', keys: `$${params.push(filter.addressKeys)}` };
  return stepWhere(filter, params) ?? 'false';
}

/** The answer from the statement's rows (ordered by week, k), as of `now`: counts of weeks not yet passed are null. */
export function retentionAnswer(rows: readonly RetentionRow[], query: Pick<RetentionQuery, 'weeks' | 'by'>, now: number): RetentionAnswer {
  const { weeks, by } = query;
  const cohorts: RetentionCohort[] = [];
  const lastOf = new Map<RetentionCohort, number>();
  for (const row of rows) {
    if (row.k === 0) {
      const cohort: RetentionCohort = { week: row.week, size: row.n, back: [row.n] };
      for (let k = 1; k <= weeks; k++) cohort.back.push(row.last! + (k + 1) * WEEK_MS <= now ? 0 : null);
      cohorts.push(cohort);
      lastOf.set(cohort, row.last!);
    } else {
      const cohort = cohorts[cohorts.length - 1]!;
      if (cohort.back[row.k] !== null) cohort.back[row.k] = row.n;
    }
  }
  const overall: RetentionWeek[] = [];
  for (let k = 0; k <= weeks; k++) {
    const passed = cohorts.filter((c) => c.back[k] !== null);
    const size = passed.reduce((sum, c) => sum + c.size, 0);
    const back = passed.reduce((sum, c) => sum + c.back[k]!, 0);
    overall.push({ week: k, share: passed.length ? ratio(back, size) : null, cohorts: passed.length });
  }
  return { weeks, by, cohorts, overall };
}

/** Answers a checked retention question of an app, as of `now`. */
export async function queryRetention(db: Database, apiKey: string, query: RetentionQuery, sources: StepSources, now: number): Promise<RetentionAnswer> {
  const { from, to, weeks, by } = query;
  const named = (['start', 'return'] as const).flatMap((field) => (query[field] ? [{ field, step: query[field]! }] : []));
  // Distinct elements and addresses over all time up to the last event a return may be (see retentionSql).
  const span = { from: ALL_TIME, to: to + (weeks + 2) * WEEK_MS };
  const resolved = await resolveSteps(db, apiKey, named.map((n) => n.step), span, sources, (i) => named[i]!.field);
  const filterOf = (field: 'start' | 'return') => resolved[named.findIndex((n) => n.field === field)];
  const params: unknown[] = [apiKey, from, to, weeks];
  const sql = retentionSql(by === 'visitor' ? 'visitor_id' : 'account_id', { start: sourceOf(filterOf('start'), params), back: sourceOf(filterOf('return'), params) });
  const { rows } = await db.query<{ week: number | string; k: number | string; n: number | string; last: number | string | null }>(sql, params);
  // pg answers bigint as text, PGlite as a number.
  return retentionAnswer(rows.map((row) => ({
    week: Number(row.week), k: Number(row.k), n: Number(row.n), last: row.last === null ? null : Number(row.last),
  })), query, now);
}
