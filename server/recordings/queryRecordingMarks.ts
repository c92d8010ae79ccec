/**
 * The marks of a recording's timeline (issue #18): the clicks the collector stored for the recording's visitor and
 * session while it ran, each as a plain click or as the frustration the agent judged it (analytics §4: rage clicks
 * in the worker, dead and error clicks from the page; shared/analytics/detectFrustration.ts), stored in the click's
 * `props.frustrationTypes`.
 */
import type { Database } from '../storage/Database';
import type { RecordingMark } from '../../shared/api';

/** Most marks answered for one recording. */
export const MAX_MARKS = 1000;

/** The kind a click's frustration types make it: the worst wins (rage, then error, then dead). */
export function markKind(frustrationTypes: readonly unknown[] | null): RecordingMark['kind'] {
  const types = frustrationTypes ?? [];
  if (types.includes('rageClick')) return 'rage';
  if (types.includes('errorClick')) return 'error';
  if (types.includes('deadClick')) return 'dead';
  return 'click';
}

/** The clicks of `visitorId`'s session `sessionId` between `start` and `end`, oldest first. */
export async function queryRecordingMarks(
  db: Database,
  apiKey: string,
  { visitorId, sessionId, start, end }: { visitorId: string; sessionId: string; start: number; end: number },
): Promise<RecordingMark[]> {
  const result = await db.query<{ time: string | number; el_tag: string | null; el_id: string | null; el_text: string | null; ft: unknown[] | null }>(
    `select time, el_tag, el_id, el_text,
            case when jsonb_typeof(body->'props'->'frustrationTypes') = 'array' then body->'props'->'frustrationTypes' end as ft
     from events
     where api_key = $1 and visitor_id = $2 and session_id = $3 and type = 'click' and time between $4 and $5
     order by time, id limit ${MAX_MARKS}`,
    [apiKey, visitorId, sessionId, start, end],
  );
  return result.rows.map((row) => ({ t: Number(row.time), kind: markKind(row.ft), label: labelOf(row) }));
}

function labelOf({ el_tag, el_id, el_text }: { el_tag: string | null; el_id: string | null; el_text: string | null }): string {
  const tag = (el_tag ?? '').toLowerCase();
  if (el_text) return el_text;
  if (el_id) return `${tag}#${el_id}`;
  return tag;
}
