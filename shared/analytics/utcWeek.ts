/**
 * UTC weeks, Monday 00:00 UTC to the next (ISO 8601's week), as retention's cohorts read them (issue #35): the
 * server groups first uses by them, the console labels cohorts and aligns a range to them.
 */

/** A week, ms. */
export const WEEK_MS = 7 * 86_400_000;
/** 1970-01-05 00:00 UTC, the epoch's first Monday (1970-01-01 was a Thursday). */
export const FIRST_MONDAY_MS = 4 * 86_400_000;

/** The Monday 00:00 UTC of the week holding `t` (epoch ms), before the epoch too. */
export function weekOf(t: number): number {
  return t - ((((t - FIRST_MONDAY_MS) % WEEK_MS) + WEEK_MS) % WEEK_MS);
}
