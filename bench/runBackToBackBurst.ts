/**
 * The 10,000-click burst, run inside the page with `page.evaluate(runBackToBackBurst, schedule)`: clicks as
 * fast as the page can take them, `clicksPerTask` per task, each task posting the next when it ends.
 */
import type { BurstResult } from './runClickBurst';

/** Where and how many clicks the burst fires. */
export interface BackToBackSchedule {
  clicks: number;
  /** Clicks dispatched back to back in one task. */
  clicksPerTask: number;
  /** The buttons to rotate over, in document order: click i goes to match i mod count. */
  selector: string;
}

/** What the page measured about its burst. */
export interface BackToBackResult extends BurstResult {
  /** Longest single task's dispatch loop, in ms (performance.now, coarsened to 100 µs). */
  longestTaskMs: number;
}

/**
 * Dispatches `schedule.clicks` synthetic clicks, `clicksPerTask` per task, and resolves after the last one.
 *
 * Each task posts the next one through a MessageChannel: a posted message is a new task with no timer clamp
 * (nested setTimeout(0) is clamped to 4 ms), and the page's own timers still run between two tasks when
 * they fall due, as they would on a busy page. So the agent's 50 ms batch timer fires during the burst and
 * the burst does not pile all its clicks into one batch. Page-safe like runClickBurst: no reference outside
 * itself and no named inner function.
 */
export function runBackToBackBurst(schedule: BackToBackSchedule): Promise<BackToBackResult> {
  return new Promise<BackToBackResult>((resolve, reject) => {
    const targets = document.querySelectorAll(schedule.selector);
    if (targets.length === 0) {
      reject(new Error(`no element matches ${schedule.selector}`));
      return;
    }
    const tasks = Math.ceil(schedule.clicks / schedule.clicksPerTask);
    const totals = { done: 0, fired: 0, dispatchMs: 0, longestTaskMs: 0 };
    const channel = new MessageChannel();
    const start = performance.now();
    channel.port1.onmessage = () => {
      const from = totals.done * schedule.clicksPerTask;
      const to = Math.min(from + schedule.clicksPerTask, schedule.clicks);
      const before = performance.now();
      for (let i = from; i < to; i++) {
        targets[i % targets.length]!.dispatchEvent(
          new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }),
        );
      }
      const took = performance.now() - before;
      totals.dispatchMs += took;
      totals.longestTaskMs = Math.max(totals.longestTaskMs, took);
      totals.fired += to - from;
      totals.done++;
      if (totals.done < tasks) {
        channel.port2.postMessage(null);
        return;
      }
      channel.port1.close();
      resolve({
        clicks: totals.fired,
        tasks,
        targetCount: targets.length,
        dispatchMs: totals.dispatchMs,
        wallMs: performance.now() - start,
        longestTaskMs: totals.longestTaskMs,
      });
    };
    channel.port2.postMessage(null);
  });
}
