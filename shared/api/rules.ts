/**
 * Features and pages (issue #35, docs/console-api.md "Features and pages"): `GET /api/apps/{apiKey}/features` and
 * `/pages` list the definitions; `GET .../{id}` adds their use (server/analytics: createRuleStore, queryRuleUse).
 */
import type { ConsoleRange } from './range';

/** A feature's rule: a CSS selector over clicked elements, optionally only on one of the app's pages. */
export interface FeatureRule {
  /** A CSS selector over the clicked element or one of its ancestors. */
  selector: string;
  /** The id of one of the app's pages the clicks must be on; absent: every page. */
  page?: string;
}

/** A page's URL rule (wildcards, `**`, `:name` path parameters, query parameters, fragment). */
export interface PageRule {
  url: string;
}

/** A feature or a page as `GET .../features` and `GET .../pages` list it. */
export interface RuleDefinition<R> {
  id: string;
  name: string;
  rule: R;
  createdAt: number;
  updatedAt: number;
}

/**
 * One event property of a feature's clicks (analytics §3 "Event property rule: name, path, source or selector"):
 * its name and exactly one of where the agent reads its value (shared/analytics/eventPropertyRules.ts):
 * `selector` (the value or text of the first element it finds on the page), `path` (a dotted path into the page's
 * globals) or `source` (an attribute of the clicked feature element).
 */
export interface FeatureEventProperty {
  name: string;
  selector?: string;
  path?: string;
  source?: string;
}

/**
 * A feature: its definition, and the event properties its clicks carry when it has any (served to the agent in
 * guide.json's `features`).
 */
export type Feature = RuleDefinition<FeatureRule> & { eventProperties?: FeatureEventProperty[] };
export type Page = RuleDefinition<PageRule>;

/** One UTC day with use (days without any are left out). */
export interface UseDay {
  t: number;
  events: number;
  visitors: number;
  accounts: number;
}

/** What `GET .../features/{id}` and `GET .../pages/{id}` add to the definition: its use over `range` (null: all time). */
export interface RuleUse {
  range: ConsoleRange | null;
  events: number;
  visitors: number;
  accounts: number;
  series: UseDay[];
}

/**
 * Where the counting of a new or changed rule's past use stands (issue #35 "Fast at real volumes"): `counting`
 * while the rule is matched against everything the app has stored (its counts are then partial), `ready` after.
 * `progress` 0..1. A feature limited to a page is ready once both are.
 */
export interface BackfillState {
  state: 'counting' | 'ready';
  progress: number;
}

export type FeatureDetail = Feature & RuleUse & { backfill: BackfillState };
export type PageDetail = Page & RuleUse & { backfill: BackfillState };

/**
 * `POST /api/apps/{apiKey}/designer/feature-preview`'s answer: the past clicks of the last 30 UTC days a feature
 * being tagged in the designer would count (server/analytics/queryFeaturePreview).
 */
export interface FeaturePreview {
  /** Clicks on a matching element (on a matching page) since `from`. */
  clicks: number;
  /** Distinct visitors of those clicks. */
  visitors: number;
  /** The first UTC day counted (epoch ms) and the present. */
  from: number;
  to: number;
  /** More elements or addresses were clicked than one preview matches: the counts are of the first ones only. */
  partial: boolean;
}
