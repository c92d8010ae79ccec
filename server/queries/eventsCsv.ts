/**
 * GET /api/apps/{apiKey}/events.csv: the console's event list as a CSV file a spreadsheet opens (RFC 4180:
 * every field quoted when it holds a comma, quote or line break; CRLF between rows). A cell a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or carriage return) is written with a leading apostrophe, so a
 * visitor's typed text can never become a formula in the product team's spreadsheet.
 *
 * The file is written as it is read, a page of rows at a time (`eventsCsvStream`), so 100,000 rows cost the
 * server one page of them in memory, not the whole file.
 */
import type { Database } from '../storage/Database';
import { queryEvents, type EventListFilter } from './queryEvents';
import type { ConsoleEvent } from '../../shared/api';

/** Rows a CSV answers with: `limit` 1 to this, default CSV_DEFAULT_ROWS. */
export const CSV_MAX_ROWS = 100_000;
export const CSV_DEFAULT_ROWS = 10_000;

const HEADER = ['id', 'received_at', 'time', 'kind', 'type', 'visitor_id', 'account_id', 'url', 'element_tag', 'element_id', 'element_text', 'name'];

/** Rows read from the database per page of the stream. */
export const CSV_PAGE_ROWS = 2000;

/** The whole file of `events`, header first. */
export function eventsCsv(events: readonly ConsoleEvent[]): string {
  return csvLines([HEADER]) + csvRows(events);
}

/**
 * The file of the newest `limit` events that match `filter`, newest first, a page of rows per database read
 * (keyset on the id, so each page is an index range, however deep into the list). The header comes with the first
 * page, so a caller that waits for the first piece knows the database answered before it sends anything.
 */
export async function* eventsCsvStream(db: Database, filter: Omit<EventListFilter, 'after' | 'before'>, pageRows = CSV_PAGE_ROWS): AsyncGenerator<string> {
  let header = csvLines([HEADER]);
  let before: number | undefined;
  for (let left = filter.limit; ; ) {
    const page = Math.min(pageRows, left);
    const { events } = await queryEvents(db, { ...filter, before, limit: page });
    yield header + csvRows(events);
    header = '';
    left -= events.length;
    if (events.length < page || left <= 0) return;
    before = events[events.length - 1]!.id;
  }
}

function csvRows(events: readonly ConsoleEvent[]): string {
  return csvLines(events.map((e) => [
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
  ]));
}

function csvLines(rows: readonly string[][]): string {
  return rows.map((row) => row.map(cell).join(',') + '\r\n').join('');
}

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
