/**
 * The seeded PostgreSQL database of `npm run bench:analytics` kept across runs (issue #35 "Fast at real volumes"):
 * seeding 10,000,000 events takes most of an hour, the reads a few minutes, and every change to a read is measured
 * again on the same data. With BENCH_ANALYTICS_KEEP=1 the server's folder is `{tmp}/waymark-analytics-bench-pg-...`,
 * named after the seed's parameters (events, visitors, the seed's format version), so that a run with other
 * parameters or a changed seed makes a folder of its own; BENCH_ANALYTICS_KEEP=/a/folder puts it there instead.
 * A folder counts as seeded once its marker (written after the seed's drain and analyze) says so with the same
 * parameters; one without (a run stopped mid-seed) is emptied and seeded again.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEED_VERSION, SEED_VISITORS } from './seedAnalyticsEvents';

/** What a kept folder was seeded with, and how long the seed took. */
export interface SeedRecord {
  events: number;
  visitors: number;
  seedVersion: number;
  /** The end of the seed's 90 days (ms). */
  end: number;
  seededAt: string;
  writeSeconds: number;
  drainSeconds: number;
}

const MARKER = 'bench-analytics-seed.json';

/** The folder to keep `events` seeded events in, or undefined when BENCH_ANALYTICS_KEEP is unset (or 0). */
export function keptFolder(events: number, keep = process.env.BENCH_ANALYTICS_KEEP): string | undefined {
  if (!keep || keep === '0') return undefined;
  const parent = keep === '1' ? tmpdir() : keep;
  return join(parent, `waymark-analytics-bench-pg-${events}e-${SEED_VISITORS}v-seed${SEED_VERSION}`);
}

/** The seed recorded in `dir` if it matches these parameters; otherwise empties `dir` for a new seed. */
export function seededIn(dir: string, events: number, end: number): SeedRecord | undefined {
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    const record = JSON.parse(readFileSync(marker, 'utf8')) as SeedRecord;
    if (record.events === events && record.visitors === SEED_VISITORS && record.seedVersion === SEED_VERSION && record.end === end) return record;
  }
  if (existsSync(dir)) {
    console.log(`  ${dir} holds no complete seed of these parameters: removing it`);
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
}

/** Records a finished seed in `dir`. */
export function markSeeded(dir: string, record: Omit<SeedRecord, 'visitors' | 'seedVersion' | 'seededAt'>): void {
  const full: SeedRecord = { ...record, visitors: SEED_VISITORS, seedVersion: SEED_VERSION, seededAt: new Date().toISOString() };
  writeFileSync(join(dir, MARKER), JSON.stringify(full, null, 2));
}
