/**
 * The start's own events, read by key (issue #35 "Fast at real volumes"): the first phase of paths once the start's
 * rule is backfilled, so that a question reads the events of the start and the few around each of them
 * (occurrencePaths.ts), never the span's other events. Read from the timelines' copy (timelineCopySql.ts) by its
 * step indexes (TIMELINE_COPY_STEP_INDEXES.ts), index only, as the walks read it: a backfilled start's question
 * never visits a heap page of `events`.
 * - a page: the `load` events whose address key is one of the page's rule keys (readRuleEntries, as funnelSteps
 *   resolves a step);
 * - a feature: the `click` events whose element key is one of the feature's rule keys, and, when the feature is
 *   limited to a page, whose address key is one of that page's;
 * - a track event: the `track` events of that name.
 * Keys hold every element (address) the rule matches, so these are all the events that may read as the start, and
 * more (a load is read as the FIRST of the app's pages that matches it, a click as the first matching feature:
 * createStepReader); the caller keeps those that read as the start. While the start's rule (or a feature's page)
 * is not backfilled this answers undefined, and the caller keeps the exact scan of the span (pathStartVisitors).
 */
import { compileSelector } from './compileSelector';
import type { BudgetSpan, RowBudget } from './createRowBudget';
import type { DictionaryEntry, RuleKind } from './matchRuleKeys';
import type { Feature, Page } from '../../shared/api/rules';
import type { CopyRow } from './timelineKeyTexts';

/** A path's start with what matching it needs: a page's rule, a feature's (and its page's), a track name. */
export type StartRule = { page: Page } | { feature: Feature; page: Page | undefined } | { track: string };

/** A backfilled rule's dictionary entries (readRuleEntries); undefined while it is not. */
export type RuleEntries = (kind: RuleKind, id: string) => Promise<DictionaryEntry[] | undefined>;

/** A start event as the copy holds it (keys for the texts: timelineKeyTexts.ts), with its visitor. */
export type StartRow = CopyRow & { visitor: string };

// RowBudget's parameters: $1 api key, $2 from, $3 to, $4 limit; then $5 the keys (a track: its name), a click's $6
// the address keys of a page-limited feature (or null). Each WHERE implies its index's predicate, and each select
// list is what its index holds (TIMELINE_COPY_STEP_INDEXES.ts): an index-only scan. A start needs no key but its own
// kind's (a click's address only for its feature's page).
const SPAN = 'api_key = $1 and time >= $2 and time < $3';
const START_EVENTS = {
  load: `select visitor_id as visitor, time, id, 'load' as type, session_id as session, null as element_key, address_key, null as track
    from analytics_timeline where ${SPAN} and type = 'load' and address_key = any($5::text[]) limit $4`,
  click: `select visitor_id as visitor, time, id, 'click' as type, session_id as session, element_key, address_key, null as track
    from analytics_timeline where ${SPAN} and type = 'click' and element_key = any($5::text[])
    and ($6::text[] is null or address_key = any($6::text[])) limit $4`,
  track: `select visitor_id as visitor, time, id, 'track' as type, session_id as session, null as element_key, null as address_key, name as track
    from analytics_timeline where ${SPAN} and type = 'track' and name = $5 limit $4`,
} as const;

const keysOf = (entries: DictionaryEntry[]) => entries.map((entry) => entry.key);

/** The events of the span that may read as `start`, in no order; undefined while its rule is not backfilled. */
export async function pathStartEvents(budget: RowBudget, span: BudgetSpan, start: StartRule, entriesOf: RuleEntries): Promise<StartRow[] | undefined> {
  const read = (sql: string, params: unknown[]) => budget.read<StartRow>(sql, span, params);
  if ('track' in start) return read(START_EVENTS.track, [start.track]);
  if (!('feature' in start)) {
    const addresses = await entriesOf('page', start.page.id);
    return addresses && (addresses.length ? read(START_EVENTS.load, [keysOf(addresses)]) : []);
  }
  // Stored rules were checked when saved; one that no longer compiles matches nothing (as queryRuleUse).
  if ('problem' in compileSelector(start.feature.rule.selector)) return [];
  const elements = await entriesOf('feature', start.feature.id);
  if (!elements) return undefined;
  // A page's rule keys are every address it matches, which holds the clicks' (the dictionary has both).
  const addresses = start.page && elements.length ? await entriesOf('page', start.page.id) : null;
  if (addresses === undefined) return undefined;
  if (elements.length === 0 || addresses?.length === 0) return [];
  return read(START_EVENTS.click, [keysOf(elements), addresses && keysOf(addresses)]);
}
