/**
 * `npm run bench:guides` (needs a build): only the guide part of the bench (bench/measureGuideTime.ts), in a
 * minute or two: a lightbox's time to visible after guide.json and from navigation start, Waymark's cases and
 * Pendo's agent. `BENCH_GUIDE_RUNS` (default 10) runs per case; `BENCH_GUIDE_CASES` a comma list of cases
 * (cold, warm, returning, pendo); `BENCH_GUIDE_LATENCY_MS` delays every request to the collector by that much,
 * as if it were that far away (the time from navigation start then includes the agent's round trips before
 * guide.json: a new visitor's availability probe went before it until 2026-11-26).
 */
import { chromium } from 'playwright-core';
import { CONFIG } from './benchConfig';
import { GUIDE_CASES, measureGuideTime, type GuideCase } from './measureGuideTime';

const cases = (process.env.BENCH_GUIDE_CASES?.split(',') ?? GUIDE_CASES) as GuideCase[];
const unknown = cases.filter((c) => !GUIDE_CASES.includes(c));
if (unknown.length) {
  console.error(`BENCH_GUIDE_CASES: unknown case ${unknown.join(', ')} (one of ${GUIDE_CASES.join(', ')})`);
  process.exit(2);
}
const latencyMs = Number(process.env.BENCH_GUIDE_LATENCY_MS ?? 0);
if (!Number.isFinite(latencyMs) || latencyMs < 0) {
  console.error(`BENCH_GUIDE_LATENCY_MS must be a number of ms >= 0, not ${process.env.BENCH_GUIDE_LATENCY_MS}`);
  process.exit(2);
}

const browser = await chromium.launch({ executablePath: CONFIG.chromium.executablePath, args: [...CONFIG.chromium.args], headless: true });
try {
  console.log(`guide time: ${CONFIG.guideRuns} runs per case, cases ${cases.join(', ')}, collector ${latencyMs} ms away`);
  const run = await measureGuideTime(browser, CONFIG.guideRuns, (line) => console.log(line), cases, latencyMs);
  for (const problem of run.problems) console.log(`!!! ${problem}`);
  if (run.problems.length) process.exitCode = 1;
} finally {
  await browser.close();
}
