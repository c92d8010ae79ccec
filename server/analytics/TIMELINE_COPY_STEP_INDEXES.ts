/**
 * Indexes of the timelines' copy (timelineCopySql.ts) by step key (issue #35 "Fast at real volumes"), migration 26:
 * a paths question reads its start's own events by key (pathStartEvents.ts) from the copy, as an index-only range
 * per key, so that no statement of a backfilled start visits a heap page of `events`. From `events` those rows were
 * random heap visits (wide rows with their jsonb body; at 10M events 20,411 loads read 6.2 s cold, 0.1 s warm),
 * and the seed's 21 GB do not stay in the page cache between questions.
 * Partial, one per kind of step, each with `time` after its key so a start's span is one range per key, and
 * carrying what a walk needs of its start (visitor, id, session; a click's address for a feature limited to a page):
 * - page loads by address key (md5 of `url`, as analytics_addresses keys it);
 * - clicks by element key (as analytics_elements keys it);
 * - track events by name.
 * An event is in one of them at most, so together they hold about one entry per row of the copy.
 */
export const TIMELINE_COPY_STEP_INDEXES = `
create index if not exists analytics_timeline_loads on analytics_timeline (api_key, address_key, time) include (visitor_id, id, session_id) where type = 'load';
create index if not exists analytics_timeline_clicks on analytics_timeline (api_key, element_key, time) include (visitor_id, id, session_id, address_key) where type = 'click';
create index if not exists analytics_timeline_tracks on analytics_timeline (api_key, name, time) include (visitor_id, id, session_id) where type = 'track';
`;
