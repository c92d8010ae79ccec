/**
 * Paths on a real PostgreSQL at volume (issue #35 "Fast at real volumes": paths <= 2 s p95). Seeds ~1,000,000
 * `load`/`click`/`track` events of one app over 30 days (3,000 visitors, 20 pages, 200 element kinds) through the
 * real EventStore, makes 20 pages and 40 features and runs their backfill (a backfilled start is read by key:
 * pathStartEvents, occurrencePaths), then times `queryPaths` from a page only every tenth visitor
 * ever loads (~10% of visitors), depth 3, over the last 30 and the last 10 days: RUNS runs each, p50/p95, and the
 * mean time per run of each statement (a refusal is printed as such).
 * PostgreSQL: the test servers' (test/server/startPostgres.ts), started and removed by this run, unless
 * BENCH_PATHS_DATABASE_URL names a database to use (seeded once, kept: rerun against it to compare code, e.g. with
 * `git checkout 04ea25d -- server/analytics/pathsQuery.ts` for the single read of every visitor's events).
 * Env: BENCH_PATHS_EVENTS (default 1000000), BENCH_PATHS_RUNS (default 20).
 * Run: `npx tsx bench/pathsQuery.ts`.
 */
import { createEventStore } from '../server/ingest/createEventStore';
import type { ReceivedEvent } from '../server/ingest/checkEventBatch';
import { runBackfills } from '../server/analytics/createRuleBackfill';
import { createRuleStore } from '../server/analytics/createRuleStore';
import { queryPaths } from '../server/analytics/pathsQuery';
import { createPgDatabase } from '../server/storage/createPgDatabase';
import type { Database } from '../server/storage/Database';
import { migrateSchema } from '../server/storage/migrations/MIGRATIONS';
import { ensurePartitions, monthOf } from '../server/storage/partitions/eventPartitions';
import { startPostgres } from '../test/server/startPostgres';
import { prng } from './seedConsoleEvents';

const EVENTS = Number(process.env.BENCH_PATHS_EVENTS ?? 1_000_000);
const RUNS = Math.min(200, Number(process.env.BENCH_PATHS_RUNS ?? 20));
const KEY = 'bench-paths';
const DAY = 86_400_000;
const END = Date.UTC(2026, 5, 1);
const START = END - 30 * DAY;
const VISITORS = 3000;
const PATHS = ['/', '/dashboard', '/reports', '/reports/new', '/settings', '/settings/team', '/projects', '/inbox',
  '/search', '/help', '/profile', '/integrations', '/export', '/import', '/calendar', '/tasks', '/analytics', '/admin', '/docs'];
/** The start: only visitors whose index is a multiple of 10 ever load it. */
const START_PATH = '/billing';
const URL_OF = (path: string) => `https://app.example.com${path}`;

async function seed(db: Database): Promise<void> {
  await db.exec('create table if not exists bench_state (key text primary key, value text)');
  const done = await db.query<{ value: string }>("select value from bench_state where key = 'paths-seeded'");
  if (done.rows[0]?.value === String(EVENTS)) return console.log(`reusing the seeded database (${EVENTS} events)`);
  for (let month = monthOf(START).start; month <= END; month = monthOf(month).end) await ensurePartitions(db, month);
  const store = createEventStore(db);
  const random = prng(35);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const started = performance.now();
  let stored = 0;
  let batch: ReceivedEvent[] = [];
  for (let s = 0; stored + batch.length < EVENTS; s++) {
    const v = Math.floor(random() * VISITORS);
    const sessionId = `session-${s}`;
    let time = START + Math.floor(random() * (30 * DAY - 3 * 3_600_000));
    let path = pick(PATHS);
    const length = 10 + Math.floor(random() * 40);
    for (let i = 0; i < length; i++) {
      time += 1000 + Math.floor(random() * 60_000);
      const r = random();
      const base = { browser_time: time, visitor_id: `visitor-${v}`, account_id: `account-${v % 300}`, sessionId };
      if (i === 0 || r < 0.25) {
        path = v % 10 === 0 && random() < 0.15 ? START_PATH : pick(PATHS);
        batch.push({ type: 'load', ...base, url: URL_OF(path === '/reports' ? `/reports/${Math.floor(random() * 500)}` : path), props: {} });
      } else if (r < 0.9) {
        const k = Math.floor(random() * 200);
        batch.push({ type: 'click', ...base, url: URL_OF(path), props: { target: { tag: 'BUTTON', id: `el-${k}`, cls: `btn kind-${k % 20}`, title: null, attrs: {}, myIndex: 0, childIndex: k % 7, txt: `Action ${k}`,
          parentElem: { tag: 'DIV', id: '', cls: 'toolbar', title: null, attrs: {}, myIndex: 0, childIndex: 0 } } } });
      } else {
        batch.push({ type: 'track', ...base, url: URL_OF(path), track_event_name: pick(['report_created', 'export_done', 'invite_sent']), props: {} });
      }
    }
    if (batch.length >= 2000) {
      stored += await store.insertBatch(KEY, 'analytics', batch, time);
      batch = [];
      if (s % 500 === 0) console.log(`  ${stored} events, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  if (batch.length) stored += await store.insertBatch(KEY, 'analytics', batch, END);
  const rules = createRuleStore(db);
  for (const path of [START_PATH, ...PATHS]) await rules.createPage(KEY, path === START_PATH ? 'Billing' : `Page ${path}`, { url: path === '/reports' ? '/reports/:id' : path }, END);
  for (let k = 0; k < 40; k++) await rules.createFeature(KEY, `Feature ${k}`, { selector: k % 2 ? `#el-${k * 5}` : `button.kind-${k % 20}` }, END);
  await db.exec('analyze');
  await db.query("insert into bench_state (key, value) values ('paths-seeded', $1) on conflict (key) do update set value = excluded.value", [String(EVENTS)]);
  console.log(`seeded ${stored} events in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const server = process.env.BENCH_PATHS_DATABASE_URL ? undefined : await startPostgres();
  const db = await createPgDatabase(process.env.BENCH_PATHS_DATABASE_URL ?? server!.url('postgres'));
  try {
    await migrateSchema(db);
    await seed(db);
    // Every rule's backfill to its end (nothing to do on a database seeded and backfilled before).
    await runBackfills(db, 'bench-paths', 2000);
    const rules = createRuleStore(db);
    const billing = (await rules.listPages(KEY)).find((page) => page.name === 'Billing')!;
    const visitors = await db.query<{ n: string }>("select count(distinct visitor_id) as n from events where api_key = $1 and type = 'load' and url = $2", [KEY, URL_OF(START_PATH)]);
    console.log(`paths from Billing (ever loaded by ${visitors.rows[0]!.n} of ${VISITORS} visitors), depth 3`);
    for (const days of [30, 10]) {
      const question = { start: { page: billing.id }, direction: 'next' as const, depth: 3, top: 8, from: END - days * DAY, to: END };
      const times: number[] = [];
      const statements = new Map<string, number[]>();
      const timed: Database = { ...db, query: async (sql, params) => {
        const t0 = performance.now();
        try {
          return await db.query(sql, params);
        } finally {
          const name = sql.replace(/\s+/g, ' ').slice(0, 60);
          statements.set(name, [...(statements.get(name) ?? []), performance.now() - t0]);
        }
      } } as Database;
      let answer;
      try {
        for (let run = 0; run < RUNS; run++) {
          const t0 = performance.now();
          answer = await queryPaths(timed, rules, KEY, question);
          times.push(performance.now() - t0);
        }
      } catch (err) {
        console.log(`  ${days} days: refused: ${(err as Error).message}`);
        continue;
      }
      times.sort((a, b) => a - b);
      for (const [name, spent] of statements) console.log(`    ${(spent.reduce((a, b) => a + b, 0) / RUNS).toFixed(0).padStart(6)} ms/run  ${spent.length / RUNS} x ${name}`);
      console.log(`  ${days} days: ${answer!.occurrences} occurrences, ${answer!.visitors} visitors; ${RUNS} runs: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`);
    }
  } finally {
    await db.close();
    server?.stop();
  }
}

await main();
