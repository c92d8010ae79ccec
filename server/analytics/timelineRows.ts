/**
 * An event as paths read it from `events` (issue #35 "Funnels, paths, retention"): the columns a step needs
 * (createStepReader's StepSource) with the visitor, the time, the id and the session; one select list for every
 * statement of paths (the visitors' timelines, the start's events, the events around each occurrence), so each reads
 * the same event as the same step.
 */
import type { StepReader, StepSource } from './createStepReader';
import type { WalkEvent } from './createOccurrenceWalk';

/**
 * The select list over `events`: the element as jsonb text (equal elements are equal text: matched once), the
 * track name as the `name` column holds it (its first 200 characters: summaries/extractedColumns).
 */
export const TIMELINE_COLUMNS = `visitor_id as visitor, time, id, type, nullif(session_id, '') as session, url,
    case when type = 'click' and jsonb_typeof(body->'props'->'target') = 'object' then (body->'props'->'target')::text end as target,
    case when type = 'track' then left(body->>'track_event_name', 200) end as track`;

/** The event types a timeline holds: the ones a step is made of. */
export const TIMELINE_TYPES = "type in ('load', 'click', 'track')";

/** A row of TIMELINE_COLUMNS; pg answers bigint as text, PGlite as a number. */
export type TimelineRow = StepSource & { visitor: string; time: number | string; id: number | string; session: string | null };

/** A row as an event of its visitor's timeline. */
export function walkEventOf(row: TimelineRow, readStep: StepReader): WalkEvent {
  return { time: Number(row.time), id: Number(row.id), sessionId: row.session, step: readStep(row) };
}
