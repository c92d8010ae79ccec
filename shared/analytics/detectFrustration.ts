/**
 * Frustration detection: rage clicks and u-turns (spec: analytics §4 "Frustration events: rage click is 4 clicks
 * within 1000 ms and 30 px; dead click is a click with no effect after 500 ms; u-turn is a return to the same
 * page within 7000 ms"; §9 for the numbers). The worker runs these detectors over the captured events in order
 * and marks the click's `props.frustrationTypes` before the event is serialized (spec: analytics §4 wire
 * format, a click "may carry `frustrationTypes`").
 *
 * Pure decision code: every input carries its own `time`, nothing reads a clock. Dead and error clicks need
 * page facts (DOM mutations, errors) and are not decided here; only their names live here.
 *
 * Time windows are half-open: "within N ms" means less than N ms elapsed. At exactly N ms the window has run
 * out, as a timer set for N ms has fired by then. Distances are a closed disc: a click exactly `radiusPx` away
 * is within `radiusPx`.
 */
import { RAGE_CLICK_COUNT, RAGE_CLICK_RADIUS_PX, RAGE_CLICK_WINDOW_MS, U_TURN_WINDOW_MS } from '../constants';

/** The frustration names a click's `props.frustrationTypes` may hold (spec: analytics §4). */
export type FrustrationType = 'rageClick' | 'deadClick' | 'uTurn' | 'errorClick';

/** Every `FrustrationType`, in the order the spec lists them (spec: analytics §4). */
export const FRUSTRATION_TYPES: readonly FrustrationType[] = ['rageClick', 'deadClick', 'uTurn', 'errorClick'];

/** When clicks make a rage click (spec: analytics §4, §9). */
export interface RageClickOptions {
  /** Clicks a burst needs, this one included. @default 4 (RAGE_CLICK_COUNT) */
  count: number;
  /** The earlier clicks happened less than this many ms before this one. @default 1000 (RAGE_CLICK_WINDOW_MS) */
  windowMs: number;
  /** The earlier clicks lie at most this many px from this one. @default 30 (RAGE_CLICK_RADIUS_PX) */
  radiusPx: number;
}

/** The spec's rage click: 4 clicks within 1000 ms and 30 px (spec: analytics §4, §9). */
export const DEFAULT_RAGE_CLICK_OPTIONS: RageClickOptions = {
  count: RAGE_CLICK_COUNT,
  windowMs: RAGE_CLICK_WINDOW_MS,
  radiusPx: RAGE_CLICK_RADIUS_PX,
};

/** One click as the rage detector sees it: capture time (epoch ms), page coordinates, and the event's sequence. */
export interface RageClickInput {
  time: number;
  x: number;
  y: number;
  sequence: number;
}

/** The answer for one click. */
export interface RageClickResult {
  /** Whether this click is a rage click. */
  rage: boolean;
  /** When `rage`: the sequences of the clicks that make it one, oldest first, this click last. Else `[]`. */
  sequences: number[];
  /**
   * When `rage`: the sequence of the first rage click of the burst this click belongs to (the click that
   * completed the count). It stays the same for every click of one burst and differs between bursts, so the
   * caller can group them. Not the oldest click of `sequences`: that one may also have been counted in a
   * burst before, so it would not tell two bursts apart.
   */
  burstStart?: number;
  /** True on the first rage click of a burst only: the one click per burst to count as "a rage click happened". */
  newBurst: boolean;
}

/** A stateful rage-click detector over one stream of clicks. */
export interface RageClickDetector {
  /** Feeds the next click, in capture order, and says whether it is a rage click. */
  observe(click: RageClickInput): RageClickResult;
  /** Clicks held in the buffer now; never more than `2 * count`. For tests and debugging. */
  size(): number;
}

/** A fresh "not a rage click" answer (fresh so a caller may keep or change its array). */
const noRage = (): RageClickResult => ({ rage: false, sequences: [], newBurst: false });

/**
 * Creates a rage-click detector (spec: analytics §4 "rage click is 4 clicks within 1000 ms and 30 px").
 *
 * A click is a rage click when it and at least `count - 1` earlier clicks happened within `windowMs` of it and
 * lie within `radiusPx` of it. Distance is measured from this click, not from the first click of a cluster: the
 * question asked of each click is "were there enough clicks right here just now?", so the answer never depends
 * on where some older click happened to land. A cluster may therefore span up to `2 * radiusPx` end to end, and
 * a burst on a target that moves a little keeps going. A single stray click elsewhere is not counted, but it
 * does not wipe the clicks before it either.
 *
 * Bursts: consecutive rage clicks are one burst. Each of them reports `rage` (each is a rage click), with the
 * same `burstStart`; only the first reports `newBurst`. The burst breaks at the first click that is not a rage
 * click (a pause, or a click away from it); the next rage click after that starts a new burst.
 *
 * Clicks without finite coordinates or time (keyboard-made clicks, NaN) never count: they get `rage: false`
 * and leave the detector as it was. If time goes backwards (the clock was set back) the buffer is emptied,
 * as older clicks can no longer be placed in the window.
 *
 * The buffer is bounded for the worker's sake: it holds only clicks within `windowMs` of the newest one and at
 * most `2 * count` of them, so an auto-clicker or a scripted storm of thousands of clicks per second costs
 * constant memory and constant work per click. `2 * count` is enough to find a burst even when the user
 * alternates between two targets (every other click is on this one); the spec's click buffer of
 * CLICK_BUFFER_MAX entries serves dead clicks and is a different buffer.
 *
 * Use one detector per frame: coordinates of different documents cannot be compared.
 */
export function createRageClickDetector(options: Partial<RageClickOptions> = {}): RageClickDetector {
  const { count, windowMs, radiusPx } = { ...DEFAULT_RAGE_CLICK_OPTIONS, ...options };
  const capacity = 2 * count;
  const radiusSquared = radiusPx * radiusPx;
  /** Recent usable clicks, oldest first. */
  let buffer: RageClickInput[] = [];
  /** Sequence of the first click of the burst in progress, if one is. */
  let burstStart: number | undefined;

  return {
    observe(click) {
      const { time, x, y, sequence } = click;
      if (!Number.isFinite(time) || !Number.isFinite(x) || !Number.isFinite(y)) return noRage();

      const newest = buffer[buffer.length - 1];
      if (newest !== undefined && time < newest.time) {
        buffer = [];
        burstStart = undefined;
      }
      // spec: analytics §9 "within 1000 ms" — keep only clicks less than windowMs before this one, and room for
      // this one within the bound.
      buffer = buffer.filter((earlier) => time - earlier.time < windowMs);
      if (buffer.length >= capacity) buffer = buffer.slice(buffer.length - capacity + 1);

      // spec: analytics §9 "within 30 px" — Euclidean distance from this click, compared squared to stay exact.
      const near = buffer.filter((earlier) => (earlier.x - x) ** 2 + (earlier.y - y) ** 2 <= radiusSquared);
      buffer.push({ time, x, y, sequence });

      if (near.length < count - 1) {
        burstStart = undefined;
        return noRage();
      }
      const sequences = [...near.map((earlier) => earlier.sequence), sequence];
      const newBurst = burstStart === undefined;
      if (burstStart === undefined) burstStart = sequence;
      return { rage: true, sequences, burstStart, newBurst };
    },
    size: () => buffer.length,
  };
}

/** When a return counts as a u-turn (spec: analytics §4, §9). */
export interface UTurnOptions {
  /** The return comes less than this many ms after leaving the page. @default 7000 (U_TURN_WINDOW_MS) */
  windowMs: number;
}

/** The spec's u-turn window (spec: analytics §9 "u-turn 7000 ms"). */
export const DEFAULT_U_TURN_OPTIONS: UTurnOptions = { windowMs: U_TURN_WINDOW_MS };

/** One page load (a `load` event, or a single-page-app URL change): its time (epoch ms) and URL. */
export interface PageLoadInput {
  time: number;
  url: string;
}

/** The answer for one page load. */
export interface UTurnResult {
  /** Whether this load returns to the page left just before, within the window. */
  uTurn: boolean;
  /** When `uTurn`: ms between leaving this page and coming back to it. */
  awayMs?: number;
  /** When `uTurn`: the URL of the page turned back from (B in A→B→A), as it was first loaded. */
  from?: string;
}

/** A stateful u-turn detector over one tab's page loads. */
export interface UTurnDetector {
  /** Feeds the next page load, in capture order, and says whether it is a u-turn. */
  observe(load: PageLoadInput): UTurnResult;
}

/**
 * The part of a URL that names the page for u-turns: everything before the first `#`, that is
 * origin + pathname + search as written. The hash is dropped because it moves within one page (anchors,
 * scroll targets); the cost is that hash-routed apps (`#/route`) see all their routes as one page.
 * No other normalisation: the strings are compared as given, so the caller passes the URL it records.
 */
export function pageKey(url: string): string {
  const hashAt = url.indexOf('#');
  return hashAt >= 0 ? url.slice(0, hashAt) : url;
}

/**
 * Creates a u-turn detector (spec: analytics §4 "u-turn is a return to the same page within 7000 ms").
 *
 * A u-turn is leaving page A for page B and coming back to A less than `windowMs` after leaving it (A→B→A);
 * the time away runs from B's load to A's second load. Only the page just before counts: A→B→C→A is not a
 * u-turn. A load of the page already shown (a reload, or a change of hash only) is not a page change: it is
 * never a u-turn and does not move the detector on, so A→B→(reload B)→A is still a u-turn if quick enough.
 * After a u-turn A→B→A, going straight back to B is a u-turn too (B→A→B).
 * Loads without a finite time are ignored; a load earlier than the departure (clock set back) is no u-turn.
 */
export function createUTurnDetector(options: Partial<UTurnOptions> = {}): UTurnDetector {
  const { windowMs } = { ...DEFAULT_U_TURN_OPTIONS, ...options };
  /** The page shown now: its key and URL as first loaded. */
  let current: { key: string; url: string } | undefined;
  /** The page shown before it, and when it was left (the current page's load time). */
  let previous: { key: string; leftAt: number } | undefined;

  return {
    observe({ time, url }) {
      if (!Number.isFinite(time)) return { uTurn: false };
      const key = pageKey(url);
      if (current === undefined) {
        current = { key, url };
        return { uTurn: false };
      }
      // Reload or hash-only change: the same page, not a change of page.
      if (key === current.key) return { uTurn: false };

      const awayMs = previous !== undefined && previous.key === key ? time - previous.leftAt : undefined;
      const from = current.url;
      previous = { key: current.key, leftAt: time };
      current = { key, url };
      // spec: analytics §9 "u-turn 7000 ms" — "within" is half-open: at 7000 ms the window has run out.
      if (awayMs !== undefined && awayMs >= 0 && awayMs < windowMs) return { uTurn: true, awayMs, from };
      return { uTurn: false };
    },
  };
}

/**
 * Returns a copy of `props` whose `frustrationTypes` holds `type` once (spec: analytics §4 wire format, a click
 * "may carry `frustrationTypes` (e.g. `["deadClick"]`)"). Existing string entries are kept in order, each once;
 * a `frustrationTypes` that is not an array is replaced. Neither `props` nor its array is changed.
 */
export function annotateFrustration(props: Record<string, unknown>, type: string): Record<string, unknown> {
  const existing = Array.isArray(props.frustrationTypes)
    ? props.frustrationTypes.filter((entry): entry is string => typeof entry === 'string')
    : [];
  return { ...props, frustrationTypes: [...new Set([...existing, type])] };
}
