/**
 * When an anchored surface (a tooltip) moves with its target (guides §2 "follows the element on scroll and
 * resize", §9 "Scroll reposition throttle 10 ms", "Resize debounce 50 ms"). Pure timing: `update` is what
 * repositions, `clock` gives the time and the timers, so tests pin every call.
 *
 * Scroll is throttled: the first scroll repositions at once, later ones at most once per 10 ms, and the last
 * one is never lost (a trailing update once the 10 ms are up). Resize is debounced: one update 50 ms after
 * the last resize event, since a window being dragged fires many and only the final size matters.
 */
import { RESIZE_DEBOUNCE_MS, SCROLL_REPOSITION_THROTTLE_MS } from '../constants';

/** The time and timers the scheduler runs on (the page's, or a test's fake). */
export interface SchedulerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface RepositionScheduler {
  /** A scroll anywhere above the target. */
  onScroll(): void;
  /** A resize of the window. */
  onResize(): void;
  /** Drops pending updates (the surface is gone). */
  cancel(): void;
}

export function createRepositionScheduler(
  update: () => void,
  clock: SchedulerClock,
  { throttleMs = SCROLL_REPOSITION_THROTTLE_MS, debounceMs = RESIZE_DEBOUNCE_MS } = {},
): RepositionScheduler {
  let lastScrollUpdate = -Infinity;
  let trailing: unknown = null;
  let resizeTimer: unknown = null;
  const scrollUpdate = () => {
    lastScrollUpdate = clock.now();
    update();
  };
  return {
    onScroll() {
      const since = clock.now() - lastScrollUpdate;
      if (since >= throttleMs) {
        if (trailing !== null) clock.clearTimeout(trailing);
        trailing = null;
        scrollUpdate();
      } else if (trailing === null) {
        trailing = clock.setTimeout(() => {
          trailing = null;
          scrollUpdate();
        }, throttleMs - since);
      }
    },
    onResize() {
      if (resizeTimer !== null) clock.clearTimeout(resizeTimer);
      resizeTimer = clock.setTimeout(() => {
        resizeTimer = null;
        update();
      }, debounceMs);
    },
    cancel() {
      if (trailing !== null) clock.clearTimeout(trailing);
      if (resizeTimer !== null) clock.clearTimeout(resizeTimer);
      trailing = resizeTimer = null;
    },
  };
}
