/**
 * Issue #34: what a guide page's main thread went through from navigation start to 2 s after the guide shows:
 * its long tasks (Long Tasks API, `longtask`: tasks over 50 ms) and its long animation frames
 * (`long-animation-frame`, Chromium: frames over 50 ms, each with its blocking time and the scripts over 5 ms
 * that ran in it, by source URL, function and invoker). The observers are installed by an init script, before
 * any script of the page runs, with `buffered: true` besides; the page keeps what they saw and the bench reads
 * it once, when the page says its window is over, so nothing of the bench polls the page inside the window
 * (a `waitForFunction` would run a predicate every frame).
 */
import { basename } from 'node:path';
import type { Page } from 'playwright-core';

/** How long after the guide shows the window stays open (issue #34: "to 2 s after the first guide shows"). */
export const AFTER_VISIBLE_MS = 2000;

/** The init script's name in LoAF attributions: its frame watch is the bench's, not the agent's. */
export const BENCH_SCRIPT = 'bench-frame-watch.js';

/** One script of a long animation frame (PerformanceScriptTiming), as the page handed it over. */
export interface FrameScript {
  /** The script's file name (`waymark.overlay.js`, `pendo.module.min.js`, `page inline script`), else its invoker. */
  file: string;
  sourceURL: string;
  sourceFunctionName: string;
  /** What called it: `Window.requestAnimationFrame`, `MessagePort.onmessage`, a module's URL... */
  invoker: string;
  /** `user-callback`, `event-listener`, `resolve-promise`, `reject-promise`, `classic-script`, `module-script`. */
  invokerType: string;
  durationMs: number;
  /** Of its duration, style and layout it forced. */
  forcedStyleAndLayoutMs: number;
  /** When it started, page clock (ms after navigation start). */
  startMs: number;
}

/** One long animation frame, page clock (ms after navigation start). */
export interface LongFrame {
  startMs: number;
  durationMs: number;
  /** `blockingDuration`: the part of the frame's long tasks over 50 ms, its render included when it came last. */
  blockingMs: number;
  /** The frame's scripts over 5 ms, longest first. */
  scripts: FrameScript[];
}

/** The main thread over one page's window. */
export interface MainThreadWindow {
  /** The window's end, ms after navigation start. */
  endMs: number;
  /** Long tasks (> 50 ms) that started in the window, ms, in start order. */
  longTasksMs: number[];
  /** The longest of them; 0 when there was none (a task under 50 ms is not reported by the Long Tasks API). */
  longestTaskMs: number;
  /**
   * The longest long task the agent ran a script in (issue #34: "no long task caused by the agent"); 0 when none.
   * A long task is the agent's when one of its scripts started inside it: long-animation-frame entries list every
   * script over 5 ms of a frame over 50 ms, and a task over 50 ms makes its frame one. The whole task is counted,
   * the page's part of it too. A long task of the page alone (its first parse, style and layout, often over 50 ms
   * on this machine without any agent) is not the agent's, even when the agent's other thread or its requests
   * slowed it: the page without an agent beside, and longestTaskMs, show that.
   */
  agentLongestTaskMs: number;
  /**
   * The longest long task still running when guide.json was handed over, or later; 0 when none, NaN without
   * guide.json. The page's own load (its first parse and render, long on this VM without an agent too) is before.
   */
  guideLongestTaskMs: number;
  /** The long animation frames' blocking time, summed over the window. */
  loafBlockingMs: number;
  /** The same over the long frames the agent ran a script in (its scripts over 5 ms): the agent's blocking time. */
  agentLoafBlockingMs: number;
  /** Script time in long frames from the agent's own files (`agentFiles`). */
  agentScriptMs: number;
  /** The longest animation frame of the window, with its scripts; null when no frame was over 50 ms. */
  longestFrame: LongFrame | null;
  /**
   * The longest frame still running when guide.json was handed over, or later: the guide's own work (the page's
   * first frames come long before it, and are the longest on a cold page). Null without guide.json or such a frame.
   */
  guideFrame: LongFrame | null;
  /** False where the browser has no `long-animation-frame` entries: the frame figures are then missing, not 0. */
  loafSupported: boolean;
}

/** What the page hands over (see {@link guideWindowScript}). */
interface PageWindowRecord {
  /** performance.now() at the end of the frame that painted the guide (or of the load, on the page without one). */
  visibleAt: number;
  timeOrigin: number;
  loafSupported: boolean;
  longTasks: Array<{ startTime: number; duration: number }>;
  frames: Array<{
    startTime: number;
    duration: number;
    blockingDuration: number;
    scripts: Array<Omit<FrameScript, 'file' | 'durationMs' | 'forcedStyleAndLayoutMs' | 'startMs'> & { startTime: number; duration: number; forcedStyleAndLayoutDuration: number }>;
  }>;
}

/**
 * The init script of a guide page. `drawn`: a page-side expression true once the guide is drawn (no layout
 * asked), or null on the page without an agent, whose window ends 2 s after its load event instead. `preset`:
 * statements run first (a storage flag). The page then exposes `benchGuideWindow`, a promise of its
 * record, settled {@link AFTER_VISIBLE_MS} after the guide's frame.
 *
 * How the end of the guide's frame is found (bench/measureGuideTime.ts): a requestAnimationFrame loop, started
 * with the page, looks for the guide at the start of every frame; in the first frame that has it, it sets a
 * 0 ms timer, whose task is the first one after that frame's style, layout, paint and commit.
 */
export function guideWindowScript(drawn: string | null, preset = ''): string {
  return `(() => {
  ${preset}
  const longTasks = [];
  const frames = [];
  const keepFrame = (e) => frames.push({
    startTime: e.startTime, duration: e.duration, blockingDuration: e.blockingDuration ?? 0,
    scripts: (e.scripts ?? []).map((s) => ({ sourceURL: s.sourceURL ?? '', sourceFunctionName: s.sourceFunctionName ?? '',
      invoker: s.invoker ?? '', invokerType: s.invokerType ?? '', startTime: s.startTime, duration: s.duration, forcedStyleAndLayoutDuration: s.forcedStyleAndLayoutDuration ?? 0 })),
  });
  const types = PerformanceObserver.supportedEntryTypes;
  const taskObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push({ startTime: e.startTime, duration: e.duration }); });
  taskObserver.observe({ type: 'longtask', buffered: true });
  const loafSupported = types.includes('long-animation-frame');
  const frameObserver = loafSupported ? new PerformanceObserver((list) => { for (const e of list.getEntries()) keepFrame(e); }) : null;
  frameObserver?.observe({ type: 'long-animation-frame', buffered: true });
  let done;
  window.benchGuideWindow = new Promise((resolve) => (done = resolve));
  const close = (visibleAt) => setTimeout(() => {
    // A long frame ends after its render; one still open is reported after it: a frame later.
    requestAnimationFrame(() => setTimeout(() => {
      for (const e of taskObserver.takeRecords()) longTasks.push({ startTime: e.startTime, duration: e.duration });
      for (const e of frameObserver?.takeRecords() ?? []) keepFrame(e);
      done({ visibleAt, timeOrigin: performance.timeOrigin, loafSupported, longTasks, frames });
    }));
  }, ${AFTER_VISIBLE_MS});
  ${drawn === null
    ? "addEventListener('load', () => setTimeout(() => { const at = performance.now(); window.visibleAt = at; close(at); }));"
    : `const frame = () => {
    if (!(${drawn})) return void requestAnimationFrame(frame);
    setTimeout(() => { const at = performance.now(); window.visibleAt = at; close(at); });
  };
  requestAnimationFrame(frame);`}
})()
//# sourceURL=${BENCH_SCRIPT}`;
}

/**
 * The file name a script's URL names, else its invoker (a browser callback). A script of the page's own HTML is
 * `page inline script` or `page inline module`: on the bench pages those are the agent's install (Waymark's
 * snippet; Pendo's module that imports and starts its agent, whose evaluation is counted in it).
 */
export function fileOf(sourceURL: string, invoker: string, invokerType = ''): string {
  if (!sourceURL) return invoker || '(unknown)';
  let file = sourceURL;
  try {
    file = basename(new URL(sourceURL).pathname) || sourceURL;
  } catch {
    // not a URL: kept as it is
  }
  if (file.endsWith('.html')) return invokerType === 'module-script' ? 'page inline module' : 'page inline script';
  return file;
}

/**
 * The page's record cut to its window, navigation start to `visibleAt` + {@link AFTER_VISIBLE_MS}: tasks and
 * frames that started in it count whole. `agentFiles` says which script files are the agent's.
 */
export function summarizeWindow(record: PageWindowRecord, agentFiles: (file: string) => boolean, guideJsonAtMs = NaN): MainThreadWindow {
  const endMs = record.visibleAt + AFTER_VISIBLE_MS;
  const inWindow = record.longTasks.filter((t) => t.startTime <= endMs).sort((a, b) => a.startTime - b.startTime);
  const longTasksMs = inWindow.map((t) => t.duration);
  const guideLongestTaskMs = Number.isFinite(guideJsonAtMs)
    ? inWindow.filter((t) => t.startTime + t.duration >= guideJsonAtMs).reduce((m, t) => Math.max(m, t.duration), 0)
    : NaN;
  const frames: LongFrame[] = record.frames
    .filter((f) => f.startTime <= endMs)
    .map((f) => ({
      startMs: f.startTime,
      durationMs: f.duration,
      blockingMs: f.blockingDuration,
      scripts: f.scripts
        .map((s) => ({
          file: fileOf(s.sourceURL, s.invoker, s.invokerType),
          sourceURL: s.sourceURL,
          sourceFunctionName: s.sourceFunctionName,
          invoker: s.invoker,
          invokerType: s.invokerType,
          durationMs: s.duration,
          forcedStyleAndLayoutMs: s.forcedStyleAndLayoutDuration,
          startMs: s.startTime,
        }))
        .sort((a, b) => b.durationMs - a.durationMs),
    }));
  // A task's and a script's start come from two clocks' roundings: 1 ms of slack.
  const agentScripts = frames.flatMap((f) => f.scripts).filter((s) => agentFiles(s.file));
  const agentTasks = inWindow.filter((t) => agentScripts.some((s) => s.startMs >= t.startTime - 1 && s.startMs < t.startTime + t.duration));
  const agentFrames = frames.filter((f) => f.scripts.some((s) => agentFiles(s.file)));
  const longestOf = (list: LongFrame[]) => list.reduce<LongFrame | null>((m, f) => (!m || f.durationMs > m.durationMs ? f : m), null);
  const longestFrame = longestOf(frames);
  const guideFrame = Number.isFinite(guideJsonAtMs) ? longestOf(frames.filter((f) => f.startMs + f.durationMs >= guideJsonAtMs)) : null;
  return {
    endMs,
    longTasksMs,
    longestTaskMs: longTasksMs.reduce((m, d) => Math.max(m, d), 0),
    agentLongestTaskMs: agentTasks.reduce((m, t) => Math.max(m, t.duration), 0),
    guideLongestTaskMs,
    loafBlockingMs: frames.reduce((n, f) => n + f.blockingMs, 0),
    agentLoafBlockingMs: agentFrames.reduce((n, f) => n + f.blockingMs, 0),
    agentScriptMs: agentScripts.reduce((n, s) => n + s.durationMs, 0),
    longestFrame,
    guideFrame,
    loafSupported: record.loafSupported,
  };
}

/**
 * Reads the page's record once its window is over; throws past `timeoutMs`. Asked over the DevTools protocol without
 * a user gesture: Playwright's page.evaluate runs as one, which gives the page transient user activation for 5 s, as
 * if the visitor had just clicked (a real visitor's page has none until they act), and Waymark's overlay holds its
 * work ahead of a guide while a visitor has just acted (overlay/static/warmFaces.ts).
 */
export async function readGuideWindow(page: Page, timeoutMs: number): Promise<PageWindowRecord> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no guide drawn within ${timeoutMs} ms`)), timeoutMs)));
  const cdp = await page.context().newCDPSession(page);
  try {
    const read = cdp.send('Runtime.evaluate', { expression: 'window.benchGuideWindow', awaitPromise: true, returnByValue: true }).then(({ result, exceptionDetails }) => {
      if (exceptionDetails) throw new Error(`the page's record could not be read: ${exceptionDetails.text}`);
      return result.value as PageWindowRecord;
    });
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
    await cdp.detach().catch(() => undefined);
  }
}

/** A script in one line: `waymark.overlay.js ƒ name (invoker) 42 ms`. */
export function describeScript(s: FrameScript): string {
  const fn = s.sourceFunctionName ? ` ${s.sourceFunctionName}` : '';
  const by = s.invoker && s.invoker !== s.sourceURL ? ` via ${s.invoker.length > 60 ? `${s.invoker.slice(0, 57)}...` : s.invoker}` : '';
  return `${s.file}${fn}${by} ${s.durationMs.toFixed(0)} ms`;
}
