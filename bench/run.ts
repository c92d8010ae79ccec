/**
 * `npm run bench`: what the agent costs the host page, measured side by side in one Chromium run (STYLE §7).
 *
 * The same ~300-element page is opened without and with the agent; each gets the same burst of synthetic
 * clicks, and Chromium's main-thread counters are read around the burst. The difference per click, as a
 * median over alternating runs, is the agent's added main-thread time. The collector is then read back to
 * check the agent delivered every click, and the bundle sizes from the build are printed beside their
 * budgets. Prints a table and writes bench/results/bench-<timestamp>.json and bench/results/latest.json.
 * Exit code 0 when targets are missed (misses are findings); non-zero only when the bench itself fails.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../server/createServer';
import { BENCH_TARGET_COUNT, BENCH_TARGET_SELECTOR, buildBenchPage } from './benchPage';
import { createMainThreadProbe, MAIN_THREAD_METRICS, type MainThreadMetric, type MetricDeltas } from './measureMainThread';
import { assertPageSafe, runClickBurst, type BurstResult, type ClickSchedule } from './runClickBurst';
import { formatTable, spreadOf, type Spread } from './summarize';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(repoRoot, 'bench/results');

/** Everything the bench fixes, written into the results so a run can be compared with another. */
const CONFIG = {
  /** Page pairs; BENCH_RUNS overrides it for a steadier median. */
  runs: Math.max(1, Math.floor(Number(process.env.BENCH_RUNS)) || 5),
  apiKey: 'bench',
  visitorId: 'bench-visitor',
  schedule: {
    clicks: 2000,
    // 10 clicks per timer task, a task every 4 ms: 200 tasks over ~0.8 s, i.e. 16 of the shim's 50 ms
    // batches of ~125 clicks each. Many clicks per task keeps the per-task scheduling cost (the same on both
    // pages) small next to the listener cost we are after.
    clicksPerTask: 10,
    taskIntervalMs: 4,
    selector: BENCH_TARGET_SELECTOR,
  } satisfies ClickSchedule,
  /** Quiet time after load (and after the agent's first flush) before the window opens. */
  idleBeforeMs: 500,
  /** Time after the last click still inside the window: the 50 ms batch timer and the post to the worker. */
  settleMs: 400,
  /** How long to wait for the collector to hold a run's clicks after flushNow(). */
  deliveryTimeoutMs: 15_000,
  /** The whole bench aborts (and cleans up) past this. */
  deadlineMs: 240_000,
  targets: { addedMainThreadUsPerClick: 15, shimGzipKB: 12 },
  chromium: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
} as const;

type Variant = 'baseline' | 'agent';

/** The page-side view of the agent, for the few calls the bench makes. */
interface BenchWindow {
  waymark?: { isReady?(): boolean; flushNow(): Promise<unknown> };
}

/** One page, one burst. */
interface PageSample {
  variant: Variant;
  run: number;
  /** 0 when this page went first in its run. */
  position: number;
  url: string;
  deltas: MetricDeltas;
  burst: BurstResult;
  windowMs: number;
  /** Requests to the collector made during the window and held until it closed. */
  heldRequests: number;
  /** Elements in the page, to show it is the ~300-element page. */
  elementCount: number;
  /** Agent page only: what flushNow() answered and what the collector stored for this page. */
  delivery?: { flushReport: unknown; storedClicks: number; waitedMs: number };
  /** Uncaught errors, console errors and console warnings of the page. */
  problems: string[];
}

async function main(): Promise<void> {
  assertPageSafe(runClickBurst);
  const bundles = readBundleSizes();
  const guidesDir = mkdtempSync(join(tmpdir(), 'waymark-bench-guides-')); // empty: no guide may show
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const hardStop = setTimeout(() => {
    console.error(`bench: still running ${CONFIG.deadlineMs / 1000 + 30} s after start; exiting without cleanup`);
    process.exit(3);
  }, CONFIG.deadlineMs + 30_000);
  hardStop.unref();

  try {
    server = await startServer({ port: 0, dataDir: 'memory://', guidesDir });
    browser = await chromium.launch({ executablePath: CONFIG.chromium.executablePath, args: [...CONFIG.chromium.args], headless: true });
    const chromiumVersion = browser.version();
    const serverUrl = server.url;
    const openBrowser = browser;
    console.log(`bench: Chromium ${chromiumVersion}, ${CONFIG.runs} runs x ${CONFIG.schedule.clicks} clicks per page, server ${serverUrl}`);

    const samples = await withDeadline(
      (async () => {
        const out: PageSample[] = [];
        for (let run = 0; run < CONFIG.runs; run++) {
          // Alternate which page goes first so slow drift (thermal, caches, the server's growing table)
          // does not always land on the same side.
          const order: Variant[] = run % 2 === 0 ? ['baseline', 'agent'] : ['agent', 'baseline'];
          for (const [position, variant] of order.entries()) {
            const sample = await measurePage(openBrowser, serverUrl, variant, run, position);
            out.push(sample);
            console.log(`  run ${run + 1} ${variant.padEnd(8)} TaskDuration ${sample.deltas.TaskDuration.toFixed(1)} ms, dispatch ${sample.burst.dispatchMs.toFixed(1)} ms, ${sample.heldRequests} beacons held` +
              (sample.delivery ? `, collector stored ${sample.delivery.storedClicks}/${sample.burst.clicks} clicks` : ''));
          }
        }
        return out;
      })(),
      CONFIG.deadlineMs,
    );

    const totalStored = await storedClicks(serverUrl, () => true);
    const report = buildReport(samples, bundles, totalStored, {
      chromium: chromiumVersion,
      node: process.version,
      cpuCount: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      platform: `${platform()} ${release()}`,
      date: new Date().toISOString(),
    });
    printReport(report);
    writeResults(report);
  } finally {
    clearTimeout(hardStop);
    await browser?.close().catch((err: unknown) => console.error(`bench: closing Chromium failed: ${String(err)}`));
    await server?.close().catch((err: unknown) => console.error(`bench: closing the server failed: ${String(err)}`));
    rmSync(guidesDir, { recursive: true, force: true });
  }
}

/**
 * Opens a fresh context and page (no cache, storage or worker left by an earlier page), serves the bench
 * page on the server's origin so the agent's worker is same-origin, and measures one burst.
 */
async function measurePage(browser: Browser, serverUrl: string, variant: Variant, run: number, position: number): Promise<PageSample> {
  const context = await browser.newContext();
  // Releases the collector requests held during the measured window (see below); also called in finally so
  // that a failing run never leaves a route handler waiting while the context closes.
  let releaseHeld: () => void = () => undefined;
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
    });

    const html = buildBenchPage({ withAgent: variant === 'agent', apiKey: CONFIG.apiKey, visitorId: CONFIG.visitorId });
    // The query string tags this page's events with its run, so the collector can be counted per page.
    const url = `${serverUrl}/bench/${variant}.html?run=${run + 1}`;
    await page.route(`${serverUrl}/bench/${variant}.html*`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
    );
    // The collector shares this machine's 2 CPUs with the browser, which it never does in production: its
    // ingestion of beacons sent during the window would preempt the page's main thread and inflate
    // TaskDuration. So requests to /data/* made inside the window are held and released after it (to the
    // agent they are just slow); the worker's own work, compression included, stays inside the window.
    let held: Promise<void> | null = null;
    let heldRequests = 0;
    await page.route(`${serverUrl}/data/**`, async (route) => {
      if (held) {
        heldRequests++;
        await held;
      }
      await route.continue();
    });
    const probe = await createMainThreadProbe(page);
    await page.goto(url, { waitUntil: 'load' });

    if (variant === 'agent') {
      await page.waitForFunction(() => (window as unknown as BenchWindow).waymark?.isReady?.() === true);
      // The first flush waits for the worker to be up and sends identify/meta/load, so that start-up work
      // stays out of the measured window.
      await page.evaluate(() => (window as unknown as BenchWindow).waymark!.flushNow());
    }
    const { targetCount, elementCount } = await page.evaluate((selector) => ({
      targetCount: document.querySelectorAll(selector).length,
      elementCount: document.getElementsByTagName('*').length,
    }), CONFIG.schedule.selector);
    if (targetCount !== BENCH_TARGET_COUNT) throw new Error(`the bench page has ${targetCount} targets, expected ${BENCH_TARGET_COUNT}`);
    await page.waitForTimeout(CONFIG.idleBeforeMs);

    held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const measured = await probe.measure(() => page.evaluate(runClickBurst, CONFIG.schedule), CONFIG.settleMs);
    held = null;
    releaseHeld();
    await probe.detach();
    if (measured.result.clicks !== CONFIG.schedule.clicks) {
      throw new Error(`${variant} page fired ${measured.result.clicks} clicks, expected ${CONFIG.schedule.clicks}`);
    }

    const sample: PageSample = {
      variant, run: run + 1, position, url,
      deltas: measured.deltas, burst: measured.result, windowMs: measured.windowMs, elementCount, heldRequests, problems,
    };
    if (variant === 'agent') {
      // The worker sends beacons ~1 s after events reach it; flushNow sends now. Closing the context before
      // the collector has them would lose them, so wait (bounded) for this page's clicks to be stored.
      const flushReport = await page.evaluate(() => (window as unknown as BenchWindow).waymark!.flushNow());
      const started = performance.now();
      let stored = 0;
      while (performance.now() - started < CONFIG.deliveryTimeoutMs) {
        stored = await storedClicks(serverUrl, (eventUrl) => eventUrl === url);
        if (stored >= CONFIG.schedule.clicks) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      sample.delivery = { flushReport, storedClicks: stored, waitedMs: Math.round(performance.now() - started) };
    }
    return sample;
  } finally {
    releaseHeld();
    await context.close();
  }
}

/** Click events the collector holds for the bench api key whose page URL passes `urlFilter`. */
async function storedClicks(serverUrl: string, urlFilter: (url: string) => boolean): Promise<number> {
  const query = new URLSearchParams({ apiKey: CONFIG.apiKey, type: 'click', limit: '10000' });
  const res = await fetch(`${serverUrl}/api/events?${query}`);
  if (!res.ok) throw new Error(`/api/events answered ${res.status}: ${await res.text()}`);
  const { events } = (await res.json()) as { events: Array<{ url?: unknown }> };
  return events.filter((e) => typeof e.url === 'string' && urlFilter(e.url)).length;
}

interface BundleSize {
  file: string;
  raw: number;
  gzip: number;
  /** gzip budget in bytes, as scripts/build.mjs checks it. */
  budget: number;
}

/** Reads dist/sizes.json, which `npm run build` writes. */
function readBundleSizes(): BundleSize[] {
  const path = join(repoRoot, 'dist/sizes.json');
  if (!existsSync(path) || !existsSync(join(repoRoot, 'dist/agent/waymark.js'))) {
    throw new Error('dist/agent is not built: run `npm run build` (or `node scripts/build.mjs shim worker overlay esm`) first');
  }
  const sizes = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { raw: number; gzip: number; budget: number }>;
  return Object.entries(sizes).map(([file, s]) => ({ file, raw: s.raw, gzip: s.gzip, budget: s.budget }));
}

/** Per-click view of one metric over the runs. All values in µs per click, except ratios. */
interface MetricSummary {
  baselineUsPerClick: Spread;
  agentUsPerClick: Spread;
  /** (agent − baseline) / clicks of each run's pair. */
  addedUsPerClick: Spread;
  /** agent / baseline of each run's pair. */
  ratio: Spread;
}

interface Report {
  environment: Record<string, string | number>;
  config: typeof CONFIG;
  samples: PageSample[];
  metrics: Record<MainThreadMetric | 'dispatchLoop', MetricSummary>;
  delivery: { fired: number; stored: number; storedTotalForApiKey: number; perRun: Array<{ run: number; fired: number; stored: number }> };
  bundles: Array<BundleSize & { withinBudget: boolean }>;
  targets: Array<{ name: string; target: string; value: string; pass: boolean }>;
}

function buildReport(samples: PageSample[], bundles: BundleSize[], storedTotal: number, environment: Report['environment']): Report {
  const clicks = CONFIG.schedule.clicks;
  const pairs = Array.from({ length: CONFIG.runs }, (_, i) => {
    const of = (variant: Variant) => {
      const s = samples.find((x) => x.run === i + 1 && x.variant === variant);
      if (!s) throw new Error(`run ${i + 1} has no ${variant} sample`);
      return s;
    };
    return { baseline: of('baseline'), agent: of('agent') };
  });

  const summarize = (read: (s: PageSample) => number): MetricSummary => ({
    baselineUsPerClick: spreadOf(pairs.map((p) => (read(p.baseline) * 1000) / clicks)),
    agentUsPerClick: spreadOf(pairs.map((p) => (read(p.agent) * 1000) / clicks)),
    addedUsPerClick: spreadOf(pairs.map((p) => ((read(p.agent) - read(p.baseline)) * 1000) / clicks)),
    ratio: spreadOf(pairs.map((p) => read(p.agent) / read(p.baseline))),
  });
  const metrics = {} as Report['metrics'];
  for (const name of MAIN_THREAD_METRICS) metrics[name] = summarize((s) => s.deltas[name]);
  metrics.dispatchLoop = summarize((s) => s.burst.dispatchMs);

  const perRun = pairs.map((p) => ({ run: p.agent.run, fired: p.agent.burst.clicks, stored: p.agent.delivery?.storedClicks ?? 0 }));
  const delivery = {
    fired: perRun.reduce((n, r) => n + r.fired, 0),
    stored: perRun.reduce((n, r) => n + r.stored, 0),
    storedTotalForApiKey: storedTotal,
    perRun,
  };

  const shim = bundles.find((b) => b.file.endsWith('/waymark.js'));
  const added = metrics.TaskDuration.addedUsPerClick.median;
  const targets: Report['targets'] = [
    {
      name: 'added main-thread time per click (TaskDuration, median)',
      target: `<= ${CONFIG.targets.addedMainThreadUsPerClick} µs`,
      value: `${added.toFixed(2)} µs`,
      pass: added <= CONFIG.targets.addedMainThreadUsPerClick,
    },
    {
      name: 'initial shim waymark.js, gzip',
      target: `<= ${CONFIG.targets.shimGzipKB} KB`,
      value: shim ? `${kb(shim.gzip)} KB` : 'missing',
      pass: !!shim && shim.gzip <= CONFIG.targets.shimGzipKB * 1024,
    },
    {
      name: 'clicks stored by the collector',
      target: `= ${delivery.fired} fired`,
      value: String(delivery.stored),
      pass: delivery.stored === delivery.fired,
    },
  ];

  return {
    environment,
    config: CONFIG,
    samples,
    metrics,
    delivery,
    bundles: bundles.map((b) => ({ ...b, withinBudget: b.gzip <= b.budget })),
    targets,
  };
}

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

function printReport(report: Report): void {
  const { schedule, runs } = CONFIG;
  const env = report.environment;
  const problems = report.samples.flatMap((s) => s.problems.map((p) => `run ${s.run} ${s.variant}: ${p}`));
  const elements = report.samples[0]?.elementCount ?? 0;
  console.log(
    `\nWaymark bench: ${runs} runs x ${schedule.clicks} clicks (${schedule.clicksPerTask} per task, a task every ${schedule.taskIntervalMs} ms) ` +
      `on a ${elements}-element page; Chromium ${env.chromium}, Node ${env.node}, ${env.cpuCount} CPUs\n`,
  );

  const rows: string[][] = [['main thread, µs per click', 'baseline', 'agent', 'added (median)', 'added min..max', 'ratio (median)']];
  const line = (label: string, m: MetricSummary) =>
    rows.push([
      label,
      m.baselineUsPerClick.median.toFixed(2),
      m.agentUsPerClick.median.toFixed(2),
      m.addedUsPerClick.median.toFixed(2),
      `${m.addedUsPerClick.min.toFixed(2)} .. ${m.addedUsPerClick.max.toFixed(2)}`,
      `${m.ratio.median.toFixed(2)}x`,
    ]);
  line('TaskDuration (CDP)', report.metrics.TaskDuration);
  line('ScriptDuration (CDP)', report.metrics.ScriptDuration);
  line('ThreadTime, main-thread CPU (CDP)', report.metrics.ThreadTime);
  line('dispatch loop (performance.now)', report.metrics.dispatchLoop);
  line('ProcessTime, renderer CPU incl. worker', report.metrics.ProcessTime);
  console.log(formatTable(rows));

  console.log('');
  const bundleRows: string[][] = [['bundle', 'raw KB', 'gzip KB', 'budget KB (gzip)', '']];
  for (const b of report.bundles) {
    bundleRows.push([b.file, kb(b.raw), kb(b.gzip), kb(b.budget), b.withinBudget ? 'within budget' : 'OVER BUDGET']);
  }
  console.log(formatTable(bundleRows));

  console.log('');
  const targetRows: string[][] = [['target', 'value', 'target', '']];
  for (const t of report.targets) targetRows.push([t.name, t.value, t.target, t.pass ? 'PASS' : 'MISS']);
  console.log(formatTable(targetRows));

  const d = report.delivery;
  if (d.stored !== d.fired) {
    console.log(`\n!!! DELIVERY MISMATCH: the collector stored ${d.stored} of ${d.fired} clicks fired on agent pages !!!`);
    for (const r of d.perRun) if (r.stored !== r.fired) console.log(`!!!   run ${r.run}: stored ${r.stored} of ${r.fired}`);
  }
  if (d.storedTotalForApiKey !== d.fired) {
    console.log(`\nnote: /api/events holds ${d.storedTotalForApiKey} click events for apiKey=${CONFIG.apiKey} in all (read with limit 10000)`);
  }
  if (problems.length) {
    console.log(`\n!!! the pages logged ${problems.length} errors or warnings:`);
    for (const p of problems.slice(0, 20)) console.log(`!!!   ${p}`);
  }
}

function writeResults(report: Report): void {
  mkdirSync(resultsDir, { recursive: true });
  // ':' is not allowed in Windows file names, so the timestamp uses '-' there.
  const stamp = String(report.environment.date).replace(/[:.]/g, '-');
  // Float noise (35.742999999999995) makes the JSON hard to read; 4 decimals is 0.1 µs for ms values.
  const json = `${JSON.stringify(report, (_, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v), 2)}\n`;
  const file = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(file, json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  console.log(`\nresults: ${file} (and bench/results/latest.json)`);
}

/** Rejects when `promise` has not settled after `ms`; the caller's finally then closes everything. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the bench did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

try {
  await main();
} catch (err) {
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
}
