/**
 * Issue #19: events partitioned by month (server/storage/partitions), exactly-once in event_keys. Migration 7 on a
 * database that already holds events keeps every row, id and key; a replay received in a later month, or a key
 * twice in one batch, is stored once; partitions are made ahead and again without harm. On PGlite, and again on a
 * real PostgreSQL in the PostgreSQL run.
 */
import { describe, expect, it } from 'vitest';
import { createEventStore } from '../../server/ingest/createEventStore';
import { openDatabase } from '../../server/storage/openDatabase';
import type { Database } from '../../server/storage/Database';
import { MIGRATIONS, migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { runMigrations } from '../../server/storage/migrations/runMigrations';
import { ensurePartitions, listPartitions, monthOf, monthOfPartition, partitionName } from '../../server/storage/partitions/eventPartitions';
import { freshPostgresDatabase, SERVER_TIMEOUT } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

const DAY = 86_400_000;
const click = (tabId: string, sequence: number) => ({ type: 'click', visitor_id: 'v1', account_id: '', browser_time: 1, url: 'https://app.example/', tabId, frameId: 'f1', sequence, props: {} });
const count = async (db: Database, sql: string) => Number((await db.query<{ n: unknown }>(sql)).rows[0]!.n);

/** A new database: PGlite, or a fresh one of the run's PostgreSQL (vitest.postgres.config.ts). */
async function withDb(fn: (db: Database) => Promise<void>): Promise<void> {
  const databaseUrl = await freshPostgresDatabase();
  const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
  try {
    await fn(db);
  } finally {
    await db.close();
  }
}

describe('issue #19 events partitioned by month', () => {
  it('names months in UTC and reads them back', () => {
    const nov = Date.UTC(2026, 10, 25, 23, 59);
    expect(monthOf(nov)).toEqual({ start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 11, 1) });
    expect(monthOf(Date.UTC(2026, 11, 31)).end).toBe(Date.UTC(2027, 0, 1));
    expect(partitionName(Date.UTC(2026, 10, 1))).toBe('events_y2026m11');
    expect(monthOfPartition('events_y2026m11')).toEqual(monthOf(nov));
    expect(monthOfPartition('events_default')).toBeNull();
  });

  it('migration 7 keeps every row, id and key of a database that holds events, and the ids go on from there', async () => {
    await withDb(async (db) => {
      await runMigrations(db, MIGRATIONS.slice(0, 6));
      // Rows as the table before partitioning stored them: two months, one event without identity.
      const insert = `insert into events (api_key, kind, type, received_at, tab_id, frame_id, sequence, body) values ($1, 'analytics', 'click', $2, $3, 'f1', $4, '{}'::jsonb)`;
      await db.query(insert, ['old', Date.UTC(2026, 8, 10), 't1', 1]);
      await db.query(insert, ['old', Date.UTC(2026, 9, 10), 't1', 2]);
      await db.query(insert, ['old', Date.UTC(2026, 9, 11), null, null]);
      const before = (await db.query<{ id: unknown }>('select id from events order by id')).rows.map((r) => Number(r.id));
      expect(await migrateSchema(db)).toEqual(MIGRATIONS.slice(6).map((m) => m.version));
      expect(await count(db, "select count(*) as n from pg_partitioned_table p join pg_class c on c.oid = p.partrelid where c.relname = 'events'")).toBe(1);
      expect(await listPartitions(db)).toEqual(expect.arrayContaining(['events_default', 'events_y2026m09', 'events_y2026m10']));
      expect((await db.query<{ id: unknown }>('select id from events order by id')).rows.map((r) => Number(r.id))).toEqual(before);
      expect(await count(db, "select count(*) as n from event_keys where api_key = 'old'")).toBe(2);
      const store = createEventStore(db);
      // A replay of an event stored before the migration is still refused; a new one gets the next id.
      expect(await store.insertBatch('old', 'analytics', [click('t1', 2)], Date.now(), undefined)).toBe(0);
      expect(await store.insertBatch('old', 'analytics', [click('t1', 3)], Date.now(), undefined)).toBe(1);
      const last = await count(db, "select max(id) as n from events where api_key = 'old'");
      expect(last).toBeGreaterThan(Math.max(...before));
    });
  }, SERVER_TIMEOUT);

  it('stores an event once: replayed in a later month, or twice in one batch; events without identity always', async () => {
    await withDb(async (db) => {
      await migrateSchema(db);
      const store = createEventStore(db);
      const october = Date.UTC(2026, 9, 30);
      await ensurePartitions(db, october);
      expect(await store.insertBatch('once', 'analytics', [click('t1', 1), click('t1', 2)], october, undefined)).toBe(2);
      expect(await store.insertBatch('once', 'analytics', [click('t1', 2), click('t1', 3)], october + 10 * DAY, undefined)).toBe(1);
      expect(await store.insertBatch('once', 'analytics', [click('t2', 1), click('t2', 1)], october + 11 * DAY, undefined)).toBe(1);
      // The same key in the other kind, or another app, is another event.
      expect(await store.insertBatch('once', 'guide', [click('t1', 1)], october, undefined)).toBe(1);
      expect(await store.insertBatch('other', 'analytics', [click('t1', 1)], october, undefined)).toBe(1);
      const noIdentity = { ...click('t3', 1), tabId: undefined };
      expect(await store.insertBatch('once', 'analytics', [noIdentity, noIdentity], october, undefined)).toBe(2);
      const rows = (await db.query<{ table: string; sequence: number }>("select tableoid::regclass::text as table, sequence from events where api_key = 'once' and kind = 'analytics' order by id")).rows;
      expect(rows.map((r) => `${r.table}:${r.sequence}`)).toEqual(['events_y2026m10:1', 'events_y2026m10:2', 'events_y2026m11:3', 'events_y2026m11:1', 'events_y2026m10:1', 'events_y2026m10:1']);
    });
  }, SERVER_TIMEOUT);

  it('makes this month and the next, again and at once without harm', async () => {
    await withDb(async (db) => {
      await migrateSchema(db);
      const may = Date.UTC(2027, 4, 20);
      await Promise.all([ensurePartitions(db, may), ensurePartitions(db, may)]);
      await ensurePartitions(db, may);
      expect(await listPartitions(db)).toEqual(expect.arrayContaining(['events_y2027m05', 'events_y2027m06']));
    });
  }, SERVER_TIMEOUT);
});
