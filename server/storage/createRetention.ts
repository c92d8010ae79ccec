/**
 * Retention of raw events (issue #19): with `retentionDays` set (env WAYMARK_RETENTION_DAYS), events received
 * longer ago than that are deleted, at start and then every hour, in bounded batches so a large backlog never
 * holds the database for long. The console's summaries (counts per day, funnels, polls) keep what they counted.
 *
 * Months received wholly before the cutoff are dropped (server/storage/partitions: events are partitioned by month);
 * the rest of the older rows, in the month the cutoff falls in and in the default partition, are deleted in
 * batches; so are the exactly-once keys (event_keys) of events received before the cutoff, and the agents' health
 * reports (health_reports) received before it, the analytics rollups (issue #35) of days ended before it, and the
 * units' weeks and key weeks (retention's reading, issue #35) of UTC weeks ended before it, and the timelines' copy
 * (paths' reading) of the events it deletes. Session recordings
 * (issue #18) go whole once their last chunk was received before the cutoff.
 *
 * At least 7 days: an agent keeps unsent events up to 6 days (its IndexedDB chunk store) and a replay must still
 * find its first copy's key to be stored once.
 */
import type { Database } from './Database';
import { dropPartitionsBefore } from './partitions/eventPartitions';
import { createRecordingStore } from '../recordings/createRecordingStore';
import { WEEK_MS } from '../../shared/analytics/utcWeek';

export const MIN_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows per delete statement. */
export const RETENTION_BATCH = 10_000;

const DELETE_BATCH = `
delete from events where (id, received_at) in (select id, received_at from events where received_at < $1 order by received_at limit ${RETENTION_BATCH})
returning id`;
const DELETE_KEYS_BATCH = `
delete from event_keys where ctid in (select ctid from event_keys where received_at < $1 limit ${RETENTION_BATCH})
returning 1`;
// The analytics rollups (issue #35) of UTC days that ended before the cutoff: their events are gone (by received
// time; an agent's clock may put a few at other days, which a day's rows keep until their day is past the cutoff).
const deleteRollupsBatch = (table: string, period = 'day', periodMs = DAY_MS) => `
delete from ${table} where ctid in (select ctid from ${table} where ${period} + ${periodMs} <= $1 limit ${RETENTION_BATCH})
returning 1`;
// The timelines' copy paths walk (issue #35): each row goes with its event.
const DELETE_TIMELINE_BATCH = `
delete from analytics_timeline where ctid in (select ctid from analytics_timeline where received_at < $1 limit ${RETENTION_BATCH})
returning 1`;
const DELETE_HEALTH_BATCH = `
delete from health_reports where ctid in (select ctid from health_reports where received_at < $1 limit ${RETENTION_BATCH})
returning 1`;

/** What is wrong with a retention setting, or null (undefined: keep everything). */
export function checkRetentionDays(days: number | undefined): string | null {
  if (days === undefined) return null;
  if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS) {
    return `WAYMARK_RETENTION_DAYS must be a whole number of days, at least ${MIN_RETENTION_DAYS} (agents replay unsent events for up to 6 days); got ${days}`;
  }
  return null;
}

/** What one retention run took away. */
export interface RetentionResult {
  /** Whole months dropped. */
  partitions: string[];
  /** Rows deleted one by one (months the cutoff falls in). */
  deleted: number;
}

/** Drops and deletes events received before `now - days`, and their keys. */
export async function applyRetention(db: Database, days: number, now: number = Date.now()): Promise<RetentionResult> {
  const cutoff = now - days * DAY_MS;
  const partitions = await dropPartitionsBefore(db, cutoff);
  const deleted = await deleteInBatches(db, DELETE_BATCH, cutoff);
  await deleteInBatches(db, DELETE_KEYS_BATCH, cutoff);
  await deleteInBatches(db, DELETE_TIMELINE_BATCH, cutoff);
  await deleteInBatches(db, DELETE_HEALTH_BATCH, cutoff);
  await deleteInBatches(db, deleteRollupsBatch('analytics_click_days'), cutoff);
  await deleteInBatches(db, deleteRollupsBatch('analytics_load_days'), cutoff);
  // A week's row keeps its first and last times until the whole week is past the cutoff, as a day's counts do.
  await deleteInBatches(db, deleteRollupsBatch('analytics_unit_weeks', 'week', WEEK_MS), cutoff);
  await deleteInBatches(db, deleteRollupsBatch('analytics_unit_key_weeks', 'week', WEEK_MS), cutoff);
  // Session recordings (issue #18) whose last chunk arrived before the cutoff, with their chunks.
  await createRecordingStore(db).deleteReceivedBefore(cutoff);
  return { partitions, deleted };
}

async function deleteInBatches(db: Database, sql: string, cutoff: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = (await db.query(sql, [cutoff])).rows.length;
    deleted += count;
    if (count < RETENTION_BATCH) return deleted;
  }
}

/** Runs retention now and every hour until the returned stop; failures are reported, never thrown. */
export function startRetention(db: Database, days: number, report: (message: string) => void): () => void {
  const run = () =>
    applyRetention(db, days).then(
      ({ partitions, deleted }) => {
        if (partitions.length) report(`retention: dropped ${partitions.join(', ')} (events received more than ${days} days ago)`);
        if (deleted) report(`retention: deleted ${deleted} events received more than ${days} days ago`);
      },
      (err: unknown) => report(`retention failed: ${(err as Error).message}`),
    );
  void run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
