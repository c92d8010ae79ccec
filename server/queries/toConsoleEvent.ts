/**
 * The console's row of an event (the live view and a visitor's timeline): the extracted columns, not the body.
 */
import type { ConsoleEvent } from '../../shared/api';

/** The columns `toConsoleEvent` reads. */
export const CONSOLE_EVENT_COLUMNS =
  'id, received_at, time, kind, type, visitor_id, account_id, url, el_tag, el_id, el_text, name';

/** Maps a row of `CONSOLE_EVENT_COLUMNS` (pg gives bigints as strings, PGlite as numbers). */
export function toConsoleEvent(row: Record<string, unknown>): ConsoleEvent {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: Number(row.id),
    receivedAt: Number(row.received_at),
    time: Number(row.time ?? row.received_at),
    kind: String(row.kind),
    type: String(row.type),
    visitorId: text(row.visitor_id),
    accountId: text(row.account_id),
    url: text(row.url),
    element: row.el_tag === null || row.el_tag === undefined
      ? null
      : { tag: String(row.el_tag), id: String(row.el_id ?? ''), text: String(row.el_text ?? '') },
    name: text(row.name),
  };
}
