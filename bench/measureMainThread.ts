/**
 * Main-thread time of a page over a window, from Chromium's own counters (CDP `Performance.getMetrics`).
 *
 * Why these counters and not a trace or performance.now(): the renderer adds up the duration of every task it
 * runs on the page's main thread (`TaskDuration`) and the part spent in script (`ScriptDuration`), whoever
 * posted the task. That includes what a wall-clock loop in the page cannot see: the agent's batch timer, the
 * structured clone of each batch posted to the worker, Comlink's replies, and garbage collection. It has no
 * tracing overhead and needs only two calls per window.
 */
import type { CDPSession, Page } from 'playwright-core';

/** Counters read at both ends of a window. All are cumulative seconds (CPU or task time). */
export const MAIN_THREAD_METRICS = [
  /** Wall time of all main-thread tasks. Inflated when the OS preempts the thread (2 cores, a server beside it). */
  'TaskDuration',
  /** The part of TaskDuration spent running JavaScript. */
  'ScriptDuration',
  /** CPU time of the main thread: immune to preemption, so a cross-check of TaskDuration. */
  'ThreadTime',
  /** CPU time of the whole renderer process, the agent's worker thread included. Coarse (~10 ms). */
  'ProcessTime',
  'LayoutDuration',
  'RecalcStyleDuration',
  /** Handling of DevTools commands (our own evaluate calls), the same on both pages. */
  'DevToolsCommandDuration',
] as const;

/** One of {@link MAIN_THREAD_METRICS}. */
export type MainThreadMetric = (typeof MAIN_THREAD_METRICS)[number];

/** Growth of each counter over a window, in milliseconds. */
export type MetricDeltas = Record<MainThreadMetric, number>;

/** What {@link MainThreadProbe.measure} returns. */
export interface Measurement<T> {
  /** What the action resolved to. */
  result: T;
  deltas: MetricDeltas;
  /** Wall time of the whole window, settle time included, in ms. */
  windowMs: number;
}

/** Measures windows of one page. */
export interface MainThreadProbe {
  /**
   * Reads the counters, runs `action`, waits `settleMs` so work the action left behind (timers, messages to
   * a worker) runs inside the window, and reads them again.
   */
  measure<T>(action: () => Promise<T>, settleMs: number): Promise<Measurement<T>>;
  detach(): Promise<void>;
}

/** Opens a CDP session on `page` and enables the Performance domain. Call before navigating. */
export async function createMainThreadProbe(page: Page): Promise<MainThreadProbe> {
  const session = await page.context().newCDPSession(page);
  // The default time domain (timeTicks) keeps TaskDuration a wall-clock sum; 'threadTicks' would turn it into
  // CPU time, which ThreadTime already gives.
  await session.send('Performance.enable');
  return {
    async measure(action, settleMs) {
      const start = await readMetrics(session);
      const startedAt = performance.now();
      const result = await action();
      await new Promise((r) => setTimeout(r, settleMs));
      const end = await readMetrics(session);
      const deltas = {} as MetricDeltas;
      for (const name of MAIN_THREAD_METRICS) deltas[name] = (end[name] - start[name]) * 1000;
      return { result, deltas, windowMs: performance.now() - startedAt };
    },
    async detach() {
      await session.detach().catch(() => undefined); // the page may already be closed
    },
  };
}

async function readMetrics(session: CDPSession): Promise<Record<MainThreadMetric, number>> {
  const { metrics } = await session.send('Performance.getMetrics');
  const values = new Map(metrics.map((m) => [m.name, m.value]));
  const out = {} as Record<MainThreadMetric, number>;
  for (const name of MAIN_THREAD_METRICS) {
    const value = values.get(name);
    if (value === undefined) throw new Error(`Chromium did not report the ${name} metric`);
    out[name] = value;
  }
  return out;
}
