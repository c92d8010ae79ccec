/**
 * The three figures of each guide on the console's guide list (issue #14): visitors who saw it, who completed
 * it (guides §4 "Guide completion": its last step advanced or dismissed), and who dismissed it. All time, or what
 * happened in a range of time (the overview's guides); of every visitor, or of one account's (the account page).
 */
import type { Database } from '../storage/Database';
import type { GuideListStats } from '../../shared/api';

// From the console's summary of guide events per guide, step, type and visitor (kept at ingest,
// server/summaries), so the list costs the same on a million events as on ten. `also`: the filter's conditions.
const statsSql = (also: string[]) => `
with wanted as (select * from unnest($2::text[], $3::text[]) as w(guide_id, last_step_id))
select w.guide_id,
       count(distinct v.visitor_id) filter (where v.type = 'guideSeen') as seen,
       count(distinct v.visitor_id) filter (where v.type in ('guideAdvanced', 'guideDismissed') and v.step_id = w.last_step_id) as completed,
       count(distinct v.visitor_id) filter (where v.type = 'guideDismissed') as dismissed
from wanted w join console_guide_visitors v on v.api_key = $1 and v.guide_id = w.guide_id${also.map((c) => ` and ${c}`).join('')}
group by w.guide_id`;

/** Which figures: of what happened in [from, to) (the hours each visitor's state was recorded in), of one account's visitors. */
export interface GuideStatsFilter {
  range?: { from: number; to: number };
  accountId?: string;
}

/** Figures for each of `guides` (id and last step id); a guide no visitor met gets zeros. */
export async function guideListStats(
  db: Database,
  apiKey: string,
  guides: Array<{ id: string; lastStepId: string }>,
  filter: GuideStatsFilter = {},
): Promise<Record<string, GuideListStats>> {
  const stats: Record<string, GuideListStats> = {};
  for (const guide of guides) stats[guide.id] = { seen: 0, completed: 0, dismissed: 0 };
  if (guides.length === 0) return stats;
  const params: unknown[] = [apiKey, guides.map((g) => g.id), guides.map((g) => g.lastStepId)];
  const where: string[] = [];
  if (filter.range) {
    params.push(filter.range.from, filter.range.to);
    where.push(`v.active && int8range($${params.length - 1}, $${params.length})`);
  }
  if (filter.accountId !== undefined) {
    params.push(filter.accountId);
    where.push(`v.visitor_id in (select visitor_id from console_visitors where api_key = $1 and account_id = $${params.length})`);
  }
  const result = await db.query<Record<string, string | number>>(statsSql(where), params);
  // pg returns counts as strings, PGlite as numbers.
  for (const row of result.rows) {
    stats[String(row.guide_id)] = { seen: Number(row.seen), completed: Number(row.completed), dismissed: Number(row.dismissed) };
  }
  return stats;
}
