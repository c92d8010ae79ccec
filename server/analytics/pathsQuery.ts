/**
 * Paths (issue #35 "Funnels, paths, retention", `POST /api/apps/{apiKey}/paths`): the most common steps after (or
 * before) a page, a feature or a track event, over the stored events, exactly:
 * 1. the start is checked to be the app's (a page or feature of another app reads as unknown: a 400 naming
 *    `start.page` or `start.feature`), and the app's features and pages are compiled once (createStepReader);
 * 2. one SQL statement reads the span's `load`, `click` and `track` events of the app with a visitor id, only the
 *    columns a step needs, in (visitor, time, id) order; at most MAX_PATH_EVENTS rows, more is a 400 naming `to`
 *    (no sampling: the counts stay exact, the caller shortens the range);
 * 3. Node reads each event as a step (distinct elements and addresses matched once), cuts each visitor's timeline
 *    into sessions and folds the paths (foldPaths).
 * The span read is [from - PATH_MARGIN_MS, to + PATH_MARGIN_MS): a path that begins near the range's edge may go on
 * past it, but not more than PATH_MARGIN_MS past it (a session going on longer than that reads as ended there), and
 * a run of repeats that began before `from` is one step that began before it (no occurrence).
 *
 * Later slice (issue #35 "Fast at real volumes"): per-visitor, per-day step sequences kept by the summarizer would
 * let this read far fewer rows; this stays the reference they are tested against.
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import type { PathsAnswer } from '../../shared/api/paths';
import type { RuleStore } from './createRuleStore';
import { createStepReader, featureStep, pageStep, trackStep, type StepSource } from './createStepReader';
import { foldPaths, pathsOf, type Step, type TimelineEvent, type VisitorPath } from './foldPaths';
import type { PathsQuestion } from './pathsBody';

/** Events one question reads; more is a 400 naming `to`. */
export const MAX_PATH_EVENTS = 500_000;
/** How far past the range's edge a path may go on: 2 hours. */
export const PATH_MARGIN_MS = 2 * 3_600_000;

// $1 api key, $2 from, $3 to, $4 limit. The element as jsonb text (equal elements are equal text: matched once).
const TIMELINE = `select visitor_id as visitor, time, type, nullif(session_id, '') as session, url,
    case when type = 'click' and jsonb_typeof(body->'props'->'target') = 'object' then (body->'props'->'target')::text end as target,
    case when type = 'track' then left(body->>'track_event_name', 200) end as track
  from events
  where api_key = $1 and kind = 'analytics' and type in ('load', 'click', 'track') and visitor_id <> ''
    and time >= $2 and time < $3
  order by visitor_id, time, id
  limit $4`;

type TimelineRow = StepSource & { visitor: string; time: number | string; session: string | null };

/** The start as a step; a 400 naming the field when the page or feature is not the app's. */
async function startStep(rules: RuleStore, apiKey: string, start: PathsQuestion['start']): Promise<Step> {
  if ('page' in start) {
    const page = await rules.getPage(apiKey, start.page);
    if (!page) throw new HttpError(400, `start.page '${start.page.slice(0, 100)}' is not a page of this app (GET .../pages)`, 'start.page');
    return pageStep(page);
  }
  if ('feature' in start) {
    const feature = await rules.getFeature(apiKey, start.feature);
    if (!feature) throw new HttpError(400, `start.feature '${start.feature.slice(0, 100)}' is not a feature of this app (GET .../features)`, 'start.feature');
    return featureStep(feature);
  }
  return trackStep(start.track);
}

/** Answers a checked paths question of an app. */
export async function queryPaths(db: Database, rules: RuleStore, apiKey: string, question: PathsQuestion): Promise<PathsAnswer> {
  const { direction, depth, from, to, top } = question;
  const start = await startStep(rules, apiKey, question.start);
  const readStep = createStepReader(await rules.listFeatures(apiKey), await rules.listPages(apiKey));
  const { rows } = await db.query<TimelineRow>(TIMELINE, [apiKey, from - PATH_MARGIN_MS, to + PATH_MARGIN_MS, MAX_PATH_EVENTS + 1]);
  if (rows.length > MAX_PATH_EVENTS) {
    throw new HttpError(400, `this range holds more than ${MAX_PATH_EVENTS} page loads, clicks and track events, more than paths read exactly: shorten the range (to)`, 'to');
  }
  const walk = { startKey: start.key, direction, depth, from, to };
  const paths: VisitorPath[] = [];
  let visitors = 0;
  for (let i = 0; i < rows.length;) {
    const visitor = rows[i]!.visitor;
    const timeline: TimelineEvent[] = [];
    // pg answers bigint as text, PGlite as a number.
    for (; i < rows.length && rows[i]!.visitor === visitor; i++) timeline.push({ time: Number(rows[i]!.time), sessionId: rows[i]!.session, step: readStep(rows[i]!) });
    const own = pathsOf(visitor, timeline, walk);
    if (own.length) visitors += 1;
    paths.push(...own);
  }
  const { key: _key, ...startAnswer } = start;
  return { start: startAnswer, direction, depth, from, to, occurrences: paths.length, visitors, ...foldPaths(paths, start, walk, top) };
}
