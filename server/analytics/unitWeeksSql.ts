/**
 * Each unit's activity per UTC week (issue #35 "Fast at real volumes"), migration 20: for every visitor and every
 * account (non-empty ids), per UTC week (Monday 00:00 UTC, utcWeek) with analytics events, the first and the last
 * event's time. Retention without a step reads it instead of the events (retentionQuery): a unit's first use is
 * its least first time, and "back in week k" (an event in [t + k * 7 d, t + (k + 1) * 7 d)) is decided exactly by the
 * two UTC weeks that interval straddles: the earlier week's last time >= its start, or the later week's first time
 * < its end. A unit has at most one row per week, however many events: ~13 rows per visitor over 90 days.
 *
 * Kept by the summarizer's drain in its one statement (drainSummaryQueue.ts), as the rollups are; least and greatest
 * make an upsert idempotent, so the fill of migration 20 may read events still queued too.
 */
import { FIRST_MONDAY_MS, WEEK_MS } from '../../shared/analytics/utcWeek';

export const UNIT_WEEKS_SCHEMA = `
create table if not exists analytics_unit_weeks (
  api_key text not null,
  unit_kind text not null check (unit_kind in ('visitor', 'account')),
  unit_id text not null,
  week bigint not null,
  first_time bigint not null,
  last_time bigint not null,
  primary key (api_key, unit_kind, unit_id, week)
);
`;

/** utcWeek's weekOf, in SQL, of the bigint SQL `t`. */
export const weekOfSql = (t: string) => `(${t} - (((${t} - ${FIRST_MONDAY_MS}) % ${WEEK_MS}) + ${WEEK_MS}) % ${WEEK_MS})`;

/**
 * The upsert of per-week first and last times into `table` (primary key: `columns`, then `week`) from the rows of
 * `from` (those columns and `time`): grouped by the key and written in its order, as every upsert of the drain.
 */
export function weeksUpsertSql(table: string, columns: readonly string[], from: string): string {
  const keys = [...columns, 'week'];
  const positions = keys.map((_, i) => i + 1).join(', ');
  return `insert into ${table} (${keys.join(', ')}, first_time, last_time)
  select ${columns.join(', ')}, ${weekOfSql('time')}, min(time), max(time) from ${from}
  group by ${positions} order by ${positions}
  on conflict (${keys.join(', ')}) do update set
    first_time = least(${table}.first_time, excluded.first_time),
    last_time = greatest(${table}.last_time, excluded.last_time)`;
}

/** `, unit_events as (...), unit_weeks as (...)`: CTEs to append after a CTE named `source` that yields `events` rows. */
export function unitWeeksSql(source: string): string {
  return `,
unit_events as (
  select api_key, 'visitor' as unit_kind, visitor_id as unit_id, time from ${source}
  where kind = 'analytics' and visitor_id <> ''
  union all
  select api_key, 'account', account_id, time from ${source}
  where kind = 'analytics' and account_id <> ''
),
unit_weeks as (
  ${weeksUpsertSql('analytics_unit_weeks', ['api_key', 'unit_kind', 'unit_id'], 'unit_events')}
)`;
}

/** Migration 20's fill: the weeks of every event stored before it (queued ones too: see above). */
export const FILL_UNIT_WEEKS = `
with source as (select * from events)${unitWeeksSql('source')}
select 1`;
