/**
 * A guide's goal conversion per arm (issue #35 "Did the guide work?", `GET .../guides/{guideId}/experiment`), exact
 * over the stored events in one statement:
 * - exposure: a visitor's first guide event of the guide that is `guideSeen` (any step: treatment) or `control`
 *   (the agent's control event, guides §4 Control group: control); the arm is that first event's, so a visitor moved
 *   across by a changed share stays in the arm they were first exposed in. Ties of time go to control;
 * - counted when that first exposure is in [from, to), and the visitor is identified (experimentArm: anonymous ids
 *   and events without a visitor id are in neither arm);
 * - converted: the visitor has a goal event (funnelSteps' reading of a feature, page or track step) at or after the
 *   exposure and at most `withinDays` after it. A goal event before the exposure does not count.
 */
import type { Database } from '../../storage/Database';
import type { ExperimentAnswer } from '../../../shared/api/experiments';
import type { Guide, GuideGoal } from '../../../shared/guides/guides';
import { ANONYMOUS_VISITOR_PREFIX } from '../../../shared/constants';
import { DAY_MS } from '../../summaries/CONSOLE_SCHEMA';
import { stepWhere } from '../funnelQuery';
import { resolveSteps, type StepSources } from '../funnelSteps';
import { armOf, judgeExperiment } from './judgeExperiment';
import { goalTarget } from './checkGuideGoal';

/** The goal as a funnel step. */
function goalStep(goal: GuideGoal) {
  const { kind, ref } = goalTarget(goal);
  return kind === 'feature' ? { feature: ref } : kind === 'page' ? { page: ref } : { track: ref };
}

// $1 api key, $2 guide id, $3 from, $4 to, $5 within ms, $6 the anonymous prefix, $7 its length; then the goal's.
const armsSql = (goalWhere: string | null) => `
with exposure as (
  select distinct on (visitor_id) visitor_id, type as arm, time as t, time + $5::bigint as until from events
  where api_key = $1 and guide_id = $2 and kind = 'guide' and type in ('guideSeen', 'control')
    and visitor_id <> '' and left(visitor_id, $7::int) <> $6
  order by visitor_id, time, type
)
select e.arm, count(*) as exposed,
  count(*) filter (where ${goalWhere === null ? 'false' : `exists (
    select 1 from events where api_key = $1 and visitor_id = e.visitor_id and time >= e.t and time <= e.until and ${goalWhere})`}) as converted
from exposure e where e.t >= $3 and e.t < $4
group by e.arm`;

/** The span of first exposures a question counts. */
export interface ExposureSpan {
  from: number;
  to: number;
}

/** Answers a guide's goal and experiment over `span`; the guide has a goal (the route says so otherwise). */
export async function queryExperiment(db: Database, apiKey: string, guide: Guide & { goal: GuideGoal }, span: ExposureSpan, sources: StepSources): Promise<ExperimentAnswer> {
  const { goal } = guide;
  const withinMs = goal.withinDays * DAY_MS;
  // A goal's feature or page that is no longer the app's is a 400 naming `goal.feature` (`goal.page`).
  const [filter] = await resolveSteps(db, apiKey, [goalStep(goal)], { from: span.from, to: span.to + withinMs }, sources, () => 'goal');
  const params: unknown[] = [apiKey, guide.id, span.from, span.to, withinMs, ANONYMOUS_VISITOR_PREFIX, ANONYMOUS_VISITOR_PREFIX.length];
  const { rows } = await db.query<{ arm: string; exposed: number | string; converted: number | string }>(armsSql(stepWhere(filter!, params)), params);
  // pg answers counts as text, PGlite as numbers.
  const arm = (type: string) => {
    const row = rows.find((r) => r.arm === type);
    return armOf(Number(row?.exposed ?? 0), Number(row?.converted ?? 0));
  };
  const treatment = arm('guideSeen');
  const control = guide.experiment ? arm('control') : null;
  return {
    from: span.from,
    to: span.to,
    goal,
    experiment: guide.experiment ?? null,
    treatment,
    control,
    method: 'newcombe-wilson-95',
    ...judgeExperiment(treatment, control, goal.withinDays),
  };
}
