/**
 * `work`'s answer, or `TIMED_OUT` when the clock gets to `ms` first (the work is not cancelled, its late answer
 * is ignored). The timer is always cleared. Used where the spec gives a load its time limit (guides §8:
 * guideTimeout, the 10 s stylesheet and 5 s global CSS waits).
 */
import type { Clock } from './ports';

export const TIMED_OUT: unique symbol = Symbol('timed out');

export async function raceTimeout<T>(clock: Clock, work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: unknown;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = clock.setTimeout(() => resolve(TIMED_OUT), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clock.clearTimeout(timer);
  }
}
