/**
 * The database the analytics read tests start from (rollups, rule keys, retention's key weeks, paths' occurrences):
 * PGlite from the template, or a fresh database on the real PostgreSQL under vitest.postgres.config.ts; migrated,
 * with the events' month partitions of [from, to] made, and the stores and summarizer the tests write through. The
 * summarizer only drains when a test flushes it (its interval is an hour); each drain matches new elements and
 * addresses against the rules, as the server's does.
 */
import { createRuleStore, type RuleStore } from '../../server/analytics/createRuleStore';
import { matchNewEntries } from '../../server/analytics/matchNewEntries';
import { createEventStore, type EventStore } from '../../server/ingest/createEventStore';
import type { Database } from '../../server/storage/Database';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { openDatabase } from '../../server/storage/openDatabase';
import { ensurePartitions } from '../../server/storage/partitions/eventPartitions';
import { createSummarizer, type Summarizer } from '../../server/summaries/createSummarizer';
import { pgliteTemplate } from './pgliteTemplate';
import { freshPostgresDatabase } from './testServer';

export interface AnalyticsTestDatabase {
  db: Database;
  store: EventStore;
  rules: RuleStore;
  summarizer: Summarizer;
}

/** `from` and `to`: the span (ms) whose events the test stores; a partition is made every 20 days across it. */
export async function openAnalyticsTestDatabase(from: number, to: number): Promise<AnalyticsTestDatabase> {
  const databaseUrl = await freshPostgresDatabase();
  const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
  await migrateSchema(db);
  for (let t = from; t <= to; t += 20 * 86_400_000) await ensurePartitions(db, t);
  return {
    db,
    store: createEventStore(db),
    rules: createRuleStore(db),
    summarizer: createSummarizer(db, { intervalMs: 3_600_000, afterDrain: () => matchNewEntries(db) }),
  };
}
