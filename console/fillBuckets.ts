/**
 * The API lists only buckets that hold something; a chart wants every bucket of the range, empty ones at 0,
 * so a quiet day reads as a dip and not as a line drawn across it.
 */
import type { Range } from './types';

const BUCKET_MS = { hour: 3600_000, day: 86400_000 } as const;

/** Every bucket start of `range` (the server widens ranges to whole UTC buckets), with `points` in place. */
export function fillBuckets<P extends { t: number }>(range: Range, points: P[], empty: (t: number) => P): P[] {
  const step = BUCKET_MS[range.bucket];
  const first = Math.floor(range.from / step) * step;
  const byTime = new Map(points.map((p) => [p.t, p]));
  const filled: P[] = [];
  // Bounded: the server caps hour ranges at 31 days (744 buckets); a day range of years is a few thousand.
  for (let t = first; t < range.to && filled.length < 20_000; t += step) filled.push(byTime.get(t) ?? empty(t));
  for (const p of points) if (!filled.some((f) => f.t === p.t)) filled.push(p);
  return filled.sort((a, b) => a.t - b.t);
}
