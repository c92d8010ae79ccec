/**
 * The console's share of the schema (issue #14): columns of `events` extracted at insert, indexes for the
 * console's reads, and the small summary tables the ingest statement keeps current (summarizeInsertedEvents.ts).
 * Idempotent (`if not exists`): run on every start after the events table exists, it upgrades an older database.
 * Plain SQL for PGlite and PostgreSQL (14 or later: multiranges).
 */

/** Hour and day in epoch ms: summaries are kept per UTC hour and per UTC day. */
export const HOUR_MS = 3_600_000;
/** One UTC day in ms. */
export const DAY_MS = 86_400_000;

/**
 * Schema statements. Summary tables:
 * - `console_apps`: per app, events and first/last event time (GET /api/apps).
 * - `console_buckets`: per app, grain (`hour`|`day`) and bucket start: events, distinct visitors, clicks and
 *   frustration counts (overview totals, series, frustration).
 * - `console_bucket_visitors`: the (grain, bucket, visitor) set behind `console_buckets.visitors`; only the
 *   ingest statement reads it, to count a visitor once per bucket.
 * - `console_visitors`, `console_accounts`: one row each, with `active`, the UTC hours with events as a multirange,
 *   so "distinct visitors in a range" reads one row per visitor instead of their events.
 * - `console_pages` (events per url per bucket) and `console_page_visitors` (hours each visitor was on a url).
 * - `console_features`: clicks per element (tag, id, text) per bucket.
 * - `console_sessions`: one row per sessionId: visitor, channel of its first event, start, end, events, page loads.
 * - `console_guide_visitors`: per guide, step, state type (seen, advanced, dismissed, snoozed) and visitor, the
 *   hours it happened (funnel); `console_guide_buckets`: guide events per type per bucket (timeline, health);
 *   `console_poll_responses`: poll answers per value per bucket.
 * - `console_state`: markers, e.g. that the summaries were backfilled from the events already stored.
 */
export const CONSOLE_SCHEMA = `
alter table events add column if not exists time bigint;
alter table events add column if not exists url text;
alter table events add column if not exists session_id text;
alter table events add column if not exists channel text;
alter table events add column if not exists el_tag text;
alter table events add column if not exists el_id text;
alter table events add column if not exists el_text text;
alter table events add column if not exists guide_id text;
alter table events add column if not exists guide_step_id text;
alter table events add column if not exists name text;
create index if not exists events_by_app on events (api_key, id);
create index if not exists events_by_app_type on events (api_key, type, id);
create index if not exists events_by_app_visitor on events (api_key, visitor_id, id);
create index if not exists events_by_guide on events (api_key, guide_id, time) where guide_id is not null;

create table if not exists console_state (key text primary key, value text not null);
create table if not exists console_apps (
  api_key text primary key,
  events bigint not null,
  first_seen bigint not null,
  last_seen bigint not null
);
create table if not exists console_buckets (
  api_key text not null,
  grain text not null,
  t bigint not null,
  events bigint not null,
  visitors bigint not null,
  clicks bigint not null,
  rage_clicks bigint not null,
  dead_clicks bigint not null,
  error_clicks bigint not null,
  u_turns bigint not null,
  primary key (api_key, grain, t)
);
create table if not exists console_bucket_visitors (
  api_key text not null,
  grain text not null,
  t bigint not null,
  visitor_id text not null,
  primary key (api_key, grain, t, visitor_id)
);
create table if not exists console_visitors (
  api_key text not null,
  visitor_id text not null,
  account_id text,
  first_seen bigint not null,
  last_seen bigint not null,
  events bigint not null,
  metadata jsonb,
  active int8multirange not null,
  primary key (api_key, visitor_id)
);
create index if not exists console_visitors_by_account on console_visitors (api_key, account_id);
create table if not exists console_accounts (
  api_key text not null,
  account_id text not null,
  first_seen bigint not null,
  last_seen bigint not null,
  events bigint not null,
  metadata jsonb,
  active int8multirange not null,
  primary key (api_key, account_id)
);
create table if not exists console_pages (
  api_key text not null,
  grain text not null,
  t bigint not null,
  url text not null,
  events bigint not null,
  primary key (api_key, grain, t, url)
);
create table if not exists console_page_visitors (
  api_key text not null,
  url text not null,
  visitor_id text not null,
  active int8multirange not null,
  primary key (api_key, url, visitor_id)
);
create table if not exists console_features (
  api_key text not null,
  grain text not null,
  t bigint not null,
  tag text not null,
  el_id text not null,
  el_text text not null,
  clicks bigint not null,
  primary key (api_key, grain, t, tag, el_id, el_text)
);
create table if not exists console_sessions (
  api_key text not null,
  session_id text not null,
  visitor_id text,
  channel text,
  start_time bigint not null,
  end_time bigint not null,
  events bigint not null,
  pages bigint not null,
  primary key (api_key, session_id)
);
create index if not exists console_sessions_by_start on console_sessions (api_key, start_time);
create index if not exists console_sessions_by_visitor on console_sessions (api_key, visitor_id, start_time);
create table if not exists console_guide_visitors (
  api_key text not null,
  guide_id text not null,
  step_id text not null,
  type text not null,
  visitor_id text not null,
  active int8multirange not null,
  primary key (api_key, guide_id, step_id, type, visitor_id)
);
create table if not exists console_guide_buckets (
  api_key text not null,
  guide_id text not null,
  grain text not null,
  t bigint not null,
  type text not null,
  events bigint not null,
  primary key (api_key, guide_id, grain, t, type)
);
create table if not exists console_poll_responses (
  api_key text not null,
  guide_id text not null,
  poll_id text not null,
  grain text not null,
  t bigint not null,
  value text not null,
  is_number boolean not null,
  poll_type text,
  responses bigint not null,
  primary key (api_key, guide_id, poll_id, grain, t, value, is_number)
);
`;

/** The summary tables, emptied before a backfill rebuilds them. */
export const SUMMARY_TABLES = [
  'console_apps',
  'console_buckets',
  'console_bucket_visitors',
  'console_visitors',
  'console_accounts',
  'console_pages',
  'console_page_visitors',
  'console_features',
  'console_sessions',
  'console_guide_visitors',
  'console_guide_buckets',
  'console_poll_responses',
] as const;
