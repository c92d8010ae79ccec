/**
 * Issue #19 retention: raw events received longer ago than WAYMARK_RETENTION_DAYS are deleted, in batches; newer
 * ones stay; a setting under 7 days (agents replay up to 6 days) is refused at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention, checkRetentionDays, RETENTION_BATCH } from '../../server/createRetention';
import { createServer } from '../../server/createServer';
import { createEventStore } from '../../server/createEventStore';
import { openDatabase } from '../../server/openDatabase';
import { migrateSchema } from '../../server/migrations/MIGRATIONS';
import type { Database } from '../../server/Database';
import { SERVER_TIMEOUT } from './testServer';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25);
const click = (n: number) => ({ type: 'click', visitor_id: 'v1', account_id: '', browser_time: NOW, url: 'https://app.example/', tabId: 't1', frameId: 'f1', sequence: n, props: {} });

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
  await migrateSchema(db);
}, SERVER_TIMEOUT);
afterAll(() => db.close());

describe('issue #19 retention', () => {
  it('deletes the events received before the cutoff, past one batch, and keeps the rest', async () => {
    const store = createEventStore(db);
    const old = Array.from({ length: RETENTION_BATCH + 5 }, (_, i) => click(i));
    await store.insertBatch('ret', 'analytics', old, NOW - 40 * DAY, undefined);
    await store.insertBatch('ret', 'analytics', [click(RETENTION_BATCH + 100)], NOW - 10 * DAY, undefined);
    await store.insertBatch('ret', 'analytics', [click(RETENTION_BATCH + 101)], NOW - DAY, undefined);
    expect(await applyRetention(db, 30, NOW)).toBe(RETENTION_BATCH + 5);
    const left = (await db.query<{ sequence: number }>("select sequence from events where api_key = 'ret' order by sequence")).rows;
    expect(left.map((r) => r.sequence)).toEqual([RETENTION_BATCH + 100, RETENTION_BATCH + 101]);
    expect(await applyRetention(db, 7, NOW)).toBe(1);
    expect(await applyRetention(db, 7, NOW)).toBe(0);
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
