/**
 * `npm run bench:ingest` (issue #19): how many events a collector process stores per second, and its beacon
 * latency, replaying real jzb beacons (50 click events each, the agent's wire shape) over loopback. Three set-ups
 * in one run: one collector on PGlite, one on PostgreSQL, two on one PostgreSQL (beacons alternate). Each is
 * driven at full load (C connections sending back to back) and then paced at half the rate it reached, where the
 * latency goal is read. Bounded: a fixed number of beacons per phase and a time cap; every process it starts is
 * killed at the end. Results: a table on stdout and bench/results/ingest-latest.json.
 *
 * The console's summaries are made after the beacon's 2xx (issue #19), so the bench also says how far behind they
 * were: on PostgreSQL, how long after the full-load burst the summary queue was empty by itself (the summarizers'
 * periodic runs); on PGlite (no second connection to its folder), how long a console read right after the burst
 * took (it flushes what is queued). And it checks them: once a set-up's phases are done, the console's event
 * count of the bench app must be exactly the events answered 2xx. INGEST_SETUPS=pglite,pg1,pg2 picks set-ups.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startCollectorProcess } from '../test/server/startCollectorProcess';
import { startPostgres } from '../test/server/startPostgres';
import { nodeJzb, wireEvent } from '../test/server/testServer';

const EVENTS_PER_BEACON = 50;
const CONNECTIONS = Number(process.env.INGEST_CONNECTIONS ?? 16);
const FULL_BEACONS = Number(process.env.INGEST_BEACONS ?? 1200);
const HALF_SECONDS = 8;
const PHASE_CAP_MS = 60_000;
const root = join(import.meta.dirname, '..');

const ADMIN_TOKEN = 'ingest-bench-admin-token';
const APP = 'ingest-bench';

/** How the summaries kept up with a set-up's beacons. */
interface SummaryCheck {
  /** PostgreSQL: ms from the end of the full-load burst until the summary queue was empty by itself. */
  drainedAfterMs?: number;
  /** PGlite: ms of a console read (GET /api/apps, which flushes the queue) right after the burst. */
  readAfterMs?: number;
  /** The console's event count of the bench app at the end, and the events answered 2xx. */
  counted: number;
  stored: number;
}

interface Phase {
  beacons: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  failed: number;
}

async function main(): Promise<void> {
  const results: Record<string, { full: Phase; half: Phase; summaries: SummaryCheck }> = {};
  const wanted = new Set((process.env.INGEST_SETUPS ?? 'pglite,pg1,pg2').split(','));
  const postgres = await startPostgres();
  const scratch = mkdtempSync(join(tmpdir(), 'waymark-ingest-'));
  const children: ChildProcess[] = [];
  const hardStop = setTimeout(() => {
    console.error('bench:ingest: over 6 minutes, stopping');
    for (const c of children) c.kill('SIGKILL');
    process.exit(2);
  }, 360_000);
  try {
    const setups: Array<[string, string, () => Promise<{ urls: string[]; databaseUrl?: string }>]> = [
      ['pglite', 'PGlite, 1 collector', async () => ({ urls: [await collector(children, { WAYMARK_DATA: join(scratch, 'pglite') })] })],
      [
        'pg1',
        'PostgreSQL, 1 collector',
        async () => {
          const databaseUrl = await database(postgres.url('postgres'), 'one');
          return { urls: [await collector(children, { DATABASE_URL: databaseUrl })], databaseUrl };
        },
      ],
      [
        'pg2',
        'PostgreSQL, 2 collectors',
        async () => {
          const databaseUrl = await database(postgres.url('postgres'), 'two');
          // One after the other: the second finds the schema in place (migrations take turns anyway).
          const first = await collector(children, { DATABASE_URL: databaseUrl });
          return { urls: [first, await collector(children, { DATABASE_URL: databaseUrl })], databaseUrl };
        },
      ],
    ];
    for (const [key, name, start] of setups) {
      if (!wanted.has(key)) continue;
      const { urls, databaseUrl } = await start();
      await liftQuota(urls[0]!);
      const warm = await drive(urls, 'warm-up', 60, CONNECTIONS);
      const full = await drive(urls, `${name} full`, FULL_BEACONS, CONNECTIONS);
      const caughtUp = databaseUrl ? { drainedAfterMs: await queueDrainedAfter(databaseUrl) } : { readAfterMs: await consoleRead(urls[0]!).then((r) => r.ms) };
      const half = await drive(urls, `${name} half`, Math.round((full.eventsPerSecond / 2 / EVENTS_PER_BEACON) * HALF_SECONDS), CONNECTIONS, full.eventsPerSecond / 2);
      const counted = (await consoleRead(urls[urls.length - 1]!)).events;
      results[name] = { full, half, summaries: { ...caughtUp, counted, stored: warm.events + full.events + half.events } };
      for (const c of children.splice(0)) c.kill('SIGKILL');
    }
  } finally {
    clearTimeout(hardStop);
    for (const c of children) c.kill('SIGKILL');
    postgres.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  print(results);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/ingest-latest.json'), JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, eventsPerBeacon: EVENTS_PER_BEACON, results }, null, 2));
}

/**
 * Sends `count` fresh beacons over `connections` loops (round robin across `urls`), back to back, or paced to
 * `eventsPerSecond` overall; answers throughput and latency of the 2xx answers.
 */
async function drive(urls: string[], label: string, count: number, connections: number, eventsPerSecond?: number): Promise<Phase> {
  const beacons = Array.from({ length: count }, (_, i) => {
    const events = Array.from({ length: EVENTS_PER_BEACON }, () => wireEvent({ visitor_id: `v${i % 97}`, tabId: `tab-${label}-${i}` }));
    return `/data/ptm.gif/${APP}?v=1&ct=${Date.now()}&jzb=${nodeJzb(events)}`;
  });
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const interval = eventsPerSecond ? (1000 * EVENTS_PER_BEACON) / eventsPerSecond : 0;
  const loop = async () => {
    while (next < beacons.length && performance.now() - started < PHASE_CAP_MS) {
      const i = next++;
      if (interval) {
        const due = started + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const sent = performance.now();
      try {
        const response = await fetch(urls[i % urls.length]! + beacons[i]);
        await response.arrayBuffer();
        if (response.ok) latencies.push(performance.now() - sent);
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN) * 10) / 10;
  const events = latencies.length * EVENTS_PER_BEACON;
  return { beacons: latencies.length, events, seconds: Math.round(seconds * 100) / 100, eventsPerSecond: Math.round(events / seconds), p50: at(0.5), p95: at(0.95), p99: at(0.99), failed };
}

/** Ms until the summary queue of `databaseUrl` is empty (polled every 20 ms, at most 30 s). */
async function queueDrainedAfter(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    while (performance.now() - started < 30_000) {
      const { rows } = await client.query('select count(*)::int as n from summary_queue');
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Math.round(performance.now() - started);
  } finally {
    await client.end();
  }
}

/** GET /api/apps of a collector: the bench app's event count in the console, and how long the read took. */
async function consoleRead(url: string): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/api/apps`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`/api/apps answered ${response.status}`);
  const apps = (await response.json()) as Array<{ apiKey: string; events: number }>;
  return { events: apps.find((a) => a.apiKey === APP)?.events ?? 0, ms: Math.round(performance.now() - started) };
}

/**
 * The bench app's events-per-minute quota (issue #31; 60,000 by default) raised past what a set-up can send in a
 * minute: the bench measures throughput, not the quota. Stored in the database, so every collector of it reads it.
 */
async function liftQuota(url: string): Promise<void> {
  const response = await fetch(`${url}/api/apps/${APP}/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ quotas: { eventsPerMinute: 100_000_000 } }),
  });
  if (!response.ok) throw new Error(`PUT settings answered ${response.status}`);
}

/** A collector process on a free loopback port, kept in `children` to be killed at the end. */
async function collector(children: ChildProcess[], env: Record<string, string>): Promise<string> {
  const started = await startCollectorProcess({ WAYMARK_ADMIN_TOKEN: ADMIN_TOKEN, ...env });
  children.push(started.process);
  return started.url;
}

async function database(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ingest_${name}`);
  await client.end();
  return adminUrl.replace(/\/postgres$/, `/ingest_${name}`);
}

function print(results: Record<string, { full: Phase; half: Phase; summaries: SummaryCheck }>): void {
  console.log(`\nIngest: beacons of ${EVENTS_PER_BEACON} events, ${CONNECTIONS} connections, loopback (goals: >= 20,000 events/s per collector on PostgreSQL; p95 <= 50 ms at half load; two collectors >= 1.6x one)\n`);
  console.log('| set-up | events/s (full load) | p50 / p95 / p99 ms (full) | p50 / p95 / p99 ms (half load) | failed |');
  console.log('|---|---|---|---|---|');
  for (const [name, { full, half }] of Object.entries(results)) {
    console.log(`| ${name} | ${full.eventsPerSecond.toLocaleString('en')} | ${full.p50} / ${full.p95} / ${full.p99} | ${half.p50} / ${half.p95} / ${half.p99} | ${full.failed + half.failed} |`);
  }
  console.log('\n| set-up | summaries after the full-load burst | console count / events answered 2xx |');
  console.log('|---|---|---|');
  for (const [name, { summaries: s }] of Object.entries(results)) {
    const after = s.drainedAfterMs !== undefined ? `queue empty by itself after ${s.drainedAfterMs} ms` : `console read (flushes) took ${s.readAfterMs} ms`;
    console.log(`| ${name} | ${after} | ${s.counted.toLocaleString('en')} / ${s.stored.toLocaleString('en')}${s.counted === s.stored ? ' (exact)' : ' (NOT EXACT)'} |`);
  }
  const one = results['PostgreSQL, 1 collector']?.full.eventsPerSecond;
  const two = results['PostgreSQL, 2 collectors']?.full.eventsPerSecond;
  if (one && two) console.log(`\nTwo collectors / one on PostgreSQL: ${(two / one).toFixed(2)}x`);
}

await main();
