/**
 * The events table is partitioned by the month an event was received (issue #19; declarative range partitioning
 * on `received_at`, UTC months): retention drops a month whole instead of deleting its rows, and the console's
 * queries of recent events read recent partitions. A partition is named `events_yYYYYmMM`; a default partition
 * (`events_default`) catches a row no month was made for, so an insert never fails for want of one. Collectors
 * make the current and the next month's at start and every hour (`ensurePartitions`). Same SQL on PGlite and
 * PostgreSQL.
 */
import type { Database } from '../Database';

const PARTITION = /^events_y(\d{4})m(\d{2})$/;

/** The UTC month holding `ms`: its first instant and the next month's. */
export function monthOf(ms: number): { start: number; end: number } {
  const d = new Date(ms);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

/** The partition's name for the month starting at `start`. */
export function partitionName(start: number): string {
  const d = new Date(start);
  return `events_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month a partition's name says, or null for another table (the default partition). */
export function monthOfPartition(name: string): { start: number; end: number } | null {
  const m = PARTITION.exec(name);
  return m ? monthOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) : null;
}

/** The statement that makes the partition of the month holding `ms` (nothing when it is there). */
export function createPartitionSql(ms: number, parent = 'events'): string {
  const { start, end } = monthOf(ms);
  return `create table if not exists ${partitionName(start)} partition of ${parent} for values from (${start}) to (${end})`;
}

/** The partitions of events, by name. */
export async function listPartitions(db: Database): Promise<string[]> {
  const result = await db.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
     where p.relname = 'events' order by c.relname`,
  );
  return result.rows.map((r) => r.name);
}

/**
 * Makes the partitions of this month and the next, when missing. Another collector making the same one at the
 * same moment is no failure: what matters is that it is there.
 */
export async function ensurePartitions(db: Database, now: number = Date.now()): Promise<void> {
  for (const ms of [now, monthOf(now).end]) {
    try {
      await db.exec(createPartitionSql(ms));
    } catch (err) {
      if (!(await listPartitions(db)).includes(partitionName(monthOf(ms).start))) throw err;
    }
  }
}

/** Drops the months wholly received before `cutoff`; answers their names. */
export async function dropPartitionsBefore(db: Database, cutoff: number): Promise<string[]> {
  const dropped: string[] = [];
  for (const name of await listPartitions(db)) {
    const month = monthOfPartition(name);
    if (!month || month.end > cutoff) continue;
    await db.exec(`drop table if exists ${name}`);
    dropped.push(name);
  }
  return dropped;
}
