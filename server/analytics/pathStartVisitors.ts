/**
 * The first phase of paths while the start's rule is not backfilled (issue #35 "Fast at real volumes"): the visitors
 * who may have done the start in [from, to), so that only their timelines are read (pathsQuery). A backfilled start
 * reads its own events by key instead (pathStartEvents); this is the exact answer until then. Matching is Node's,
 * counting by equality SQL's, as queryRuleUse reads features and pages:
 * - a page: the span's distinct `load` addresses, kept when the page's URL rule matches, then the visitors of the
 *   loads at a kept address;
 * - a feature: the span's distinct clicked elements (jsonb text), kept when the selector matches; when the feature
 *   is limited to a page, the distinct addresses of the clicks on a kept element, kept when that page's rule
 *   matches; then the visitors of the clicks on a kept element (at a kept address).
 * This may take in more visitors than did the start, never fewer: the timeline reads a load as the FIRST of the
 * app's pages that matches it and a click as the FIRST matching feature (createStepReader), and a run of repeats
 * that began before `from` is no occurrence; every occurrence is still an event matched here, and the walk over
 * the timelines (foldPaths) decides.
 */
import type { Page } from '../../shared/api/rules';
import { compileSelector, type ElementMatcher } from './compileSelector';
import { compileUrlRule } from './compileUrlRule';
import type { BudgetSpan, RowBudget } from './createRowBudget';
import type { StartRule } from './pathStartEvents';

// RowBudget's parameters: $1 api key, $2 from, $3 to, $4 limit; then each statement's own.
const SPAN = `api_key = $1 and kind = 'analytics' and time >= $2 and time < $3`;
const DISTINCT_URLS = `select distinct url from events where ${SPAN} and type = $5 and url is not null
  and ($6::jsonb is null or body->'props'->'target' in (select jsonb_array_elements($6::jsonb))) limit $4`;
const DISTINCT_TARGETS = `select distinct (body->'props'->'target')::text as target from events
  where ${SPAN} and type = 'click' and jsonb_typeof(body->'props'->'target') = 'object' limit $4`;
const VISITORS = {
  load: `select distinct visitor_id as visitor from events where ${SPAN} and visitor_id <> '' and type = 'load' and url = any($5::text[]) limit $4`,
  click: `select distinct visitor_id as visitor from events where ${SPAN} and visitor_id <> '' and type = 'click'
    and body->'props'->'target' in (select jsonb_array_elements($5::jsonb)) and ($6::text[] is null or url = any($6::text[])) limit $4`,
} as const;

/** The distinct addresses of the span's events of `type` (clicks: on the elements of `targets`) a rule keeps. */
async function keptUrls(budget: RowBudget, span: BudgetSpan, type: 'load' | 'click', url: string, targets: string | null): Promise<string[]> {
  const rule = compileUrlRule(url);
  // Stored rules were checked when saved; one that no longer compiles matches nothing (as queryRuleUse).
  if ('problem' in rule) return [];
  const rows = await budget.read<{ url: string }>(DISTINCT_URLS, span, [type, targets]);
  return rows.map((row) => row.url).filter((value) => rule.matches(value));
}

/** The visitors who may have done `start` (a page or a feature) in the span, sorted. */
export async function pathStartVisitors(budget: RowBudget, span: BudgetSpan, start: Exclude<StartRule, { track: string }>): Promise<string[]> {
  const visitors = (sql: string, params: unknown[]) => budget.read<{ visitor: string }>(sql, span, params)
    .then((rows) => rows.map((row) => row.visitor).sort());
  if (!('feature' in start)) {
    const urls = await keptUrls(budget, span, 'load', start.page.rule.url, null);
    return urls.length ? visitors(VISITORS.load, [urls]) : [];
  }
  const selector = compileSelector(start.feature.rule.selector);
  if ('problem' in selector) return [];
  return scannedClickVisitors(budget, span, start.page, selector, visitors);
}

/** A feature's visitors from the span's distinct elements (and addresses), matched in Node: while it is not backfilled. */
async function scannedClickVisitors(
  budget: RowBudget, span: BudgetSpan, page: Page | undefined, selector: ElementMatcher, visitors: (sql: string, params: unknown[]) => Promise<string[]>,
): Promise<string[]> {
  const elements = await budget.read<{ target: string }>(DISTINCT_TARGETS, span);
  const kept = elements.map((row) => row.target).filter((text) => selector.matchesClick(JSON.parse(text)));
  if (kept.length === 0) return [];
  // jsonb texts joined as they came (never re-serialized in JS: a number JSON.parse would round stays exact).
  const targets = `[${kept.join(',')}]`;
  const urls = page ? await keptUrls(budget, span, 'click', page.rule.url, targets) : null;
  return urls?.length === 0 ? [] : visitors(VISITORS.click, [targets, urls]);
}
