/**
 * What the bench fixes (runs, clicks, schedules, Chromium flags, targets) and the page scenarios it measures;
 * written into the results so one run can be compared with another.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { BENCH_TARGET_SELECTOR } from './benchPage';
import type { MetricDeltas } from './measureMainThread';
import type { ClickProfile } from './createClickSource';
import type { PipelineOptions } from './measurePipeline';
import type { IsolatedClickOptions } from './measureIsolatedClicks';
import type { SideBySideOptions } from './measureAgentsSideBySide';
import type { LongTask } from './observeLongTasks';
import { runBackToBackBurst, type BackToBackSchedule } from './runBackToBackBurst';
import { runClickBurst, type BurstResult, type ClickSchedule } from './runClickBurst';
import type { ClickAttributionOptions } from './measureClickAttribution';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const resultsDir = join(repoRoot, 'bench/results');

/** The bench server's admin token: the collector is read back through /api/events (issue #14). */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** Everything the bench fixes, written into the results so a run can be compared with another. */
export const CONFIG = {
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
  /** The 10,000-click burst: main-thread time per event under load, and long tasks. A page pair per run. */
  burst: {
    runs: 3,
    /** Its own api key, and a visitor id per run, so the collector can count each page's 10,000 clicks. */
    apiKey: 'bench-burst',
    schedule: {
      clicks: 10_000,
      // 100 clicks per task, each task posting the next: a task's dispatch takes ~2 ms on the baseline page
      // here (the table prints its longest), far below the 50 ms of a long task, so the baseline page has none
      // of its own and a long task on the agent page is the agent's.
      clicksPerTask: 100,
      selector: BENCH_TARGET_SELECTOR,
    } satisfies BackToBackSchedule,
    settleMs: 500,
    deliveryTimeoutMs: 30_000,
  },
  /** Issue #7: the paced clicks again on the large page (10,000 more elements, a mutation every 16 ms). */
  large: { runs: 2, apiKey: 'bench-large' },
  /** The worker pipeline: prepare + encode of synthetic clicks in a dedicated worker (bench/pipelineWorker.ts). */
  pipeline: { events: 50_000, chunk: 125, repetitions: 5, seed: 1 } satisfies Omit<PipelineOptions, 'profile'>,
  /**
   * The click shapes the pipeline is timed on, each a pass of its own: 'compact' is the size of the original
   * agent's clicks (~1,000 characters), on which the floor (~80k/s) and goal were set; 'deep' is a
   * heavy app's (~1,840), where compression alone cannot reach the goal (see bench/README.md).
   */
  pipelineProfiles: ['compact', 'deep'] as const satisfies readonly ClickProfile[],
  /**
   * Issues #7, #16: one isolated click (100 ms of quiet before it, then a 2 s window: everything the click causes
   * on the main thread, its dead-click verdict at 500 ms, the batch and the delivery mark of its beacon) on a
   * page without the agent, with it in a worker, and with it on the main thread (CSP worker-src 'none').
   */
  isolated: { clicks: 16, idleMs: 100, settleMs: 2000, afterMs: 1500, apiKey: 'bench-isolated' } satisfies IsolatedClickOptions,
  /**
   * Issue #16: the same isolated clicks, traced: only each agent's own share of the main thread (its script calls in
   * others' tasks, the tasks it started), thread time, its background off (bench/measureClickAttribution.ts).
   */
  attribution: { clicks: 10, idleMs: 100, settleMs: 2000, apiKey: 'bench-attribution' } satisfies ClickAttributionOptions,
  /** Issue #16: startup, a burst of real clicks, long tasks and heap per agent (bench/measureAgentsSideBySide.ts). */
  sideBySide: { clicks: 300, gapMs: 0, apiKey: 'bench-side' } satisfies SideBySideOptions,
  /**
   * Issues #16, #34: guide time-to-visible and the main thread around it, runs per case and surface (each run: the
   * page without an agent, then 3 surfaces x 4 cases, ~1 min here). BENCH_GUIDE_RUNS overrides it.
   */
  guideRuns: Math.max(1, Math.floor(Number(process.env.BENCH_GUIDE_RUNS)) || 5),
  /**
   * The whole bench (all seven parts, ~17 min here: the guide part's surfaces and 2 s windows, issue #34, take ~5)
   * aborts (and cleans up) past this.
   */
  deadlineMs: 1_320_000,
  targets: { addedMainThreadUsPerClick: 15, shimGzipKB: 12, pipelineEventsPerSecond: 70_000, longTasksAddedByAgent: 0, largePageRatio: 1.5, isolatedClickP50Us: 150, isolatedClickP90Us: 300, isolatedClickPendoRatio: 0.15, startupScriptMs: 5, heapMb: 3, guideVisibleP90Ms: 30, guideLongestTaskMs: 50, guideLoafBlockingMs: 10, guidePendoRatio: 0.5 },
  chromium: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
} as const;

export type Variant = 'baseline' | 'agent';

/** How one page is measured: the paced 2000 clicks, or the 10,000-click burst. */
export interface Scenario {
  name: 'paced' | 'burst' | 'large';
  apiKey: string;
  /** Visitor id of the agent page of run `run` (1-based). */
  visitorId(run: number): string;
  /** Page URL path under /bench/, without `.html`. */
  pagePath(variant: Variant): string;
  clicks: number;
  settleMs: number;
  deliveryTimeoutMs: number;
  /** Fires the clicks inside the page. */
  fire(page: Page): Promise<BurstResult & { longestTaskMs?: number }>;
  /** Collect the page's long tasks over the window. */
  observeLongTasks: boolean;
}

export const PACED: Scenario = {
  name: 'paced',
  apiKey: CONFIG.apiKey,
  visitorId: () => CONFIG.visitorId,
  pagePath: (variant) => variant,
  clicks: CONFIG.schedule.clicks,
  settleMs: CONFIG.settleMs,
  deliveryTimeoutMs: CONFIG.deliveryTimeoutMs,
  fire: (page) => page.evaluate(runClickBurst, CONFIG.schedule),
  observeLongTasks: false,
};

export const LARGE: Scenario = {
  ...PACED,
  name: 'large',
  apiKey: CONFIG.large.apiKey,
  visitorId: (run) => `bench-large-visitor-${run}`,
  pagePath: (variant) => `large-${variant}`,
};

export const BURST: Scenario = {
  name: 'burst',
  apiKey: CONFIG.burst.apiKey,
  visitorId: (run) => `bench-burst-visitor-${run}`,
  pagePath: (variant) => `burst-${variant}`,
  clicks: CONFIG.burst.schedule.clicks,
  settleMs: CONFIG.burst.settleMs,
  deliveryTimeoutMs: CONFIG.burst.deliveryTimeoutMs,
  fire: (page) => page.evaluate(runBackToBackBurst, CONFIG.burst.schedule),
  observeLongTasks: true,
};

/** The page-side view of the agent, for the few calls the bench makes. */
export interface BenchWindow {
  waymark?: { isReady?(): boolean; flushNow(): Promise<unknown> };
}

/** One page, one burst. */
export interface PageSample {
  scenario: Scenario['name'];
  variant: Variant;
  run: number;
  /** 0 when this page went first in its run. */
  position: number;
  url: string;
  deltas: MetricDeltas;
  burst: BurstResult & { longestTaskMs?: number };
  windowMs: number;
  /** Burst only: the long tasks that started inside the window. */
  longTasks?: LongTask[];
  /** Requests to the collector made during the window and held until it closed. */
  heldRequests: number;
  /** Elements in the page, to show it is the ~300-element page. */
  elementCount: number;
  /** Agent page only: what flushNow() answered and what the collector stored for this page. */
  delivery?: { flushReport: unknown; storedClicks: number; waitedMs: number };
  /** Uncaught errors, console errors and console warnings of the page. */
  problems: string[];
}
