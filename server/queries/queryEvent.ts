/**
 * GET /api/apps/{apiKey}/events/{id}: one stored event with the body exactly as the agent sent it.
 */
import type { Database } from '../storage/Database';
import type { StoredEvent } from '../../shared/api';

/** The event of that app with that id, or undefined. */
export async function queryEvent(db: Database, apiKey: string, id: number): Promise<StoredEvent | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    'select id, received_at, kind, type, visitor_id, account_id, source, body from events where id = $1 and api_key = $2',
    [id, apiKey],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: Number(row.id),
    receivedAt: Number(row.received_at),
    kind: String(row.kind),
    type: String(row.type),
    visitorId: (row.visitor_id as string | null) ?? null,
    accountId: (row.account_id as string | null) ?? null,
    source: (row.source as string | null) ?? null,
    body: typeof row.body === 'string' ? JSON.parse(row.body) : row.body,
  };
}
