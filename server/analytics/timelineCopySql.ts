/**
 * A narrow copy of each event a visitor's timeline holds (issue #35 "Fast at real volumes"), migration 25: paths
 * read the few events around each occurrence of their start (occurrencePaths.ts), and from `events` each of those
 * rows cost a visit to its heap page (at 10M events 19 rows per occurrence, about 200 of every 470 ms of a
 * statement, bench/RESULTS.md 15:39) and a descent into every monthly partition (its `time` is not the partition
 * key). The copy holds what a walk reads of an event, keys in place of the element and the address, in one table
 * whose primary key is the walk's order and carries the rest: a walk is one index-only range.
 * - `element_key`: a click's element key (md5 of its `props.target` jsonb text when that is an object), as
 *   analytics_elements keys it; `address_key`: md5 of `url`, as analytics_addresses keys it (rollupsSql.ts): the
 *   drain writes both dictionaries in the same statement, so every key here is in them (timelineKeyTexts.ts);
 * - `name`: a track event's name as `events.name` holds it (its first 200 characters, as TIMELINE_COLUMNS reads it);
 * - `session_id`: null for none ('' in `events`);
 * - `received_at`: retention deletes a row with its event (createRetention.ts).
 * Kept by the summarizer's drain in its one statement, as the rollups are; `on conflict do nothing` makes the
 * insert idempotent, so migration 25's fill may read events still queued too. Unlike the upserts, it needs no key
 * order: an event is in one batch, so two drains never write the same row.
 */
import { TIMELINE_TYPES } from './timelineRows';

export const TIMELINE_COPY_SCHEMA = `
create table if not exists analytics_timeline (
  api_key text not null,
  visitor_id text not null,
  time bigint not null,
  id bigint not null,
  type text not null,
  session_id text,
  element_key text,
  address_key text,
  name text,
  received_at bigint not null,
  primary key (api_key, visitor_id, time, id) include (type, session_id, element_key, address_key, name)
);
`;

/** `, timeline_copy as (...)`: a CTE to append after a CTE named `source` that yields `events` rows. */
export function timelineCopySql(source: string): string {
  return `,
timeline_copy as (
  insert into analytics_timeline (api_key, visitor_id, time, id, type, session_id, element_key, address_key, name, received_at)
  select api_key, visitor_id, time, id, type, nullif(session_id, ''),
         case when type = 'click' and jsonb_typeof(body->'props'->'target') = 'object' then md5((body->'props'->'target')::text) end,
         md5(url), case when type = 'track' then name end, received_at
  from ${source}
  where kind = 'analytics' and ${TIMELINE_TYPES} and visitor_id <> ''
  on conflict do nothing
)`;
}

/** Migration 25's fill: the copy of every event stored before it (queued ones too: see above). */
export const FILL_TIMELINE_COPY = `
with source as (select * from events)${timelineCopySql('source')}
select 1`;
