/**
 * `npm run bench:console` (issue #14): the console's read API on a big database. Seeds 1,000,000 events
 * (bench/seedConsoleEvents.ts) into a PGlite folder (kept and reused: `BENCH_CONSOLE_DB`, default
 * `{tmp}/waymark-console-bench-{N}`), then times every console route through app.inject (no network) and
 * prints p50/p95 per route against the 300 ms target, then the cost of ingesting one 9-event beacon on the big
 * database, on an empty one, and with the ingest statement of before the console (no summaries) on an empty one.
 * The seed's summaries are built by the summarizer (a flush after the last batch), as a collector builds them.
 * Env: BENCH_CONSOLE_EVENTS (default 1000000), BENCH_CONSOLE_RUNS (timed runs per route, default 30).
 */
import { migrateSchema } from '../server/storage/migrations/MIGRATIONS';
import { ensurePartitions, monthOf } from '../server/storage/partitions/eventPartitions';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createEventStore } from '../server/ingest/createEventStore';
import { createPgliteDatabase } from '../server/storage/createPgliteDatabase';
import { createServer } from '../server/createServer';
import { createSummarizer } from '../server/summaries/createSummarizer';
import { SEED_GUIDES, seedConsoleEvents } from './seedConsoleEvents';

const EVENTS = Number(process.env.BENCH_CONSOLE_EVENTS ?? 1_000_000);
const RUNS = Math.min(200, Number(process.env.BENCH_CONSOLE_RUNS ?? 30));
const DB_DIR = process.env.BENCH_CONSOLE_DB ?? join(tmpdir(), `waymark-console-bench-${EVENTS}`);
const TOKEN = 'bench-console-token-0123456789';
const KEY = 'bench-app';
/** The seed's 90 days end here (a fixed UTC midnight, so reruns query the same data). */
const END = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;
const TARGET_MS = 300;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function ensureSeeded(): Promise<void> {
  const db = await createPgliteDatabase(DB_DIR);
  const store = createEventStore(db);
  await migrateSchema(db);
  await db.exec('create table if not exists bench_state (key text primary key, value text)');
  const done = await db.query<{ value: string }>("select value from bench_state where key = 'seeded'");
  if (done.rows[0]?.value === String(EVENTS)) {
    console.log(`reusing ${DB_DIR} (${EVENTS} events seeded)`);
    await db.close();
    return;
  }
  if ((await db.query("select 1 from events limit 1")).rows.length > 0) {
    await db.close();
    console.log(`${DB_DIR} is partly seeded: starting over`);
    rmSync(DB_DIR, { recursive: true, force: true });
    return ensureSeeded();
  }
  // The months the seed spans, as collectors running through them would have made them (issue #19).
  for (let month = monthOf(END - 90 * 86_400_000).start; month <= END; month = monthOf(month).end) await ensurePartitions(db, month);
  console.log(`seeding ${EVENTS} events into ${DB_DIR} ...`);
  const started = performance.now();
  let last = 0;
  const summarizer = createSummarizer(db);
  const stored = await seedConsoleEvents(store, {
    events: EVENTS,
    apiKey: KEY,
    end: END,
    progress: (n) => {
      if (n - last >= 100_000) {
        last = n;
        console.log(`  ${n} events, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    },
  });
  // The summaries of every seeded batch (issue #19: ingest queues them, the summarizer adds them).
  await summarizer.flush();
  await summarizer.stop();
  await db.exec('analyze');
  await db.query("insert into bench_state (key, value) values ('seeded', $1)", [String(EVENTS)]);
  console.log(`seeded ${stored} events in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await db.close();
}

function guideFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-console-bench-guides-'));
  for (const g of SEED_GUIDES) {
    const steps = g.steps.map((id) => ({ id, guideId: g.id, type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [] } }));
    writeFileSync(join(dir, `${g.id}.json`), JSON.stringify({ id: g.id, launchMethod: 'api', steps }));
  }
  return dir;
}

async function time(app: FastifyInstance, url: string): Promise<number[]> {
  const get = () => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
  const first = await get();
  if (first.statusCode !== 200) throw new Error(`${url} answered ${first.statusCode}: ${first.body.slice(0, 300)}`);
  await get();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await get();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

function beaconUrl(n: number): string {
  const events = Array.from({ length: 9 }, (_, i) => ({
    type: 'click', browser_time: END - DAY + n * 1000 + i, visitor_id: `visitor-${n % 50}`, account_id: 'account-1',
    url: 'https://app.example.com/reports', sequence: i + 1, bytes: 300, sessionId: `bench-ingest-${n}`, tabId: `bench-tab-${n}`,
    frameId: 'f', parentTabId: '', utm: { channel: 'Direct' },
    props: { target: { tag: 'BUTTON', id: 'save', cls: 'btn', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Save' }, flags: ['left'] },
  }));
  return `/data/ptm.gif/${KEY}?v=1&ct=1&jzb=${deflateSync(Buffer.from(JSON.stringify(events))).toString('base64url')}`;
}

async function ingest(app: FastifyInstance, offset: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const t = performance.now();
    const response = await app.inject({ method: 'GET', url: beaconUrl(offset + i) });
    if (response.statusCode !== 200) throw new Error(`ingest answered ${response.statusCode}`);
    if (i >= 3) times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

/**
 * The ingest statement of now (events, exactly-once keys and the summary queue; the summaries come after, issue
 * #19), through EventStore.insertBatch on an empty memory database.
 */
async function currentIngest(): Promise<number[]> {
  const db = await createPgliteDatabase('memory://');
  const store = createEventStore(db);
  await migrateSchema(db);
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const events = Array.from({ length: 9 }, (_, k) => ({
      type: 'click', browser_time: END + k, visitor_id: 'v', account_id: 'a', url: 'https://app.example.com/x', sequence: k,
      sessionId: `s${i}`, tabId: `t${i}`, frameId: 'f', utm: { channel: 'Direct' }, props: { target: { tag: 'BUTTON', id: 'b', txt: 'Go' } },
    }));
    const t = performance.now();
    await store.insertBatch(KEY, 'analytics', events, END);
    if (i >= 3) times.push(performance.now() - t);
  }
  await db.close();
  return times.sort((a, b) => a - b);
}

/** The ingest statement before the console (commit 60712e4): one insert, no summaries, on the old schema. */
async function legacyIngest(): Promise<number[]> {
  const db = await createPgliteDatabase('memory://');
  await db.exec(`create table events (id bigserial primary key, api_key text not null, kind text not null, type text not null,
    visitor_id text, account_id text, browser_time bigint, received_at bigint not null, tab_id text, frame_id text not null default '',
    sequence int, body jsonb not null, source text);
    create unique index events_once_per_page on events (api_key, kind, tab_id, frame_id, sequence) where tab_id is not null and sequence is not null;
    create index events_by_visitor on events (api_key, kind, visitor_id);`);
  const sql = `insert into events (api_key, kind, type, visitor_id, account_id, browser_time, received_at, tab_id, frame_id, sequence, source, body)
    select $1, $2, r.e->>'type', r.e->>'visitorId', r.e->>'accountId', (r.e->>'browserTime')::bigint, $3,
           r.e->>'tabId', coalesce(r.e->>'frameId', ''), (r.e->>'sequence')::int, $5, r.e->'body'
    from jsonb_array_elements($4::jsonb) with ordinality as r(e, ord) order by r.ord on conflict do nothing returning id`;
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const rows = Array.from({ length: 9 }, (_, k) => ({ type: 'click', visitorId: 'v', accountId: 'a', browserTime: END + k, tabId: `t${i}`, frameId: 'f', sequence: k, body: { type: 'click', n: k } }));
    const t = performance.now();
    await db.query(sql, [KEY, 'analytics', END, JSON.stringify(rows), null]);
    if (i >= 3) times.push(performance.now() - t);
  }
  await db.close();
  return times.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  mkdirSync(DB_DIR, { recursive: true });
  await ensureSeeded();
  const guidesDir = guideFolder();
  // The seed app's guides go into the guides table (once), so the guide list has the seed's five guides.
  const app = await createServer({ dataDir: DB_DIR, adminToken: TOKEN, guidesDir, agentDir: guidesDir, demoDir: guidesDir, seedApp: KEY });
  const rows: Array<[string, number[]]> = [];
  try {
    const heavy = (await app.inject({ method: 'GET', url: `/api/apps/${KEY}/visitors?limit=1`, headers: { authorization: `Bearer ${TOKEN}` } })).json()[0];
    const latest = (await app.inject({ method: 'GET', url: `/api/apps/${KEY}/events?limit=1`, headers: { authorization: `Bearer ${TOKEN}` } })).json().lastId;
    const r = (days: number, bucket = '') => `from=${END - days * DAY}&to=${END}${bucket ? `&bucket=${bucket}` : ''}`;
    const routes: Array<[string, string]> = [
      ['apps', '/api/apps'],
      ['overview 2 days (hour)', `/api/apps/${KEY}/overview?${r(2)}`],
      ['overview 7 days (day)', `/api/apps/${KEY}/overview?${r(7)}`],
      ['overview 30 days (hour)', `/api/apps/${KEY}/overview?${r(30, 'hour')}`],
      ['overview 90 days (day)', `/api/apps/${KEY}/overview?${r(90)}`],
      ['events newest 100', `/api/apps/${KEY}/events`],
      ['events after (live poll)', `/api/apps/${KEY}/events?after=${latest - 20}`],
      ['events type=click 500', `/api/apps/${KEY}/events?type=click&limit=500`],
      ['events visitorId', `/api/apps/${KEY}/events?visitorId=${heavy.visitorId}`],
      ['events type+visitor (rare type)', `/api/apps/${KEY}/events?visitorId=visitor-1999&type=guideSnoozed`],
      ['event by id', `/api/apps/${KEY}/events/${latest - 1000}`],
      ['visitors', `/api/apps/${KEY}/visitors`],
      ['visitors q=12', `/api/apps/${KEY}/visitors?q=12`],
      ['visitor (heaviest)', `/api/apps/${KEY}/visitors/${heavy.visitorId}`],
      ['accounts', `/api/apps/${KEY}/accounts`],
      ['account', `/api/apps/${KEY}/accounts/account-0`],
      ['guides list (with seen/completed/dismissed)', `/api/apps/${KEY}/guides`],
      ['guide stats 7 days', `/api/apps/${KEY}/guides/guide-5/stats?${r(7)}`],
      ['guide stats 90 days', `/api/apps/${KEY}/guides/guide-5/stats?${r(90)}`],
    ];
    for (const [name, url] of routes) rows.push([name, await time(app, url)]);
    rows.push(['ingest 9-event beacon, 1M db', await ingest(app, 0)]);
  } finally {
    await app.close();
  }
  const emptyDir = mkdtempSync(join(tmpdir(), 'waymark-console-bench-empty-'));
  const empty = await createServer({ dataDir: emptyDir, adminToken: TOKEN, guidesDir, agentDir: guidesDir, demoDir: guidesDir });
  try {
    rows.push(['ingest 9-event beacon, empty db', await ingest(empty, 0)]);
  } finally {
    await empty.close();
    rmSync(emptyDir, { recursive: true, force: true });
    rmSync(guidesDir, { recursive: true, force: true });
  }
  rows.push(['ingest statement before #14 (no summaries), empty memory db', await legacyIngest()]);
  rows.push(['ingest statement now (summaries queued), empty memory db', await currentIngest()]);

  console.log(`\n${EVENTS} events, ${RUNS} runs per row, ms (target p95 <= ${TARGET_MS} for the routes)\n`);
  console.log('| route | p50 | p95 | max |\n|---|---:|---:|---:|');
  for (const [name, t] of rows) {
    const flag = !name.startsWith('ingest') && percentile(t, 95) > TARGET_MS ? ' (over)' : '';
    console.log(`| ${name} | ${percentile(t, 50).toFixed(1)} | ${percentile(t, 95).toFixed(1)}${flag} | ${t[t.length - 1].toFixed(1)} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
