/**
 * `npm run bench`: what the agent costs the host page, measured side by side in one Chromium run (STYLE §7).
 *
 * The same ~300-element page is opened without and with the agent; each gets the same burst of synthetic
 * clicks, and Chromium's main-thread counters are read around the burst. The difference per click, as a
 * median over alternating runs, is the agent's added main-thread time. The collector is then read back to
 * check the agent delivered every click, and the bundle sizes from the build are printed beside their
 * budgets. Then the same pair of pages takes a 10,000-click burst, clicks back to back, for the main-thread
 * time per event under load and the long tasks the agent adds (none is the goal). Last, the worker half of
 * the pipeline (prepare + encode) is timed in a dedicated worker against the compression floor (the worker's own zlib: CompressionStream in Chromium).
 * The paced clicks run again on a large page (10,000 more elements, a DOM mutation every 16 ms): the
 * capture cost per click must stay flat (issue #7). Last of all, one isolated click at a time on a page without the agent, with it in a worker, and with it on
 * the main thread (bench/measureIsolatedClicks.ts): the price of each install mode (issue #7), everything a
 * click causes within 2 s (issue #16). Then each guide surface's time to visible after its guide.json with the main
 * thread's long tasks and long animation frames around it (issues #16, #34), and startup, real-click
 * burst, long tasks and heap for every agent side by side (issue #16).
 * Prints tables and writes bench/results/bench-<timestamp>.json and bench/results/latest.json.
 * Exit code 0 when targets are missed (misses are findings); non-zero only when the bench itself fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, platform, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../server/createServer';
import { watchMachineLoad } from './measureMachineLoad';
import { bundlePipelineWorker, measurePipeline, type PipelineRun } from './measurePipeline';
import { measureIsolatedClicks } from './measureIsolatedClicks';
import { measureGuideTime } from './measureGuideTime';
import { measureClickAttribution } from './measureClickAttribution';
import { measureAgentsSideBySide } from './measureAgentsSideBySide';
import { observeLongTasks, readLongTasks } from './observeLongTasks';
import { runBackToBackBurst } from './runBackToBackBurst';
import { assertPageSafe, runClickBurst } from './runClickBurst';
import { BENCH_ADMIN_TOKEN, CONFIG, type Variant, type Scenario, PACED, LARGE, BURST, type PageSample } from './benchConfig';
import { measurePage, storedClicks } from './measurePage';
import { readBundleSizes, buildReport } from './buildReport';
import { printReport, writeResults } from './printReport';

async function main(): Promise<void> {
  for (const fn of [runClickBurst, runBackToBackBurst, observeLongTasks, readLongTasks]) assertPageSafe(fn);
  const bundles = readBundleSizes();
  const guidesDir = mkdtempSync(join(tmpdir(), 'waymark-bench-guides-')); // empty: no guide may show
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const hardStop = setTimeout(() => {
    console.error(`bench: still running ${CONFIG.deadlineMs / 1000 + 30} s after start; exiting without cleanup`);
    process.exit(3);
  }, CONFIG.deadlineMs + 30_000);
  hardStop.unref();
  // The machine may be shared: what other processes took while the bench ran is part of its figures' context.
  const readMachineLoad = watchMachineLoad();

  try {
    // Built before Chromium starts, so the build's CPU never overlaps a measurement.
    const pipelineBundle = await bundlePipelineWorker();
    server = await startServer({ port: 0, dataDir: 'memory://', guidesDir, adminToken: BENCH_ADMIN_TOKEN });
    browser = await chromium.launch({ executablePath: CONFIG.chromium.executablePath, args: [...CONFIG.chromium.args], headless: true });
    const chromiumVersion = browser.version();
    const serverUrl = server.url;
    const openBrowser = browser;
    console.log(`bench: Chromium ${chromiumVersion}, ${CONFIG.runs} runs x ${CONFIG.schedule.clicks} clicks per page, then ` +
      `${CONFIG.burst.runs} runs x ${CONFIG.burst.schedule.clicks} burst clicks, then the worker pipeline; server ${serverUrl}`);

    /** Page pairs of one scenario, alternating which page goes first. */
    const measurePairs = async (scenario: Scenario, runs: number): Promise<PageSample[]> => {
      const out: PageSample[] = [];
      for (let run = 0; run < runs; run++) {
        // Alternate which page goes first so slow drift (thermal, caches, the server's growing table)
        // does not always land on the same side.
        const order: Variant[] = run % 2 === 0 ? ['baseline', 'agent'] : ['agent', 'baseline'];
        for (const [position, variant] of order.entries()) {
          const sample = await measurePage(openBrowser, serverUrl, scenario, variant, run, position);
          out.push(sample);
          const longTasks = sample.longTasks
            ? `, longest task ${sample.burst.longestTaskMs?.toFixed(1)} ms, ${sample.longTasks.length} long tasks` +
              (sample.longTasks.length ? ` (longest ${Math.max(...sample.longTasks.map((t) => t.duration)).toFixed(0)} ms)` : '')
            : '';
          console.log(`  ${scenario.name === 'burst' ? 'burst ' : ''}run ${run + 1} ${variant.padEnd(8)} TaskDuration ${sample.deltas.TaskDuration.toFixed(1)} ms, ` +
            `dispatch ${sample.burst.dispatchMs.toFixed(1)} ms${longTasks}, ${sample.heldRequests} beacons held` +
            (sample.delivery ? `, collector stored ${sample.delivery.storedClicks}/${sample.burst.clicks} clicks` : ''));
        }
      }
      return out;
    };

    const measured = await withDeadline(
      (async () => {
        const paced = await measurePairs(PACED, CONFIG.runs);
        const burst = await measurePairs(BURST, CONFIG.burst.runs);
        const large = await measurePairs(LARGE, CONFIG.large.runs);
        const pipelines: PipelineRun[] = [];
        for (const profile of CONFIG.pipelineProfiles) {
          pipelines.push(await measurePipeline(openBrowser, serverUrl, pipelineBundle, { ...CONFIG.pipeline, profile }, (line) => console.log(line)));
        }
        const isolated = await measureIsolatedClicks(openBrowser, serverUrl, CONFIG.isolated, (line) => console.log(line));
        const attribution = await measureClickAttribution(openBrowser, serverUrl, ['worker', 'main-thread', 'pendo', 'posthog'], CONFIG.attribution, (line) => console.log(line));
        const guideTime = await measureGuideTime(openBrowser, CONFIG.guideRuns, (line) => console.log(line));
        const sideBySide = await measureAgentsSideBySide(openBrowser, serverUrl, CONFIG.sideBySide, (line) => console.log(line));
        return { paced, burst, large, pipelines, isolated, attribution, guideTime, sideBySide };
      })(),
      CONFIG.deadlineMs,
    );

    const machineLoad = readMachineLoad(); // before Chromium closes: its processes are counted as the bench's
    const totalStored = await storedClicks(serverUrl, { apiKey: CONFIG.apiKey }, () => true);
    const report = buildReport(measured.paced, measured.burst, measured.large, measured.pipelines, measured.isolated, measured.attribution, measured.guideTime, measured.sideBySide, bundles, totalStored, machineLoad, {
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
