/**
 * Indexes of `events` that let a funnel's (retention's, a segment's) steps read their events by key instead of
 * scanning the span (issue #35 "Fast at real volumes"), migration 20: partial expression indexes, one per kind of
 * step, each with `time` last so a step's range is one index range per key.
 * - clicks by element key: md5 of the element's jsonb text, as the dictionary analytics_elements keys it
 *   (rollupsSql.ts);
 * - page loads by address key: md5 of `url`, as analytics_addresses keys it;
 * - track events by `name` (the extracted, indexed copy of track_event_name).
 * Guide steps already have events_by_guide (api_key, guide_id, time).
 * PostgreSQL uses an expression index only for the same expression and a WHERE that implies its predicate:
 * funnelQuery's stepWhere writes ELEMENT_KEY and ADDRESS_KEY and the predicates' conditions as they are here.
 * On the partitioned `events`, each index is made on every partition, present and future.
 */

/** SQL of a click's element key: the dictionary's key of its `props.target`. */
export const ELEMENT_KEY = "md5((body->'props'->'target')::text)";
/** SQL of an event's address key: the dictionary's key of its `url`. */
export const ADDRESS_KEY = 'md5(url)';

export const STEP_INDEXES = `
create index if not exists events_click_by_element on events (api_key, (${ELEMENT_KEY}), time) where kind = 'analytics' and type = 'click';
create index if not exists events_load_by_address on events (api_key, (${ADDRESS_KEY}), time) where kind = 'analytics' and type = 'load';
create index if not exists events_track_by_name on events (api_key, name, time) where kind = 'analytics' and type = 'track';
`;

/**
 * Migration 24: the track and load indexes again, covering what a funnel (retention, a segment) reads of a step's
 * events (the unit ids, the id, and a load's `url`, whose key the index condition computes), so PostgreSQL answers a
 * step from the index alone (an index-only scan) instead of visiting a heap page per event: at 10M events the bench's
 * track step visited about a third of the span's heap pages. Clicks keep theirs: their key is computed from `body`,
 * which an index cannot hold.
 */
export const COVERING_STEP_INDEXES = `
drop index if exists events_track_by_name;
create index if not exists events_track_by_name_covering on events (api_key, name, time) include (visitor_id, account_id, id) where kind = 'analytics' and type = 'track';
drop index if exists events_load_by_address;
create index if not exists events_load_by_address_covering on events (api_key, (${ADDRESS_KEY}), time) include (url, visitor_id, account_id, id) where kind = 'analytics' and type = 'load';
`;
