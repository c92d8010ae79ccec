/**
 * `npm run bench:startup` (needs a build): only the startup column of the side-by-side part (issue #16), in a
 * few minutes instead of the whole bench's ten. Rounds of fresh browser contexts over the page without an agent,
 * Waymark in its worker and Pendo's agent, in turn; each page's main-thread ScriptDuration and TaskDuration from
 * navigation until its agent is ready + 1 s; medians per page and the added time over the page without an agent.
 *
 * `BENCH_PROFILE=1` also routes the unminified `waymark.staging.js` in place of `waymark.js` and takes a CDP
 * sampling profile (100 µs) of each Waymark start: the source lines with the most samples, summed over the
 * rounds, so a change can be aimed at what the start really spends (bench/README.md, the 2026-11-26 findings).
 * `BENCH_TRACE=1` instead records a CDP trace of each Waymark start (devtools.timeline, v8, v8.compile) and prints
 * the main thread's events by name and script, per start: where script time goes that no JavaScript line holds
 * (parsing, compiling, evaluating the script). `BENCH_ROUNDS` (default 7) sets the rounds. `BENCH_BEFORE=<dir>` adds a page `before` with Waymark from another
 * build's `dist/agent` (a clone of an earlier commit, built): the same run compares the two, each against Pendo.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../server/createServer';
import { agentStarted, routeAgentPage, type AgentVariant } from './agentPages';
import { BENCH_ADMIN_TOKEN, CONFIG } from './benchConfig';
import { createMainThreadProbe } from './measureMainThread';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PROFILE = process.env.BENCH_PROFILE === '1';
const TRACE = process.env.BENCH_TRACE === '1';
const BEFORE = process.env.BENCH_BEFORE;
/** Page variants in the order of a round; `before` is the worker page with the other build's files. */
const VARIANTS: string[] = ['baseline', 'worker', ...(BEFORE ? ['before'] : []), 'pendo'];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  positionTicks?: Array<{ line: number; ticks: number }>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const guidesDir = mkdtempSync(join(tmpdir(), 'waymark-startup-guides-'));
  const server = await startServer({ port: 0, dataDir: 'memory://', guidesDir, adminToken: BENCH_ADMIN_TOKEN });
  const browser = await chromium.launch({ executablePath: CONFIG.chromium.executablePath, args: [...CONFIG.chromium.args], headless: true });
  const script: Record<string, number[]> = {};
  const task: Record<string, number[]> = {};
  const lineTicks = new Map<string, number>();
  const traceTotals = new Map<string, number>();
  const staging = PROFILE ? readFileSync('dist/agent/waymark.staging.js', 'utf8') : '';
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of VARIANTS) {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          const path = await routeAgentPage(page, server.url, (variant === 'before' ? 'worker' : variant) as AgentVariant, 'side', CONFIG.sideBySide.apiKey);
          if (variant === 'before') {
            // Every agent file (waymark.js, the worker, the chunks) from the other build.
            await page.route(/\/waymark[.a-z]*\.js(\?.*)?$/, (route) => {
              const name = new URL(route.request().url()).pathname.split('/').pop()!;
              route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(join(BEFORE!, name)) }).catch(() => undefined);
            });
          }
          if (PROFILE && variant === 'worker') {
            await page.route('**/waymark.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: staging }));
          }
          const probe = await createMainThreadProbe(page);
          const profiler = PROFILE && variant === 'worker' ? await startProfile(page) : null;
          const tracer = TRACE && variant === 'worker' ? await startTrace(page) : null;
          const startup = await probe.measure(async () => {
            await page.goto(path, { waitUntil: 'load' });
            await agentStarted(page, (variant === 'before' ? 'worker' : variant) as AgentVariant);
          }, 1000);
          if (profiler) addTicks(await profiler(), lineTicks, staging);
          if (tracer) addTraceEvents(await tracer(), traceTotals);
          await probe.detach();
          (script[variant] ??= []).push(startup.deltas.ScriptDuration);
          (task[variant] ??= []).push(startup.deltas.TaskDuration);
        } finally {
          await context.close();
        }
      }
      console.log(`round ${round + 1}: ` + VARIANTS.map((v) => `${v} ${script[v]!.at(-1)!.toFixed(1)}`).join(', ') + ' ms script');
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(guidesDir, { recursive: true, force: true });
  }
  const base = { script: median(script.baseline!), task: median(task.baseline!) };
  for (const v of VARIANTS) {
    console.log(`${v.padEnd(9)} script ${median(script[v]!).toFixed(1)} ms (added ${(median(script[v]!) - base.script).toFixed(1)}), ` +
      `task ${median(task[v]!).toFixed(1)} ms (added ${(median(task[v]!) - base.task).toFixed(1)})`);
  }
  const added = (v: string) => median(script[v]!) - base.script;
  console.log(`Waymark (worker) / Pendo added startup script: ${(added('worker') / added('pendo')).toFixed(2)}x over ${ROUNDS} rounds`);
  if (BEFORE) console.log(`before (${BEFORE}) / Pendo: ${(added('before') / added('pendo')).toFixed(2)}x; this build / before: ${(added('worker') / added('before')).toFixed(2)}x`);
  if (TRACE) {
    console.log('\nmain-thread trace events of the Waymark page, ms per start (nested events overlap):');
    for (const [name, ms] of [...traceTotals].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(ms / ROUNDS).toFixed(2).padStart(8)}  ${name}`);
  }
  if (PROFILE) {
    console.log('\nwaymark.staging.js source lines by samples (100 µs each), all rounds:');
    for (const [line, ticks] of [...lineTicks].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${String(ticks).padStart(5)}  ${line}`);
  }
}

/** Starts the sampling profiler; answers a function that stops it and returns the nodes. */
async function startProfile(page: Page): Promise<() => Promise<ProfileNode[]>> {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 100 });
  await session.send('Profiler.start');
  return async () => {
    const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[] } };
    await session.detach();
    return profile.nodes;
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string } };
}

/** Starts a CDP trace; answers a function that ends it and returns its events. */
async function startTrace(page: Page): Promise<() => Promise<TraceEvent[]>> {
  const session = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await session.send('Tracing.start', {
    categories: 'devtools.timeline,v8,v8.execute,disabled-by-default-devtools.timeline,disabled-by-default-v8.compile',
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise((resolve) => session.once('Tracing.tracingComplete', resolve));
    await session.send('Tracing.end');
    await complete;
    await session.detach();
    return events;
  };
}

/** Sums the renderer main thread's complete events by name and script file. */
function addTraceEvents(events: TraceEvent[], into: Map<string, number>): void {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  for (const e of events) {
    if (!main || e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || typeof e.dur !== 'number') continue;
    const key = `${e.name} ${(e.args?.data?.url ?? '').replace(/^.*\//, '')}`.trim();
    into.set(key, (into.get(key) ?? 0) + e.dur / 1000);
  }
}

/** Adds each staging-script line's samples (self time at that line) to `into`, keyed by function, line and source text. */
function addTicks(nodes: ProfileNode[], into: Map<string, number>, source: string): void {
  const lines = source.split('\n');
  const parents = new Map<number, ProfileNode>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(child, node);
  for (const node of nodes) {
    const self = (node.positionTicks ?? []).reduce((n, t) => n + t.ticks, 0) || (node as { hitCount?: number }).hitCount || 0;
    const where = node.callFrame.url ? `[url] ${node.callFrame.url.replace(/^.*\//, '')}` : `[vm] ${node.callFrame.functionName}`;
    into.set(where, (into.get(where) ?? 0) + self);
    if (!node.callFrame.url.endsWith('/waymark.js')) continue;
    const caller = parents.get(node.id)?.callFrame.functionName || '(anonymous)';
    for (const { line, ticks } of node.positionTicks ?? []) {
      const key = `${caller} > ${node.callFrame.functionName || '(anonymous)'}:${line}  ${(lines[line - 1] ?? '').trim().slice(0, 80)}`;
      into.set(key, (into.get(key) ?? 0) + ticks);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
