/**
 * Frustration detection (spec: analytics §4 "rage click is 4 clicks within 1000 ms and 30 px ... u-turn is a
 * return to the same page within 7000 ms"; §9 numbers; §4 wire format `frustrationTypes`).
 * Every time below is exact: windows are half-open in time ("within 1000 ms" = less than 1000 ms elapsed)
 * and closed in distance ("within 30 px" = at most 30 px), see shared/analytics/detectFrustration.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  CLICK_BUFFER_MAX,
  RAGE_CLICK_COUNT,
  RAGE_CLICK_RADIUS_PX,
  RAGE_CLICK_WINDOW_MS,
  U_TURN_WINDOW_MS,
} from '../../shared/constants';
import {
  annotateFrustration,
  createRageClickDetector,
  createUTurnDetector,
  pageKey,
  type RageClickDetector,
  type RageClickResult,
} from '../../shared/analytics/detectFrustration';

const T0 = 1_700_000_000_000;
const T0_SEQ = 1;

/** Feeds clicks given as [ms after T0, x, y]; sequences count up from 1. Returns every answer. */
function feed(detector: RageClickDetector, clicks: [number, number, number][], firstSequence = T0_SEQ): RageClickResult[] {
  return clicks.map(([dt, x, y], i) => detector.observe({ time: T0 + dt, x, y, sequence: firstSequence + i }));
}

describe('analytics §9 frustration constants', () => {
  it('are the spec values', () => {
    expect([RAGE_CLICK_COUNT, RAGE_CLICK_WINDOW_MS, RAGE_CLICK_RADIUS_PX, U_TURN_WINDOW_MS]).toEqual([4, 1000, 30, 7000]);
  });
});

describe('analytics §4 rage click', () => {
  it('3 clicks on one spot are not a rage click', () => {
    const results = feed(createRageClickDetector(), [[0, 100, 100], [100, 100, 100], [200, 100, 100]]);
    expect(results.map((r) => r.rage)).toEqual([false, false, false]);
    expect(results[2]).toEqual({ rage: false, sequences: [], newBurst: false });
  });

  it('4 clicks within 1000 ms and 30 px are a rage click, naming the 4 sequences', () => {
    const results = feed(createRageClickDetector(), [[0, 100, 100], [300, 110, 105], [600, 95, 120], [999, 100, 100]]);
    expect(results.map((r) => r.rage)).toEqual([false, false, false, true]);
    expect(results[3]).toEqual({ rage: true, sequences: [1, 2, 3, 4], burstStart: 4, newBurst: true });
  });

  it('4 clicks spanning 1001 ms are not, nor spanning exactly 1000 ms (half-open window)', () => {
    const spanning = (span: number) =>
      feed(createRageClickDetector(), [[0, 50, 50], [300, 50, 50], [600, 50, 50], [span, 50, 50]])[3].rage;
    expect(spanning(999)).toBe(true);
    expect(spanning(1000)).toBe(false);
    expect(spanning(1001)).toBe(false);
  });

  it('one click 31 px away breaks it; exactly 30 px still counts', () => {
    const at = (x: number, y: number) =>
      feed(createRageClickDetector(), [[0, 0, 0], [100, 0, 0], [200, 0, 0], [300, x, y]])[3];
    expect(at(31, 0).rage).toBe(false);
    expect(at(30, 0).rage).toBe(true);
    expect(at(18, 24).rage).toBe(true); // 30 px on the diagonal
    expect(at(19, 24).rage).toBe(false); // 30.6 px
  });

  it('distance is from this click: a stray click is not counted but does not wipe the clicks before it', () => {
    const results = feed(createRageClickDetector(), [[0, 0, 0], [100, 0, 0], [200, 0, 0], [300, 31, 0], [400, 0, 0]]);
    expect(results.map((r) => r.rage)).toEqual([false, false, false, false, true]);
    expect(results[4].sequences).toEqual([1, 2, 3, 5]);
  });

  it('a 5th click continues the burst: still rage, same burstStart, not a new burst', () => {
    const results = feed(createRageClickDetector(), [[0, 10, 10], [100, 10, 10], [200, 10, 10], [300, 10, 10], [400, 12, 9]]);
    expect(results[3]).toEqual({ rage: true, sequences: [1, 2, 3, 4], burstStart: 4, newBurst: true });
    expect(results[4]).toEqual({ rage: true, sequences: [1, 2, 3, 4, 5], burstStart: 4, newBurst: false });
  });

  it('a continuing burst sheds clicks that left the window but keeps its burstStart', () => {
    const clicks: [number, number, number][] = [0, 250, 500, 750, 1000, 1250, 1500].map((dt) => [dt, 5, 5]);
    const results = feed(createRageClickDetector(), clicks);
    expect(results.map((r) => r.newBurst)).toEqual([false, false, false, true, false, false, false]);
    expect(results[6]).toEqual({ rage: true, sequences: [4, 5, 6, 7], burstStart: 4, newBurst: false });
  });

  it('a pause breaks the burst; the next 4 quick clicks are a new burst', () => {
    const detector = createRageClickDetector();
    const first = feed(detector, [[0, 10, 10], [100, 10, 10], [200, 10, 10], [300, 10, 10]]);
    expect(first[3]).toMatchObject({ rage: true, burstStart: 4, newBurst: true });
    // 300 + 1000: the last click of the burst is exactly 1000 ms old, so out of the window.
    const second = feed(detector, [[1300, 10, 10], [1400, 10, 10], [1500, 10, 10], [1600, 10, 10]], 5);
    expect(second.map((r) => r.rage)).toEqual([false, false, false, true]);
    expect(second[3]).toEqual({ rage: true, sequences: [5, 6, 7, 8], burstStart: 8, newBurst: true });
  });

  it('a click elsewhere breaks the burst too', () => {
    const results = feed(createRageClickDetector(), [
      [0, 10, 10], [50, 10, 10], [100, 10, 10], [150, 10, 10], // burst started by 4
      [200, 500, 500], // elsewhere: not rage, burst over
      [250, 10, 10], // back: near 1..4 again, a new burst, told apart by its own burstStart
    ]);
    expect(results.map((r) => r.rage)).toEqual([false, false, false, true, false, true]);
    expect(results[5]).toEqual({ rage: true, sequences: [1, 2, 3, 4, 6], burstStart: 6, newBurst: true });
  });

  it('clicks without coordinates (NaN, missing) never count and change nothing', () => {
    const detector = createRageClickDetector();
    feed(detector, [[0, 10, 10], [100, 10, 10], [200, 10, 10]]);
    expect(detector.observe({ time: T0 + 300, x: Number.NaN, y: 10, sequence: 4 })).toEqual({ rage: false, sequences: [], newBurst: false });
    expect(detector.observe({ time: T0 + 350, x: 10, y: Number.NaN, sequence: 5 }).rage).toBe(false);
    expect(detector.observe({ time: T0 + 380, sequence: 6 } as never).rage).toBe(false);
    expect(detector.size()).toBe(3);
    expect(detector.observe({ time: T0 + 400, x: 10, y: 10, sequence: 7 })).toEqual({
      rage: true, sequences: [1, 2, 3, 7], burstStart: 7, newBurst: true,
    });
  });

  it('finds a burst while the user alternates between two targets', () => {
    const results = feed(createRageClickDetector(), [
      [0, 0, 0], [50, 300, 0], [100, 0, 0], [150, 300, 0], [200, 0, 0], [250, 300, 0], [300, 0, 0],
    ]);
    expect(results.map((r) => r.rage)).toEqual([false, false, false, false, false, false, true]);
    expect(results[6].sequences).toEqual([1, 3, 5, 7]);
  });

  it('memory is bounded: 10,000 clicks never hold more than 2 × count entries, and only those in the window', () => {
    const detector = createRageClickDetector();
    const bound = 2 * RAGE_CLICK_COUNT;
    let maxSize = 0;
    let rageCount = 0;
    let bursts = 0;
    for (let i = 0; i < 10_000; i++) {
      const result = detector.observe({ time: T0 + i, x: 100 + (i % 7), y: 100, sequence: i + 1 });
      maxSize = Math.max(maxSize, detector.size());
      if (result.rage) rageCount++;
      if (result.newBurst) bursts++;
      expect(result.sequences.length).toBeLessThanOrEqual(bound);
    }
    expect(bound).toBeLessThanOrEqual(CLICK_BUFFER_MAX);
    expect(maxSize).toBe(bound);
    expect(rageCount).toBe(10_000 - 3);
    expect(bursts).toBe(1);
    // After a pause of the window, only the new click is held.
    detector.observe({ time: T0 + 9_999 + RAGE_CLICK_WINDOW_MS, x: 100, y: 100, sequence: 10_001 });
    expect(detector.size()).toBe(1);
  });

  it('a clock set back empties the buffer', () => {
    const detector = createRageClickDetector();
    feed(detector, [[5000, 10, 10], [5100, 10, 10], [5200, 10, 10]]);
    const results = feed(detector, [[0, 10, 10], [100, 10, 10], [200, 10, 10], [300, 10, 10]], 4);
    expect(results.map((r) => r.rage)).toEqual([false, false, false, true]);
    expect(results[3].sequences).toEqual([4, 5, 6, 7]);
  });

  it('takes other counts, windows and radii', () => {
    const detector = createRageClickDetector({ count: 3, windowMs: 500, radiusPx: 5 });
    const results = feed(detector, [[0, 0, 0], [200, 0, 3], [499, 0, 5], [600, 0, 20]]);
    expect(results.map((r) => r.rage)).toEqual([false, false, true, false]);
    expect(results[2].sequences).toEqual([1, 2, 3]);
  });
});

describe('analytics §4 u-turn', () => {
  const A = 'https://shop.example/cart?step=1';
  const B = 'https://shop.example/help';
  const C = 'https://shop.example/faq';

  /** Feeds loads given as [ms after T0, url] and returns every answer. */
  function loads(list: [number, string][], detector = createUTurnDetector()) {
    return list.map(([dt, url]) => detector.observe({ time: T0 + dt, url }));
  }

  it('A→B→A back 6999 ms after leaving A is a u-turn', () => {
    const results = loads([[0, A], [2000, B], [8999, A]]);
    expect(results).toEqual([{ uTurn: false }, { uTurn: false }, { uTurn: true, awayMs: 6999, from: B }]);
  });

  it('A→B→A back exactly 7000 ms after leaving A is not ("within" is half-open)', () => {
    expect(loads([[0, A], [2000, B], [9000, A]])[2]).toEqual({ uTurn: false });
  });

  it('the time away runs from leaving A, not from loading it', () => {
    expect(loads([[0, A], [60_000, B], [66_999, A]])[2]).toEqual({ uTurn: true, awayMs: 6999, from: B });
  });

  it('A→B→C→A is not a u-turn: only the page just before counts', () => {
    expect(loads([[0, A], [100, B], [200, C], [300, A]]).map((r) => r.uTurn)).toEqual([false, false, false, false]);
  });

  it('reloading A is not a u-turn, and reloading B does not restart the time away', () => {
    expect(loads([[0, A], [100, A], [200, A]]).map((r) => r.uTurn)).toEqual([false, false, false]);
    expect(loads([[0, A], [1000, B], [3000, B], [7999, A]])[3]).toEqual({ uTurn: true, awayMs: 6999, from: B });
  });

  it('a hash-only change is not a page change', () => {
    expect(loads([[0, A], [100, `${A}#reviews`], [200, A]]).map((r) => r.uTurn)).toEqual([false, false, false]);
    // Nor does a hash on the way back make it another page.
    expect(loads([[0, `${A}#top`], [100, B], [200, `${B}#x`], [300, `${A}#bottom`]])[3]).toEqual({
      uTurn: true, awayMs: 200, from: B,
    });
    expect(pageKey('https://x.example/a?q=1#h#i')).toBe('https://x.example/a?q=1');
  });

  it('the query is part of the page', () => {
    expect(loads([[0, A], [100, 'https://shop.example/cart?step=2'], [200, A]])[2].uTurn).toBe(true);
    expect(loads([[0, A], [100, B], [200, 'https://shop.example/cart?step=2']])[2].uTurn).toBe(false);
  });

  it('the first load is never a u-turn; B→A→B right after A→B→A is one too', () => {
    const results = loads([[0, A], [100, B], [300, A], [700, B]]);
    expect(results).toEqual([
      { uTurn: false }, { uTurn: false }, { uTurn: true, awayMs: 200, from: B }, { uTurn: true, awayMs: 400, from: A },
    ]);
  });

  it('a clock set back gives no u-turn, and other windows are honoured', () => {
    expect(loads([[5000, A], [6000, B], [1000, A]])[2]).toEqual({ uTurn: false });
    const short = createUTurnDetector({ windowMs: 1000 });
    expect(loads([[0, A], [100, B], [1099, A], [2099, B]], short).map((r) => r.uTurn)).toEqual([false, false, true, false]);
  });
});

describe('analytics §4 frustrationTypes', () => {
  it('adds a type without duplicates and returns a new object', () => {
    const props = { x: 10, y: 20 };
    const once = annotateFrustration(props, 'rageClick');
    expect(once).toEqual({ x: 10, y: 20, frustrationTypes: ['rageClick'] });
    expect(props).toEqual({ x: 10, y: 20 });
    const twice = annotateFrustration(once, 'rageClick');
    expect(twice).toEqual(once);
    expect(twice).not.toBe(once);
    const both = annotateFrustration(twice, 'deadClick');
    expect(both.frustrationTypes).toEqual(['rageClick', 'deadClick']);
    expect(twice.frustrationTypes).toEqual(['rageClick']);
  });

  it('keeps existing string entries once each and replaces a malformed value', () => {
    expect(annotateFrustration({ frustrationTypes: ['uTurn', 'uTurn', 3] }, 'errorClick').frustrationTypes)
      .toEqual(['uTurn', 'errorClick']);
    expect(annotateFrustration({ frustrationTypes: 'deadClick' }, 'deadClick').frustrationTypes).toEqual(['deadClick']);
  });
});
