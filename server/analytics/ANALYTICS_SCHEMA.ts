/**
 * The tables of product analytics' definitions (issue #35 "Features and pages, retroactive"), migration 17: the
 * features and pages a product team names, keyed by app. Only the rules are stored: their counts are read from the
 * events already stored (queryRuleUse), so a rule made today counts last month's use.
 * Plain SQL for PGlite and PostgreSQL.
 *
 * - `analytics_pages`: a named URL rule (compileUrlRule's syntax).
 * - `analytics_features`: a named CSS selector over clicked elements, optionally limited to one page of the same
 *   app; the foreign key refuses an unknown page and the deletion of a page a feature is limited to.
 *
 * The per-visitor, per-day rollups that count them, and the state of a new rule's background backfill, are migration
 * 19's (ROLLUPS_SCHEMA.ts).
 */
export const ANALYTICS_SCHEMA = `
create table if not exists analytics_pages (
  api_key text not null,
  id text not null,
  name text not null,
  url_rule text not null,
  created_at bigint not null,
  updated_at bigint not null,
  primary key (api_key, id)
);
create table if not exists analytics_features (
  api_key text not null,
  id text not null,
  name text not null,
  selector text not null,
  page_id text,
  created_at bigint not null,
  updated_at bigint not null,
  primary key (api_key, id),
  foreign key (api_key, page_id) references analytics_pages (api_key, id)
);
create index if not exists analytics_features_by_page on analytics_features (api_key, page_id) where page_id is not null;
`;

/**
 * Migration 21: the event properties a feature's clicks carry (analytics §3 event property rules), a jsonb list
 * of `{ name, selector | path | source }` (readEventProperties), null for none; guide.json serves the features that
 * have some (servedFeatures.ts).
 */
export const FEATURE_EVENT_PROPERTIES_SCHEMA = `
alter table analytics_features add column if not exists event_properties jsonb;
create index if not exists analytics_features_with_properties on analytics_features (api_key) where event_properties is not null;
`;
