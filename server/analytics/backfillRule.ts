/**
 * The background backfill of a new or changed rule (issue #35 "Fast at real volumes"): its app's whole dictionary
 * (every element for a feature, every address for a page) matched against the rule in Node, in batches of
 * entries in key order, so a big dictionary never holds the event loop. The rollups already count every event by
 * element and address: once the rule keys are stored, the rule's counts over all stored events are ready.
 *
 * The job's state lives on the rule's row (ROLLUPS_SCHEMA.ts), shared by every collector of the database:
 * - a collector claims a rule not yet backfilled whose lease has lapsed, or is its own (a read's bounded run
 *   stopped mid-way) (`for update skip locked`), taking the
 *   lease for itself (`backfill_owner`, `backfill_lease`) and counting the entries to do (`backfill_total`);
 * - each batch stores its rule keys and moves the cursor, the count done and the lease in one statement, only
 *   while the rule's generation and the owner are still those it claimed; otherwise it stores nothing and stops;
 * - the last batch sets `backfilled_at` and deletes the keys of older generations.
 * A collector killed mid-way leaves the cursor where its last batch put it: the next claim, after the lease, goes
 * on from there. A rule changed mid-way has a new generation (createRuleStore resets the job), so the old job's
 * next batch finds its generation gone and stops; the new one starts from the first entry.
 * An entry added during the backfill behind the cursor is matched by matchNewEntries, after its drain.
 */
import type { Database } from '../storage/Database';
import { compileRule, DICTIONARY, insertRuleKeysCte, matchEntries, RULE_TABLE, type RuleKind } from './matchRuleKeys';

/** How long a claimed backfill is its collector's without a batch done. */
export const BACKFILL_LEASE_MS = 30_000;

/** A claimed backfill. */
export interface BackfillJob {
  kind: RuleKind;
  apiKey: string;
  id: string;
  generation: number;
  rule: string;
  owner: string;
  /** The last entry key done; '' before the first. */
  cursor: string;
}

const claimSql = (kind: RuleKind) => {
  const { table, rule } = RULE_TABLE[kind];
  // An app's rules in the order they were saved (a rule saved first is ready first); `$3`, when given, the one rule.
  return `
update ${table} r set backfill_owner = $1, backfill_lease = $2::bigint + ${BACKFILL_LEASE_MS},
  backfill_total = coalesce(r.backfill_total, (select count(*) from ${DICTIONARY[kind].table} d where d.api_key = r.api_key))
where (r.api_key, r.id) in (
  select api_key, id from ${table}
  where backfilled_at is null and (backfill_lease is null or backfill_lease < $2 or backfill_owner = $1)
    and ($3::text is null or (api_key = $3 and id = $4))
  order by updated_at, id limit 1
  for update skip locked
)
returning r.api_key, r.id, r.${rule} as rule, r.backfill_generation as generation, coalesce(r.backfill_cursor, '') as cursor`;
};

const stepSql = (kind: RuleKind) => {
  const { table } = RULE_TABLE[kind];
  // $1 api key, $2 kind, $3 rule keys, $4 id, $5 generation, $6 owner, $7 new cursor, $8 entries done,
  // $9 now, $10 whether this is the last batch.
  return `
with job as (
  update ${table} set backfill_cursor = $7, backfill_done = backfill_done + $8, backfill_lease = $9::bigint + ${BACKFILL_LEASE_MS},
    backfilled_at = case when $10::boolean then $9::bigint end
  where api_key = $1 and id = $4 and backfill_generation = $5 and backfill_owner = $6
  returning 1
),
${insertRuleKeysCte(2, 3, 'exists (select 1 from job)')},
stale as (
  delete from analytics_rule_keys
  where $10::boolean and api_key = $1 and rule_kind = $2 and rule_id = $4 and generation < $5 and exists (select 1 from job)
)
select count(*) as kept from job`;
};

/** Claims the backfill of one rule (of `only` when given) for `owner`, or answers undefined when none is due. */
export async function claimBackfill(
  db: Database,
  kind: RuleKind,
  owner: string,
  now: number,
  only?: { apiKey: string; id: string },
): Promise<BackfillJob | undefined> {
  const { rows } = await db.query<{ api_key: string; id: string; rule: string; generation: number; cursor: string }>(
    claimSql(kind),
    [owner, now, only?.apiKey ?? null, only?.id ?? null],
  );
  const row = rows[0];
  return row && { kind, apiKey: row.api_key, id: row.id, generation: Number(row.generation), rule: row.rule, owner, cursor: row.cursor };
}

/**
 * Matches the next `batch` entries after the job's cursor and stores their keys. Answers 'more', 'done', or
 * 'lost' (the rule changed or was deleted, or another collector took the job over after a lapsed lease).
 */
export async function backfillStep(db: Database, job: BackfillJob, now: number, batch: number): Promise<'more' | 'done' | 'lost'> {
  const { table, column } = DICTIONARY[job.kind];
  const { rows } = await db.query<{ key: string; value: string }>(
    `select key, ${column}::text as value from ${table} where api_key = $1 and key > $2 order by key limit $3`,
    [job.apiKey, job.cursor, batch],
  );
  const last = rows.length < batch;
  const keys = matchEntries([compileRule(job.kind, job.id, job.generation, job.rule)], rows);
  const cursor = rows.length ? rows[rows.length - 1].key : job.cursor;
  const result = await db.query<{ kept: unknown }>(stepSql(job.kind), [
    job.apiKey, job.kind, JSON.stringify(keys), job.id, job.generation, job.owner, cursor, rows.length, now, last,
  ]);
  if (Number(result.rows[0]?.kept ?? 0) === 0) return 'lost';
  job.cursor = cursor;
  return last ? 'done' : 'more';
}
