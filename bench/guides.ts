/**
 * `npm run bench:guides` (needs a build): only the guide part of the bench (bench/measureGuideTime.ts), a few
 * minutes: each surface's time to visible after guide.json and from navigation start, and the main thread from
 * navigation start to 2 s after the guide shows (longest task, long-animation-frame blocking time, the scripts of
 * the longest frame), Waymark's cases and Pendo's agent, the page without an agent beside, issue #34's goals
 * printed next to the figures. `BENCH_GUIDE_RUNS` (default 5) runs per case; `BENCH_GUIDE_CASES` a comma list of
 * cases (cold, warm, returning, pendo); `BENCH_GUIDE_SURFACES` a comma list of surfaces (lightbox, tooltip,
 * poll); `BENCH_GUIDE_LATENCY_MS` delays every request to the collector by that much, as if it were that far away
 * (the time from navigation start then includes the agent's round trips before guide.json: a new visitor's
 * availability probe went before it until 2026-11-26). Full results go to bench/results/guides-<timestamp>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CONFIG, resultsDir } from './benchConfig';
import { GUIDE_CASES, GUIDE_SURFACES, measureGuideTime, type GuideCase, type GuideSurface } from './measureGuideTime';
import { watchMachineLoad } from './measureMachineLoad';
import { guideTimeText } from './printGuideTime';
import { pct } from './summarize';

/** A comma list from `name`, each item one of `known`; exits on an unknown one. */
function listFromEnv<T extends string>(name: string, known: readonly T[]): T[] {
  const list = (process.env[name]?.split(',').map((s) => s.trim()).filter(Boolean) ?? known) as T[];
  const unknown = list.filter((c) => !known.includes(c));
  if (unknown.length || !list.length) {
    console.error(`${name}: unknown ${unknown.join(', ') || '(empty)'} (one or more of ${known.join(', ')})`);
    process.exit(2);
  }
  return list;
}

const cases = listFromEnv<GuideCase>('BENCH_GUIDE_CASES', GUIDE_CASES);
const surfaces = listFromEnv<GuideSurface>('BENCH_GUIDE_SURFACES', GUIDE_SURFACES);
const latencyMs = Number(process.env.BENCH_GUIDE_LATENCY_MS ?? 0);
if (!Number.isFinite(latencyMs) || latencyMs < 0) {
  console.error(`BENCH_GUIDE_LATENCY_MS must be a number of ms >= 0, not ${process.env.BENCH_GUIDE_LATENCY_MS}`);
  process.exit(2);
}

const browser = await chromium.launch({ executablePath: CONFIG.chromium.executablePath, args: [...CONFIG.chromium.args], headless: true });
const readLoad = watchMachineLoad();
try {
  console.log(`guide time: ${CONFIG.guideRuns} runs per case, surfaces ${surfaces.join(', ')}, cases ${cases.join(', ')}, ` +
    `the page without an agent once per run, collector ${latencyMs} ms away; Chromium ${browser.version()}`);
  const run = await measureGuideTime(browser, CONFIG.guideRuns, (line) => console.log(line), cases, latencyMs, surfaces);
  const machine = readLoad();
  console.log('');
  console.log(machine
    ? `other processes used ${pct(machine.otherShare)} of the ${machine.cpuCount} CPUs during the ${machine.wallSeconds.toFixed(0)} s run\n`
    : '');
  console.log(guideTimeText(run));
  if (machine && machine.otherShare > 0.1) console.log(`\n!!! other processes used ${pct(machine.otherShare)} of the CPUs: every timing above is inflated by them !!!`);
  for (const problem of run.problems) console.log(`!!! ${problem}`);
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `guides-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ config: CONFIG, machineLoad: machine, guideTime: run }, (_, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v), 2)}\n`);
  console.log(`\nresults: ${file}`);
  if (run.problems.length) process.exitCode = 1;
} finally {
  await browser.close();
}
