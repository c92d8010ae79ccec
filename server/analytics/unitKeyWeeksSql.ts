/**
 * Each unit's use of each clicked element and each loaded address per UTC week (issue #35 "Fast at real volumes"),
 * migration 23: for every visitor and every account (non-empty ids), per element key (a click's `props.target`, keyed
 * as analytics_elements keys it) and per address key (a page load's `url`, keyed as analytics_addresses keys it), per
 * UTC week (utcWeek) with such events, the first and the last of those events' time.
 *
 * Retention whose start or return is a feature (not limited to a page) or a page reads it instead of the events
 * (retentionQuery): the step's keys (funnelSteps) select the rows, a unit's first use is its least first time over
 * them, and "back in week k" is decided by the two UTC weeks the interval straddles, as with the units' weeks
 * (unitWeeksSql.ts); several keys' rows of one week only widen the "any of them" test. The rows hold the events
 * stepWhere reads for the same keys: clicks whose target is an object, loads with an address, of the analytics beacon.
 * A feature limited to a page needs the element and the address of one click together: not kept here, read from the
 * events.
 *
 * Kept by the summarizer's drain in its one statement (drainSummaryQueue.ts), as the units' weeks are: least and
 * greatest make an upsert idempotent, so the fill of migration 23 may read events still queued too, and a batch
 * drained again after that fill changes nothing.
 */
import { weeksUpsertSql } from './unitWeeksSql';

/** What a key names: a click's element, or a page load's address. */
export type UnitKeyKind = 'element' | 'address';

export const UNIT_KEY_WEEKS_SCHEMA = `
create table if not exists analytics_unit_key_weeks (
  api_key text not null,
  unit_kind text not null check (unit_kind in ('visitor', 'account')),
  key_kind text not null check (key_kind in ('element', 'address')),
  key text not null,
  unit_id text not null,
  week bigint not null,
  first_time bigint not null,
  last_time bigint not null,
  primary key (api_key, unit_kind, key_kind, key, unit_id, week)
);
`;

/** `, unit_keys as (...), unit_key_weeks as (...)`: CTEs to append after a CTE named `source` that yields `events` rows. */
export function unitKeyWeeksSql(source: string): string {
  // One row per event and unit kind; the key's expressions are STEP_INDEXES' ELEMENT_KEY and ADDRESS_KEY.
  return `,
unit_keys as (
  select api_key, u.unit_kind, u.unit_id, k.key_kind, k.key, time from (
    select api_key, visitor_id, account_id, time,
           case when type = 'click' then md5((body->'props'->'target')::text) else md5(url) end as key,
           case when type = 'click' then 'element' else 'address' end as key_kind
    from ${source}
    where kind = 'analytics'
      and ((type = 'click' and jsonb_typeof(body->'props'->'target') = 'object') or (type = 'load' and url is not null))
  ) k
  cross join lateral (values ('visitor', k.visitor_id), ('account', k.account_id)) u(unit_kind, unit_id)
  where u.unit_id <> ''
),
unit_key_weeks as (
  ${weeksUpsertSql('analytics_unit_key_weeks', ['api_key', 'unit_kind', 'key_kind', 'key', 'unit_id'], 'unit_keys')}
)`;
}

/** Migration 23's fill: the keys' weeks of every event stored before it (queued ones too: see above). */
export const FILL_UNIT_KEY_WEEKS = `
with source as (select * from events)${unitKeyWeeksSql('source')}
select 1`;
