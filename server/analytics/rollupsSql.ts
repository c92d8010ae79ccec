/**
 * The common table expressions that add a set of `events` rows to the analytics rollups and dictionaries
 * (ROLLUPS_SCHEMA.ts; issue #35 "Fast at real volumes"). The summarizer's drain runs them in its one statement, on
 * the rows of the batches it takes off the queue, so a batch is counted once here as in the console's summaries
 * (drainSummaryQueue.ts); migration 19 runs them once on the events stored before it.
 *
 * Counted as queryRuleUse's reference scan counts: `click` and `load` events of the analytics beacon; an element
 * is a click's `props.target` when it is an object, as its jsonb text (equal elements are equal text), keyed by its
 * md5; an address is `url`, keyed by its md5 ('' when the event has none); the day is the UTC day of the event's
 * time. Every upsert groups by its key first and writes in key order, as the console's summaries do, so two drains
 * at once lock shared rows in the same order.
 */
import { DAY_MS } from '../summaries/CONSOLE_SCHEMA';

/** `, ar as (...), ...`: CTEs to append after a CTE named `source` that yields `events` rows. */
export function rollupsSql(source: string): string {
  return `,
ar as (
  select api_key, type, coalesce(visitor_id, '') as visitor_id, coalesce(account_id, '') as account_id, time,
         time - (((time % ${DAY_MS}) + ${DAY_MS}) % ${DAY_MS}) as day, url,
         case when type = 'click' and jsonb_typeof(body->'props'->'target') = 'object' then (body->'props'->'target')::text end as target
  from ${source}
  where kind = 'analytics' and (type = 'click' or (type = 'load' and url is not null))
),
ak as (
  select ar.*, md5(target) as element_key, coalesce(md5(url), '') as address_key from ar
  where type = 'load' or target is not null
),
new_elements as (
  insert into analytics_elements (api_key, key, target, first_seen)
  select api_key, element_key, min(target)::jsonb, min(time) from ak where type = 'click'
  group by api_key, element_key order by api_key, element_key
  on conflict do nothing
),
new_addresses as (
  insert into analytics_addresses (api_key, key, url, first_seen)
  select api_key, address_key, min(url), min(time) from ak where url is not null
  group by api_key, address_key order by api_key, address_key
  on conflict do nothing
),
click_days as (
  insert into analytics_click_days (api_key, element_key, day, address_key, visitor_id, account_id, events)
  select api_key, element_key, day, address_key, visitor_id, account_id, count(*) from ak where type = 'click'
  group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
  on conflict (api_key, element_key, day, address_key, visitor_id, account_id) do update set
    events = analytics_click_days.events + excluded.events
),
load_days as (
  insert into analytics_load_days (api_key, address_key, day, visitor_id, account_id, events)
  select api_key, address_key, day, visitor_id, account_id, count(*) from ak where type = 'load'
  group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (api_key, address_key, day, visitor_id, account_id) do update set
    events = analytics_load_days.events + excluded.events
)`;
}

/**
 * Migration 19's fill: the rollups and dictionaries of every event stored before it, in one grouped statement.
 * Events still in the summary queue are left out: the drain that takes their batch counts them.
 */
export const FILL_ROLLUPS = `
with queued as (select unnest(event_ids) as id from summary_queue),
source as (select * from events where id not in (select id from queued))${rollupsSql('source')}
select 1`;
