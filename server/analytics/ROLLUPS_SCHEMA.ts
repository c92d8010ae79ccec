/**
 * The tables that make features and pages fast at real volumes (issue #35 "Fast at real volumes"), migration 19.
 * Plain SQL for PGlite and PostgreSQL.
 *
 * - Dictionaries, per app: `analytics_elements`, the distinct clicked elements (the jsonb text of `props.target`,
 *   keyed by its md5), and `analytics_addresses`, the distinct addresses (`url`, keyed by its md5). A product has
 *   far fewer of these than events. `matched` is false until the rules of the app have been matched against the
 *   entry (matchNewEntries, after each drain); `claimed_until` is the lease of the collector matching it.
 * - Rollups, per visitor (and account) per UTC day per element and address: `analytics_click_days` (clicks) and
 *   `analytics_load_days` (page loads), kept by the summarizer's drain exactly once (rollupsSql.ts). Missing ids
 *   are stored as '' (a key column cannot be null); reads count distinct non-empty ones.
 * - `analytics_rule_keys`: which element keys a feature's selector matches and which address keys a page's URL
 *   rule matches, per generation of the rule (a changed rule starts a new generation; reads take the current one,
 *   so keys a slow matcher writes for an old rule are never counted).
 * - The backfill's state on each rule row: generation, cursor (the last dictionary key done), done/total (the
 *   progress), lease (owner and until when), backfilled_at (null: not ready).
 */

/** Columns of a rule's background backfill, on analytics_features and analytics_pages. */
const backfillColumns = (table: string) => `
alter table ${table} add column if not exists backfill_generation integer not null default 0;
alter table ${table} add column if not exists backfill_cursor text;
alter table ${table} add column if not exists backfill_done integer not null default 0;
alter table ${table} add column if not exists backfill_total integer;
alter table ${table} add column if not exists backfill_owner text;
alter table ${table} add column if not exists backfill_lease bigint;
alter table ${table} add column if not exists backfilled_at bigint;
create index if not exists ${table}_to_backfill on ${table} (api_key, id) where backfilled_at is null;`;

export const ROLLUPS_SCHEMA = `
create table if not exists analytics_elements (
  api_key text not null,
  key text not null,
  target jsonb not null,
  first_seen bigint not null,
  matched boolean not null default false,
  claimed_until bigint,
  primary key (api_key, key)
);
create index if not exists analytics_elements_unmatched on analytics_elements (api_key, key) where not matched;
create table if not exists analytics_addresses (
  api_key text not null,
  key text not null,
  url text not null,
  first_seen bigint not null,
  matched boolean not null default false,
  claimed_until bigint,
  primary key (api_key, key)
);
create index if not exists analytics_addresses_unmatched on analytics_addresses (api_key, key) where not matched;
create table if not exists analytics_click_days (
  api_key text not null,
  element_key text not null,
  day bigint not null,
  address_key text not null,
  visitor_id text not null,
  account_id text not null,
  events bigint not null,
  primary key (api_key, element_key, day, address_key, visitor_id, account_id)
);
create table if not exists analytics_load_days (
  api_key text not null,
  address_key text not null,
  day bigint not null,
  visitor_id text not null,
  account_id text not null,
  events bigint not null,
  primary key (api_key, address_key, day, visitor_id, account_id)
);
create table if not exists analytics_rule_keys (
  api_key text not null,
  rule_kind text not null check (rule_kind in ('feature', 'page')),
  rule_id text not null,
  generation integer not null,
  key text not null,
  primary key (api_key, rule_kind, rule_id, generation, key)
);
${backfillColumns('analytics_features')}
${backfillColumns('analytics_pages')}
`;
