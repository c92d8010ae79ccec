/**
 * The dictionary entries a backfilled rule matches (issue #35 "Fast at real volumes"), read from its rule keys
 * instead of the events: a feature's clicked elements, a page's addresses (ROLLUPS_SCHEMA.ts). funnelSteps resolves
 * a step with them, so a funnel (retention, a segment) reads its events by the keys' index (STEP_INDEXES.ts) and
 * never scans the span for the distinct values first.
 *
 * Exact as the scan of the events is, on what the dictionaries hold (every drained event: the routes flush the
 * summarizer first):
 * - the keys at the rule's current generation, which its backfill wrote for every entry there was when it ran and
 *   matchNewEntries for each entry added after;
 * - and the entries not matched yet (a drain's new entries another collector has claimed and not stored), matched
 *   here in Node with the rule's own engine, so an element first clicked a moment ago counts already.
 * A rule whose backfill is not done (a new or changed rule) answers undefined: the caller scans the events instead.
 */
import type { Database } from '../storage/Database';
import { compileRule, DICTIONARY, RULE_TABLE, type DictionaryEntry, type RuleKind } from './matchRuleKeys';

/** The stored rule of a rule kind's table: the column holding it. */
const READY = (kind: RuleKind) => `
select backfill_generation as generation, ${RULE_TABLE[kind].rule} as rule from ${RULE_TABLE[kind].table}
where api_key = $1 and id = $2 and backfilled_at is not null`;

/** $1 api key, $2 rule id, $3 generation, $4 limit. */
const MATCHED = (kind: RuleKind) => `
select d.key, d.${DICTIONARY[kind].column}::text as value from analytics_rule_keys k
join ${DICTIONARY[kind].table} d on d.api_key = k.api_key and d.key = k.key
where k.api_key = $1 and k.rule_kind = '${kind}' and k.rule_id = $2 and k.generation = $3
limit $4`;

/** $1 api key, $2 limit. */
const PENDING = (kind: RuleKind) => `
select key, ${DICTIONARY[kind].column}::text as value from ${DICTIONARY[kind].table} where api_key = $1 and not matched limit $2`;

/**
 * The entries rule `id` of `kind` matches, at most `max` (more answers `max + 1` of them: the caller refuses);
 * undefined while the rule is not backfilled, or when more than `maxPending` entries wait to be matched.
 */
export async function readRuleEntries(
  db: Database, kind: RuleKind, apiKey: string, id: string, max: number, maxPending: number,
): Promise<DictionaryEntry[] | undefined> {
  const ready = await db.query<{ generation: number; rule: string }>(READY(kind), [apiKey, id]);
  const row = ready.rows[0];
  if (!row) return undefined;
  const generation = Number(row.generation);
  const [matched, pending] = await Promise.all([
    db.query<DictionaryEntry>(MATCHED(kind), [apiKey, id, generation, max + 1]),
    db.query<DictionaryEntry>(PENDING(kind), [apiKey, maxPending + 1]),
  ]);
  if (pending.rows.length > maxPending) return undefined;
  const rule = compileRule(kind, id, generation, row.rule);
  const entries = new Map(matched.rows.map((entry) => [entry.key, entry.value]));
  for (const entry of pending.rows) if (rule.matches(entry.value)) entries.set(entry.key, entry.value);
  return [...entries].slice(0, max + 1).map(([key, value]) => ({ key, value }));
}
