/**
 * The segments table (issue #35 "Segments, and guides that target them"), migration 18: a named definition per app
 * (shared/api/segments.ts), checked by segmentBody before it is stored. Members are never stored: they are judged
 * over the events and the summaries when asked (segmentMembers) and, for one visitor, when guide.json is answered
 * (createSegmentJudge).
 *
 * No index on events is added: a visitor's behaviour counts read that visitor's events through
 * `events_by_app_visitor (api_key, visitor_id, id)` (CONSOLE_SCHEMA), one index range per guide.json.
 */
export const SEGMENTS_SCHEMA = `
create table if not exists analytics_segments (
  api_key text not null,
  id text not null,
  name text not null,
  definition jsonb not null,
  created_at bigint not null,
  updated_at bigint not null,
  primary key (api_key, id)
);
`;
