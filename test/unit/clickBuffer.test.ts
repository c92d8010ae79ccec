/**
 * analytics §9 "click buffer 100 ms window, max 9 entries" in the dead-click watch (shim/watchClickEffects.ts): a
 * click on the same element within 100 ms of the last joins its entry, watched 500 ms from its last click, each of
 * its clicks told the entry's verdict; at most 9 entries. Node has no DOM: the page's listeners are stubbed, the
 * agent's tick is run by hand and the clock is vitest's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLICK_BUFFER_MAX, CLICK_BUFFER_WINDOW_MS, DEAD_CLICK_MS } from '../../shared/constants';
import type { Ticker } from '../../shim/createTicker';
import { watchClickEffects } from '../../shim/watchClickEffects';

/** An element as the watcher uses it. */
const element = () => ({ getRootNode: () => ({}), contains: () => false }) as unknown as Element;

function setup() {
  const verdicts: Array<[number, string[]]> = [];
  let job = () => undefined as unknown;
  const ticker: Ticker = {
    every: (_period, fn) => ((job = fn), () => undefined),
    stop: () => undefined,
  };
  const watcher = watchClickEffects((sequence, types) => void verdicts.push([sequence, types]), true, ticker);
  const tick = () => job();
  return { watcher, verdicts, tick };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const noop = () => undefined;
  vi.stubGlobal('addEventListener', noop);
  vi.stubGlobal('removeEventListener', noop);
  vi.stubGlobal('document', { addEventListener: noop, removeEventListener: noop, documentElement: {} });
  vi.stubGlobal('ShadowRoot', class {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('analytics §9 click buffer', () => {
  it('is the spec\'s 100 ms window and 9 entries', () => {
    expect([CLICK_BUFFER_WINDOW_MS, CLICK_BUFFER_MAX]).toEqual([100, 9]);
  });

  it('a double click answered after its second click is one live gesture, not a dead first click', () => {
    const { watcher, verdicts } = setup();
    const button = element();
    watcher.watch(1, button);
    vi.advanceTimersByTime(90);
    watcher.watch(2, button);
    // The app answers 450 ms after the second click: past the first click's own 500 ms, within the gesture's.
    vi.advanceTimersByTime(450);
    watcher.effect();
    expect(verdicts).toEqual([[1, []], [2, []]]);
  });

  it('a double click with no effect is dead, both clicks, told once the last click\'s 500 ms are over', () => {
    const { watcher, verdicts, tick } = setup();
    const button = element();
    watcher.watch(1, button);
    vi.advanceTimersByTime(60);
    watcher.watch(2, button);
    vi.advanceTimersByTime(DEAD_CLICK_MS - 1);
    tick();
    expect(verdicts).toEqual([]);
    vi.advanceTimersByTime(1);
    tick();
    expect(verdicts).toEqual([[1, ['deadClick']], [2, ['deadClick']]]);
  });

  it('a click later than 100 ms, or on another element, is an entry of its own', () => {
    const { watcher, verdicts, tick } = setup();
    const a = element();
    const b = element();
    watcher.watch(1, a);
    vi.advanceTimersByTime(CLICK_BUFFER_WINDOW_MS + 1);
    watcher.watch(2, a);
    watcher.watch(3, b);
    vi.advanceTimersByTime(DEAD_CLICK_MS - CLICK_BUFFER_WINDOW_MS - 1);
    tick();
    // The first click's 500 ms are over; the others' are not.
    expect(verdicts).toEqual([[1, ['deadClick']]]);
  });

  it('holds 9 entries at most: a 10th element clicked meanwhile is not watched (its verdict [] at once), a 10th click of a gesture still joins', () => {
    const { watcher, verdicts } = setup();
    const elements = Array.from({ length: CLICK_BUFFER_MAX + 1 }, element);
    elements.slice(0, CLICK_BUFFER_MAX).forEach((el, i) => watcher.watch(i + 1, el));
    watcher.watch(100, elements[CLICK_BUFFER_MAX]!);
    expect(verdicts).toEqual([[100, []]]);
    watcher.watch(101, elements[0]!);
    expect(verdicts).toHaveLength(1);
  });
});
