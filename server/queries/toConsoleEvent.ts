/**
 * The console's row of an event (the live view and a visitor's timeline): the extracted columns, not the body.
 */

/** One event as the console lists it (docs/console-api.md, /events). */
export interface ConsoleEvent {
  id: number;
  receivedAt: number;
  time: number;
  kind: string;
  type: string;
  visitorId: string | null;
  accountId: string | null;
  url: string | null;
  element: { tag: string; id: string; text: string } | null;
  name: string | null;
}

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
