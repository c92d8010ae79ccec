/**
 * GET /api/apps/{apiKey}/visitors: visitors of an app, from the per-visitor summary (one row each).
 */
import type { Database } from '../storage/Database';
import { likePattern } from './queryParams';
import type { VisitorRow } from '../../shared/api';

/** Maps a console_visitors row. */
export function toConsoleVisitor(row: Record<string, unknown>): VisitorRow {
  return {
    visitorId: String(row.visitor_id),
    accountId: (row.account_id as string | null) ?? null,
    firstSeen: Number(row.first_seen),
    lastSeen: Number(row.last_seen),
    events: Number(row.events),
    metadata: parseJson(row.metadata),
  };
}

/** jsonb arrives parsed from PGlite and pg; kept tolerant of text. */
export function parseJson(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

/**
 * Visitors whose id contains `q` (ids starting with it first), else all; latest seen first.
 */
export async function queryVisitors(db: Database, apiKey: string, q: string | undefined, limit: number): Promise<VisitorRow[]> {
  const params: unknown[] = [apiKey, limit];
  let where = 'api_key = $1';
  let order = 'last_seen desc, visitor_id';
  if (q !== undefined) {
    params.push(likePattern(q), q);
    where += ` and visitor_id like $3`;
    order = `(left(visitor_id, length($4)) = $4) desc, ${order}`;
  }
  const { rows } = await db.query<Record<string, unknown>>(
    `select visitor_id, account_id, first_seen, last_seen, events, metadata from console_visitors
     where ${where} order by ${order} limit $2`,
    params,
  );
  return rows.map(toConsoleVisitor);
}
