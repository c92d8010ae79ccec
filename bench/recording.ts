/**
 * `npm run bench:recording` (issue #18): what session recording costs the host's main thread on a page that
 * changes all the time, Waymark's recorder side by side with posthog-js's session recording, same page, same run.
 * The bench page (bench/benchPage.ts) runs a mutation workload for 5 s: every 16 ms, 40 table cells get new text,
 * 20 elements swap a class, and a row is added and the oldest removed. Five pages, in turn, five rounds:
 * no agent; Waymark with recording on (the reference collector's app settings say so, sampleRate 1); Waymark with
 * recording off (what the agent costs without it); posthog-js with autocapture and session recording on (its
 * recorder served from node_modules, its endpoints stubbed, nothing leaves the machine). The figure is the
 * main-thread TaskDuration over the workload and 1.5 s after it, minus the page without an agent's; medians.
 * Each recording page is checked to have recorded (Waymark: a chunk posted; posthog-js: a snapshot batch posted).
 * Bounded: 5 rounds of 5 pages, each ~8 s. Results: a table on stdout and bench/results/recording-latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer } from '../server/createServer';
import { agentStarted } from './agentPages';
import { BENCH_ADMIN_TOKEN, CONFIG, repoRoot } from './benchConfig';
import { buildBenchPage } from './benchPage';
import { createMainThreadProbe } from './measureMainThread';
import { POSTHOG_CONFIG, routePeers } from './peerAgents';

const ROUNDS = Math.max(1, Number(process.env.BENCH_RUNS) || 5);
const WORKLOAD_MS = 5000;
const SETTLE_MS = 1500;
type Variant = 'baseline' | 'waymark-recording' | 'waymark-no-recording' | 'posthog-recording';
const VARIANTS: Variant[] = ['baseline', 'waymark-recording', 'waymark-no-recording', 'posthog-recording'];

/** The workload, started in the page: answers when it is over. */
const WORKLOAD = `(ms) => new Promise((done) => {
  const cells = [...document.querySelectorAll('td')].slice(0, 40);
  const boxes = [...document.querySelectorAll('.card')].slice(0, 20);
  const table = document.querySelector('table tbody') || document.querySelector('table');
  let n = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    n++;
    for (const [i, c] of cells.entries()) c.textContent = 'v' + ((n * 7 + i) % 1000);
    for (const b of boxes) b.classList.toggle('flip');
    const row = document.createElement('tr');
    row.innerHTML = '<td>row ' + n + '</td><td>' + (n % 97) + '</td>';
    table.appendChild(row);
    if (table.children.length > 60) table.removeChild(table.children[0]);
    if (performance.now() - started >= ms) { clearInterval(timer); done(n); }
  }, 16);
})`;

/** PostHog's config with its session recording on (the endpoint its recorder posts to). */
const POSTHOG_RECORDING_CONFIG = { ...POSTHOG_CONFIG, sessionRecording: { endpoint: '/s/', recorderVersion: 'v2' } };

function headOf(variant: Variant): string {
  if (variant !== 'posthog-recording') return '';
  return `<script src="/peer/posthog/array.js"></script>
<script>posthog.init('bench-rec-posthog', { api_host: location.origin + '/peer-api/posthog', autocapture: true, capture_pageview: true, disable_session_recording: false, opt_out_useragent_filter: true });</script>`;
}

/** Routes the page of `variant` and its peer's files; answers its URL and a counter of recording uploads. */
async function routePage(page: Page, serverUrl: string, variant: Variant, round: number): Promise<{ url: string; uploads: () => number }> {
  let uploads = 0;
  const apiKey = variant === 'waymark-recording' ? 'bench-rec' : 'bench-norec';
  const html = buildBenchPage({ withAgent: variant.startsWith('waymark'), peerHead: headOf(variant), apiKey, visitorId: `rec-${variant}-${round}` });
  const url = `${serverUrl}/bench/recording-${variant}-${round}.html`;
  await page.route(`${url}*`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  page.on('request', (r) => {
    if (r.method() === 'POST' && (r.url().includes('/data/recording/') || r.url().includes('/peer-api/posthog/s/'))) uploads++;
  });
  if (variant === 'posthog-recording') await routePeers(page, serverUrl, POSTHOG_RECORDING_CONFIG);
  return { url, uploads: () => uploads };
}

async function ready(page: Page, variant: Variant): Promise<void> {
  await agentStarted(page, variant === 'posthog-recording' ? 'posthog' : variant === 'baseline' ? 'baseline' : 'worker');
  // A visitor who moved and clicked: posthog-js holds its recording back while the visitor has not interacted
  // (it would send nothing, and look free). The same moves on every page, before the window opens.
  await page.mouse.move(300, 300);
  await page.mouse.move(320, 310);
  await page.mouse.click(5, 5);
  // Recorders start after their config answers; their first snapshot is startup, not the workload's.
  await page.waitForTimeout(1500);
}

async function measure(browser: Browser, serverUrl: string, variant: Variant, round: number): Promise<{ taskMs: number; scriptMs: number; uploads: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const { url, uploads } = await routePage(page, serverUrl, variant, round);
    const probe = await createMainThreadProbe(page);
    await page.goto(url, { waitUntil: 'load' });
    await ready(page, variant);
    const m = await probe.measure(() => page.evaluate(`(${WORKLOAD})(${WORKLOAD_MS})`), SETTLE_MS);
    if (variant.startsWith('waymark')) await page.evaluate(() => (window as unknown as { waymark: { flushNow(): Promise<unknown> } }).waymark.flushNow());
    await page.waitForTimeout(500);
    return { taskMs: m.deltas.TaskDuration, scriptMs: m.deltas.ScriptDuration, uploads: uploads() };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const server = await startServer({ port: 0, dataDir: 'memory://', adminToken: BENCH_ADMIN_TOKEN, seedApp: '' });
  const headers = { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  await fetch(`${server.url}/api/apps/bench-rec/settings`, { method: 'PUT', headers, body: JSON.stringify({ recording: { enabled: true, sampleRate: 1 } }) });
  const browser = await chromium.launch({ executablePath: CONFIG.chromium.executablePath, args: [...CONFIG.chromium.args], headless: true });
  const samples: Record<Variant, Array<{ taskMs: number; scriptMs: number; uploads: number }>> = { baseline: [], 'waymark-recording': [], 'waymark-no-recording': [], 'posthog-recording': [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...VARIANTS].reverse() : VARIANTS;
      for (const variant of order) samples[variant].push(await measure(browser, server.url, variant, round));
      console.log(`round ${round + 1}/${ROUNDS} done`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const base = median(samples.baseline.map((s) => s.taskMs));
  const rows = VARIANTS.map((v) => {
    const task = median(samples[v].map((s) => s.taskMs));
    return { variant: v, taskMs: Math.round(task), addedMs: Math.round(task - base), scriptMs: Math.round(median(samples[v].map((s) => s.scriptMs))), uploads: samples[v].map((s) => s.uploads) };
  });
  console.log(`\nRecording on a mutating page (${WORKLOAD_MS / 1000} s workload + ${SETTLE_MS / 1000} s, ${ROUNDS} rounds; main-thread TaskDuration, medians)\n`);
  console.log('| page | task ms | added over no agent, ms | script ms | recording uploads per run |');
  console.log('|---|---:|---:|---:|---|');
  for (const r of rows) console.log(`| ${r.variant} | ${r.taskMs} | ${r.variant === 'baseline' ? '' : r.addedMs} | ${r.scriptMs} | ${r.uploads.join(', ')} |`);
  const ours = rows.find((r) => r.variant === 'waymark-recording')!.addedMs;
  const theirs = rows.find((r) => r.variant === 'posthog-recording')!.addedMs;
  const alone = ours - rows.find((r) => r.variant === 'waymark-no-recording')!.addedMs;
  console.log(`\nWaymark recording / posthog-js recording: ${(ours / theirs).toFixed(2)}x (goal <= 0.5x); recording alone adds ${alone} ms to Waymark's page`);
  mkdirSync(join(repoRoot, 'bench/results'), { recursive: true });
  writeFileSync(join(repoRoot, 'bench/results/recording-latest.json'), JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, samples, rows }, null, 2));
}

await main();
