/**
 * shim/createTicker (issue #16): the agent's periodic checks share one timer, each at its own period.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTicker, TICK_MS } from '../../shim/createTicker';
import { GUIDE_LOOP_IDLE_MS, IFRAME_RESCAN_MS, URL_POLL_INTERVAL_MS } from '../../shared/constants';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('createTicker', () => {
  it('runs each job at its period, all of them from one timer', () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const ticker = createTicker();
    const runs = { frames: 0, url: 0, guides: 0 };
    ticker.every(IFRAME_RESCAN_MS / TICK_MS, () => runs.frames++);
    ticker.every(URL_POLL_INTERVAL_MS / TICK_MS, () => runs.url++);
    ticker.every(GUIDE_LOOP_IDLE_MS / TICK_MS, () => runs.guides++);
    vi.advanceTimersByTime(1000);
    expect(runs).toEqual({ frames: 4, url: 2, guides: 2 });
    expect(setInterval).toHaveBeenCalledTimes(1);
    ticker.stop!();
    vi.advanceTimersByTime(1000);
    expect(runs).toEqual({ frames: 4, url: 2, guides: 2 });
  });

  it('a stopped job no longer runs; the others go on', () => {
    const ticker = createTicker();
    let a = 0;
    let b = 0;
    const stopA = ticker.every(1, () => a++);
    ticker.every(1, () => b++);
    vi.advanceTimersByTime(TICK_MS * 2);
    stopA();
    vi.advanceTimersByTime(TICK_MS * 2);
    expect([a, b]).toEqual([2, 4]);
    ticker.stop!();
  });

  it('a job of a longer period first runs once its period has passed, whatever period the first job had', () => {
    const ticker = createTicker();
    const at: number[] = [];
    ticker.every(1, () => undefined);
    ticker.every(2, () => at.push(Date.now()));
    const start = Date.now();
    vi.advanceTimersByTime(TICK_MS * 4);
    expect(at.map((t) => t - start)).toEqual([TICK_MS * 2, TICK_MS * 4]);
    ticker.stop!();
  });
});
