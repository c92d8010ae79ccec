/**
 * The main-thread price of one isolated click, per install mode (issue #7) and against the peers (issue #16): a
 * click after 100 ms of quiet, its window closed 2 s later (CONFIG.isolated.settleMs) so everything the click
 * causes falls inside it. Five pages side by side: without an agent, with Waymark in a dedicated worker, with
 * Waymark forced onto the main thread (the page's CSP says `worker-src 'none'`, as a strict host's might), with
 * Pendo's agent, and with posthog-js (bench/peerAgents.ts). Each
 * click's window is read from Chromium's TaskDuration counter (bench/measureMainThread.ts). Between the
 * clicks, a window of the same length without a click measures what each page spends anyway (the agent's
 * 500 ms guide loop and URL poll land in some windows): a click's price is its window minus that, and the
 * agent's added price is that difference on its page minus the same on the page without it.
 */
import type { Browser, Page } from 'playwright-core';
import { BENCH_TARGET_SELECTOR } from './benchPage';
import { createMainThreadProbe } from './measureMainThread';
import { agentStarted, AGENT_VARIANTS, holdCollector, routeAgentPage, type AgentVariant, type CollectorHold } from './agentPages';
import { spreadOf, type Spread } from './summarize';

/** The page without an agent, Waymark in its two modes, and the peers (issue #16). */
export type IsolatedVariant = AgentVariant;
const VARIANTS = AGENT_VARIANTS;

export interface IsolatedClickOptions {
  /** Clicks per page. */
  clicks: number;
  /** Quiet time before each click. */
  idleMs: number;
  /** Time after each click still inside its window. */
  settleMs: number;
  /**
   * Unmeasured quiet after a click's window, before the idle window: what a click defers past its window
   * (posthog-js sends its batch ~3 s after) must not land in the idle window and be taken off the click's price.
   */
  afterMs: number;
  apiKey: string;
}

export interface IsolatedClickRun {
  /** TaskDuration of each click's window, µs, per page. */
  windowsUs: Record<IsolatedVariant, number[]>;
  /** TaskDuration of the windows without a click, µs, per page. */
  idleWindowsUs: Record<IsolatedVariant, number[]>;
  /** What getWorkerMode() answered on the two agent pages. */
  modes: Record<'worker' | 'main-thread', string | null>;
  /**
   * Per agent (Waymark's modes, the peers), µs: (click-window percentile − idle-window median) on its page,
   * minus the same on the page without an agent.
   */
  added: Record<Exclude<AgentVariant, 'baseline'>, { p50: number; p90: number }>;
  spreads: Record<IsolatedVariant, Spread & { p90: number }>;
  idleSpreads: Record<IsolatedVariant, Spread>;
  problems: string[];
}

interface AgentWindow {
  waymark?: { isReady?(): boolean; flushNow(): Promise<unknown>; getWorkerMode?(): string | null };
}

export async function measureIsolatedClicks(browser: Browser, serverUrl: string, options: IsolatedClickOptions, log: (line: string) => void): Promise<IsolatedClickRun> {
  const windowsUs = {} as IsolatedClickRun['windowsUs'];
  const idleWindowsUs = {} as IsolatedClickRun['idleWindowsUs'];
  const modes = { worker: null, 'main-thread': null } as IsolatedClickRun['modes'];
  const problems: string[] = [];
  for (const variant of VARIANTS) {
    const context = await browser.newContext();
    let collector: CollectorHold | undefined;
    try {
      const page = await context.newPage();
      page.on('pageerror', (err) => problems.push(`${variant}: uncaught: ${err.message}`));
      const path = await routeAgentPage(page, serverUrl, variant, 'isolated', options.apiKey);
      // As in the other parts: the collector's own work on this 2-core machine is kept out of the windows.
      collector = await holdCollector(page, serverUrl);
      const probe = await createMainThreadProbe(page);
      await page.goto(path, { waitUntil: 'load' });
      await agentStarted(page, variant);
      if (variant === 'worker' || variant === 'main-thread') {
        await page.evaluate(() => (window as unknown as AgentWindow).waymark!.flushNow());
        modes[variant] = await page.evaluate(() => (window as unknown as AgentWindow).waymark!.getWorkerMode?.() ?? null);
      }
      await page.waitForTimeout(500);
      collector.hold();
      const values: number[] = [];
      const idle: number[] = [];
      for (let i = 0; i < options.clicks; i++) {
        const at = await targetPoint(page, i);
        await page.waitForTimeout(options.idleMs);
        const measured = await probe.measure(() => page.mouse.click(at.x, at.y), options.settleMs);
        values.push(measured.deltas.TaskDuration * 1000);
        await page.waitForTimeout(options.afterMs);
        const quiet = await probe.measure(() => noClick(page, at), options.settleMs);
        idle.push(quiet.deltas.TaskDuration * 1000);
      }
      windowsUs[variant] = values;
      idleWindowsUs[variant] = idle;
      collector.release();
      await probe.detach();
      const spread = spreadOf(values);
      log(`  isolated clicks ${variant.padEnd(11)} median window ${spread.median.toFixed(0)} µs, p90 ${percentile(values, 0.9).toFixed(0)} µs, ` +
        `idle window ${spreadOf(idle).median.toFixed(0)} µs` +
        (variant === 'worker' || variant === 'main-thread' ? ` (mode ${modes[variant] ?? 'unknown'})` : ''));
    } finally {
      collector?.release();
      await context.close();
    }
  }
  const spreads = {} as IsolatedClickRun['spreads'];
  const idleSpreads = {} as IsolatedClickRun['idleSpreads'];
  for (const variant of VARIANTS) {
    spreads[variant] = { ...spreadOf(windowsUs[variant]), p90: percentile(windowsUs[variant], 0.9) };
    idleSpreads[variant] = spreadOf(idleWindowsUs[variant]);
  }
  const clickPrice = (variant: IsolatedVariant, at: 'median' | 'p90') => spreads[variant][at] - idleSpreads[variant].median;
  const addedOf = (variant: Exclude<AgentVariant, 'baseline'>) => ({
    p50: clickPrice(variant, 'median') - clickPrice('baseline', 'median'),
    p90: clickPrice(variant, 'p90') - clickPrice('baseline', 'p90'),
  });
  if (modes.worker !== 'worker') problems.push(`the worker page ran in mode ${modes.worker}, not worker`);
  if (modes['main-thread'] !== 'main-thread') problems.push(`the main-thread page ran in mode ${modes['main-thread']}, not main-thread`);
  const added = {} as IsolatedClickRun['added'];
  for (const variant of VARIANTS) if (variant !== 'baseline') added[variant] = addedOf(variant);
  return { windowsUs, idleWindowsUs, modes, added, spreads, idleSpreads, problems };
}

/**
 * Where to click the i-th target of the bench page, scrolled into view first (outside any window). The click
 * itself is a real one (CDP Input: isTrusted), as a visitor's: posthog-js's autocapture ignores script clicks.
 */
export async function targetPoint(page: Page, i: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ({ selector, n }) => {
      const targets = document.querySelectorAll<HTMLElement>(selector);
      const el = targets[n % targets.length]!;
      el.scrollIntoView({ block: 'center' });
      const box = el.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    },
    { selector: BENCH_TARGET_SELECTOR, n: i },
  );
}

/** A window's action without a click: the same DevTools traffic as a click's (a move, then two more in place). */
async function noClick(page: Page, at: { x: number; y: number }): Promise<void> {
  for (let i = 0; i < 3; i++) await page.mouse.move(at.x, at.y);
}

/** The value below which `share` of `values` lie (nearest rank). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
