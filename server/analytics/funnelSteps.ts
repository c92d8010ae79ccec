/**
 * A funnel's steps as the events each one counts (issue #35 "Funnels"), resolved the way queryRuleUse reads features
 * and pages, so a step and the feature's (or page's) own page count the same events:
 * - `{ feature }`: `click` events whose stored element (or an ancestor) the feature's selector matches
 *   (compileSelector) and, when the feature is limited to a page, whose address that page's rule matches;
 * - `{ page }`: `load` events whose address the page's URL rule matches (compileUrlRule);
 * - `{ track }`: `track` events of that `track_event_name`;
 * - `{ guide, event }`: guide events as the guide's stats read them (queries/queryGuideStats): `seen` is guideSeen
 *   of the guide's first step, `completed` is guideAdvanced or guideDismissed of its last step (guides §4 "Guide
 *   completion").
 * Matching is Node's, on the dictionaries' entries (issue #35 "Fast at real volumes"): a backfilled rule's entries are
 * its rule keys (readRuleEntries); a rule whose backfill is not done yet is resolved as before the rollups existed,
 * so an answer is never short: SQL answers the distinct elements and addresses of the span once per funnel and Node
 * keeps those the rule matches. Either way a step holds the kept entries' keys (md5 of the element's jsonb text, of
 * the address), and funnelQuery reads the events by them (STEP_INDEXES.ts).
 * An id that is not the app's is a 400 naming the step's field.
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import { compileSelector } from './compileSelector';
import { compileUrlRule } from './compileUrlRule';
import type { FunnelStep } from './funnelBody';
import type { RuleStore } from './createRuleStore';
import type { DictionaryEntry } from './matchRuleKeys';
import { readRuleEntries } from './readRuleEntries';

/** Distinct elements (or addresses) a funnel reads from its span for its steps; more is a 400 naming the step. */
export const MAX_DISTINCT_VALUES = 100_000;
/** Distinct elements (or addresses) one step may match; more is a 400 naming the step. */
export const MAX_MATCHED_VALUES = 10_000;

/**
 * The events one step counts. A click's `targets` are the kept elements' jsonb texts and `keys` their keys (in the
 * same order); `addressKeys` the kept addresses' keys (a click's: its feature's page limit). Empty lists: none.
 */
export type StepFilter =
  | { type: 'click'; targets: string[]; keys: string[]; addressKeys?: string[] }
  | { type: 'load'; addressKeys: string[] }
  | { type: 'track'; name: string }
  | { type: 'guide'; guideId: string; stepId: string | undefined; events: readonly string[] };

/** What resolving steps reads besides the events. */
export interface StepSources {
  rules: RuleStore;
  /** A guide's step ids in order; undefined when the app has no such guide. */
  guideStepIds(apiKey: string, guideId: string): Promise<string[] | undefined>;
}

/** The span of events a funnel reads: [from, to + windowMs). */
export interface EventSpan {
  from: number;
  to: number;
}

// $1 api key, $2 type, $3 from, $4 to, $5 limit: the distinct values a rule looks at (as queryRuleUse's step 1),
// keyed as the dictionaries key them (rollupsSql.ts).
const DISTINCT = {
  target: `select value, md5(value) as key from (select distinct (body->'props'->'target')::text as value from events
    where api_key = $1 and kind = 'analytics' and type = $2 and time >= $3 and time < $4
      and jsonb_typeof(body->'props'->'target') = 'object' limit $5) d`,
  url: `select value, md5(value) as key from (select distinct url as value from events
    where api_key = $1 and kind = 'analytics' and type = $2 and time >= $3 and time < $4 and url is not null limit $5) d`,
} as const;

/** Which dictionary each kind of value is (readRuleEntries), and its name in refusals. */
const KIND = { target: ['feature', 'clicked elements'], url: ['page', 'addresses'] } as const;

const tooWide = (field: string, what: string, max: number) =>
  new HttpError(400, `${field} matches more than ${max} distinct ${what} in this range, more than a funnel counts exactly: narrow the rule or the range`, field);

/**
 * Resolves each step to its filter; a 400 naming `steps[i].feature` (page, guide) for an id that is not the app's.
 * `at` names step i's field in refusals (retention's steps are `start` and `return`).
 */
export async function resolveSteps(
  db: Database, apiKey: string, steps: readonly FunnelStep[], span: EventSpan, sources: StepSources,
  at: (i: number) => string = (i) => `steps[${i}]`,
): Promise<StepFilter[]> {
  // Each (kind of value, event type) is read once however many steps look at it.
  const distinct = new Map<string, Promise<DictionaryEntry[]>>();
  const valuesOf = (which: keyof typeof DISTINCT, type: 'click' | 'load', field: string) => {
    const key = `${which} ${type}`;
    let values = distinct.get(key);
    if (!values) {
      values = db.query<DictionaryEntry>(DISTINCT[which], [apiKey, type, span.from, span.to, MAX_DISTINCT_VALUES + 1]).then(({ rows }) => rows);
      distinct.set(key, values);
    }
    return values.then((all) => {
      if (all.length > MAX_DISTINCT_VALUES) throw tooWide(field, KIND[which][1], MAX_DISTINCT_VALUES);
      return all;
    });
  };
  /**
   * The entries rule `id` keeps: its rule keys once it is backfilled (the clicks' addresses are a page's, any type),
   * else the span's distinct values of events of `type` that `keep` keeps.
   */
  const kept = async (which: keyof typeof DISTINCT, type: 'click' | 'load', field: string, id: string, keep: (value: string) => boolean) => {
    // Rule keys hold all stored time: past the bound there, the span alone may still be within it.
    const fromKeys = await readRuleEntries(db, KIND[which][0], apiKey, id, MAX_MATCHED_VALUES, MAX_DISTINCT_VALUES);
    const entries = fromKeys && fromKeys.length <= MAX_MATCHED_VALUES
      ? fromKeys
      : (await valuesOf(which, type, field)).filter((entry) => keep(entry.value));
    if (entries.length > MAX_MATCHED_VALUES) throw tooWide(field, KIND[which][1], MAX_MATCHED_VALUES);
    return entries;
  };
  const keysOf = (entries: DictionaryEntry[]) => entries.map((entry) => entry.key);

  const resolved: StepFilter[] = [];
  for (const [i, step] of steps.entries()) {
    if ('feature' in step) {
      const field = `${at(i)}.feature`;
      const feature = await sources.rules.getFeature(apiKey, step.feature);
      if (!feature) throw new HttpError(400, `${field} '${step.feature.slice(0, 100)}' is not a feature of this app (GET .../features)`, field);
      // The foreign key keeps a feature's page while the feature is limited to it.
      const page = feature.rule.page === undefined ? undefined : await sources.rules.getPage(apiKey, feature.rule.page);
      const selector = compileSelector(feature.rule.selector);
      const urlRule = page && compileUrlRule(page.rule.url);
      // Stored rules were checked when saved; one that no longer compiles matches nothing (as queryRuleUse).
      if ('problem' in selector || (urlRule && 'problem' in urlRule)) {
        resolved.push({ type: 'click', targets: [], keys: [] });
        continue;
      }
      const targets = await kept('target', 'click', field, feature.id, (text) => selector.matchesClick(JSON.parse(text)));
      // A page's rule keys are every address it matches, which holds the clicks' (the dictionary has both).
      const urls = page && urlRule && targets.length ? await kept('url', 'click', field, page.id, (url) => urlRule.matches(url)) : undefined;
      resolved.push({ type: 'click', targets: targets.map((t) => t.value), keys: keysOf(targets), ...(urls ? { addressKeys: keysOf(urls) } : {}) });
    } else if ('page' in step) {
      const field = `${at(i)}.page`;
      const page = await sources.rules.getPage(apiKey, step.page);
      if (!page) throw new HttpError(400, `${field} '${step.page.slice(0, 100)}' is not a page of this app (GET .../pages)`, field);
      const urlRule = compileUrlRule(page.rule.url);
      resolved.push({ type: 'load', addressKeys: 'problem' in urlRule ? [] : keysOf(await kept('url', 'load', field, page.id, (url) => urlRule.matches(url))) });
    } else if ('track' in step) {
      resolved.push({ type: 'track', name: step.track });
    } else {
      const field = `${at(i)}.guide`;
      const stepIds = await sources.guideStepIds(apiKey, step.guide);
      if (!stepIds) throw new HttpError(400, `${field} '${step.guide.slice(0, 100)}' is not a guide of this app`, field);
      // queryGuideStats' reading: seen is the first step's guideSeen, completed the last step advanced or dismissed.
      resolved.push(step.event === 'seen'
        ? { type: 'guide', guideId: step.guide, stepId: stepIds[0], events: ['guideSeen'] }
        : { type: 'guide', guideId: step.guide, stepId: stepIds[stepIds.length - 1], events: ['guideAdvanced', 'guideDismissed'] });
    }
  }
  return resolved;
}
