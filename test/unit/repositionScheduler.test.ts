import { describe, expect, it } from 'vitest';
import { RESIZE_DEBOUNCE_MS, SCROLL_REPOSITION_THROTTLE_MS } from '../../shared/constants';
import { createRepositionScheduler } from '../../shared/surfaces/createRepositionScheduler';
import { createFakeClock } from './fakes';

function setup() {
  const clock = createFakeClock(0);
  const updates: number[] = [];
  const scheduler = createRepositionScheduler(() => updates.push(clock.now()), clock);
  return { clock, updates, scheduler };
}

describe('guides §2, §9 a tooltip follows its target: scroll throttled at 10 ms, resize debounced at 50 ms', () => {
  it('the spec\'s numbers', () => {
    expect(SCROLL_REPOSITION_THROTTLE_MS).toBe(10);
    expect(RESIZE_DEBOUNCE_MS).toBe(50);
  });

  it('scroll: the first event updates at once, a stream of events at most every 10 ms, and the last one is never lost', async () => {
    const { clock, updates, scheduler } = setup();
    scheduler.onScroll();
    expect(updates).toEqual([0]);
    // Events every 2 ms for 25 ms: updates at 10 and 20 (trailing), not per event.
    for (let t = 2; t <= 24; t += 2) {
      await clock.advance(2);
      scheduler.onScroll();
    }
    expect(updates).toEqual([0, 10, 20]);
    // The event at 24 ms is followed by nothing: its trailing update lands at 30.
    await clock.advance(100);
    expect(updates).toEqual([0, 10, 20, 30]);
    // After a quiet spell the next scroll updates at once again.
    scheduler.onScroll();
    expect(updates.at(-1)).toBe(124);
  });

  it('resize: one update 50 ms after the last resize event', async () => {
    const { clock, updates, scheduler } = setup();
    for (let i = 0; i < 6; i++) {
      scheduler.onResize();
      await clock.advance(20);
    }
    expect(updates).toEqual([]);
    await clock.advance(29);
    expect(updates).toEqual([]);
    await clock.advance(1);
    expect(updates).toEqual([150]);
  });

  it('cancel drops what is pending', async () => {
    const { clock, updates, scheduler } = setup();
    scheduler.onScroll();
    await clock.advance(3);
    scheduler.onScroll();
    scheduler.onResize();
    scheduler.cancel();
    await clock.advance(200);
    expect(updates).toEqual([0]);
    expect(clock.pendingTimers()).toEqual([]);
  });
});
