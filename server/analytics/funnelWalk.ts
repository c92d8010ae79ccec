/**
 * The pure part of a funnel (issue #35 "Funnels"): which steps one visitor (or account) reached, and the counts,
 * conversions, medians and dropped lists over many; plain inputs, no database (STYLE §3).
 *
 * Which occurrence counts (the usual greedy reading, as Amplitude's and Mixpanel's ordered funnels read it):
 * - the entry is the unit's EARLIEST step-1 occurrence in [from, to); a later step-1 occurrence never starts a
 *   second attempt (a visitor who enters, fails, and enters again weeks later is read from the first entry only);
 * - step k (k >= 2) is the earliest occurrence of step k strictly after the occurrence matched for step k - 1, and
 *   at most `windowMs` after the entry (`time - entry <= windowMs`; it may fall after `to`);
 * - "after" orders occurrences by (time, event id): one event never fills two steps, and two events of the same
 *   millisecond count in the order they were stored;
 * - the walk stops at the first step without such an occurrence: a step reached out of order (step 2 before step 1)
 *   does not count. Taking the earliest next occurrence reaches at least as far as any other choice.
 * funnelQuery walks in SQL, so that the database answers only the occurrences matched (issue #35 "Fast at real
 * volumes"); walkFunnel is the same reading over a unit's occurrences in memory, the reference the SQL is tested
 * against (test/server/funnels.test.ts: random timelines with ties, both ways).
 */

/** One stored event of a step: its time (epoch ms) and row id, the tie-break. */
export interface Occurrence {
  time: number;
  id: number;
}

/** A unit's matched occurrences, one per step reached (length 1 to the number of steps). */
export type Reached = Occurrence[];

/** A step's counts in an answer. */
export interface FunnelStepCounts {
  /** Units (visitors, or accounts) that reached this step. */
  count: number;
  /** count / the previous step's count (1 for step 1 when anyone entered); 0 when the previous step has none. */
  conversion: number;
  /** count / step 1's count; 0 when no one entered. */
  overall: number;
  /** The median of (this step's time - the previous step's time) over the units that reached it; null for step 1 and when none did. */
  medianMsFromPrevious: number | null;
}

/** Dropped ids listed per step, the rest counted only. */
export const MAX_DROPPED_LISTED = 100;

const after = (a: Occurrence, b: Occurrence) => a.time > b.time || (a.time === b.time && a.id > b.id);

/**
 * Walks one unit's occurrences: `byStep[k]` holds step k's occurrences sorted by (time, id), step 1's (index 0)
 * already limited to [from, to). Answers the occurrences matched, empty when the unit never entered.
 */
export function walkFunnel(byStep: readonly (readonly Occurrence[])[], windowMs: number): Reached {
  const entry = byStep[0]?.[0];
  if (!entry) return [];
  const reached: Reached = [entry];
  const deadline = entry.time + windowMs;
  for (let k = 1; k < byStep.length; k++) {
    const previous = reached[k - 1]!;
    const next = byStep[k]!.find((o) => after(o, previous));
    if (!next || next.time > deadline) break;
    reached.push(next);
  }
  return reached;
}

/** A ratio to 4 decimals; 0 over 0 is 0 (retention's shares too). */
export const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

/** The median of whole milliseconds: the middle one, or the mean of the two middle ones rounded to a whole ms. */
export function medianMs(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** The counts of each of `steps` steps over the units' reached lists (units that never entered left out). */
export function countFunnel(reached: Iterable<Reached>, steps: number): FunnelStepCounts[] {
  const counts = new Array<number>(steps).fill(0);
  const gaps: number[][] = Array.from({ length: steps }, () => []);
  for (const r of reached) {
    for (let k = 0; k < r.length; k++) {
      counts[k]! += 1;
      if (k > 0) gaps[k]!.push(r[k]!.time - r[k - 1]!.time);
    }
  }
  return counts.map((count, k) => ({
    count,
    conversion: k === 0 ? ratio(count, count) : ratio(count, counts[k - 1]!),
    overall: ratio(count, counts[0]!),
    medianMsFromPrevious: k === 0 ? null : medianMs(gaps[k]!),
  }));
}

/**
 * Per step after the first, the ids of the units that reached the step before it and not this one: the first
 * MAX_DROPPED_LISTED in code-unit order (`dropped[0]` is step 2's).
 */
export function droppedIds(reached: ReadonlyMap<string, Reached>, steps: number): string[][] {
  const dropped: string[][] = Array.from({ length: steps - 1 }, () => []);
  for (const [id, r] of reached) if (r.length > 0 && r.length < steps) dropped[r.length - 1]!.push(id);
  return dropped.map((ids) => ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_DROPPED_LISTED));
}

/** Breakdown values listed, the rest grouped as OTHER_VALUE. */
export const MAX_BREAKDOWN_VALUES = 20;
/** The group of the values past the first MAX_BREAKDOWN_VALUES. */
export const OTHER_VALUE = '(other)';
/** The group of units whose metadata lacks the field (or is null there). */
export const NONE_VALUE = '(none)';

/**
 * The breakdown groups of the entered units: the MAX_BREAKDOWN_VALUES values with the most units at step 1 (ties in
 * code-unit order of the value), then OTHER_VALUE, then NONE_VALUE; each group only when it has a unit.
 */
export function groupByValue(reached: ReadonlyMap<string, Reached>, valueOf: ReadonlyMap<string, string>): Array<{ value: string; units: Reached[] }> {
  const groups = new Map<string | null, Reached[]>();
  for (const [id, r] of reached) {
    if (r.length === 0) continue;
    const value = valueOf.get(id) ?? null;
    let group = groups.get(value);
    if (!group) groups.set(value, (group = []));
    group.push(r);
  }
  const named = [...groups].filter((g): g is [string, Reached[]] => g[0] !== null)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const listed = named.slice(0, MAX_BREAKDOWN_VALUES).map(([value, units]) => ({ value, units }));
  const other = named.slice(MAX_BREAKDOWN_VALUES).flatMap(([, units]) => units);
  const none = groups.get(null) ?? [];
  return [
    ...listed,
    ...(other.length ? [{ value: OTHER_VALUE, units: other }] : []),
    ...(none.length ? [{ value: NONE_VALUE, units: none }] : []),
  ];
}
