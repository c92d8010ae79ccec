/**
 * Paths (issue #35 "Funnels, paths, retention", `POST /api/apps/{apiKey}/paths`): the most common steps after (or
 * before) a page, a feature or a track event, over the stored events, exactly, reading only the timelines of the
 * visitors who did the start (issue #35 "Fast at real volumes"):
 * 1. the start is checked to be the app's (a page or feature of another app reads as unknown: a 400 naming
 *    `start.page` or `start.feature`), and the app's features and pages are compiled once (createStepReader);
 * 2. SQL answers the visitors who may have done the start in [from, to) (pathStartVisitors: a backfilled rule's keys,
 *    or the span's distinct values matched in Node; more visitors than did it, never fewer);
 * 3. their timelines are read PATH_VISITOR_BATCH visitors at a time (`visitor_id = any(...)`, served by the events'
 *    index on (api_key, kind, visitor_id)): their `load`, `click` and `track` events of the span, only the columns a
 *    step needs, in (visitor, time, id) order; Node reads each event as a step (distinct elements and addresses
 *    matched once), cuts each visitor's timeline into sessions and finds the paths (foldPaths), batch by batch;
 * 4. the paths are folded into the answer's nodes and links (foldPaths).
 * The bound: at most MAX_PATH_EVENTS rows read from events by all of a question's statements together (createRowBudget;
 * nearly all of them the start's visitors' events); more is a 400 naming `to` (no sampling: the counts stay exact,
 * the caller shortens the range). Visitors who never did the start cost nothing however many there are.
 * The span read is [from - PATH_MARGIN_MS, to + PATH_MARGIN_MS): a path that begins near the range's edge may go on
 * past it, but not more than PATH_MARGIN_MS past it (a session going on longer than that reads as ended there), and
 * a run of repeats that began before `from` is one step that began before it (no occurrence).
 *
 * Fast at real volumes: step 2 reads a backfilled start's visitors by its rule keys and the steps' indexes
 * (STEP_INDEXES.ts), and scans the span's loads (or clicks) only while the rule is not backfilled. Per-visitor,
 * per-day step sequences would let step 3 read far fewer rows; this stays the reference they would be tested against.
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import type { PathsAnswer } from '../../shared/api/paths';
import type { RuleStore } from './createRuleStore';
import { createRowBudget } from './createRowBudget';
import { createStepReader, featureStep, pageStep, trackStep, type StepReader, type StepSource } from './createStepReader';
import { foldPaths, pathsOf, type PathWalk, type Step, type TimelineEvent, type VisitorPath } from './foldPaths';
import type { PathsQuestion } from './pathsBody';
import { MAX_DISTINCT_VALUES, MAX_MATCHED_VALUES } from './funnelSteps';
import { pathStartVisitors, type RuleEntries, type StartRule } from './pathStartVisitors';
import { readRuleEntries } from './readRuleEntries';

/** Rows one question reads from events, all its statements together (createRowBudget); more is a 400 naming `to`. */
export const MAX_PATH_EVENTS = 500_000;
/** Visitors whose timelines one statement reads: bounds its parameter, and the rows held before they are folded. */
export const PATH_VISITOR_BATCH = 2_000;
/** How far past the range's edge a path may go on: 2 hours. */
export const PATH_MARGIN_MS = 2 * 3_600_000;

// $1 api key, $2 from, $3 to, $4 limit (createRowBudget), $5 the visitors. The element as jsonb text (equal elements
// are equal text: matched once). In no order: Node puts each visitor's events in (time, id) order, which spares the
// database a sort of every row read (one that spilled to disk at volume).
const TIMELINE = `select visitor_id as visitor, time, id, type, nullif(session_id, '') as session, url,
    case when type = 'click' and jsonb_typeof(body->'props'->'target') = 'object' then (body->'props'->'target')::text end as target,
    case when type = 'track' then left(body->>'track_event_name', 200) end as track
  from events
  where api_key = $1 and kind = 'analytics' and visitor_id = any($5::text[]) and type in ('load', 'click', 'track')
    and time >= $2 and time < $3
  limit $4`;

// pg answers bigint as text, PGlite as a number.
type TimelineRow = StepSource & { visitor: string; time: number | string; id: number | string; session: string | null };

/** The start as a step, and as the rule that finds its visitors; a 400 naming the field when the page or feature is not the app's. */
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

/** The paths of one batch of visitors' timelines (rows in any order); `visitors` those who began one. */
function batchPaths(rows: readonly TimelineRow[], readStep: StepReader, walk: PathWalk): { paths: VisitorPath[]; visitors: number } {
  const timelines = new Map<string, Array<TimelineEvent & { id: number }>>();
  for (const row of rows) {
    let timeline = timelines.get(row.visitor);
    if (!timeline) timelines.set(row.visitor, (timeline = []));
    timeline.push({ time: Number(row.time), id: Number(row.id), sessionId: row.session, step: readStep(row) });
  }
  const paths: VisitorPath[] = [];
  let visitors = 0;
  for (const [visitor, timeline] of timelines) {
    const own = pathsOf(visitor, timeline.sort((a, b) => a.time - b.time || a.id - b.id), walk);
    if (own.length) visitors += 1;
    paths.push(...own);
  }
  return { paths, visitors };
}

/** Answers a checked paths question of an app. */
export async function queryPaths(db: Database, rules: RuleStore, apiKey: string, question: PathsQuestion): Promise<PathsAnswer> {
  const { direction, depth, from, to, top } = question;
  const start = await readStart(rules, apiKey, question.start);
  const readStep = createStepReader(await rules.listFeatures(apiKey), await rules.listPages(apiKey));
  const budget = createRowBudget(db, MAX_PATH_EVENTS);
  const entriesOf: RuleEntries = (kind, id) => readRuleEntries(db, kind, apiKey, id, MAX_MATCHED_VALUES, MAX_DISTINCT_VALUES)
    // Past funnelSteps' bound over all stored time: the span's distinct values instead (the row budget bounds them).
    .then((entries) => (entries && entries.length <= MAX_MATCHED_VALUES ? entries : undefined));
  const starters = await pathStartVisitors(budget, { apiKey, from, to }, start.rule, entriesOf);
  const walk = { startKey: start.step.key, direction, depth, from, to };
  const paths: VisitorPath[] = [];
  let visitors = 0;
  for (let i = 0; i < starters.length; i += PATH_VISITOR_BATCH) {
    const rows = await budget.read<TimelineRow>(TIMELINE, { apiKey, from: from - PATH_MARGIN_MS, to: to + PATH_MARGIN_MS }, [starters.slice(i, i + PATH_VISITOR_BATCH)]);
    const batch = batchPaths(rows, readStep, walk);
    paths.push(...batch.paths);
    visitors += batch.visitors;
  }
  const { key: _key, ...startAnswer } = start.step;
  return { start: startAnswer, direction, depth, from, to, occurrences: paths.length, visitors, ...foldPaths(paths, start.step, walk, top) };
}
