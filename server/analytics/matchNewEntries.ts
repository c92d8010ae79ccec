/**
 * After each drain, the summarizer matches the dictionary entries the drain added (an element clicked for the first
 * time, a new address) against every rule of their app, so a feature made last week counts the new button's clicks
 * (issue #35 "Fast at real volumes").
 *
 * Entries are claimed, not read past a watermark: a new entry carries `matched = false`, and a collector claims a
 * bounded set of them with `for update skip locked` and a lease (`claimed_until`), matches them in Node, then stores
 * their rule keys and marks them matched in one statement. A watermark (a serial id, or first_seen) would skip an
 * entry whose drain committed after a later one's: the entries of two drains at once commit in either order. Two
 * collectors never take the same entries; one killed mid-way leaves its claim to lapse, and the next takes them
 * (their keys are stored `on conflict do nothing`, so a second pass adds nothing).
 *
 * Why no rule is missed: the entries are claimed (read) before the rules are read. A rule not yet visible then was
 * saved after the entries were committed, so its own backfill (backfillRule.ts), which starts after it is saved,
 * sees them. A rule changed meanwhile has a new generation; keys of the old one are never read.
 */
import type { Database } from '../storage/Database';
import { DICTIONARY, insertRuleKeysCte, loadRules, matchEntries, type DictionaryEntry, type RuleKind } from './matchRuleKeys';

/** How long a claim holds entries for the collector that made it. */
export const MATCH_LEASE_MS = 30_000;
/** Entries one claim takes. */
export const MATCH_BATCH = 1000;

const claimSql = (kind: RuleKind) => {
  const { table, column } = DICTIONARY[kind];
  return `
update ${table} d set claimed_until = $1 + ${MATCH_LEASE_MS}
where (d.api_key, d.key) in (
  select api_key, key from ${table}
  where not matched and (claimed_until is null or claimed_until < $1)
  order by api_key, key limit $2
  for update skip locked
)
returning d.api_key, d.key, d.${column}::text as value`;
};

const storeSql = (kind: RuleKind) => `
with ${insertRuleKeysCte(2, 3)}
update ${DICTIONARY[kind].table} set matched = true, claimed_until = null where api_key = $1 and key = any($4::text[])`;

/** Matches one claim of new entries of one kind; answers how many it took. */
async function matchClaim(db: Database, kind: RuleKind, now: number): Promise<number> {
  const { rows } = await db.query<{ api_key: string; key: string; value: string }>(claimSql(kind), [now, MATCH_BATCH]);
  const byApp = new Map<string, DictionaryEntry[]>();
  for (const row of rows) {
    const entries = byApp.get(row.api_key) ?? [];
    entries.push({ key: row.key, value: row.value });
    byApp.set(row.api_key, entries);
  }
  for (const [apiKey, entries] of byApp) {
    const keys = matchEntries(await loadRules(db, kind, apiKey), entries);
    await db.query(storeSql(kind), [apiKey, kind, JSON.stringify(keys), entries.map((e) => e.key)]);
  }
  return rows.length;
}

/**
 * Matches every unclaimed new entry against its app's rules, a claim at a time, for at most `deadline`.
 * Answers whether none is left.
 */
export async function matchNewEntries(db: Database, now: () => number = Date.now, deadline = Infinity): Promise<boolean> {
  for (const kind of ['feature', 'page'] as const) {
    while ((await matchClaim(db, kind, now())) === MATCH_BATCH) {
      if (Date.now() >= deadline) return false;
      // Let requests in between claims (PGlite runs in this thread).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return true;
}
