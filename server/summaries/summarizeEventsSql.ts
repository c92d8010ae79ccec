/**
 * The common table expressions that add a set of new `events` rows to the console's summary tables
 * (CONSOLE_SCHEMA.ts). The ingest statement runs them on the rows its insert returned, so a replayed batch
 * (rows skipped by `on conflict do nothing`) adds nothing; the backfill runs them on stored rows, a slice at a time.
 * `e` reads what the upserts need out of each row's body once, so the rows sorted and grouped below stay narrow.
 * Every upsert groups by its key first: one statement may not update the same row twice. And every upsert writes
 * its rows in key order, so two of these statements running at once (summarizers of two collectors, issue #19)
 * lock shared rows in the same order and wait for each other instead of deadlocking.
 */
import { DAY_MS, HOUR_MS } from './CONSOLE_SCHEMA';
import { pageOf } from './pagesWithoutQuery';

/** `t` floored to a multiple of `ms` (floor, also for times before 1970). */
const floorTo = (t: string, ms: number) => `(${t} - ((${t} % ${ms}) + ${ms}) % ${ms})`;

const HOUR_RANGE = `int8range(hour, hour + ${HOUR_MS})`;

/**
 * `text` cut to `n` characters, or to n / 4 when those take more than `n` bytes: at most `n` bytes in any script,
 * so a summary key holding it stays within what a btree index row holds (2704 bytes) beside the api key and a
 * visitor id. A page's address of 1000 characters outside ASCII made the summaries' upsert fail, and with it every
 * drain after it (issue #31 fuzzing). The agents send ASCII addresses (percent-encoded): cut as before.
 */
const clipBytes = (text: string, n: number) =>
  `(case when octet_length(left(${text}, ${n})) <= ${n} then left(${text}, ${n}) else left(${text}, ${n / 4}) end)`;

/** The address as the summaries key it: at most 1000 bytes. */
const URL_KEY = clipBytes('url', 1000);

/**
 * `, e as (...), ...`: CTEs to append after a CTE named `source` that yields `events` rows (all columns,
 * extracted ones filled). The statement's main query may then read `source`.
 */
export function summarizeEventsSql(source: string): string {
  const has = (type: string) => `(coalesce(ft, '[]'::jsonb) @> '["${type}"]'::jsonb)::int`;
  return `,
e as (
  select id, api_key, type, nullif(visitor_id, '') as visitor_id, nullif(account_id, '') as account_id, time,
         nullif(${URL_KEY}, '') as url, nullif(${pageOf(URL_KEY)}, '') as page, nullif(session_id, '') as session_id, channel,
         el_tag, el_id, el_text, guide_id, coalesce(guide_step_id, '') as guide_step_id,
         ${floorTo('time', HOUR_MS)} as hour, ${floorTo('time', DAY_MS)} as day,
         case when jsonb_typeof(body->'props'->'frustrationTypes') = 'array' then body->'props'->'frustrationTypes' end as ft,
         case when type = 'meta' and jsonb_typeof(body->'props'->'visitor') = 'object' then body->'props'->'visitor' end as visitor_meta,
         case when type = 'meta' and jsonb_typeof(body->'props'->'account') = 'object' and body->'props'->'account' <> '{}'::jsonb
              then body->'props'->'account' end as account_meta,
         case when type = 'pollResponse' then coalesce(left(body->'props'->>'poll_id', 200), '') end as poll_id,
         case when type = 'pollResponse' then coalesce(left(body->'props'->>'poll_response', 200), '') end as poll_value,
         case when type = 'pollResponse' then coalesce(jsonb_typeof(body->'props'->'poll_response') = 'number', false) end as poll_is_number,
         case when type = 'pollResponse' then left(body->'props'->>'poll_type', 100) end as poll_type
  from ${source}
),
g as (
  select e.*, 'hour' as grain, hour as t from e
  union all
  select e.*, 'day' as grain, day as t from e
),
apps as (
  insert into console_apps (api_key, events, first_seen, last_seen)
  select api_key, count(*), min(time), max(time) from e group by api_key order by api_key
  on conflict (api_key) do update set
    events = console_apps.events + excluded.events,
    first_seen = least(console_apps.first_seen, excluded.first_seen),
    last_seen = greatest(console_apps.last_seen, excluded.last_seen)
),
new_bucket_visitors as (
  insert into console_bucket_visitors (api_key, grain, t, visitor_id)
  select distinct api_key, grain, t, visitor_id from g where visitor_id is not null order by 1, 2, 3, 4
  on conflict do nothing
  returning api_key, grain, t
),
buckets as (
  insert into console_buckets (api_key, grain, t, events, visitors, clicks, rage_clicks, dead_clicks, error_clicks, u_turns)
  select api_key, grain, t, sum(events), sum(visitors), sum(clicks), sum(rage), sum(dead), sum(err), sum(uturn)
  from (
    select api_key, grain, t, 1 as events, 0 as visitors, (type = 'click')::int as clicks,
           ${has('rageClick')} as rage, ${has('deadClick')} as dead, ${has('errorClick')} as err, ${has('uTurn')} as uturn
    from g
    union all
    select api_key, grain, t, 0, 1, 0, 0, 0, 0, 0 from new_bucket_visitors
  ) x
  group by api_key, grain, t
  order by api_key, grain, t
  on conflict (api_key, grain, t) do update set
    events = console_buckets.events + excluded.events,
    visitors = console_buckets.visitors + excluded.visitors,
    clicks = console_buckets.clicks + excluded.clicks,
    rage_clicks = console_buckets.rage_clicks + excluded.rage_clicks,
    dead_clicks = console_buckets.dead_clicks + excluded.dead_clicks,
    error_clicks = console_buckets.error_clicks + excluded.error_clicks,
    u_turns = console_buckets.u_turns + excluded.u_turns
),
visitors as (
  insert into console_visitors (api_key, visitor_id, account_id, first_seen, last_seen, events, metadata, active)
  select api_key, visitor_id,
         (array_agg(account_id order by time desc, id desc) filter (where account_id is not null))[1],
         min(time), max(time), count(*),
         (array_agg(visitor_meta order by time desc, id desc) filter (where visitor_meta is not null))[1],
         range_agg(${HOUR_RANGE})
  from e where visitor_id is not null
  group by api_key, visitor_id
  order by api_key, visitor_id
  on conflict (api_key, visitor_id) do update set
    account_id = case when excluded.last_seen >= console_visitors.last_seen
                      then coalesce(excluded.account_id, console_visitors.account_id)
                      else coalesce(console_visitors.account_id, excluded.account_id) end,
    first_seen = least(console_visitors.first_seen, excluded.first_seen),
    last_seen = greatest(console_visitors.last_seen, excluded.last_seen),
    events = console_visitors.events + excluded.events,
    metadata = coalesce(excluded.metadata, console_visitors.metadata),
    active = console_visitors.active + excluded.active
),
accounts as (
  insert into console_accounts (api_key, account_id, first_seen, last_seen, events, metadata, active)
  select api_key, account_id, min(time), max(time), count(*),
         (array_agg(account_meta order by time desc, id desc) filter (where account_meta is not null))[1],
         range_agg(${HOUR_RANGE})
  from e where account_id is not null
  group by api_key, account_id
  order by api_key, account_id
  on conflict (api_key, account_id) do update set
    first_seen = least(console_accounts.first_seen, excluded.first_seen),
    last_seen = greatest(console_accounts.last_seen, excluded.last_seen),
    events = console_accounts.events + excluded.events,
    metadata = coalesce(excluded.metadata, console_accounts.metadata),
    active = console_accounts.active + excluded.active
),
pages as (
  insert into console_pages (api_key, grain, t, url, events)
  select api_key, grain, t, page, count(*) from g where page is not null group by api_key, grain, t, page order by 1, 2, 3, 4
  on conflict (api_key, grain, t, url) do update set events = console_pages.events + excluded.events
),
page_visitors as (
  insert into console_page_visitors (api_key, url, visitor_id, active)
  select api_key, page, visitor_id, range_agg(${HOUR_RANGE})
  from e where page is not null and visitor_id is not null
  group by api_key, page, visitor_id
  order by api_key, page, visitor_id
  on conflict (api_key, url, visitor_id) do update set active = console_page_visitors.active + excluded.active
),
features as (
  insert into console_features (api_key, grain, t, tag, el_id, el_text, clicks)
  select api_key, grain, t, el_tag, coalesce(el_id, ''), coalesce(el_text, ''), count(*)
  from g where type = 'click' and el_tag is not null
  group by api_key, grain, t, el_tag, coalesce(el_id, ''), coalesce(el_text, '')
  order by 1, 2, 3, 4, 5, 6
  on conflict (api_key, grain, t, tag, el_id, el_text) do update set clicks = console_features.clicks + excluded.clicks
),
sessions as (
  insert into console_sessions (api_key, session_id, visitor_id, channel, start_time, end_time, events, pages)
  select api_key, session_id,
         (array_agg(visitor_id order by time, id) filter (where visitor_id is not null))[1],
         (array_agg(channel order by time, id) filter (where channel is not null))[1],
         min(time), max(time), count(*), count(*) filter (where type = 'load')
  from e where session_id is not null
  group by api_key, session_id
  order by api_key, session_id
  on conflict (api_key, session_id) do update set
    visitor_id = coalesce(console_sessions.visitor_id, excluded.visitor_id),
    channel = case when excluded.start_time < console_sessions.start_time
                   then coalesce(excluded.channel, console_sessions.channel)
                   else coalesce(console_sessions.channel, excluded.channel) end,
    start_time = least(console_sessions.start_time, excluded.start_time),
    end_time = greatest(console_sessions.end_time, excluded.end_time),
    events = console_sessions.events + excluded.events,
    pages = console_sessions.pages + excluded.pages
),
guide_visitors as (
  insert into console_guide_visitors (api_key, guide_id, step_id, type, visitor_id, active)
  select api_key, guide_id, guide_step_id, type, visitor_id, range_agg(${HOUR_RANGE})
  from e where guide_id is not null and visitor_id is not null
    and type in ('guideSeen', 'guideAdvanced', 'guideDismissed', 'guideSnoozed')
  group by api_key, guide_id, guide_step_id, type, visitor_id
  order by 1, 2, 3, 4, 5
  on conflict (api_key, guide_id, step_id, type, visitor_id) do update set active = console_guide_visitors.active + excluded.active
),
guide_buckets as (
  insert into console_guide_buckets (api_key, guide_id, grain, t, type, events)
  select api_key, guide_id, grain, t, type, count(*) from g where guide_id is not null
  group by api_key, guide_id, grain, t, type
  order by 1, 2, 3, 4, 5
  on conflict (api_key, guide_id, grain, t, type) do update set events = console_guide_buckets.events + excluded.events
),
poll_responses as (
  insert into console_poll_responses (api_key, guide_id, poll_id, grain, t, value, is_number, poll_type, responses)
  select api_key, guide_id, poll_id, grain, t, poll_value, poll_is_number, max(poll_type), count(*)
  from g where guide_id is not null and type = 'pollResponse'
  group by 1, 2, 3, 4, 5, 6, 7
  order by 1, 2, 3, 4, 5, 6, 7
  on conflict (api_key, guide_id, poll_id, grain, t, value, is_number) do update set
    responses = console_poll_responses.responses + excluded.responses,
    poll_type = coalesce(excluded.poll_type, console_poll_responses.poll_type)
)`;
}
