/**
 * Issue #19 retention: raw events received longer ago than WAYMARK_RETENTION_DAYS go, whole months dropped and
 * the rest deleted in batches, with their exactly-once keys; newer ones stay; a setting under 7 days (agents replay up to 6 days) is refused at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention, checkRetentionDays, RETENTION_BATCH } from '../../server/storage/createRetention';
import { createServer } from '../../server/createServer';
import { createEventStore } from '../../server/ingest/createEventStore';
import { createMonitorStore } from '../../server/ingest/createMonitorStore';
import { openDatabase } from '../../server/storage/openDatabase';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { ensurePartitions, listPartitions } from '../../server/storage/partitions/eventPartitions';
import type { Database } from '../../server/storage/Database';
import { freshPostgresDatabase, SERVER_TIMEOUT } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25);
const click = (n: number) => ({ type: 'click', visitor_id: 'v1', account_id: '', browser_time: NOW, url: 'https://app.example/', tabId: 't1', frameId: 'f1', sequence: n, props: {} });

let db: Database;
beforeAll(async () => {
  const databaseUrl = await freshPostgresDatabase();
  db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
  await migrateSchema(db);
}, SERVER_TIMEOUT);
afterAll(() => db.close());

describe('issue #19 retention', () => {
  it('drops the months received wholly before the cutoff, deletes older rows of the others in batches, and their keys', async () => {
    const store = createEventStore(db);
    await ensurePartitions(db, NOW - 40 * DAY);
    await ensurePartitions(db, NOW);
    // October (a month to drop whole), early November (rows to delete past one batch), and recent ones.
    await store.insertBatch('ret', 'analytics', [click(0), click(1)], NOW - 40 * DAY, undefined);
    const early = Array.from({ length: RETENTION_BATCH + 5 }, (_, i) => click(10 + i));
    await store.insertBatch('ret', 'analytics', early, NOW - 23 * DAY, undefined);
    await store.insertBatch('ret', 'analytics', [click(RETENTION_BATCH + 100)], NOW - 10 * DAY, undefined);
    await store.insertBatch('ret', 'analytics', [click(RETENTION_BATCH + 101)], NOW - DAY, undefined);
    expect(await listPartitions(db)).toContain('events_y2026m10');

    expect(await applyRetention(db, 20, NOW)).toEqual({ partitions: ['events_y2026m10'], deleted: RETENTION_BATCH + 5 });
    expect(await listPartitions(db)).not.toContain('events_y2026m10');
    const left = (await db.query<{ sequence: number }>("select sequence from events where api_key = 'ret' order by sequence")).rows;
    expect(left.map((r) => r.sequence)).toEqual([RETENTION_BATCH + 100, RETENTION_BATCH + 101]);
    const keys = await db.query<{ n: unknown }>("select count(*) as n from event_keys where api_key = 'ret'");
    expect(Number(keys.rows[0]!.n)).toBe(2);
    expect(await applyRetention(db, 7, NOW)).toEqual({ partitions: [], deleted: 1 });
    expect(await applyRetention(db, 7, NOW)).toEqual({ partitions: [], deleted: 0 });
  }, SERVER_TIMEOUT);

  it("the agents' health reports received before the cutoff go too", async () => {
    const reports = createMonitorStore(db);
    const report = (at: number) => ({ version: '0.1.0', visitorId: 'v1', sessionId: 's1', from: at, to: at, counts: { eventsSent: 1, beaconsFailed: 0, eventsDropped: 0, guideLoads: 0, guideLoadFailures: 0, errors: 0, warnings: 0 } });
    await reports.insert('ret-health', report(NOW - 30 * DAY), NOW - 30 * DAY);
    await reports.insert('ret-health', report(NOW - DAY), NOW - DAY);
    await applyRetention(db, 20, NOW);
    const left = await db.query<{ received_at: unknown }>("select received_at from health_reports where api_key = 'ret-health'");
    expect(left.rows.map((r) => Number(r.received_at))).toEqual([NOW - DAY]);
  }, SERVER_TIMEOUT);

  it('deletes old rows that landed in the default partition (no month was made for them)', async () => {
    const store = createEventStore(db);
    const longAgo = Date.UTC(2024, 0, 15);
    await store.insertBatch('ret-default', 'analytics', [click(1)], longAgo, undefined);
    const where = await db.query<{ table: string }>("select tableoid::regclass::text as table from events where api_key = 'ret-default'");
    expect(where.rows[0]!.table).toBe('events_default');
    expect((await applyRetention(db, 7, NOW)).deleted).toBe(1);
  }, SERVER_TIMEOUT);

  it('refuses fewer than 7 days or a fraction, naming why; none set keeps everything', async () => {
    expect(checkRetentionDays(undefined)).toBeNull();
    expect(checkRetentionDays(7)).toBeNull();
    expect(checkRetentionDays(6)).toMatch(/at least 7 \(agents replay unsent events for up to 6 days\); got 6/);
    expect(checkRetentionDays(7.5)).toMatch(/whole number/);
    expect(checkRetentionDays(Number.NaN)).toMatch(/got NaN/);
    await expect(createServer({ dataDir: 'memory://', adminToken: 'x'.repeat(32), retentionDays: 3 })).rejects.toThrow(/WAYMARK_RETENTION_DAYS must be/);
  }, SERVER_TIMEOUT);
});
