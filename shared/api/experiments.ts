/**
 * "Did the guide work?" (issue #35, docs/console-api.md "Guide goal and experiment"):
 * `GET /api/apps/{apiKey}/guides/{guideId}/experiment?from&to` (server/analytics/experiments/experimentRoutes), drawn
 * by the guide page's Goal panel. Types only.
 */
import type { GuideExperiment, GuideGoal } from '../guides/guides';

/** One arm: identified visitors first exposed in the range, and those of them who reached the goal in time. */
export interface ExperimentArm {
  /** Treatment: visitors who saw the guide (guideSeen); control: visitors with the guide's `control` event. */
  exposed: number;
  /** Exposed visitors with a goal event within `goal.withinDays` after their first exposure. */
  converted: number;
  /** converted / exposed, 4 decimals; null when no one was exposed. */
  rate: number | null;
}

/** Whether the answer can say anything about the lift, and the sentence the console shows. */
export type ExperimentVerdict = 'no experiment' | 'too small' | 'helped' | 'hurt' | 'unclear';

/** The answer of `GET .../guides/{guideId}/experiment`. */
export interface ExperimentAnswer {
  /** First exposures counted in [from, to), epoch ms (all time: from 0 to the time of the question). */
  from: number;
  to: number;
  goal: GuideGoal;
  /** The guide's experiment; null when it has none (the Goal panel then shows the treatment arm alone). */
  experiment: GuideExperiment | null;
  treatment: ExperimentArm;
  /** Null without an experiment. */
  control: ExperimentArm | null;
  /**
   * treatment rate - control rate (absolute, 4 decimals) and its 95% interval; `relative` is the lift over the
   * control rate (null when the control rate is 0). Null without an experiment or when an arm has no one exposed.
   */
  lift: { absolute: number; lower: number; upper: number; relative: number | null } | null;
  /** How the interval is computed: always 'newcombe-wilson-95' (Newcombe 1998, method 10, from Wilson intervals). */
  method: 'newcombe-wilson-95';
  verdict: ExperimentVerdict;
  /** The verdict in a plain sentence (the too-small rule says which arm lacks what). */
  sentence: string;
}
