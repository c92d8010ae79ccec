/**
 * How much a feature or a page was used, read from the rollups (issue #35 "Fast at real volumes"): the per-visitor,
 * per-UTC-day rows of the clicked elements and addresses (rollupsSql.ts) whose keys the rule matched (its rule
 * keys at its current generation: backfillRule.ts, matchNewEntries.ts). The same answer as the reference scan
 * (queryRuleUse) on the same stored data, without reading the events:
 * - a feature: the click rows of its element keys and, when it is limited to a page, of that page's address keys;
 * - a page: the load rows of its address keys.
 * Events are summed; visitors and accounts are distinct non-empty ids of the rows. The rollups are per UTC day, so
 * `range` must be whole UTC days (useRange widens a read's from/to to them): a mid-day bound would count its whole
 * day. While the rule's backfill is `counting`, the counts hold only the keys matched so far.
 */
import type { Database } from '../storage/Database';
import type { ConsoleRange } from '../../shared/api';
import type { BackfillState, RuleUse } from '../../shared/api/rules';
import { useOfRows, type UseRow } from './queryRuleUse';
import { RULE_TABLE, type RuleKind } from './matchRuleKeys';

/** The keys of rule $2 (of kind `kind`) at its current generation; `$1` the api key. */
const ruleKeys = (kind: RuleKind, id: string) => `
  select key from analytics_rule_keys
  where api_key = $1 and rule_kind = '${kind}' and rule_id = ${id}
    and generation = (select backfill_generation from ${RULE_TABLE[kind].table} where api_key = $1 and id = ${id})`;

// $3 from (or null), $4 to (or null): whole UTC days.
const DAYS = '($3::bigint is null or day >= $3) and ($4::bigint is null or day < $4)';

const TOTALS = `
select grouping(day) as total, day, sum(events) as events, count(distinct visitor) as visitors, count(distinct account) as accounts
from matched group by grouping sets ((day), ()) order by total desc, day`;

/** $2 the feature, $5 its page (or null). */
const FEATURE_USE = `
with matched as (
  select day, nullif(visitor_id, '') as visitor, nullif(account_id, '') as account, events
  from analytics_click_days
  where api_key = $1 and element_key in (${ruleKeys('feature', '$2')}) and ${DAYS}
    and ($5::text is null or address_key in (${ruleKeys('page', '$5')}))
)${TOTALS}`;

/** $2 the page. */
const PAGE_USE = `
with matched as (
  select day, nullif(visitor_id, '') as visitor, nullif(account_id, '') as account, events
  from analytics_load_days
  where api_key = $1 and address_key in (${ruleKeys('page', '$2')}) and ${DAYS}
)${TOTALS}`;

/** The use of feature `id`, limited to page `pageId` when it is. */
export async function queryFeatureRollups(db: Database, apiKey: string, id: string, pageId: string | undefined, range: ConsoleRange | null): Promise<RuleUse> {
  const { rows } = await db.query<UseRow>(FEATURE_USE, [apiKey, id, range?.from ?? null, range?.to ?? null, pageId ?? null]);
  return useOfRows(rows, range);
}

/** The use of page `id`. */
export async function queryPageRollups(db: Database, apiKey: string, id: string, range: ConsoleRange | null): Promise<RuleUse> {
  const { rows } = await db.query<UseRow>(PAGE_USE, [apiKey, id, range?.from ?? null, range?.to ?? null]);
  return useOfRows(rows, range);
}

/** Where a rule's backfill stands; a rule not found reads as ready (nothing to count). */
export async function readBackfillState(db: Database, kind: RuleKind, apiKey: string, id: string): Promise<BackfillState> {
  const { rows } = await db.query<{ backfilled_at: unknown; done: unknown; total: unknown }>(
    `select backfilled_at, backfill_done as done, backfill_total as total from ${RULE_TABLE[kind].table} where api_key = $1 and id = $2`,
    [apiKey, id],
  );
  const row = rows[0];
  if (!row || row.backfilled_at !== null) return { state: 'ready', progress: 1 };
  const total = Number(row.total ?? 0);
  // Entries added since the count make done pass total: it stays short of 1 until the last batch.
  return { state: 'counting', progress: total > 0 ? Math.min(0.99, Number(row.done) / total) : 0 };
}

/** A feature limited to a page counts once both are ready; its progress is the lesser. */
export function bothStates(a: BackfillState, b: BackfillState | undefined): BackfillState {
  if (!b) return a;
  return a.state === 'ready' && b.state === 'ready' ? a : { state: 'counting', progress: Math.min(a.progress, b.progress) };
}
