/**
 * The columns of `events` that are read out of the body once, when the row is stored (and by the backfill of
 * rows stored before they existed), so the console's queries filter and group on plain indexed columns.
 */

/** The extracted columns, in the order of `extractedColumns()`'s expressions. */
export const EXTRACTED_COLUMN_NAMES = [
  'time', 'url', 'session_id', 'channel', 'el_tag', 'el_id', 'el_text', 'guide_id', 'guide_step_id', 'name',
] as const;

/** The characters of a track event's name the `name` column keeps (longer names are cut). */
export const NAME_CHARACTERS = 200;

/**
 * SQL expressions for `EXTRACTED_COLUMN_NAMES`, given SQL for the event body (jsonb), its kind, its
 * browser_time (bigint) and its received_at. Element fields come from `props.target` (a click's element,
 * wire-protocol.md "click"); texts are cut to lengths a btree key holds.
 */
export function extractedColumns(body: string, kind: string, browserTime: string, receivedAt: string): string[] {
  const guideProp = (name: string) => `case when ${kind} = 'guide' then left(${body}->'props'->>'${name}', 200) end`;
  return [
    // The time the agent saw the event; the time it was stored when the agent gave none.
    `coalesce(${browserTime}, ${receivedAt})`,
    `${body}->>'url'`,
    `left(${body}->>'sessionId', 200)`,
    `left(${body}->'utm'->>'channel', 100)`,
    `left(${body}->'props'->'target'->>'tag', 50)`,
    `left(${body}->'props'->'target'->>'id', 200)`,
    `left(${body}->'props'->'target'->>'txt', 200)`,
    guideProp('guide_id'),
    guideProp('guide_step_id'),
    `left(coalesce(${body}->>'track_event_name', ${guideProp('guide_id')}), ${NAME_CHARACTERS})`,
  ];
}
