/**
 * The start's own events, read by key (issue #35 "Fast at real volumes"): the first phase of paths once the start's
 * rule is backfilled, so that a question reads the events of the start and the few around each of them
 * (occurrencePaths.ts), never the span's other events:
 * - a page: the `load` events whose address key is one of the page's rule keys (readRuleEntries, as funnelSteps
 *   resolves a step), by the loads' index on (api_key, md5(url), time) (STEP_INDEXES.ts);
 * - a feature: the `click` events whose element key is one of the feature's rule keys, and, when the feature is
 *   limited to a page, whose address key is one of that page's, by the clicks' index on (api_key, md5(element), time);
 * - a track event: the `track` events of that name, by the index on (api_key, name, time).
 * Keys hold every element (address) the rule matches, so these are all the events that may read as the start, and
 * more (a load is read as the FIRST of the app's pages that matches it, a click as the first matching feature:
 * createStepReader); the caller keeps those that read as the start. While the start's rule (or a feature's page)
 * is not backfilled this answers undefined, and the caller keeps the exact scan of the span (pathStartVisitors).
 */
import { compileSelector } from './compileSelector';
import type { BudgetSpan, RowBudget } from './createRowBudget';
import type { DictionaryEntry, RuleKind } from './matchRuleKeys';
import type { Feature, Page } from '../../shared/api/rules';
import { ADDRESS_KEY, ELEMENT_KEY } from './STEP_INDEXES';
import { TIMELINE_COLUMNS, type TimelineRow } from './timelineRows';

/** A path's start with what matching it needs: a page's rule, a feature's (and its page's), a track name. */
export type StartRule = { page: Page } | { feature: Feature; page: Page | undefined } | { track: string };

/** A backfilled rule's dictionary entries (readRuleEntries); undefined while it is not. */
export type RuleEntries = (kind: RuleKind, id: string) => Promise<DictionaryEntry[] | undefined>;

// RowBudget's parameters: $1 api key, $2 from, $3 to, $4 limit; then $5 the keys (a track: its name), a click's $6
// the address keys of a page-limited feature (or null). Each WHERE implies its index's predicate (STEP_INDEXES.ts).
const SPAN = `api_key = $1 and kind = 'analytics' and time >= $2 and time < $3 and visitor_id <> ''`;
const START_EVENTS = {
  load: `select ${TIMELINE_COLUMNS} from events where ${SPAN} and type = 'load' and ${ADDRESS_KEY} = any($5::text[]) limit $4`,
  click: `select ${TIMELINE_COLUMNS} from events where ${SPAN} and type = 'click' and ${ELEMENT_KEY} = any($5::text[])
    and ($6::text[] is null or ${ADDRESS_KEY} = any($6::text[])) limit $4`,
  track: `select ${TIMELINE_COLUMNS} from events where ${SPAN} and type = 'track' and name = $5 limit $4`,
} as const;

const keysOf = (entries: DictionaryEntry[]) => entries.map((entry) => entry.key);

/** The events of the span that may read as `start`, in no order; undefined while its rule is not backfilled. */
export async function pathStartEvents(budget: RowBudget, span: BudgetSpan, start: StartRule, entriesOf: RuleEntries): Promise<TimelineRow[] | undefined> {
  const read = (sql: string, params: unknown[]) => budget.read<TimelineRow>(sql, span, params);
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
