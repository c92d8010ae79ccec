/**
 * The check of a guide's `goal` and `experiment` (issue #35 "Did the guide work?"), run by checkGuideBody so the
 * console's editor and the server refuse the same fields: objects of known fields only, each bound next to its
 * reader, each problem naming its field (`goal.withinDays`, `experiment.controlShare`). That a goal's feature or
 * page is the app's is the guide route's to say, after this.
 */
import type { GuideGoal } from '../../../shared/guides/guides';

/** A goal counts within 1 to 90 days of the visitor's first exposure (the funnels' longest window). */
export const MIN_GOAL_DAYS = 1;
export const MAX_GOAL_DAYS = 90;
/** The share of an experiment's audience held back: 1% to 50%. */
export const MIN_CONTROL_SHARE = 0.01;
export const MAX_CONTROL_SHARE = 0.5;
/** The longest feature or page id, or track name, a goal may name (as a funnel's step). */
export const MAX_GOAL_REF_LENGTH = 200;

/** The kinds of goal, as a funnel step names them. */
export const GOAL_KINDS = ['feature', 'page', 'track'] as const;

/** A problem of the goal or the experiment, with its field; null when both are fine or absent. */
export interface GoalProblem {
  error: string;
  field: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const GOAL_SHAPE = 'goal must be { "feature": "<id>" } or { "page": "<id>" } or { "track": "<name>" }, with "withinDays": 1 to 90';

/** The goal's kind and its id (or track name); call after checkGoal passed. */
export function goalTarget(goal: GuideGoal): { kind: (typeof GOAL_KINDS)[number]; ref: string } {
  const kind = GOAL_KINDS.find((k) => k in goal)!;
  return { kind, ref: (goal as unknown as Record<string, string>)[kind]! };
}

/** Checks `body.goal` and `body.experiment` of a guide; an experiment needs a goal (it measures one). */
export function checkGoalFields(body: Record<string, unknown>): GoalProblem | null {
  const { goal, experiment } = body;
  if (goal !== undefined) {
    const problem = checkGoal(goal);
    if (problem) return problem;
  }
  if (experiment === undefined) return null;
  if (!isObject(experiment)) return { error: 'experiment must be { "controlShare": 0.01 to 0.5 }', field: 'experiment' };
  const unknown = Object.keys(experiment).find((key) => key !== 'controlShare');
  if (unknown !== undefined) return { error: `experiment has an unknown field '${unknown.slice(0, 40)}' (known: controlShare)`, field: `experiment.${unknown.slice(0, 40)}` };
  const share = experiment.controlShare;
  if (typeof share !== 'number' || !Number.isFinite(share) || share < MIN_CONTROL_SHARE || share > MAX_CONTROL_SHARE) {
    return { error: `experiment.controlShare must be a number from ${MIN_CONTROL_SHARE} to ${MAX_CONTROL_SHARE} (the share of the audience held back as control)`, field: 'experiment.controlShare' };
  }
  if (goal === undefined) return { error: 'an experiment measures the guide\'s goal: set goal too', field: 'goal' };
  return null;
}

function checkGoal(goal: unknown): GoalProblem | null {
  if (!isObject(goal)) return { error: GOAL_SHAPE, field: 'goal' };
  const allowed: readonly string[] = [...GOAL_KINDS, 'withinDays'];
  const unknown = Object.keys(goal).find((key) => !allowed.includes(key));
  if (unknown !== undefined) return { error: `goal has an unknown field '${unknown.slice(0, 40)}' (known: ${allowed.join(', ')})`, field: `goal.${unknown.slice(0, 40)}` };
  const kinds = GOAL_KINDS.filter((kind) => goal[kind] !== undefined);
  if (kinds.length !== 1) return { error: GOAL_SHAPE, field: 'goal' };
  const kind = kinds[0]!;
  const ref = goal[kind];
  if (typeof ref !== 'string' || ref === '' || ref.length > MAX_GOAL_REF_LENGTH || /[\p{Cc}\p{Cs}]/u.test(ref)) {
    const what = kind === 'track' ? 'a track event\'s name' : `the id of one of the app's ${kind}s`;
    return { error: `goal.${kind} must be ${what}: text of 1 to ${MAX_GOAL_REF_LENGTH} characters without control characters`, field: `goal.${kind}` };
  }
  const days = goal.withinDays;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < MIN_GOAL_DAYS || days > MAX_GOAL_DAYS) {
    return { error: `goal.withinDays must be a whole number of days from ${MIN_GOAL_DAYS} to ${MAX_GOAL_DAYS}`, field: 'goal.withinDays' };
  }
  return null;
}
