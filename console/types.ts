/**
 * The answers of the admin API as the console reads them: shared/api, the one description the server's routes
 * answer with (docs/console-api.md), under the names the console's pages use; and the console's own view of a
 * guide body. Times are epoch ms.
 */
import type { ConsoleRange, GuideDetail } from '../shared/api';

export type * from '../shared/api';
export type {
  AgentHealth as HealthAnswer,
  ConsoleRange as Range,
  RecordingSummary as RecordingRow,
} from '../shared/api';

/**
 * A guide in the wire format (one entry of guide.json's guides[], shared/guides/guides Guide) as the console edits
 * it: as loose JSON, only the fields the console reads typed, so an editor keeps what it does not know.
 */
export interface GuideBody {
  id: string;
  name?: string;
  launchMethod: string;
  steps: Array<Record<string, unknown> & { id: string; type: string }>;
  [key: string]: unknown;
}

/** One guide as its routes answer it (shared/api GuideDetail), its body read as the console edits it. */
export interface StoredGuide extends Omit<GuideDetail, 'guide'> {
  guide: GuideBody;
}

/**
 * Features and pages (issue #35, docs/console-api.md "Features and pages"), as server/analytics answers them
 * (createRuleStore's Feature and Page, queryRuleUse's RuleUse). Kept here until the server's own types move to
 * shared/api.
 */
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

export type Feature = RuleDefinition<FeatureRule>;
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

export type FeatureDetail = Feature & RuleUse;
export type PageDetail = Page & RuleUse;
