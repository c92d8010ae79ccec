/**
 * GET /api/apps/{apiKey}/accounts: accounts of an app, from the per-account summary.
 */
import type { Database } from '../storage/Database';
import { likePattern } from './queryParams';
import { parseJson } from './queryVisitors';
import type { AccountRow } from '../../shared/api';

/** Accounts whose id contains `q` (ids starting with it first), else all; latest seen first. */
export async function queryAccounts(db: Database, apiKey: string, q: string | undefined, limit: number): Promise<AccountRow[]> {
  const params: unknown[] = [apiKey, limit];
  let where = 'a.api_key = $1';
  let order = 'a.last_seen desc, a.account_id';
  if (q !== undefined) {
    params.push(likePattern(q), q);
    where += ' and a.account_id like $3';
    order = `(left(a.account_id, length($4)) = $4) desc, ${order}`;
  }
  const { rows } = await db.query<Record<string, unknown>>(
    `select a.account_id, a.events, a.last_seen, a.metadata,
            (select count(*) from console_visitors v where v.api_key = a.api_key and v.account_id = a.account_id) as visitors
     from console_accounts a where ${where} order by ${order} limit $2`,
    params,
  );
  return rows.map((row): AccountRow => ({
    accountId: String(row.account_id),
    visitors: Number(row.visitors),
    events: Number(row.events),
    lastSeen: Number(row.last_seen),
    metadata: parseJson(row.metadata),
  }));
}
