/**
 * GET /api/apps/{apiKey}/accounts/{accountId}: one account and its visitors.
 */
import type { Database } from '../storage/Database';
import { parseJson } from './queryVisitors';
import type { AccountDetail } from '../../shared/api';

/** Visitors listed for an account, latest seen first. */
const ACCOUNT_VISITORS = 500;

/** The account, or undefined when the app has no events of it. */
export async function queryAccount(db: Database, apiKey: string, accountId: string): Promise<AccountDetail | undefined> {
  const account = await db.query<Record<string, unknown>>(
    'select account_id, metadata from console_accounts where api_key = $1 and account_id = $2',
    [apiKey, accountId],
  );
  if (!account.rows[0]) return undefined;
  const visitors = await db.query<Record<string, unknown>>(
    `select visitor_id, events, last_seen from console_visitors where api_key = $1 and account_id = $2
     order by last_seen desc, visitor_id limit ${ACCOUNT_VISITORS}`,
    [apiKey, accountId],
  );
  return {
    accountId,
    metadata: parseJson(account.rows[0].metadata),
    visitors: visitors.rows.map((row) => ({ visitorId: String(row.visitor_id), events: Number(row.events), lastSeen: Number(row.last_seen) })),
  };
}
