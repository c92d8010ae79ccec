/**
 * Matching dictionary entries (ROLLUPS_SCHEMA.ts: an app's clicked elements and addresses) against rules, in Node
 * with the rules' own engines (compileSelector, compileUrlRule), and storing what matched as rule keys
 * (issue #35 "Fast at real volumes"). Shared by the backfill of one new rule (backfillRule.ts) and the matching
 * of new entries against every rule of their app after a drain (matchNewEntries.ts).
 *
 * A feature matches elements (its page limit is the page's own address keys, joined when read: a page's change
 * then re-matches the page alone); a page matches addresses.
 */
import type { Database } from '../storage/Database';
import { compileSelector } from './compileSelector';
import { compileUrlRule } from './compileUrlRule';

/** Which dictionary a rule kind matches, and how. */
export type RuleKind = 'feature' | 'page';

/** A stored rule at one generation, compiled; `matches` answers for one entry's stored value. */
export interface RuleMatcher {
  kind: RuleKind;
  id: string;
  generation: number;
  matches(value: string): boolean;
}

/** One dictionary entry: its key, and the stored value (an element's jsonb text, or an address). */
export interface DictionaryEntry {
  key: string;
  value: string;
}

/** The dictionary a rule kind matches: table and the column holding the value (read as text). */
export const DICTIONARY = {
  feature: { table: 'analytics_elements', column: 'target' },
  page: { table: 'analytics_addresses', column: 'url' },
} as const;

/** The rule table of a rule kind, and the column holding its rule. */
export const RULE_TABLE = {
  feature: { table: 'analytics_features', rule: 'selector' },
  page: { table: 'analytics_pages', rule: 'url_rule' },
} as const;

/**
 * Compiles a stored rule. A rule that no longer compiles (a selector engine's upgrade) matches nothing, as in the
 * reference scan (queryRuleUse).
 */
export function compileRule(kind: RuleKind, id: string, generation: number, rule: string): RuleMatcher {
  const none = { kind, id, generation, matches: () => false };
  if (kind === 'feature') {
    const selector = compileSelector(rule);
    if ('problem' in selector) return none;
    return { ...none, matches: (text) => selector.matchesClick(JSON.parse(text)) };
  }
  const url = compileUrlRule(rule);
  return 'problem' in url ? none : { ...none, matches: (text) => url.matches(text) };
}

/** Every rule of `kind` of an app, at its current generation. */
export async function loadRules(db: Database, kind: RuleKind, apiKey: string): Promise<RuleMatcher[]> {
  const { table, rule } = RULE_TABLE[kind];
  const { rows } = await db.query<{ id: string; rule: string; generation: number }>(
    `select id, ${rule} as rule, backfill_generation as generation from ${table} where api_key = $1`,
    [apiKey],
  );
  return rows.map((row) => compileRule(kind, row.id, Number(row.generation), row.rule));
}

/** A rule key to store: [rule id, generation, entry key]. */
export type RuleKeyRow = [string, number, string];

/** The (rule, entry) pairs that match. */
export function matchEntries(rules: readonly RuleMatcher[], entries: readonly DictionaryEntry[]): RuleKeyRow[] {
  const rows: RuleKeyRow[] = [];
  for (const entry of entries) {
    for (const rule of rules) if (rule.matches(entry.value)) rows.push([rule.id, rule.generation, entry.key]);
  }
  return rows;
}

/**
 * `keys as (...)`: a CTE storing rule keys ($1 api key, `$kindParam` the rule kind, `$rowsParam` a JSON array of
 * RuleKeyRow), once each; `guard`, SQL true or false, lets the caller's statement store them only when its own
 * condition holds.
 */
export const insertRuleKeysCte = (kindParam: number, rowsParam: number, guard = 'true') => `keys as (
  insert into analytics_rule_keys (api_key, rule_kind, rule_id, generation, key)
  select $1, $${kindParam}, r->>0, (r->>1)::int, r->>2 from jsonb_array_elements($${rowsParam}::jsonb) r
  where ${guard}
  order by 1, 2, 3, 4, 5
  on conflict do nothing
)`;
