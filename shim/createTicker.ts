/**
 * One timer for the agent's periodic checks (issue #16): the iframe rescan (250 ms), the URL poll (500 ms) and
 * the guide loop (500 ms) run in the same task instead of eight wakeups a second of their own. The URL poll
 * runs as long as the agent does, so the timer stops only at teardown. Each wakeup of
 * the host's main thread costs it a task whatever the check does (~0.1 ms in Chromium here, against a few µs
 * for the checks), so the agent's idle price is the number of wakeups.
 */
import { IFRAME_RESCAN_MS } from '../shared/constants';

export interface Ticker {
  /**
   * Runs `job` every `period` ticks of TICK_MS (callers write `PERIOD_MS / TICK_MS`, which the minifier folds);
   * answers the function that stops it.
   */
  every(period: number, job: () => void): () => void;
  /** Stops the timer (teardown). */
  stop?(): void;
}

/** The tick: the shortest period of the spec's periodic checks (analytics §7 iframe rescan). */
export const TICK_MS = IFRAME_RESCAN_MS;


export function createTicker(): Ticker {
  const jobs = new Map<() => void, number>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticks = 0;
  return {
    every(period, job) {
      jobs.set(job, period);
      timer ??= setInterval(() => {
        ticks++;
        for (const [due, every] of jobs) if (ticks % every === 0) due();
      }, TICK_MS);
      return () => jobs.delete(job);
    },
    stop: () => clearInterval(timer),
  };
}
