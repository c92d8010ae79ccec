/**
 * What a guide's experiment can say (issue #35 "Did the guide work?"): the lift (treatment rate - control rate) with
 * its 95% interval (newcombeInterval), and a verdict in a plain sentence. Too small to say: an arm with fewer than
 * MIN_EXPOSED exposed visitors or fewer than MIN_CONVERTED conversions. Below those counts the interval is still
 * computed (Newcombe's method holds up at small counts) and answered, but a handful of visitors moving arm would
 * turn it around, so the sentence says to wait rather than read it.
 */
import type { ExperimentAnswer, ExperimentArm } from '../../../shared/api/experiments';
import { newcombeInterval } from './newcombeInterval';

/** Fewer exposed visitors than this in an arm: too small to say. */
export const MIN_EXPOSED = 30;
/** Fewer conversions than this in an arm: too small to say. */
export const MIN_CONVERTED = 5;

/** A ratio to 4 decimals. */
const round4 = (value: number) => Math.round(value * 1e4) / 1e4;
/** A proportion as signed percentage points with one decimal: `+7.2 points`. */
const points = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${size(value)}`;
/** A proportion's size in percentage points: `7.2 points`. */
const size = (value: number) => `${Math.abs(value * 100).toFixed(1)} points`;

/** An arm's counts with its rate. */
export function armOf(exposed: number, converted: number): ExperimentArm {
  return { exposed, converted, rate: exposed > 0 ? round4(converted / exposed) : null };
}

/** The lift, verdict and sentence of the arms; `control` null when the guide has no experiment. */
export function judgeExperiment(treatment: ExperimentArm, control: ExperimentArm | null, withinDays: number): Pick<ExperimentAnswer, 'lift' | 'verdict' | 'sentence'> {
  const within = `within ${withinDays} day${withinDays === 1 ? '' : 's'}`;
  if (control === null) {
    const share = treatment.rate === null ? 'no visitor has seen the guide yet' : `${treatment.converted} of ${treatment.exposed} visitors who saw it reached the goal ${within}`;
    return { lift: null, verdict: 'no experiment', sentence: `No experiment, so no comparison: ${share}.` };
  }
  const lift = treatment.exposed > 0 && control.exposed > 0 ? liftOf(treatment, control) : null;
  const short = ([['treatment', treatment], ['control', control]] as const).filter(([, arm]) => arm.exposed < MIN_EXPOSED || arm.converted < MIN_CONVERTED);
  if (short.length || lift === null) {
    const which = short.map(([name, arm]) => `${name} has ${arm.exposed} exposed and ${arm.converted} converted`).join('; ');
    return {
      lift,
      verdict: 'too small',
      sentence: `Too few visitors to say yet: each group needs at least ${MIN_EXPOSED} exposed visitors and ${MIN_CONVERTED} who reached the goal (${which}).`,
    };
  }
  const interval = `95% interval ${points(lift.lower)} to ${points(lift.upper)}`;
  if (lift.lower > 0) return { lift, verdict: 'helped', sentence: `The guide helped: those who saw it reached the goal ${within} ${size(lift.absolute)} more often than the control group (${interval}).` };
  if (lift.upper < 0) return { lift, verdict: 'hurt', sentence: `The guide hurt: those who saw it reached the goal ${within} ${size(lift.absolute)} less often than the control group (${interval}).` };
  return { lift, verdict: 'unclear', sentence: `No clear difference yet: ${points(lift.absolute)} against the control group, but the ${interval} includes no change.` };
}

function liftOf(treatment: ExperimentArm, control: ExperimentArm): NonNullable<ExperimentAnswer['lift']> {
  const t = treatment.converted / treatment.exposed;
  const c = control.converted / control.exposed;
  const { lower, upper } = newcombeInterval(treatment.converted, treatment.exposed, control.converted, control.exposed);
  return { absolute: round4(t - c), lower: round4(lower), upper: round4(upper), relative: c > 0 ? round4((t - c) / c) : null };
}
