/**
 * Issue #16: how long after its guide.json answer arrives a guide is on screen. A one-step lightbox (the
 * Pendo-format payload the agent accepts, served by the reference server's guide folder) shows on the bench
 * page for a new visitor each run. `arrivedAt`: when the bench hands guide.json's response to the browser (the
 * request is routed through Playwright, which fetches it from the server first; Chromium's own timing of a
 * worker's request came out later than the page's reaction to it in a quarter of the runs, so it is not
 * used). The handing over itself takes a few ms of IPC, counted against the agent. `visibleAt`: the end of
 * the frame that paints the lightbox (a 2 ms poll in the page notices it, then the task after its frame).
 *
 * Two cases, alternating: `cold`, a browser that never saw a guide of this app (the overlay chunk is fetched
 * after guide.json answers), and `warm`, one that did (`_wm_overlay.{apiKey}` kept: the chunk loads beside
 * guide.json). Each run has a browser context of its own, so no HTTP cache carries over between runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startServer } from '../server/createServer';
import { buildBenchPage } from './benchPage';
import { BENCH_ADMIN_TOKEN } from './benchConfig';
import { percentile } from './measureIsolatedClicks';

export type GuideCase = 'cold' | 'warm';

export interface GuideTimeRun {
  /** ms from guide.json's response end to the lightbox's first frame, per case, in run order. */
  visibleMs: Record<GuideCase, number[]>;
  summary: Record<GuideCase, { median: number; p90: number; max: number }>;
  problems: string[];
}

const API_KEY = 'bench-guides';

/** The bench's lightbox, as a guide author's tool would write it. */
function lightboxGuide(): unknown {
  return {
    id: 'bench-lightbox',
    name: 'Bench lightbox',
    launchMethod: 'auto',
    steps: [
      {
        id: 'bench-lightbox-1',
        guideId: 'bench-lightbox',
        type: 'lightbox',
        regexUrlRule: '/bench/guide-',
        domJson: {
          type: 'div',
          props: { id: 'guide-base' },
          children: [
            { type: 'h2', props: {}, content: 'Welcome to Reports' },
            { type: 'p', props: {}, content: 'Build a report from any table: pick the columns, then share it with your team.' },
            { type: 'button', props: { id: 'bench-ok' }, content: 'Got it', actions: [{ action: 'dismissGuide', eventType: 'click', parameters: [] }] },
          ],
        },
      },
    ],
  };
}

export async function measureGuideTime(browser: Browser, runs: number, log: (line: string) => void): Promise<GuideTimeRun> {
  const guidesDir = mkdtempSync(join(tmpdir(), 'waymark-bench-guide-'));
  writeFileSync(join(guidesDir, 'bench-lightbox.json'), JSON.stringify(lightboxGuide()));
  const server = await startServer({ port: 0, dataDir: 'memory://', guidesDir, adminToken: BENCH_ADMIN_TOKEN });
  const visibleMs: GuideTimeRun['visibleMs'] = { cold: [], warm: [] };
  const problems: string[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const kind of (run % 2 ? ['warm', 'cold'] : ['cold', 'warm']) as GuideCase[]) {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          const path = `${server.url}/bench/guide-${kind}-${run}.html`;
          const html = buildBenchPage({ withAgent: true, apiKey: API_KEY, visitorId: `bench-guide-${kind}-${run}` });
          await page.route(`${path}*`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
          await page.addInitScript(
            ({ warm, key }) => {
              if (warm) localStorage.setItem(key, 'true');
              // A 2 ms poll notices the lightbox in the page (without asking for its layout, which would force it);
              // it is visible once the frame that paints it is done: the task after that frame's animation callback.
              const poll = setInterval(() => {
                if (!document.querySelector('[data-waymark-overlay]')?.shadowRoot?.querySelector('.wm-lightbox')) return;
                clearInterval(poll);
                requestAnimationFrame(() =>
                  setTimeout(() => ((window as unknown as { visibleAt: number }).visibleAt = performance.timeOrigin + performance.now())),
                );
              }, 2);
            },
            { warm: kind === 'warm', key: `_wm_overlay.${API_KEY}` },
          );
          // guide.json passes through the bench on its way to the worker: it is handed over at `arrived`.
          let arrived = NaN;
          await context.route('**/data/guide.json/**', async (route) => {
            const response = await route.fetch();
            const body = await response.body();
            arrived = Date.now();
            await route.fulfill({ response, body });
          });
          await page.goto(path, { waitUntil: 'load' });
          await page.waitForFunction(() => (window as unknown as { visibleAt?: number }).visibleAt !== undefined, undefined, { timeout: 15_000 });
          const visibleAt = await page.evaluate(() => (window as unknown as { visibleAt: number }).visibleAt);
          const arrivedAt = arrived;
          if (!Number.isFinite(arrivedAt)) problems.push(`${kind} run ${run + 1}: guide.json's response was not seen`);
          else visibleMs[kind].push(visibleAt - arrivedAt);
        } catch (err) {
          const page = context.pages()[0];
          const debug = page ? await page.evaluate(async () => JSON.stringify(await (window as any).waymark?.debugGuides?.())).catch(() => '') : '';
          problems.push(`${kind} run ${run + 1}: ${String(err)} ${debug}`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await server.close();
    rmSync(guidesDir, { recursive: true, force: true });
  }
  const summary = {} as GuideTimeRun['summary'];
  for (const kind of ['cold', 'warm'] as const) {
    const values = visibleMs[kind];
    summary[kind] = values.length ? { median: percentile(values, 0.5), p90: percentile(values, 0.9), max: Math.max(...values) } : { median: NaN, p90: NaN, max: NaN };
    log(`  guide visible after guide.json, ${kind}: median ${summary[kind].median.toFixed(1)} ms, p90 ${summary[kind].p90.toFixed(1)} ms, max ${summary[kind].max.toFixed(1)} ms (${values.length} runs)`);
  }
  return { visibleMs, summary, problems };
}
