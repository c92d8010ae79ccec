/**
 * A segment's members over the whole app (issue #35 "Segments ... with its live count and members"): the visitors the
 * summaries know (console_visitors: id, latest account, last seen, latest metadata; the account's from
 * console_accounts) whose behaviour counts satisfy every behaviour condition (one statement: the counts of every
 * visitor with an event that may count, behaviourCounts.countColumns, joined to the visitors) and whose ids and
 * metadata satisfy every `when` condition (judged in Node, shared/segments/segmentConditions.ts, as guide.json's
 * payload is). Exact at the moment of the read; the caller flushes the summarizer first.
 *
 * Not yet read from the rollups (issue #35 "Fast at real volumes"): this reads the app's matching events (their rules
 * resolved by key, behaviourCounts) and visitors per question, bounded by MAX_JUDGED_VISITORS.
 */
import type { Database } from '../../storage/Database';
import type { Segment, SegmentMember } from '../../../shared/api/segments';
import { countColumns, holdsSql, type ResolvedRule } from './behaviourCounts';
import { judgedWhen } from './createSegmentJudge';

/** Visitors one read judges; more is a 400 in the routes' words (the app outgrew exact reads of this slice). */
export const MAX_JUDGED_VISITORS = 200_000;

interface MemberRow {
  visitor_id: string;
  account_id: string | null;
  last_seen: string | number;
  metadata?: unknown;
  account_metadata?: unknown;
}

/**
 * Every member of `segment`, in visitor id order (at most MAX_JUDGED_VISITORS + 1 visitors are read: the caller
 * refuses more). `rules` are its behaviour conditions resolved (behaviourCounts.resolveRules).
 */
export async function querySegmentMembers(db: Database, apiKey: string, segment: Segment, rules: readonly ResolvedRule[], now: number): Promise<{ members: SegmentMember[]; tooMany: boolean }> {
  const params: unknown[] = [apiKey];
  const withWhen = segment.definition.when !== undefined;
  let counts = '';
  let joinCounts = '';
  if (rules.length) {
    const { columns, any } = countColumns(rules, params, now);
    counts = `with counts as (
      select visitor_id, ${columns.join(', ')} from events
      where api_key = $1 and visitor_id <> '' and ${any ?? 'false'} group by visitor_id
    )`;
    joinCounts = 'left join counts c on c.visitor_id = v.visitor_id';
  }
  const limit = `$${params.push(MAX_JUDGED_VISITORS + 1)}`;
  const { rows } = await db.query<MemberRow>(
    `${counts}
     select v.visitor_id, v.account_id, v.last_seen${withWhen ? ', v.metadata, a.metadata as account_metadata' : ''}
     from console_visitors v
     ${withWhen ? 'left join console_accounts a on a.api_key = v.api_key and a.account_id = v.account_id' : ''}
     ${joinCounts}
     where v.api_key = $1 and ${rules.length ? holdsSql(rules, 'c') : 'true'}
     order by v.visitor_id limit ${limit}`,
    params,
  );
  const tooMany = rows.length > MAX_JUDGED_VISITORS;
  const members = rows
    .slice(0, MAX_JUDGED_VISITORS)
    .filter((row) => !withWhen || judgedWhen(segment, {
      visitorId: row.visitor_id,
      ...(row.account_id ? { accountId: row.account_id } : {}),
      metadata: { visitor: row.metadata ?? undefined, account: row.account_metadata ?? undefined },
    }))
    .map((row) => ({ visitorId: row.visitor_id, accountId: row.account_id || null, lastSeen: Number(row.last_seen) }));
  return { members, tooMany };
}
