/**
 * Issues #16 and #34: how long after its guide.json answer arrives a guide is on screen, Waymark's and Pendo's
 * agent's, with the same Pendo-format payload, and what the page's main thread went through meanwhile. A one-step
 * guide per surface (a lightbox, a tooltip anchored to a toolbar button, a poll: bench/benchGuides.ts, served by
 * the reference server's guide folder, which both agents ask) shows on the bench page for a new visitor each run.
 * `arrivedAt`: when the bench hands guide.json's response to the browser (the request is routed through
 * Playwright, which fetches it from the server first; Chromium's own timing of a worker's request came out later
 * than the page's reaction to it in a quarter of the runs, so it is not used). The handing over itself takes a
 * few ms of IPC, counted against the agent. `visibleAt`: the end of the frame that paints the guide.
 *
 * How the end of that frame is found: a requestAnimationFrame loop, started with the page, looks for the guide
 * at the start of every frame; in the first frame that has it, it sets a 0 ms timer, whose task is the first one
 * after that frame's style, layout, paint and commit. The loop's callback was asked for a frame earlier than
 * anything an agent asks for while drawing, so that timer runs before work an agent queues for "after the first
 * frame" (Waymark moves focus into the dialog and makes the page inert then). The run before 2026-11-26 noticed
 * the lightbox with a 2 ms poll and asked for its frame only then, after the agent had: its timer came after the
 * agent's post-frame work, which held the figure back by 4-11 ms (a trace) that no visitor waits for. A guide
 * drawn inside an animation frame callback registered before the loop's would be counted a frame late; neither
 * agent draws that way (Waymark draws in the task that brings the step).
 *
 * The main thread (issue #34, bench/observeGuideWindow.ts): from navigation start to 2 s after that frame, the
 * page's long tasks (Long Tasks API) and long animation frames (blocking time, and the scripts of the longest
 * frame by file). The bench page without an agent is measured the same way in each run (its window: navigation
 * start to 2 s after its load event), so what the page costs by itself stands beside the agents' figures.
 *
 * Four cases per surface, in turn: `cold`, a browser that never saw a guide of this app (Waymark's overlay
 * chunk is fetched after guide.json answers); `warm`, one whose storage says it did (`_wm_overlay.{apiKey}`
 * kept: the chunk loads beside guide.json) but whose HTTP cache is empty, so React is fetched and compiled from
 * nothing; `returning`, a visitor who saw two other pages of the app first in the same browser (the chunk in its
 * HTTP cache under its build version, used without asking the server again, and the code Chromium compiled for
 * it kept, as a real returning visitor has); and `pendo`, Pendo's agent (@pendo/agent, one file that carries its guide code) for a new visitor, asking
 * the same server. Each run has a browser context of its own, so no HTTP cache carries over between runs. Pendo's
 * agent draws the payload into the page itself (`#guide-base`); without its guide stylesheet the lightbox sits in
 * the page's flow below the fold, which spares it the fixed layer's paint: the figure is its time to draw, a
 * little in its favour. A surface Pendo's agent does not draw from the payload within the page's timeout is
 * reported as not shown (`unsupported`), and its later runs are skipped: no figure is made up for it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startServer } from '../server/createServer';
import { buildBenchPage } from './benchPage';
import { BENCH_ADMIN_TOKEN } from './benchConfig';
import { benchGuide, drawnExpression, GUIDE_SURFACES, guidePagePrefix, type GuideSurface } from './benchGuides';
import { percentile } from './measureIsolatedClicks';
import { guideWindowScript, readGuideWindow, summarizeWindow, type LongFrame, type MainThreadWindow } from './observeGuideWindow';
import { peerHead, routePeers } from './peerAgents';
import { printTraceWindow, startTrace } from './traceGuidePage';

export type GuideCase = 'cold' | 'warm' | 'returning' | 'pendo';

export const GUIDE_CASES: readonly GuideCase[] = ['cold', 'warm', 'returning', 'pendo'];

export { GUIDE_SURFACES, type GuideSurface };

/** Pages a `returning` visitor saw before the guide's: Chromium keeps compiled code of a script from its third load. */
const RETURNING_PAGES = 2;

/** The chunks Waymark loads where the app drew guides before (`_wm_overlay.{apiKey}`), whichever the build has. */
const DISPLAY_CHUNK = /\/waymark\.(overlay|steps)\.js(\?|$)/;

/** How long a page may take to draw its guide before the run counts as failed (or the surface as not shown). */
const DRAW_TIMEOUT_MS = 10_000;

/** One page of one run. */
export interface GuideSample {
  run: number;
  /** ms from guide.json's response to the guide's first frame; NaN where the response was not seen. */
  visibleMs: number;
  /**
   * ms from the guide page's navigation start to the same frame: what a visitor waits in all, the agent's start
   * and its requests before guide.json included (over loopback here, so a collector's distance adds to it).
   */
  fromNavigationMs: number;
  mainThread: MainThreadWindow;
}

/** Median (`p50`), p90 and max of one figure over the runs; NaN without runs. */
export interface Quantiles {
  p50: number;
  p90: number;
  max: number;
}

/** The main-thread figures of one case over its runs. */
export interface MainThreadSummary {
  /** Longest long task per run, 0 for a run without one. */
  longestTaskMs: Quantiles;
  /** The longest long task the agent ran a script in, per run (MainThreadWindow.agentLongestTaskMs). */
  agentLongestTaskMs: Quantiles;
  /** The longest long task from guide.json's hand-over on, per run (MainThreadWindow.guideLongestTaskMs). */
  guideLongestTaskMs: Quantiles;
  /** Long tasks (> 50 ms) over all runs, and how many runs had one. */
  longTasks: number;
  runsWithLongTask: number;
  /** Long-animation-frame blocking time per run, summed over its window. */
  loafBlockingMs: Quantiles;
  /** The blocking time of the long frames the agent ran a script in, per run (MainThreadWindow.agentLoafBlockingMs). */
  agentLoafBlockingMs: Quantiles;
  /** The agent's own script time in long frames per run (its files' scripts over 5 ms). */
  agentScriptMs: Quantiles;
  /** The longest animation frame over all runs, with its scripts (its run, and when the guide showed in it, beside). */
  longestFrame: (LongFrame & { run: number; guideAtMs: number }) | null;
  /** The same of the frames from guide.json's hand-over on (MainThreadWindow.guideFrame). */
  longestGuideFrame: (LongFrame & { run: number; guideAtMs: number }) | null;
  /** Per run, the file of the longest script in its longest frame ('-' when no frame was long), counted. */
  topFileOfLongestFrame: Record<string, number>;
  loafSupported: boolean;
}

/** One case of one surface over its runs. */
export interface GuideCaseSummary extends MainThreadSummary {
  runs: number;
  visibleMs: Quantiles;
  fromNavigationMedian: number;
}

export interface GuideTimeRun {
  surfaces: GuideSurface[];
  cases: GuideCase[];
  samples: Record<GuideSurface, Record<GuideCase, GuideSample[]>>;
  /** The bench page without an agent, once per run. */
  baselineSamples: GuideSample[];
  summary: Record<GuideSurface, Record<GuideCase, GuideCaseSummary>>;
  baseline: MainThreadSummary & { runs: number };
  /** Surfaces an agent did not draw from the payload, and why: no figure is given for them. */
  unsupported: string[];
  problems: string[];
}

const API_KEY = 'bench-guides';

/** BENCH_GUIDE_TRACE=1: each agent's page traced, its threads around the guide printed (bench/traceGuidePage.ts). */
const TRACE = !!process.env.BENCH_GUIDE_TRACE && process.env.BENCH_GUIDE_TRACE !== '0';

/**
 * The agent's own scripts: Waymark's files, Pendo's agent, and on their pages the page's inline scripts, which
 * are the agent's install (bench/benchPage.ts; the bench's init script stays under the 5 ms LoAF reports).
 */
function agentFilesOf(kind: GuideCase | 'none'): (file: string) => boolean {
  if (kind === 'none') return () => false;
  const prefix = kind === 'pendo' ? 'pendo' : 'waymark';
  return (file) => file.startsWith(prefix) || file.startsWith('page inline');
}

function quantiles(values: number[]): Quantiles {
  return values.length ? { p50: percentile(values, 0.5), p90: percentile(values, 0.9), max: Math.max(...values) } : { p50: NaN, p90: NaN, max: NaN };
}

/** The main-thread figures of `samples`. */
export function summarizeMainThread(samples: GuideSample[]): MainThreadSummary {
  const windows = samples.map((s) => s.mainThread);
  let longestFrame: MainThreadSummary['longestFrame'] = null;
  let longestGuideFrame: MainThreadSummary['longestGuideFrame'] = null;
  const topFileOfLongestFrame: Record<string, number> = {};
  for (const s of samples) {
    const frame = s.mainThread.longestFrame;
    const top = frame?.scripts[0]?.file ?? '-';
    topFileOfLongestFrame[top] = (topFileOfLongestFrame[top] ?? 0) + 1;
    if (frame && (!longestFrame || frame.durationMs > longestFrame.durationMs)) longestFrame = { ...frame, run: s.run, guideAtMs: s.fromNavigationMs };
    const guide = s.mainThread.guideFrame;
    if (guide && (!longestGuideFrame || guide.durationMs > longestGuideFrame.durationMs)) longestGuideFrame = { ...guide, run: s.run, guideAtMs: s.fromNavigationMs };
  }
  return {
    longestTaskMs: quantiles(windows.map((w) => w.longestTaskMs)),
    agentLongestTaskMs: quantiles(windows.map((w) => w.agentLongestTaskMs)),
    guideLongestTaskMs: quantiles(windows.map((w) => w.guideLongestTaskMs).filter(Number.isFinite)),
    longTasks: windows.reduce((n, w) => n + w.longTasksMs.length, 0),
    runsWithLongTask: windows.filter((w) => w.longTasksMs.length > 0).length,
    loafBlockingMs: quantiles(windows.map((w) => w.loafBlockingMs)),
    agentLoafBlockingMs: quantiles(windows.map((w) => w.agentLoafBlockingMs)),
    agentScriptMs: quantiles(windows.map((w) => w.agentScriptMs)),
    longestFrame,
    longestGuideFrame,
    topFileOfLongestFrame,
    loafSupported: windows.every((w) => w.loafSupported),
  };
}

/**
 * `latencyMs` (default 0, loopback): each request to the collector (`/data/`) waits that long before it goes,
 * as if the collector were that far away; guide.json's wait comes before it is handed over, so it counts in the
 * time from navigation start only.
 */
export async function measureGuideTime(
  browser: Browser,
  runs: number,
  log: (line: string) => void,
  cases: readonly GuideCase[] = GUIDE_CASES,
  latencyMs = 0,
  surfaces: readonly GuideSurface[] = GUIDE_SURFACES,
): Promise<GuideTimeRun> {
  const guidesDir = mkdtempSync(join(tmpdir(), 'waymark-bench-guide-'));
  for (const surface of surfaces) {
    const guide = benchGuide(surface);
    writeFileSync(join(guidesDir, `${guide.id}.json`), JSON.stringify(guide.json));
  }
  const server = await startServer({ port: 0, dataDir: 'memory://', guidesDir, adminToken: BENCH_ADMIN_TOKEN });
  const samples = Object.fromEntries(GUIDE_SURFACES.map((s) => [s, { cold: [], warm: [], returning: [], pendo: [] }])) as unknown as GuideTimeRun['samples'];
  const baselineSamples: GuideSample[] = [];
  const problems: string[] = [];
  const unsupported = new Map<string, string>();
  // Every page of a run: the page without an agent, then each surface's cases.
  const pages: Array<{ surface: GuideSurface; kind: GuideCase } | null> = [null, ...surfaces.flatMap((surface) => cases.map((kind) => ({ surface, kind })))];
  try {
    for (let run = 0; run < runs; run++) {
      // The order turns each run, so no page always follows the same one.
      const order = pages.map((_, i) => pages[(i + run) % pages.length]!);
      for (const entry of order) {
        if (entry && unsupported.has(`${entry.kind} ${entry.surface}`)) continue;
        const kind = entry?.kind ?? 'none';
        const label = entry ? `${entry.surface} ${entry.kind}` : 'no agent';
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          const trace = TRACE && entry ? await startTrace(page) : undefined;
          const path = entry ? `${server.url}${guidePagePrefix(entry.surface)}${kind}-${run}.html` : `${server.url}/bench/guide-none-${run}.html`;
          const visitorId = `bench-guide-${entry?.surface ?? 'none'}-${kind}-${run}`;
          const html =
            kind === 'pendo'
              ? buildBenchPage({ withAgent: false, peerHead: peerHead('pendo', `${API_KEY}-pendo`, visitorId), visitorId })
              : buildBenchPage({ withAgent: entry !== null, apiKey: API_KEY, visitorId });
          if (kind === 'pendo') await routePeers(page, server.url);
          await page.route(`${path}*`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
          const earlier = `${server.url}/bench/earlier-${kind}-${run}.html`;
          await page.route(`${earlier}*`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
          const preset = kind === 'warm' || kind === 'returning' ? `localStorage.setItem(${JSON.stringify(`_wm_overlay.${API_KEY}`)}, 'true');` : '';
          // A string, not a function: tsx names the arrow functions of a function it passes with a helper
          // (`__name`) that does not exist in the page.
          await page.addInitScript(guideWindowScript(entry ? drawnExpression(entry.surface, kind === 'pendo' ? 'pendo' : 'waymark') : null, preset));
          // guide.json passes through the bench on its way to the agent: it is handed over at `arrived`.
          let arrived = NaN;
          const away = () => (latencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, latencyMs)) : undefined);
          if (latencyMs > 0) await context.route('**/data/**', async (route) => (await away(), route.fallback()));
          await context.route('**/data/guide.json/**', async (route) => {
            await away();
            const response = await route.fetch();
            const body = await response.body();
            arrived = Date.now();
            await route.fulfill({ response, body });
          });
          for (let seen = 0; kind === 'returning' && seen < RETURNING_PAGES; seen++) {
            // A page of the app without the guide: the agent loads its display chunk there (the flag), from the
            // server the first time and revalidated (304) after: the overlay (React), or since issue #34 the steps
            // chunk (a step painted without React).
            const overlay = page.waitForResponse((r) => DISPLAY_CHUNK.test(r.url()), { timeout: 10_000 });
            await page.goto(earlier, { waitUntil: 'load' });
            await overlay;
            await page.waitForTimeout(300);
          }
          arrived = NaN;
          await page.goto(path, { waitUntil: 'load' });
          // One read when the page's window is over: the bench runs nothing in the page before then.
          const record = await readGuideWindow(page, DRAW_TIMEOUT_MS + 2_000);
          const visibleAt = record.timeOrigin + record.visibleAt;
          if (trace) printTraceWindow(await trace.stop(), `${label.replace(' ', '-')}-${run + 1}`, arrived - record.timeOrigin, record.visibleAt, log);
          const sample: GuideSample = {
            run: run + 1,
            visibleMs: entry && Number.isFinite(arrived) ? visibleAt - arrived : NaN,
            fromNavigationMs: record.visibleAt,
            // guide.json's hand-over on the page's clock (both are the machine's wall clock).
            mainThread: summarizeWindow(record, agentFilesOf(kind), arrived - record.timeOrigin),
          };
          if (!entry) baselineSamples.push(sample);
          else {
            if (!Number.isFinite(arrived)) problems.push(`${label} run ${run + 1}: guide.json's response was not seen`);
            samples[entry.surface][entry.kind].push(sample);
          }
        } catch (err) {
          const page = context.pages()[0];
          if (kind === 'pendo' && entry && run === 0) {
            // Pendo's agent draws what its own guide code knows of the payload; a surface it does not draw is a
            // finding about the payload, not a failure of the bench.
            const why = `Pendo's agent did not draw the ${entry.surface} from the same payload within ${DRAW_TIMEOUT_MS / 1000} s (run 1: ${String(err).split('\n')[0]}); its later runs skipped`;
            unsupported.set(`${kind} ${entry.surface}`, why);
            log(`  ${why}`);
          } else {
            const debug = page ? await page.evaluate(async () => JSON.stringify(await (window as any).waymark?.debugGuides?.())).catch(() => '') : '';
            problems.push(`${label} run ${run + 1}: ${String(err).split('\n')[0]} ${debug}`);
          }
        } finally {
          await context.close();
        }
      }
      log(`  guide run ${run + 1} of ${runs} done`);
    }
  } finally {
    await server.close();
    rmSync(guidesDir, { recursive: true, force: true });
  }
  const summary = {} as GuideTimeRun['summary'];
  for (const surface of GUIDE_SURFACES) {
    summary[surface] = {} as Record<GuideCase, GuideCaseSummary>;
    for (const kind of GUIDE_CASES) {
      const list = samples[surface][kind];
      const fromNavigation = list.map((s) => s.fromNavigationMs);
      summary[surface][kind] = {
        runs: list.length,
        visibleMs: quantiles(list.map((s) => s.visibleMs).filter(Number.isFinite)),
        fromNavigationMedian: fromNavigation.length ? percentile(fromNavigation, 0.5) : NaN,
        ...summarizeMainThread(list),
      };
    }
  }
  return {
    surfaces: [...surfaces],
    cases: [...cases],
    samples,
    baselineSamples,
    summary,
    baseline: { runs: baselineSamples.length, ...summarizeMainThread(baselineSamples) },
    unsupported: [...unsupported.values()],
    problems,
  };
}
