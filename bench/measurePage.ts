/** One page of the bench measured: a fresh context, the bench page with or without the agent, one burst. */
import type { Browser } from 'playwright-core';
import { BENCH_TARGET_COUNT, buildBenchPage } from './benchPage';
import { createMainThreadProbe } from './measureMainThread';
import { observeLongTasks, readLongTasks } from './observeLongTasks';
import { BENCH_ADMIN_TOKEN, CONFIG, type Variant, type Scenario, type BenchWindow, type PageSample } from './benchConfig';

/**
 * Opens a fresh context and page (no cache, storage or worker left by an earlier page), serves the bench
 * page on the server's origin so the agent's worker is same-origin, and measures one burst of `scenario`.
 */
export async function measurePage(browser: Browser, serverUrl: string, scenario: Scenario, variant: Variant, run: number, position: number): Promise<PageSample> {
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

    const visitorId = scenario.visitorId(run + 1);
    const html = buildBenchPage({ withAgent: variant === 'agent', apiKey: scenario.apiKey, visitorId, large: scenario.name === 'large' });
    // The query string tags this page's events with its run, so the collector can be counted per page.
    const path = `${serverUrl}/bench/${scenario.pagePath(variant)}.html`;
    const url = `${path}?run=${run + 1}`;
    await page.route(`${path}*`, (route) =>
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
    // Installed just before the window; what it reports from before (buffered entries) is filtered out.
    const longTasksSince = scenario.observeLongTasks ? await page.evaluate(observeLongTasks) : 0;

    held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const measured = await probe.measure(() => scenario.fire(page), scenario.settleMs);
    // Read before the collector requests are released and before flushNow, which are not the burst's.
    const longTasks = scenario.observeLongTasks ? await page.evaluate(readLongTasks, longTasksSince) : undefined;
    held = null;
    releaseHeld();
    await probe.detach();
    if (measured.result.clicks !== scenario.clicks) {
      throw new Error(`${variant} page fired ${measured.result.clicks} clicks, expected ${scenario.clicks}`);
    }

    const sample: PageSample = {
      scenario: scenario.name, variant, run: run + 1, position, url,
      deltas: measured.deltas, burst: measured.result, windowMs: measured.windowMs, longTasks, elementCount, heldRequests, problems,
    };
    if (variant === 'agent') {
      // The worker sends beacons ~1 s after events reach it; flushNow sends now. Closing the context before
      // the collector has them would lose them, so wait (bounded) for this page's clicks to be stored.
      const flushReport = await page.evaluate(() => (window as unknown as BenchWindow).waymark!.flushNow());
      const started = performance.now();
      let stored = 0;
      while (performance.now() - started < scenario.deliveryTimeoutMs) {
        stored = await storedClicks(serverUrl, { apiKey: scenario.apiKey, visitorId }, (eventUrl) => eventUrl === url);
        if (stored >= scenario.clicks) break;
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

/**
 * Click events the collector holds for `filter` whose page URL passes `urlFilter`. /api/events answers at most
 * 10,000 events, oldest first, so a filter must narrow it to one page's clicks when a page fires 10,000.
 */
export async function storedClicks(serverUrl: string, filter: { apiKey: string; visitorId?: string }, urlFilter: (url: string) => boolean): Promise<number> {
  const query = new URLSearchParams({ ...filter, type: 'click', limit: '10000' });
  const res = await fetch(`${serverUrl}/api/events?${query}`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
  if (!res.ok) throw new Error(`/api/events answered ${res.status}: ${await res.text()}`);
  const { events } = (await res.json()) as { events: Array<{ url?: unknown }> };
  return events.filter((e) => typeof e.url === 'string' && urlFilter(e.url)).length;
}
