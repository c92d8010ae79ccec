/**
 * Retention of raw events (issue #19): with `retentionDays` set (env WAYMARK_RETENTION_DAYS), events received
 * longer ago than that are deleted, at start and then every hour, in bounded batches so a large backlog never
 * holds the database for long. The console's summaries (counts per day, funnels, polls) keep what they counted.
 *
 * At least 7 days: an agent keeps unsent events up to 6 days (its IndexedDB chunk store) and a replay must still
 * find its first copy to be stored once. Rows are deleted, not partitions dropped: time partitions are not built.
 */
import type { Database } from './Database';

export const MIN_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows per delete statement. */
export const RETENTION_BATCH = 10_000;

const DELETE_BATCH = `
delete from events where id in (select id from events where received_at < $1 order by received_at limit ${RETENTION_BATCH})
returning id`;

/** What is wrong with a retention setting, or null (undefined: keep everything). */
export function checkRetentionDays(days: number | undefined): string | null {
  if (days === undefined) return null;
  if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS) {
    return `WAYMARK_RETENTION_DAYS must be a whole number of days, at least ${MIN_RETENTION_DAYS} (agents replay unsent events for up to 6 days); got ${days}`;
  }
  return null;
}

/** Deletes events received before `now - days`; answers how many went. */
export async function applyRetention(db: Database, days: number, now: number = Date.now()): Promise<number> {
  const cutoff = now - days * DAY_MS;
  let deleted = 0;
  for (;;) {
    const count = (await db.query(DELETE_BATCH, [cutoff])).rows.length;
    deleted += count;
    if (count < RETENTION_BATCH) return deleted;
  }
}

/** Runs retention now and every hour until the returned stop; failures are reported, never thrown. */
export function startRetention(db: Database, days: number, report: (message: string) => void): () => void {
  const run = () =>
    applyRetention(db, days).then(
      (deleted) => deleted && report(`retention: deleted ${deleted} events received more than ${days} days ago`),
      (err: unknown) => report(`retention failed: ${(err as Error).message}`),
    );
  void run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
