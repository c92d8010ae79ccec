/**
 * `BENCH_GUIDE_TRACE=1 npm run bench:guides` (issue #34): a Chrome trace of each agent's page, and what the page's
 * threads did between guide.json's hand-over and the guide's frame, printed per run: each task of the renderer's
 * main thread and of its workers that overlaps that window, with its largest parts (a script by file, a compile,
 * style, layout, paint, a GC). Tracing costs time of its own: its figures say where the time goes, not how much
 * there is (the bench's figures are the ones without it). The traces are written to bench/results/traces/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { resultsDir } from './benchConfig';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; frame?: string } };
}

const CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'blink.user_timing', 'toplevel',
  'loading', 'disabled-by-default-devtools.timeline.frame', 'blink', 'disabled-by-default-v8.cpu_profiler',
].join(',');

/** Starts tracing `page`'s renderer; `stop` ends it and answers the events. */
export async function startTrace(page: Page): Promise<{ stop(): Promise<TraceEvent[]> }> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return {
    async stop() {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      return events;
    },
  };
}

/** A child event's label: a script by its file, else the event's name. */
function labelOf(event: TraceEvent): string {
  const url = event.args?.data?.url;
  const file = url ? url.split('/').pop()!.split('?')[0] || url : '';
  return file ? `${event.name} ${file}` : event.name;
}

const TASKS = new Set(['ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);

/**
 * Writes the trace to bench/results/traces/{name}.json and prints (through `log`) the tasks of the page's renderer
 * threads overlapping [fromMs, toMs] (the page's clock: ms after its navigation start).
 */
export function printTraceWindow(events: TraceEvent[], name: string, fromMs: number, toMs: number, log: (line: string) => void): void {
  const dir = join(resultsDir, 'traces');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ traceEvents: events }));
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const navigation = events.filter((e) => e.name === 'navigationStart').sort((a, b) => b.ts - a.ts)[0];
  if (!navigation) return log(`  trace ${name}: no navigationStart`);
  const at = (ts: number) => (ts - navigation.ts) / 1000;
  const pid = navigation.pid;
  log(`  trace ${name}: guide.json handed over at ${fromMs.toFixed(1)} ms, the guide's frame ended at ${toMs.toFixed(1)} ms`);
  const threads = [...threadNames].filter(([key, n]) => key.startsWith(`${pid}:`) && /CrRendererMain|Worker/.test(n));
  for (const [key, threadName] of threads) {
    const tid = Number(key.split(':')[1]);
    const own = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
    const tasks = own.filter((e) => TASKS.has(e.name) && at(e.ts + e.dur!) >= fromMs - 2 && at(e.ts) <= toMs + 2 && e.dur! >= 300);
    if (!tasks.length) continue;
    log(`    ${threadName}:`);
    for (const task of tasks) {
      const parts = new Map<string, number>();
      for (const e of own) {
        if (e === task || TASKS.has(e.name) || e.ts < task.ts || e.ts + e.dur! > task.ts + task.dur!) continue;
        const label = labelOf(e);
        parts.set(label, Math.max(parts.get(label) ?? 0, e.dur!));
      }
      const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([label, dur]) => `${label} ${(dur / 1000).toFixed(1)}`);
      log(`      ${at(task.ts).toFixed(1)}..${at(task.ts + task.dur!).toFixed(1)} (${(task.dur! / 1000).toFixed(1)} ms): ${top.join(', ')}`);
    }
  }
}
