/**
 * The click burst, run inside the page with `page.evaluate(runClickBurst, schedule)`. Both pages get the
 * same schedule, so the only difference between them is the agent's click listener and what follows it.
 */

/** When and where the burst clicks. */
export interface ClickSchedule {
  /** Clicks in the burst. */
  clicks: number;
  /** Clicks dispatched back to back in one task. */
  clicksPerTask: number;
  /** Gap between the starts of consecutive tasks, in ms. */
  taskIntervalMs: number;
  /** The buttons to rotate over, in document order: click i goes to match i mod count. */
  selector: string;
}

/** What the page measured about its own burst. */
export interface BurstResult {
  clicks: number;
  tasks: number;
  /** Matches of the selector. */
  targetCount: number;
  /**
   * Sum over tasks of performance.now() around the dispatch loop, in ms: the synchronous cost of the click
   * listeners. performance.now() is coarsened to 100 µs with jitter on a page that is not cross-origin
   * isolated; summed over hundreds of tasks the rounding mostly cancels.
   */
  dispatchMs: number;
  /** From scheduling the first task to the end of the last one, in ms. */
  wallMs: number;
}

/**
 * Dispatches `schedule.clicks` synthetic clicks, `clicksPerTask` per timer task, one task every
 * `taskIntervalMs`, and resolves after the last one.
 *
 * Playwright sends this function to the page as source text, so it must not reference anything outside
 * itself and must not declare named inner functions: tsx (esbuild keepNames) wraps those in a `__name()`
 * helper that does not exist in the page. {@link assertPageSafe} checks that at startup. The tasks are
 * all scheduled up front with increasing delays instead of chaining, which needs no named function and
 * avoids the 4 ms clamp of nested timers changing the schedule.
 */
export function runClickBurst(schedule: ClickSchedule): Promise<BurstResult> {
  return new Promise<BurstResult>((resolve, reject) => {
    const targets = document.querySelectorAll(schedule.selector);
    if (targets.length === 0) {
      reject(new Error(`no element matches ${schedule.selector}`));
      return;
    }
    const tasks = Math.ceil(schedule.clicks / schedule.clicksPerTask);
    const totals = { done: 0, fired: 0, dispatchMs: 0 };
    const start = performance.now();
    for (let task = 0; task < tasks; task++) {
      setTimeout(() => {
        const from = task * schedule.clicksPerTask;
        const to = Math.min(from + schedule.clicksPerTask, schedule.clicks);
        const before = performance.now();
        for (let i = from; i < to; i++) {
          targets[i % targets.length]!.dispatchEvent(
            new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }),
          );
        }
        totals.dispatchMs += performance.now() - before;
        totals.fired += to - from;
        totals.done++;
        if (totals.done === tasks) {
          resolve({
            clicks: totals.fired,
            tasks,
            targetCount: targets.length,
            dispatchMs: totals.dispatchMs,
            wallMs: performance.now() - start,
          });
        }
      }, task * schedule.taskIntervalMs);
    }
  });
}

/**
 * Throws when a function meant for `page.evaluate` was compiled with a `__name()` wrapper, which would fail
 * in the page with a ReferenceError that hides the real cause.
 */
export function assertPageSafe(fn: (...args: never[]) => unknown): void {
  if (fn.toString().includes('__name(')) {
    throw new Error(`${fn.name} uses a named inner function, which tsx wraps in __name(): it cannot run in the page`);
  }
}
