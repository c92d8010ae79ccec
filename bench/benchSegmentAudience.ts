/**
 * `npm run bench:segments` (issue #35 "a guide's audience can be a segment; the collector judges it when it answers
 * guide.json, adding at most 5 ms to that answer at p95"): what judging a segment audience adds to guide.json.
 *
 * For PGlite (in memory) and a real PostgreSQL (started here, test/server/startPostgres.ts): a server, two apps
 * with the same stored events (a visitor with ~2,000 events: clicks on 20 kinds of element, page loads, track events,
 * guide events; and 200 other visitors with 20 events each), the same feature, page and segment (a metadata
 * condition and three behaviour conditions: a feature at least 3 times in 30 days, never a page, a track event), and
 * one public guide: without audience in the first app, with the segment as its audience in the second (the visitor is
 * in it, so both answers list the guide). `BENCH_SEGMENT_REQUESTS` (default 200) guide.json requests per app,
 * alternating between the apps, after 20 of each to warm up; p50/p95 of each and their difference. Requests go
 * through Fastify's inject (no socket: the figures are the server's own time). Results go to
 * bench/results/segments-<timestamp>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createServer } from '../server/createServer';
import { startPostgres } from '../test/server/startPostgres';
import { guideEvent, nodeJzb, wireEvent } from '../test/server/testServer';
import { resultsDir } from './benchConfig';
import { watchMachineLoad } from './measureMachineLoad';
import { pct } from './summarize';

const TOKEN = 'bench-segments-admin-token-0123456789';
const HEADERS = { authorization: `Bearer ${TOKEN}` };
const REQUESTS = Math.max(1, Math.floor(Number(process.env.BENCH_SEGMENT_REQUESTS)) || 200);
const WARM_UP = 20;
const VISITOR = 'heavy-visitor';
const DAY = 86_400_000;
const NOW = Date.now();

/** The element of the i-th kind: kind 0 is the feature's. */
const element = (i: number) => ({ tag: 'BUTTON', id: `b${i}`, cls: i === 0 ? 'export' : `kind-${i}`, attrs: {}, myIndex: 0, childIndex: i, txt: `Button ${i}` });

/** `count` events of `visitor` over the last 60 days: 80% clicks on 20 kinds, 15% loads, 4% track, 1% guide seen. */
function eventsOf(visitor: string, count: number): { analytics: unknown[]; guide: unknown[] } {
  const analytics: unknown[] = [];
  const guide: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const base = { browser_time: NOW - Math.floor((i / count) * 60 * DAY) - 1000, visitor_id: visitor, account_id: 'acme', tabId: `tab-${visitor}` };
    const r = i % 100;
    if (r < 80) analytics.push(wireEvent({ ...base, type: 'click', url: `http://app.test/reports/${i % 7}`, props: { target: element(i % 20) } }));
    else if (r < 95) analytics.push(wireEvent({ ...base, type: 'load', url: `http://app.test/${['home', 'reports/1', 'settings'][i % 3]}`, props: {} }));
    else if (r < 99) analytics.push(wireEvent({ ...base, type: 'track', track_event_name: 'report shared', props: {} }));
    else guide.push(guideEvent('guideSeen', { guide_id: 'welcome', guide_step_id: 's1' }, base));
  }
  analytics.push(wireEvent({ browser_time: NOW - 1000, visitor_id: visitor, account_id: 'acme', tabId: `tab-${visitor}`, type: 'meta', props: { visitor: { plan: 'pro' } } }));
  return { analytics, guide };
}

async function send(app: FastifyInstance, apiKey: string, path: string, events: unknown[]) {
  for (let i = 0; i < events.length; i += 200) {
    const response = await app.inject({ method: 'POST', url: `/data/${path}/${apiKey}`, payload: { events: nodeJzb(events.slice(i, i + 200)) } });
    if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${response.body}`);
  }
}

async function api(app: FastifyInstance, method: 'POST' | 'PUT', url: string, payload: object): Promise<{ id?: string }> {
  const response = await app.inject({ method, url, headers: HEADERS, payload });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

const GUIDE = (audience?: object) => ({
  id: 'tip',
  name: 'Tip',
  launchMethod: 'auto',
  state: 'public',
  ...(audience ? { audience } : {}),
  steps: [{ id: 's1', guideId: 'tip', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'div', props: { id: 't' }, content: 'Hi' }] } }],
});

/** Seeds one app; `withSegment` makes its guide's audience the segment. */
async function seedApp(app: FastifyInstance, apiKey: string, withSegment: boolean) {
  const heavy = eventsOf(VISITOR, 2000);
  await send(app, apiKey, 'ptm.gif', heavy.analytics);
  await send(app, apiKey, 'guide.gif', heavy.guide);
  const others = Array.from({ length: 200 }, (_, v) => eventsOf(`visitor-${v}`, 20).analytics).flat();
  await send(app, apiKey, 'ptm.gif', others);
  const feature = await api(app, 'POST', `/api/apps/${apiKey}/features`, { name: 'Export', rule: { selector: 'button.export' } });
  const page = await api(app, 'POST', `/api/apps/${apiKey}/pages`, { name: 'Billing', rule: { url: '/billing' } });
  const segment = await api(app, 'POST', `/api/apps/${apiKey}/segments`, {
    name: 'Pro exporters',
    definition: {
      when: { 'visitor.plan': 'pro' },
      behaviour: [{ feature: feature.id, atLeast: 3, days: 30 }, { never: { page: page.id } }, { track: 'report shared' }],
    },
  });
  await api(app, 'PUT', `/api/apps/${apiKey}/guides/tip`, GUIDE(withSegment ? { segment: segment.id } : undefined));
  // The segment's count flushes the summarizer: the dictionaries hold the seeded elements before guide.json first
  // resolves the segment (kept 30 s), as on a collector that has been running. Without it the measuring raced the
  // drain: a resolution made before it matched no element, and the visitor was in no segment.
  const read = await app.inject({ method: 'GET', url: `/api/apps/${apiKey}/segments/${segment.id}`, headers: HEADERS });
  if (read.statusCode !== 200) throw new Error(`GET segment answered ${read.statusCode}: ${read.body}`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

/** One guide.json request of the heavy visitor; its time in ms. */
async function guideJson(app: FastifyInstance, apiKey: string): Promise<number> {
  const payload = nodeJzb({ visitorId: VISITOR, accountId: 'acme', url: 'http://app.test/home', metadata: { visitor: { plan: 'pro' }, account: {} } });
  const start = performance.now();
  const response = await app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?id=1&jzb=${payload}&v=0.1.0&ct=1` });
  const ms = performance.now() - start;
  if (response.statusCode !== 200 || response.json().guides.length !== 1) throw new Error(`guide.json of ${apiKey}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  return ms;
}

interface BackendResult {
  backend: string;
  without: { p50: number; p95: number };
  withSegment: { p50: number; p95: number };
  added: { p50: number; p95: number };
}

async function measure(backend: string, options: { dataDir?: string; databaseUrl?: string }): Promise<BackendResult> {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-bench-segments-'));
  const app = await createServer({ ...options, adminToken: TOKEN, guidesDir: dir, agentDir: dir, demoDir: dir, featuresFile: join(dir, 'features.json') });
  try {
    console.log(`${backend}: seeding two apps (2,000 events of one visitor, 4,000 of 200 others, each)`);
    await seedApp(app, 'plain', false);
    await seedApp(app, 'segmented', true);
    for (let i = 0; i < WARM_UP; i++) {
      await guideJson(app, 'plain');
      await guideJson(app, 'segmented');
    }
    const plain: number[] = [];
    const segmented: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      plain.push(await guideJson(app, 'plain'));
      segmented.push(await guideJson(app, 'segmented'));
    }
    plain.sort((a, b) => a - b);
    segmented.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    const without = { p50: round(percentile(plain, 0.5)), p95: round(percentile(plain, 0.95)) };
    const withSegment = { p50: round(percentile(segmented, 0.5)), p95: round(percentile(segmented, 0.95)) };
    return { backend, without, withSegment, added: { p50: round(withSegment.p50 - without.p50), p95: round(withSegment.p95 - without.p95) } };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const readLoad = watchMachineLoad();
const results: BackendResult[] = [await measure('PGlite', { dataDir: 'memory://' })];
const postgres = await startPostgres();
try {
  results.push(await measure('PostgreSQL', { databaseUrl: postgres.url('postgres') }));
} finally {
  postgres.stop();
}

console.log(`\nguide.json of a visitor with ~2,000 events, ${REQUESTS} requests each (ms; goal: at most 5 ms added at p95)`);
console.log('backend      without p50  p95   | segment p50  p95   | added p50  p95');
for (const r of results) {
  const f = (n: number) => n.toFixed(2).padStart(6);
  console.log(`${r.backend.padEnd(12)} ${f(r.without.p50)} ${f(r.without.p95)} | ${f(r.withSegment.p50)} ${f(r.withSegment.p95)} | ${f(r.added.p50)} ${f(r.added.p95)}`);
}
const machine = readLoad();
if (machine) console.log(`other processes used ${pct(machine.otherShare)} of the ${machine.cpuCount} CPUs during the run${machine.otherShare > 0.1 ? ': every timing above is inflated by them' : ''}`);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `segments-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ requests: REQUESTS, warmUp: WARM_UP, machineLoad: machine, results }, null, 2)}\n`);
console.log(`\nresults: ${file}`);
