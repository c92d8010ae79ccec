/**
 * The guide editor's goal and experiment fields (issue #35 "Did the guide work?") as the form holds them, and back:
 * the goal's kind and target (a feature or page id, a track name), its days, and the share held back as control
 * in percent ('' for no experiment). Pure: the editor (GuideGoalFields) and its tests use it.
 */
import type { GuideBody } from './types';

/** The goal and experiment fields of the guide form. */
export interface GoalFormFields {
  /** '' for no goal. */
  goalKind: '' | 'feature' | 'page' | 'track';
  goalRef: string;
  goalDays: string;
  /** The control share in percent (1 to 50); '' for no experiment. */
  controlPercent: string;
}

const KINDS = ['feature', 'page', 'track'] as const;

/** The form's values of a guide's goal and experiment. */
export function goalFormOf(guide: GuideBody): GoalFormFields {
  const goal = (guide.goal ?? {}) as Record<string, unknown>;
  const kind = KINDS.find((k) => typeof goal[k] === 'string');
  const share = (guide.experiment as { controlShare?: unknown } | undefined)?.controlShare;
  return {
    goalKind: kind ?? '',
    goalRef: kind ? String(goal[kind]) : '',
    goalDays: typeof goal.withinDays === 'number' ? String(goal.withinDays) : '7',
    // Percent with at most two decimals: 0.125 reads 12.5.
    controlPercent: typeof share === 'number' ? String(Math.round(share * 10_000) / 100) : '',
  };
}

/**
 * Writes the form's goal and experiment into `next` (a copy being built): no kind takes both out (an experiment
 * measures a goal); days and share are written as numbers when they read as numbers, else as typed, so the
 * guide's check names the field (goal.withinDays, experiment.controlShare).
 */
export function applyGoalForm(next: GuideBody, form: GoalFormFields): void {
  if (!form.goalKind) {
    delete next.goal;
    delete next.experiment;
    return;
  }
  const days = Number(form.goalDays);
  next.goal = { [form.goalKind]: form.goalRef, withinDays: form.goalDays.trim() !== '' && Number.isFinite(days) ? days : form.goalDays };
  const percent = Number(form.controlPercent);
  if (form.controlPercent.trim() === '') delete next.experiment;
  else next.experiment = { controlShare: Number.isFinite(percent) ? Math.round(percent * 100) / 10_000 : form.controlPercent };
}
