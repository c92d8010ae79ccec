/**
 * Issue #16: what one isolated click costs the main thread in the agent's own code, from a trace. The
 * TaskDuration windows of measureIsolatedClicks.ts count everything the page's main thread does, so the few
 * hundred µs an agent adds sit on top of a few ms that Chromium itself spends per click (hit testing, paint,
 * commit), which vary by more than that from click to click on this machine: the difference of two medians of
 * 16 is mostly noise there. Here each agent's pages are traced (CDP Tracing, timeline categories) and only the
 * agent's share of each click's 2 s window is added up:
 * - a task the agent started (its timer, its message from a worker, its idle callback): the whole task, the
 *   task's own overhead included, since without the agent it would not run;
 * - inside a task someone else started (the click's input task): the agent's script calls only (its listeners,
 *   with what they call, native postMessage included).
 * A script call is the agent's when its script URL is one of the agent's files. What the agent's periodic timers
 * take anyway (the URL poll, the guide loop; Pendo's and posthog's own) is measured the same way in a window of
 * the same length without a click after each click's, and the median of those is taken off each click's, as the
 * TaskDuration part does. Each agent on its own page in its own browser context; /data and the peers' endpoints are held
 * during the clicks, as in measureIsolatedClicks.ts, so the collector's work stays out.
 */
import type { Browser } from 'playwright-core';
import { agentStarted, holdCollector, routeAgentPage, type AgentVariant, type CollectorHold } from './agentPages';
import { percentile, targetPoint } from './measureIsolatedClicks';

export interface ClickAttributionOptions {
  clicks: number;
  /** Quiet time before each click. */
  idleMs: number;
  /** The click's window. */
  settleMs: number;
  apiKey: string;
}

type Agent = Exclude<AgentVariant, 'baseline'>;

export interface ClickAttributionRun {
  /** Per agent: its own main-thread µs per click window, background taken off; p50 and p90 over the clicks. */
  perClick: Record<Agent, { p50: number; p90: number; background: number; windows: number[] }>;
  problems: string[];
}

/** The agent's files, by script URL. */
const AGENT_SCRIPTS: Record<Agent, RegExp> = {
  worker: /\/waymark(?:\.[\w-]+)?\.js(?:[?#]|$)/,
  'main-thread': /\/waymark(?:\.[\w-]+)?\.js(?:[?#]|$)/,
  pendo: /\/peer\/pendo\//,
  posthog: /\/peer\/posthog\/|\/peer-api\/static\//,
};

/** Trace events that open a task on someone's behalf (a timer, a callback, a message): the agent's when it runs the agent's script. */
const TASK_STARTERS = new Set(['TimerFire', 'FireIdleCallback', 'FireAnimationFrame', 'HandlePostMessage']);
const TASK = 'ThreadControllerImpl::RunTask';
const startsTask = (e: TraceEvent) => TASK_STARTERS.has(e.name) || (e.name === 'EventDispatch' && e.args?.data?.type === 'message');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread time: the CPU the slice took on its thread (preemption by other processes left out). */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; scriptName?: string; type?: string } };
}

export async function measureClickAttribution(browser: Browser, serverUrl: string, agents: readonly Agent[], options: ClickAttributionOptions, log: (line: string) => void): Promise<ClickAttributionRun> {
  const perClick = {} as ClickAttributionRun['perClick'];
  const problems: string[] = [];
  for (const agent of agents) {
    const context = await browser.newContext();
    let collector: CollectorHold | undefined;
    try {
      const page = await context.newPage();
      const path = await routeAgentPage(page, serverUrl, agent, 'attribution', options.apiKey);
      collector = await holdCollector(page, serverUrl);
      await page.goto(path, { waitUntil: 'load' });
      await agentStarted(page, agent);
      await page.waitForTimeout(1500);
      collector.hold();
      const cdp = await context.newCDPSession(page);
      const events: TraceEvent[] = [];
      cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.start', { categories: 'devtools.timeline,toplevel,v8.execute,blink.user_timing', transferMode: 'ReportEvents' });
      await page.evaluate(() => performance.mark('waymark-bench-start'));
      for (let i = 0; i < options.clicks; i++) {
        const at = await targetPoint(page, i);
        await page.waitForTimeout(options.idleMs);
        await page.evaluate((n) => performance.mark(`waymark-bench-click-${n}`), i);
        await page.mouse.click(at.x, at.y);
        await page.waitForTimeout(options.settleMs);
        await page.evaluate((n) => performance.mark(`waymark-bench-idle-${n}`), i);
        await page.waitForTimeout(options.settleMs);
      }
      await cdp.send('Tracing.end');
      await complete;
      collector.release();
      const result = attribute(events, AGENT_SCRIPTS[agent], options);
      if (typeof result === 'string') {
        problems.push(`${agent}: ${result}`);
        continue;
      }
      perClick[agent] = { p50: percentile(result.windows, 0.5), p90: percentile(result.windows, 0.9), background: result.background, windows: result.windows };
      log(`  attributed click ${agent.padEnd(11)} p50 ${perClick[agent].p50.toFixed(0)} µs, p90 ${perClick[agent].p90.toFixed(0)} µs ` +
        `(its own background, ${result.background.toFixed(0)} µs per ${options.settleMs} ms window without a click, taken off)`);
    } finally {
      collector?.release();
      await context.close();
    }
  }
  return { perClick, problems };
}

/**
 * A slice's thread time when the trace has it, else its wall time: this 2-core machine preempts the page's thread
 * often enough (a 100 µs task showing 4 ms of wall time) that wall time would measure the machine.
 */
const cost = (e: TraceEvent) => e.tdur ?? e.dur ?? 0;

/** The agent's µs per click window (background off), and its background per window; or what went wrong. */
function attribute(events: TraceEvent[], agentScript: RegExp, options: ClickAttributionOptions): { windows: number[]; background: number } | string {
  const start = events.find((e) => e.name === 'waymark-bench-start');
  if (!start) return 'the trace has no start mark';
  const main = events.filter((e) => e.pid === start.pid && e.tid === start.tid);
  const marksOf = (prefix: string) => main.filter((e) => e.name.startsWith(prefix)).map((e) => e.ts).sort((a, b) => a - b);
  const marks = marksOf('waymark-bench-click-');
  const idles = marksOf('waymark-bench-idle-');
  if (marks.length !== options.clicks || idles.length !== options.clicks) return `the trace has ${marks.length} click and ${idles.length} idle marks, not ${options.clicks}`;
  // The main thread's tasks, as the scheduler runs them (the top-level slice with these categories).
  const tasks = main.filter((e) => e.ph === 'X' && e.name === TASK).sort((a, b) => a.ts - b.ts);
  const slices = main.filter((e) => e.ph === 'X' && e.name !== TASK).sort((a, b) => a.ts - b.ts);
  const isAgentCall = (e: TraceEvent) => (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile') && agentScript.test(e.args?.data?.url ?? e.args?.data?.scriptName ?? '');
  /** µs the agent took in the tasks starting within [from, to). */
  const agentTime = (from: number, to: number): number => {
    let total = 0;
    let s = 0;
    for (const task of tasks) {
      if (task.ts < from) continue;
      if (task.ts >= to) break;
      const end = task.ts + (task.dur ?? 0);
      while (s < slices.length && slices[s]!.ts < task.ts) s++;
      const inside: TraceEvent[] = [];
      for (let k = s; k < slices.length && slices[k]!.ts < end; k++) inside.push(slices[k]!);
      const first = inside[0];
      const agentCalls = inside.filter(isAgentCall);
      if (!agentCalls.length) continue;
      // A task the agent's own timer, message or callback started: all of it is the agent's.
      if (first && startsTask(first) && inside.some((e) => e.ts >= first.ts && e.ts < first.ts + (first.dur ?? 0) && isAgentCall(e))) {
        total += cost(task);
        if (process.env.BENCH_ATTRIBUTION_DEBUG) console.log(`    task +${((task.ts - from) / 1000).toFixed(1)} ms ${cost(task)} µs ${first.name} ${agentCalls[0]!.args?.data?.url?.split('/').pop()} ${inside.slice(0, 8).map((e) => `${e.name}:${cost(e)}`).join(' ')}`);
        continue;
      }
      // Someone else's task (the click's input): the agent's outermost calls only.
      let coveredUntil = -1;
      for (const call of agentCalls) {
        if (call.ts < coveredUntil) continue;
        total += cost(call);
        if (process.env.BENCH_ATTRIBUTION_DEBUG) console.log(`    call +${((call.ts - from) / 1000).toFixed(1)} ms ${cost(call)} µs in ${first?.name} ${call.args?.data?.url?.split('/').pop()}`);
        coveredUntil = call.ts + (call.dur ?? 0);
      }
    }
    return total;
  };
  const window = options.settleMs * 1000;
  const background = percentile(idles.map((at) => agentTime(at, at + window)), 0.5);
  return {
    windows: marks.map((at, i) => {
      if (process.env.BENCH_ATTRIBUTION_DEBUG) console.log(`  click ${i}`);
      return agentTime(at, at + window) - background;
    }),
    background,
  };
}
