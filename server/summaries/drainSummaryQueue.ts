/**
 * The summary queue (issue #19). The ingest statement stores a beacon's events and adds one row here naming them
 * (their ids and the time they were received, the partition key), instead of upserting the console's summaries
 * itself: concurrent beacons of one app all upserted the same hot rows (the app's totals, this hour's bucket) and
 * waited on each other's row locks. The summarizer (createSummarizer.ts) takes many queued batches at once and
 * folds them into one upsert per summary row.
 *
 * Exactly once: one statement deletes the batches it takes and applies their upserts, so both commit or neither
 * does. Several collectors drain one queue: `for update skip locked` gives each batch to one of them; a collector
 * killed mid-statement has its transaction rolled back and its batches are taken by the next drain. A queue row
 * commits with its events (same statement), so a batch whose id is lower than one already drained, committed
 * later by a slower beacon, is still in the queue: no watermark to skip it.
 */
import type { Database } from '../storage/Database';
import { summarizeEventsSql } from './summarizeEventsSql';
import { rollupsSql } from '../analytics/rollupsSql';
import { unitWeeksSql } from '../analytics/unitWeeksSql';
import { unitKeyWeeksSql } from '../analytics/unitKeyWeeksSql';
import { timelineCopySql } from '../analytics/timelineCopySql';

/** Migration 9 (server/storage/migrations/MIGRATIONS.ts): one row per stored batch not yet in the summaries. */
export const SUMMARY_QUEUE_SCHEMA = `
create table if not exists summary_queue (
  id bigserial primary key,
  received_at bigint not null,
  event_ids bigint[] not null
);`;

/** How much one drain statement takes. */
export interface DrainOptions {
  /** Most queued batches one statement takes. */
  maxBatches: number;
  /** Most events one statement summarizes; its first batch is taken whatever its size. */
  maxEvents: number;
  /**
   * Wait for batches another transaction holds (a flush before a read must see them summarized) instead of
   * leaving them to it (the periodic run). @default false
   */
  wait?: boolean;
  /** Only batches queued up to this queue id: a flush covers what was queued before it began. @default all */
  upTo?: number;
}

/** What one drain statement did. */
export interface DrainResult {
  /** Batches taken off the queue and summarized. */
  batches: number;
  /** Events they named (added to the summaries). */
  events: number;
  /** Whether the statement stopped at a limit, so that more may be queued. */
  more: boolean;
}

// `locked`: the oldest batches this statement may take (materialized: locked once); `chosen`: as many of them as
// the event budget allows (the rest are unlocked at commit); `claimed`: deleted, in the same transaction as the
// summaries' upserts below; `source`: their events, looked up one batch at a time: its received_at picks the
// partition and an index. `offset 0` keeps the lateral subquery from being flattened into a join, which the
// planner, without statistics (PGlite runs no autovacuum), sometimes made a scan of the whole events table.
// The analytics rollups (issue #35, analytics/rollupsSql.ts) are upserted by the same statement: counted once too;
// so are the units' weeks (analytics/unitWeeksSql.ts) and their elements' and addresses' weeks (unitKeyWeeksSql.ts),
// and the timelines' copy paths walk (timelineCopySql.ts).
const drainSql = (wait: boolean) => `
with locked as materialized (
  select id, cardinality(event_ids) as n from summary_queue
  where $3::bigint is null or id <= $3::bigint
  order by id
  limit $1
  for update${wait ? '' : ' skip locked'}
),
chosen as (
  select id from (select id, sum(n) over (order by id) - n as before from locked) w where before < $2
),
claimed as (
  delete from summary_queue where id in (select id from chosen)
  returning received_at, event_ids
),
source as (
  select ev.* from claimed c
  cross join lateral (select * from events where received_at = c.received_at and id = any(c.event_ids) offset 0) ev
)${summarizeEventsSql('source')}${rollupsSql('source')}${unitWeeksSql('source')}${unitKeyWeeksSql('source')}${timelineCopySql('source')}
select (select count(*) from locked) as locked, (select count(*) from claimed) as batches, (select count(*) from source) as events`;

const SKIP_LOCKED = drainSql(false);
const WAIT_FOR_LOCKED = drainSql(true);

/** Takes the oldest queued batches (within the limits) and adds their events to the summaries, in one statement. */
export async function drainSummaryQueue(db: Database, options: DrainOptions): Promise<DrainResult> {
  const result = await db.query<{ locked: unknown; batches: unknown; events: unknown }>(options.wait ? WAIT_FOR_LOCKED : SKIP_LOCKED, [
    options.maxBatches,
    options.maxEvents,
    options.upTo ?? null,
  ]);
  // pg returns counts (bigint) as strings, PGlite as numbers.
  const row = result.rows[0];
  const locked = Number(row?.locked ?? 0);
  const batches = Number(row?.batches ?? 0);
  return { batches, events: Number(row?.events ?? 0), more: locked >= options.maxBatches || batches < locked };
}

/** The newest queue id (0 when the queue is empty): what a flush that begins now must cover. */
export async function lastQueued(db: Database): Promise<number> {
  const result = await db.query<{ id: unknown }>('select coalesce(max(id), 0) as id from summary_queue');
  return Number(result.rows[0]?.id ?? 0);
}
