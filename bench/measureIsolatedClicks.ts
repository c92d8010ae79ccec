/**
 * The main-thread price of one isolated click, per install mode (issue #7): a click after 100 ms of quiet,
 * its window closed 100 ms later so the shim's 50 ms batch and its post to the worker fall inside it.
 * Three pages side by side: without the agent, with the agent in a dedicated worker, and with the agent
 * forced onto the main thread (the page's CSP says `worker-src 'none'`, as a strict host's might). Each
 * click's window is read from Chromium's TaskDuration counter (bench/measureMainThread.ts). Between the
 * clicks, a window of the same length without a click measures what each page spends anyway (the agent's
 * 500 ms guide loop and URL poll land in some windows): a click's price is its window minus that, and the
 * agent's added price is that difference on its page minus the same on the page without it.
 */
import type { Browser, Page } from 'playwright-core';
import { buildBenchPage, BENCH_TARGET_SELECTOR } from './benchPage';
import { createMainThreadProbe } from './measureMainThread';
import { spreadOf, type Spread } from './summarize';

export type IsolatedVariant = 'baseline' | 'worker' | 'main-thread';

export interface IsolatedClickOptions {
  /** Clicks per page. */
  clicks: number;
  /** Quiet time before each click. */
  idleMs: number;
  /** Time after each click still inside its window. */
  settleMs: number;
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
   * Per agent mode, µs: (click-window percentile − idle-window median) on its page, minus the same on the
   * page without the agent.
   */
  added: Record<'worker' | 'main-thread', { p50: number; p90: number }>;
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
  for (const variant of ['baseline', 'worker', 'main-thread'] as const) {
    const context = await browser.newContext();
    let release: () => void = () => undefined;
    try {
      const page = await context.newPage();
      page.on('pageerror', (err) => problems.push(`${variant}: uncaught: ${err.message}`));
      const path = `${serverUrl}/bench/isolated-${variant}.html`;
      const html = buildBenchPage({ withAgent: variant !== 'baseline', apiKey: options.apiKey, visitorId: `bench-isolated-${variant}` });
      // No worker may start on the main-thread page: its worker and blob: modes fail, the last mode runs.
      const headers: Record<string, string> = variant === 'main-thread' ? { 'content-security-policy': "worker-src 'none'" } : {};
      await page.route(`${path}*`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers, body: html }));
      // As in the other parts: the collector's own work on this 2-core machine is kept out of the windows.
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      await page.route(`${serverUrl}/data/**`, async (route) => {
        if (holding) await held;
        await route.continue();
      });
      const probe = await createMainThreadProbe(page);
      await page.goto(path, { waitUntil: 'load' });
      if (variant !== 'baseline') {
        await page.waitForFunction(() => (window as unknown as AgentWindow).waymark?.isReady?.() === true);
        await page.evaluate(() => (window as unknown as AgentWindow).waymark!.flushNow());
        modes[variant] = await page.evaluate(() => (window as unknown as AgentWindow).waymark!.getWorkerMode?.() ?? null);
      }
      await page.waitForTimeout(500);
      holding = true;
      const values: number[] = [];
      const idle: number[] = [];
      for (let i = 0; i < options.clicks; i++) {
        await page.waitForTimeout(options.idleMs);
        const measured = await probe.measure(() => clickNth(page, i), options.settleMs);
        values.push(measured.deltas.TaskDuration * 1000);
        await page.waitForTimeout(options.idleMs);
        const quiet = await probe.measure(() => noClick(page), options.settleMs);
        idle.push(quiet.deltas.TaskDuration * 1000);
      }
      windowsUs[variant] = values;
      idleWindowsUs[variant] = idle;
      holding = false;
      release();
      await probe.detach();
      const spread = spreadOf(values);
      log(`  isolated clicks ${variant.padEnd(11)} median window ${spread.median.toFixed(0)} µs, p90 ${percentile(values, 0.9).toFixed(0)} µs, ` +
        `idle window ${spreadOf(idle).median.toFixed(0)} µs` +
        (variant === 'baseline' ? '' : ` (mode ${modes[variant] ?? 'unknown'})`));
    } finally {
      release();
      await context.close();
    }
  }
  const spreads = {} as IsolatedClickRun['spreads'];
  const idleSpreads = {} as IsolatedClickRun['idleSpreads'];
  for (const variant of ['baseline', 'worker', 'main-thread'] as const) {
    spreads[variant] = { ...spreadOf(windowsUs[variant]), p90: percentile(windowsUs[variant], 0.9) };
    idleSpreads[variant] = spreadOf(idleWindowsUs[variant]);
  }
  const clickPrice = (variant: IsolatedVariant, at: 'median' | 'p90') => spreads[variant][at] - idleSpreads[variant].median;
  const addedOf = (variant: 'worker' | 'main-thread') => ({
    p50: clickPrice(variant, 'median') - clickPrice('baseline', 'median'),
    p90: clickPrice(variant, 'p90') - clickPrice('baseline', 'p90'),
  });
  if (modes.worker !== 'worker') problems.push(`the worker page ran in mode ${modes.worker}, not worker`);
  if (modes['main-thread'] !== 'main-thread') problems.push(`the main-thread page ran in mode ${modes['main-thread']}, not main-thread`);
  return { windowsUs, idleWindowsUs, modes, added: { worker: addedOf('worker'), 'main-thread': addedOf('main-thread') }, spreads, idleSpreads, problems };
}

/** The i-th click target of the bench page, clicked from inside the page (a trusted-enough synthetic click). */
function clickNth(page: Page, i: number): Promise<void> {
  return page.evaluate(
    ({ selector, n }) => {
      const targets = document.querySelectorAll<HTMLElement>(selector);
      targets[n % targets.length]!.click();
    },
    { selector: BENCH_TARGET_SELECTOR, n: i },
  );
}

/** A window's action without a click: the same DevTools round trip as a click's. */
function noClick(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelectorAll('button').length);
}

/** The value below which `share` of `values` lie (nearest rank). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
