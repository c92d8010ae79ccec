/**
 * The segments table (issue #35 "Segments, and guides that target them"), migration 18: a named definition per app
 * (shared/api/segments.ts), checked by segmentBody before it is stored. Members are never stored: they are judged
 * over the events and the summaries when asked (segmentMembers) and, for one visitor, when guide.json is answered
 * (createSegmentJudge).
 *
 * `events_by_visitor_element`: guide.json judges a segment over one visitor's events (createSegmentJudge,
 * behaviourCounts.visitorCounts) within a budget of 5 ms (issue #35). `events_by_app_visitor (api_key, visitor_id,
 * id)` made it read all of the visitor's events and test each; this index lets each condition read only the
 * visitor's events of its type and, for a feature, of its elements' ids (`el_id`, extracted at insert). Created on the
 * partitioned table, so on every month's partition; one more btree entry per stored event.
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
create index if not exists events_by_visitor_element on events (api_key, visitor_id, type, el_id);
`;
