/**
 * Issue #16's table beside the isolated clicks: for each agent on the same bench page in the same run (no agent,
 * Waymark in its worker, Waymark on the main thread, Pendo's agent, posthog-js), what starting costs the page
 * (main-thread task and script time from navigation until the agent is ready and 1 s after), what a burst of
 * real clicks costs per click (CDP Input, so posthog-js's autocapture sees them), the long tasks during that
 * burst, and the JavaScript heap after it (after a forced garbage collection). Every figure is the agent's page
 * minus the page without an agent.
 */
import type { Browser, Page } from 'playwright-core';
import { agentStarted, AGENT_VARIANTS, routeAgentPage, type AgentVariant } from './agentPages';
import { BENCH_TARGET_SELECTOR } from './benchPage';
import { createMainThreadProbe } from './measureMainThread';
import { observeLongTasks, readLongTasks } from './observeLongTasks';

export type SideBySideVariant = AgentVariant;

export interface SideBySideOptions {
  /** Real clicks in the burst, one every `gapMs`. */
  clicks: number;
  gapMs: number;
  apiKey: string;
}

export interface SideBySideRow {
  variant: SideBySideVariant;
  /** Main-thread TaskDuration and ScriptDuration from navigation to ready + 1 s, ms. */
  startupTaskMs: number;
  startupScriptMs: number;
  /** TaskDuration of the burst per click, µs. */
  burstUsPerClick: number;
  longTasks: number;
  /** JSHeapUsedSize after the burst and a forced GC, MB. */
  heapMb: number;
}

export interface SideBySideRun {
  rows: SideBySideRow[];
  /** Each agent's row minus the no-agent row (same units). */
  added: Record<Exclude<SideBySideVariant, 'baseline'>, Omit<SideBySideRow, 'variant'>>;
  problems: string[];
}

export async function measureAgentsSideBySide(browser: Browser, serverUrl: string, options: SideBySideOptions, log: (line: string) => void): Promise<SideBySideRun> {
  const rows: SideBySideRow[] = [];
  const problems: string[] = [];
  for (const variant of AGENT_VARIANTS) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.on('pageerror', (err) => problems.push(`${variant}: uncaught: ${err.message}`));
      const path = await routeAgentPage(page, serverUrl, variant, 'side', options.apiKey);
      const probe = await createMainThreadProbe(page);
      const startup = await probe.measure(async () => {
        await page.goto(path, { waitUntil: 'load' });
        await agentStarted(page, variant);
      }, 1000);
      const points = await page.evaluate((selector) => {
        return Array.from(document.querySelectorAll<HTMLElement>(selector))
          .slice(0, 16)
          .map((el) => {
            const box = el.getBoundingClientRect();
            return { x: box.left + box.width / 2, y: box.top + box.height / 2, visible: box.top >= 0 && box.bottom <= innerHeight };
          })
          .filter((p) => p.visible);
      }, BENCH_TARGET_SELECTOR);
      if (!points.length) throw new Error('no click target in view');
      const since = await page.evaluate(observeLongTasks);
      const burst = await probe.measure(async () => {
        for (let i = 0; i < options.clicks; i++) {
          const p = points[i % points.length]!;
          await page.mouse.click(p.x, p.y);
          if (options.gapMs) await page.waitForTimeout(options.gapMs);
        }
      }, 1000);
      const longTasks = (await page.evaluate(readLongTasks, since)).length;
      const heapMb = await heapAfterGc(page);
      await probe.detach();
      const row: SideBySideRow = {
        variant,
        startupTaskMs: startup.deltas.TaskDuration,
        startupScriptMs: startup.deltas.ScriptDuration,
        burstUsPerClick: (burst.deltas.TaskDuration * 1000) / options.clicks,
        longTasks,
        heapMb,
      };
      rows.push(row);
      log(`  side by side ${variant.padEnd(11)} startup ${row.startupTaskMs.toFixed(1)} ms (script ${row.startupScriptMs.toFixed(1)}), ` +
        `${row.burstUsPerClick.toFixed(0)} µs per real click, ${longTasks} long tasks, heap ${heapMb.toFixed(2)} MB`);
    } catch (err) {
      problems.push(`${variant}: ${String(err)}`);
    } finally {
      await context.close();
    }
  }
  const base = rows.find((r) => r.variant === 'baseline');
  const added = {} as SideBySideRun['added'];
  for (const row of rows) {
    if (row.variant === 'baseline' || !base) continue;
    added[row.variant] = {
      startupTaskMs: row.startupTaskMs - base.startupTaskMs,
      startupScriptMs: row.startupScriptMs - base.startupScriptMs,
      burstUsPerClick: row.burstUsPerClick - base.burstUsPerClick,
      longTasks: row.longTasks - base.longTasks,
      heapMb: row.heapMb - base.heapMb,
    };
  }
  return { rows, added, problems };
}

/** The page's JS heap in use after a forced garbage collection, MB. */
async function heapAfterGc(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.enable');
    await session.send('HeapProfiler.collectGarbage');
    await session.send('Performance.enable');
    const { metrics } = await session.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / (1024 * 1024);
  } finally {
    await session.detach().catch(() => undefined);
  }
}
