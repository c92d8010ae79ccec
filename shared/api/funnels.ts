/**
 * Funnels (issue #35 "Funnels, paths, retention", docs/console-api.md "Funnels"): `POST /api/apps/{apiKey}/funnels`
 * asks one (server/analytics/funnelRoutes), the console's Funnels screen draws it. Types only.
 */
import type { AnalyticsStep, AnalyticsUnit } from './retention';

/** The body of `POST .../funnels`. */
export interface FunnelQuestionBody {
  /** 2 to 10 steps, in order. */
  steps: AnalyticsStep[];
  /** Step-1 entries in [from, to), epoch ms. */
  from: number;
  to: number;
  /** @default 7 days */
  windowMs?: number;
  /** @default 'visitor' */
  by?: AnalyticsUnit;
  /** A metadata field to split the counts by. */
  breakdown?: string;
}

/** A step of the answer: `visitors` (or `accounts`, by account) and its ratios; `dropped` for steps after the first. */
export interface FunnelStepAnswer {
  visitors?: number;
  accounts?: number;
  /** This step's count over the previous step's (1 for step 1 when anyone entered), 4 decimals. */
  conversion: number;
  /** This step's count over step 1's, 4 decimals. */
  overall: number;
  /** The median ms from the previous step; null for step 1 and when no one reached this one. */
  medianMsFromPrevious: number | null;
  /** The first 100 ids (of visitors, or accounts), sorted, that reached the previous step and not this one. */
  dropped?: string[];
}

/** One value of the breakdown: its steps (without dropped lists) and overall conversion. */
export interface FunnelBreakdownValue {
  value: string;
  steps: FunnelStepAnswer[];
  overall: number;
}

/** The answer of `POST .../funnels`. */
export interface FunnelAnswer {
  from: number;
  to: number;
  windowMs: number;
  by: AnalyticsUnit;
  steps: FunnelStepAnswer[];
  /** The last step's count over step 1's (0 when no one entered). */
  overall: number;
  breakdown?: { field: string; values: FunnelBreakdownValue[] };
}
