/**
 * The index of `events` that reads a visitor's timeline around a moment (issue #35 "Fast at real volumes"),
 * migration 22: paths read the few events just before and after each occurrence of their start (occurrencePaths.ts)
 * as one index range per occurrence, in (time, id) order, instead of every event of its visitor. Partial: only the
 * events a timeline holds (timelineRows' TIMELINE_TYPES, written here as there so a WHERE implies the predicate).
 * `id` last: the walks' cursors are (time, id), and the range's order is the index's.
 * On the partitioned `events`, made on every partition, present and future.
 */
import { TIMELINE_TYPES } from './timelineRows';

export const TIMELINE_INDEX = `
create index if not exists events_timeline on events (api_key, visitor_id, time, id) where kind = 'analytics' and ${TIMELINE_TYPES};
`;
