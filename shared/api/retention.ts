/**
 * Retention (issue #35 "Funnels, paths, retention", docs/console-api.md "Retention"): `POST /api/apps/{apiKey}/retention`
 * asks it (server/analytics/retentionRoutes), the console's Retention screen draws it. Types only.
 */

/**
 * What a step of a funnel or of retention counts (server/analytics/funnelBody reads it): the clicks of one of the
 * app's features, the page loads of one of its pages, the track events of a name, or a guide seen (its first step)
 * or completed (its last step advanced or dismissed).
 */
export type AnalyticsStep =
  | { feature: string }
  | { page: string }
  | { track: string }
  | { guide: string; event: 'seen' | 'completed' };

/** Whom retention (and a funnel) counts: visitors, or accounts (an account's events are its visitors'). */
export type AnalyticsUnit = 'visitor' | 'account';

/** The body of `POST .../retention`. */
export interface RetentionQuestion {
  /** Cohorts whose week (Monday 00:00 UTC) starts in [from, to), epoch ms. */
  from: number;
  to: number;
  /** Weeks after the cohort's own: 1 to 12. @default 8 */
  weeks?: number;
  /** @default 'visitor' */
  by?: AnalyticsUnit;
  /** First use: the earliest event of this step, over all stored time. @default any analytics event */
  start?: AnalyticsStep;
  /** Back in week k: an event of this step in [first use + k weeks, first use + k + 1 weeks). @default any analytics event */
  return?: AnalyticsStep;
}

/** One cohort: the units whose first use fell in the UTC week starting at `week`. */
export interface RetentionCohort {
  /** The week's Monday 00:00 UTC, epoch ms. */
  week: number;
  /** Units first seen that week. */
  size: number;
  /**
   * `back[k]`: units back in week k after their first use, for k = 0 (the cohort itself: `size`) to `weeks`; null
   * while week k has not fully passed for every member (first use + k + 1 weeks after the server's now).
   */
  back: Array<number | null>;
}

/** One week after first use, over the cohorts that have passed it. */
export interface RetentionWeek {
  /** k, 0 to `weeks`. */
  week: number;
  /** Sum of back[k] over sum of size of those cohorts (4 decimals); null when no cohort has passed week k. */
  share: number | null;
  /** How many cohorts count in `share`. */
  cohorts: number;
}

/** The answer of `POST .../retention`: cohorts oldest first. */
export interface RetentionAnswer {
  weeks: number;
  by: AnalyticsUnit;
  cohorts: RetentionCohort[];
  /** weeks + 1 entries, k = 0 first. */
  overall: RetentionWeek[];
}
