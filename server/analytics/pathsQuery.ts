/**
 * Paths (issue #35 "Funnels, paths, retention", `POST /api/apps/{apiKey}/paths`): the most common steps after (or
 * before) a page, a feature or a track event, over the stored events, exactly:
 * 1. the start is checked to be the app's (a page or feature of another app reads as unknown: a 400 naming
 *    `start.page` or `start.feature`), and the app's features and pages are compiled once (createStepReader);
 * 2. a start whose rule is backfilled, and any track event (issue #35 "Fast at real volumes"): its own events of
 *    [from, to) are read by key (pathStartEvents), then the few events around each of them, until each one's walk
 *    knows its path (occurrencePaths), all from the timelines' copy (migrations 25 and 26, index only): the work
 *    grows with the start's occurrences, not with the span's events nor with its visitors' other events;
 * 3. a page or feature whose rule is not backfilled yet: SQL answers the visitors who may have done the start
 *    (pathStartVisitors: the span's distinct values matched in Node), and their timelines are read
 *    PATH_VISITOR_BATCH visitors at a time (`visitor_id = any(...)`, served by the events' index on
 *    (api_key, kind, visitor_id)): their `load`, `click` and `track` events of the span, in (visitor, time, id)
 *    order; Node reads each event as a step, cuts each visitor's timeline into sessions and finds the paths
 *    (foldPaths' pathsOf). Both ways answer the same paths (the walk applies pathsOf's rules around each event);
 * 4. the paths are folded into the answer's nodes and links (foldPaths).
 * The bound: at most MAX_PATH_EVENTS event rows read by all of a question's statements together (createRowBudget);
 * more is a 400 naming `to` (no sampling: the counts stay exact, the caller shortens the range).
 * The timeline is [from - PATH_MARGIN_MS, to + PATH_MARGIN_MS): a path that begins near the range's edge may go on
 * past it, but not more than PATH_MARGIN_MS past it (a session going on longer than that reads as ended there), and
 * a run of repeats that began before `from` is one step that began before it (no occurrence).
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import type { PathsAnswer } from '../../shared/api/paths';
import type { Feature } from '../../shared/api/rules';
import type { RuleStore } from './createRuleStore';
import { createRowBudget, type BudgetSpan, type RowBudget } from './createRowBudget';
import { createStepReader, featureStep, pageStep, trackStep, type StepReader } from './createStepReader';
import { foldPaths, pathsOf, type PathWalk, type Step, type VisitorPath } from './foldPaths';
import type { PathsQuestion } from './pathsBody';
import { MAX_DISTINCT_VALUES, MAX_MATCHED_VALUES } from './funnelSteps';
import type { WalkEvent } from './createOccurrenceWalk';
import { occurrencePaths } from './occurrencePaths';
import { createKeyTexts } from './timelineKeyTexts';
import { pathStartEvents, type RuleEntries, type StartRule } from './pathStartEvents';
import { pathStartVisitors } from './pathStartVisitors';
import { readRuleEntries } from './readRuleEntries';
import { TIMELINE_COLUMNS, TIMELINE_TYPES, walkEventOf, type TimelineRow } from './timelineRows';

/** Event rows one question reads, all its statements together (createRowBudget); more is a 400 naming `to`. */
export const MAX_PATH_EVENTS = 500_000;
/** Visitors whose timelines one statement reads: bounds its parameter, and the rows held before they are folded. */
export const PATH_VISITOR_BATCH = 2_000;
/** How far past the range's edge a path may go on: 2 hours. */
export const PATH_MARGIN_MS = 2 * 3_600_000;

// $1 api key, $2 from, $3 to, $4 limit (createRowBudget), $5 the visitors. In no order: Node puts each visitor's
// events in (time, id) order, which spares the database a sort of every row read (one that spilled to disk at volume).
const TIMELINE = `select ${TIMELINE_COLUMNS} from events
  where api_key = $1 and kind = 'analytics' and visitor_id = any($5::text[]) and ${TIMELINE_TYPES} and time >= $2 and time < $3
  limit $4`;

/** The start as a step, and as the rule that finds its events; a 400 naming the field when the page or feature is not the app's. */
async function readStart(rules: RuleStore, apiKey: string, start: PathsQuestion['start']): Promise<{ step: Step; rule: StartRule }> {
  if ('page' in start) {
    const page = await rules.getPage(apiKey, start.page);
    if (!page) throw new HttpError(400, `start.page '${start.page.slice(0, 100)}' is not a page of this app (GET .../pages)`, 'start.page');
    return { step: pageStep(page), rule: { page } };
  }
  if ('feature' in start) {
    const feature = await rules.getFeature(apiKey, start.feature);
    if (!feature) throw new HttpError(400, `start.feature '${start.feature.slice(0, 100)}' is not a feature of this app (GET .../features)`, 'start.feature');
    // The foreign key keeps a feature's page while the feature is limited to it.
    const page = feature.rule.page === undefined ? undefined : await rules.getPage(apiKey, feature.rule.page);
    return { step: featureStep(feature), rule: { feature, page } };
  }
  return { step: trackStep(start.track), rule: { track: start.track } };
}

/** A timeline's span: the question's, with PATH_MARGIN_MS either side. */
const timelineSpan = ({ apiKey, from, to }: BudgetSpan): BudgetSpan => ({ apiKey, from: from - PATH_MARGIN_MS, to: to + PATH_MARGIN_MS });

/** The paths of one batch of visitors' timelines (rows in any order). */
function batchPaths(rows: readonly TimelineRow[], readStep: StepReader, walk: PathWalk): VisitorPath[] {
  const timelines = new Map<string, WalkEvent[]>();
  for (const row of rows) {
    let timeline = timelines.get(row.visitor);
    if (!timeline) timelines.set(row.visitor, (timeline = []));
    timeline.push(walkEventOf(row, readStep));
  }
  const paths: VisitorPath[] = [];
  for (const [visitor, timeline] of timelines) paths.push(...pathsOf(visitor, timeline.sort((a, b) => a.time - b.time || a.id - b.id), walk));
  return paths;
}

/** The paths of the visitors who may have done a start not backfilled yet: their whole timelines, batch by batch. */
async function timelinePaths(budget: RowBudget, span: BudgetSpan, start: Exclude<StartRule, { track: string }>, readStep: StepReader, walk: PathWalk): Promise<VisitorPath[]> {
  const starters = await pathStartVisitors(budget, span, start);
  const paths: VisitorPath[] = [];
  for (let i = 0; i < starters.length; i += PATH_VISITOR_BATCH) {
    const rows = await budget.read<TimelineRow>(TIMELINE, timelineSpan(span), [starters.slice(i, i + PATH_VISITOR_BATCH)]);
    paths.push(...batchPaths(rows, readStep, walk));
  }
  return paths;
}

/**
 * The element keys of every feature's rule keys: a click on no other element reads as no step (createStepReader).
 * Undefined while a feature's are not known (not backfilled, or past funnelSteps' bound), or past MAX_DISTINCT_VALUES
 * in all: the walks read every click then.
 */
async function stepElementsOf(features: readonly Feature[], entriesOf: RuleEntries): Promise<string[] | undefined> {
  // Asked together (a pool of PostgreSQL connections answers them side by side; at most MAX_RULES_PER_APP).
  const all = await Promise.all(features.map((feature) => entriesOf('feature', feature.id)));
  const keys = new Set<string>();
  for (const entries of all) {
    if (!entries) return undefined;
    for (const entry of entries) keys.add(entry.key);
    if (keys.size > MAX_DISTINCT_VALUES) return undefined;
  }
  return [...keys];
}

/** Answers a checked paths question of an app. */
export async function queryPaths(db: Database, rules: RuleStore, apiKey: string, question: PathsQuestion): Promise<PathsAnswer> {
  const { direction, depth, from, to, top } = question;
  const start = await readStart(rules, apiKey, question.start);
  const features = await rules.listFeatures(apiKey);
  const readStep = createStepReader(features, await rules.listPages(apiKey));
  const budget = createRowBudget(db, MAX_PATH_EVENTS);
  const entriesOf: RuleEntries = (kind, id) => readRuleEntries(db, kind, apiKey, id, MAX_MATCHED_VALUES, MAX_DISTINCT_VALUES)
    // Past funnelSteps' bound over all stored time: the span's distinct values instead (the row budget bounds them).
    .then((entries) => (entries && entries.length <= MAX_MATCHED_VALUES ? entries : undefined));
  const span = { apiKey, from, to };
  const walk = { startKey: start.step.key, direction, depth, from, to };
  const startEvents = await pathStartEvents(budget, span, start.rule, entriesOf);
  const paths = startEvents
    ? await occurrencePaths({ budget, texts: createKeyTexts(db, apiKey), readStep, stepElements: await stepElementsOf(features, entriesOf) }, timelineSpan(span), startEvents, walk)
    : await timelinePaths(budget, span, start.rule as Exclude<StartRule, { track: string }>, readStep, walk);
  const visitors = new Set(paths.map((path) => path.visitor)).size;
  const { key: _key, ...startAnswer } = start.step;
  return { start: startAnswer, direction, depth, from, to, occurrences: paths.length, visitors, ...foldPaths(paths, start.step, walk, top) };
}
