/**
 * Issue #19, summaries off the beacon's path (server/summaries/drainSummaryQueue.ts, createSummarizer.ts): the
 * ingest statement queues a batch instead of summarizing it; the summarizer adds it once, by itself about every
 * second, on a flush, and at stop. On PGlite, and again on a real PostgreSQL in the PostgreSQL run;
 * test/server/postgres/summaryQueue.test.ts adds what needs two connections.
 */
import { describe, expect, it } from 'vitest';
import { createEventStore } from '../../server/ingest/createEventStore';
import type { Database } from '../../server/storage/Database';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { openDatabase } from '../../server/storage/openDatabase';
import { ensurePartitions } from '../../server/storage/partitions/eventPartitions';
import { createSummarizer } from '../../server/summaries/createSummarizer';
import { drainSummaryQueue } from '../../server/summaries/drainSummaryQueue';
import { freshPostgresDatabase, SERVER_TIMEOUT } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 10);
const click = (tabId: string, sequence: number, visitor: string, time = T0) => ({
  type: 'click', visitor_id: visitor, account_id: 'acme', browser_time: time, url: 'https://app.example/x', tabId, frameId: 'f1', sequence,
  props: { target: { tag: 'BUTTON', id: 'save' } },
});
const count = async (db: Database, sql: string) => Number((await db.query<{ n: unknown }>(sql)).rows[0]?.n ?? 0);
const apps = (db: Database, apiKey: string) => count(db, `select coalesce(sum(events), 0) as n from console_apps where api_key = '${apiKey}'`);
const hourEvents = (db: Database, apiKey: string) =>
  count(db, `select coalesce(sum(events), 0) as n from console_buckets where api_key = '${apiKey}' and grain = 'hour'`);
const queued = (db: Database) => count(db, 'select count(*) as n from summary_queue');

/** A new migrated database: PGlite, or a fresh one of the run's PostgreSQL (vitest.postgres.config.ts). */
async function withDb(fn: (db: Database) => Promise<void>): Promise<void> {
  const databaseUrl = await freshPostgresDatabase();
  const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
  try {
    await migrateSchema(db);
    await ensurePartitions(db);
    await fn(db);
  } finally {
    await db.close();
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('issue #19 summaries off the beacon path', () => {
  it('a stored batch is queued, not summarized; one drain adds it once; a replay queues nothing', async () => {
    await withDb(async (db) => {
      const store = createEventStore(db);
      const batch = [click('t1', 1, 'v1'), click('t1', 2, 'v2'), click('t1', 3, 'v1', T0 + HOUR)];
      expect(await store.insertBatch('q', 'analytics', batch, Date.now())).toBe(3);
      expect(await queued(db)).toBe(1);
      expect(await apps(db, 'q')).toBe(0);

      expect(await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 1000 })).toEqual({ batches: 1, events: 3, more: false });
      expect(await queued(db)).toBe(0);
      expect(await apps(db, 'q')).toBe(3);
      expect(await hourEvents(db, 'q')).toBe(3);
      expect(await count(db, "select visitors as n from console_buckets where api_key = 'q' and grain = 'day'")).toBe(2);

      expect(await store.insertBatch('q', 'analytics', batch, Date.now())).toBe(0);
      expect(await queued(db)).toBe(0);
      expect(await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 1000 })).toEqual({ batches: 0, events: 0, more: false });
      expect(await apps(db, 'q')).toBe(3);
    });
  }, SERVER_TIMEOUT);

  it('folds many batches into one statement within its limits, oldest first, and says when more are queued', async () => {
    await withDb(async (db) => {
      const store = createEventStore(db);
      for (let b = 0; b < 10; b++) await store.insertBatch('fold', 'analytics', [click(`t${b}`, 1, `v${b % 3}`), click(`t${b}`, 2, 'v0')], Date.now());
      // Events budget 5: batches of 2 are taken while fewer than 5 events come before them (3 batches).
      expect(await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 5 })).toEqual({ batches: 3, events: 6, more: true });
      expect(await drainSummaryQueue(db, { maxBatches: 4, maxEvents: 1000 })).toEqual({ batches: 4, events: 8, more: true });
      expect(await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 1000 })).toEqual({ batches: 3, events: 6, more: false });
      expect(await apps(db, 'fold')).toBe(20);
      expect(await count(db, "select visitors as n from console_buckets where api_key = 'fold' and grain = 'hour'")).toBe(3);
      expect(await count(db, "select count(*) as n from console_visitors where api_key = 'fold'")).toBe(3);
      // A batch larger than the budget is still taken whole (alone).
      await store.insertBatch('fold', 'analytics', Array.from({ length: 7 }, (_, i) => click('big', i, 'v9')), Date.now());
      expect(await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 5 })).toEqual({ batches: 1, events: 7, more: false });
    });
  }, SERVER_TIMEOUT);

  it('the summarizer runs by itself about every interval, and early after a burst', async () => {
    await withDb(async (db) => {
      const periodic = createSummarizer(db, { intervalMs: 50 });
      const store = createEventStore(db, { onQueued: (n) => periodic.queued(n) });
      try {
        await store.insertBatch('tick', 'analytics', [click('t1', 1, 'v1'), click('t1', 2, 'v1')], Date.now());
        await until(async () => (await apps(db, 'tick')) === 2, 5_000);
        expect(await queued(db)).toBe(0);
      } finally {
        await periodic.stop();
      }

      // A burst: 4 events queued reach burstEvents 4, so a run starts now, not in an hour.
      const bursty = createSummarizer(db, { intervalMs: 3_600_000, burstEvents: 4 });
      const burstStore = createEventStore(db, { onQueued: (n) => bursty.queued(n) });
      try {
        await burstStore.insertBatch('burst', 'analytics', [click('b1', 1, 'v1'), click('b1', 2, 'v1')], Date.now());
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await apps(db, 'burst')).toBe(0);
        await burstStore.insertBatch('burst', 'analytics', [click('b2', 1, 'v1'), click('b2', 2, 'v1')], Date.now());
        await until(async () => (await apps(db, 'burst')) === 4, 5_000);
      } finally {
        await bursty.stop();
      }
    });
  }, SERVER_TIMEOUT);

  it('flush resolves once everything queued before it is summarized; callers meanwhile share a run; stop drains the rest', async () => {
    await withDb(async (db) => {
      const summarizer = createSummarizer(db, { intervalMs: 3_600_000, maxBatches: 2 });
      const store = createEventStore(db, { onQueued: (n) => summarizer.queued(n) });
      try {
        for (let b = 0; b < 5; b++) await store.insertBatch('flush', 'analytics', [click(`t${b}`, 1, 'v1')], Date.now());
        const [first, second] = [summarizer.flush(), summarizer.flush()];
        expect(first).toBe(second);
        await first;
        expect(await apps(db, 'flush')).toBe(5);
        expect(await queued(db)).toBe(0);

        for (let b = 5; b < 8; b++) await store.insertBatch('flush', 'analytics', [click(`t${b}`, 1, 'v1')], Date.now());
      } finally {
        expect(await summarizer.stop(5_000)).toBe(true);
      }
      expect(await apps(db, 'flush')).toBe(8);
      expect(await queued(db)).toBe(0);
    });
  }, SERVER_TIMEOUT);

  it('a run that fails leaves its batches queued, warns once, and the next run takes them', async () => {
    await withDb(async (db) => {
      const warnings: string[] = [];
      const store = createEventStore(db);
      await store.insertBatch('fail', 'analytics', [click('t1', 1, 'v1')], Date.now());
      // The summaries' first upsert refuses, as a database in trouble would.
      await db.exec("alter table console_apps add constraint refuse check (api_key <> 'fail')");
      const summarizer = createSummarizer(db, { intervalMs: 30, warn: (m) => warnings.push(m) });
      try {
        await until(async () => warnings.length > 0, 5_000);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(warnings).toEqual([expect.stringMatching(/^summaries: a run failed, retrying every 30 ms: .*refuse/)]);
        expect(await queued(db)).toBe(1);
        expect(await apps(db, 'fail')).toBe(0);
        await db.exec('alter table console_apps drop constraint refuse');
        await until(async () => (await apps(db, 'fail')) === 1, 5_000);
        expect(warnings[1]).toBe('summaries: caught up');
        expect(await queued(db)).toBe(0);
      } finally {
        await summarizer.stop();
      }
    });
  }, SERVER_TIMEOUT);
});

describe('issue #19 summaries: a page address outside ASCII (issue #31 fuzzing)', () => {
  it('is kept cut to at most 1000 bytes, so its upsert fits the index and the drains after it go on', async () => {
    await withDb(async (db) => {
      const store = createEventStore(db);
      // 1000 characters of three bytes each: the page key (api key, grain, t, url) was 3000 bytes, over the
      // 2704 a btree index row holds; the drain failed, and every drain after it, for every app.
      const wide = { ...click('t1', 1, 'v1'), url: `https://app.example/${'界'.repeat(1000)}` };
      await store.insertBatch('wide', 'analytics', [wide], Date.now());
      await store.insertBatch('after', 'analytics', [click('t2', 1, 'v2')], Date.now());
      expect(await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 1000 })).toEqual({ batches: 2, events: 2, more: false });
      expect(await apps(db, 'after')).toBe(1);
      const pages = (await db.query<{ url: string; bytes: unknown }>("select url, octet_length(url) as bytes from console_pages where api_key = 'wide'")).rows;
      // Its first 250 characters (an hour's row and a day's): at most 1000 bytes in any script.
      expect(pages.map((p) => p.url)).toEqual([wide.url.slice(0, 250), wide.url.slice(0, 250)]);
      expect(pages.every((p) => Number(p.bytes) <= 1000)).toBe(true);
      // An ASCII address is cut as before: its first 1000 characters.
      const long = { ...click('t3', 1, 'v3'), url: `https://app.example/${'a'.repeat(2000)}` };
      await store.insertBatch('long', 'analytics', [long], Date.now());
      await drainSummaryQueue(db, { maxBatches: 100, maxEvents: 1000 });
      const ascii = (await db.query<{ url: string }>("select url from console_pages where api_key = 'long' limit 1")).rows[0]!.url;
      expect(ascii).toBe(long.url.slice(0, 1000));
    });
  }, SERVER_TIMEOUT);
});
