/**
 * GET /api/apps/{apiKey}/events.csv: the console's event list as a CSV file a spreadsheet opens (RFC 4180:
 * every field quoted when it holds a comma, quote or line break; CRLF between rows). A cell a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or carriage return) is written with a leading apostrophe, so a
 * visitor's typed text can never become a formula in the product team's spreadsheet.
 */
import type { ConsoleEvent } from './toConsoleEvent';

/** Rows a CSV answers with: `limit` 1 to this, default CSV_DEFAULT_ROWS. */
export const CSV_MAX_ROWS = 100_000;
export const CSV_DEFAULT_ROWS = 10_000;

const HEADER = ['id', 'received_at', 'time', 'kind', 'type', 'visitor_id', 'account_id', 'url', 'element_tag', 'element_id', 'element_text', 'name'];

export function eventsCsv(events: readonly ConsoleEvent[]): string {
  const rows = events.map((e) => [
    String(e.id),
    iso(e.receivedAt),
    iso(e.time),
    e.kind,
    e.type,
    e.visitorId ?? '',
    e.accountId ?? '',
    e.url ?? '',
    e.element?.tag ?? '',
    e.element?.id ?? '',
    e.element?.text ?? '',
    e.name ?? '',
  ]);
  return [HEADER, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
