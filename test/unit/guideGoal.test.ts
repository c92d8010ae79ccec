/**
 * issue #35 the guide editor's goal and experiment fields (console/guideGoal.ts): a stored goal read into the form
 * and written back unchanged, the share in percent, a goal taken out with its experiment, and what is typed badly
 * kept as typed so the guide's check (checkGuideGoal) names its field.
 */
import { describe, expect, it } from 'vitest';
import { applyGoalForm, goalFormOf } from '../../console/guideGoal';
import { checkGuideBody } from '../../server/guides/checkGuideBody';
import type { GuideBody } from '../../console/types';

const base = (): GuideBody => ({ id: 'g', launchMethod: 'auto', steps: [{ id: 's', type: 'lightbox' }] });

describe('issue #35 the guide editor\'s goal fields', () => {
  it('reads a goal and a share into the form and writes them back unchanged', () => {
    const guide = { ...base(), goal: { page: 'p1', withinDays: 14 }, experiment: { controlShare: 0.125 } };
    const form = goalFormOf(guide);
    expect(form).toEqual({ goalKind: 'page', goalRef: 'p1', goalDays: '14', controlPercent: '12.5' });
    const next = { ...guide };
    applyGoalForm(next, form);
    expect([next.goal, next.experiment]).toEqual([{ page: 'p1', withinDays: 14 }, { controlShare: 0.125 }]);
  });

  it('no goal takes the experiment out too; an empty share is no experiment', () => {
    const next = { ...base(), goal: { track: 'x', withinDays: 7 }, experiment: { controlShare: 0.1 } };
    applyGoalForm(next, { goalKind: 'track', goalRef: 'x', goalDays: '7', controlPercent: '' });
    expect([next.goal, next.experiment]).toEqual([{ track: 'x', withinDays: 7 }, undefined]);
    applyGoalForm(next, { goalKind: '', goalRef: 'x', goalDays: '7', controlPercent: '10' });
    expect(['goal' in next, 'experiment' in next]).toEqual([false, false]);
    expect(goalFormOf(base())).toEqual({ goalKind: '', goalRef: '', goalDays: '7', controlPercent: '' });
  });

  it('a bad value is written as typed, and the guide\'s check names its field', () => {
    const next = base();
    applyGoalForm(next, { goalKind: 'track', goalRef: 'x', goalDays: 'soon', controlPercent: '10' });
    expect(checkGuideBody(next, 'g')?.field).toBe('goal.withinDays');
    applyGoalForm(next, { goalKind: 'track', goalRef: 'x', goalDays: '3', controlPercent: '80' });
    expect(next.experiment).toEqual({ controlShare: 0.8 });
    expect(checkGuideBody(next, 'g')?.field).toBe('experiment.controlShare');
    applyGoalForm(next, { goalKind: 'track', goalRef: 'x', goalDays: '3', controlPercent: '50' });
    expect(checkGuideBody(next, 'g')).toBeNull();
  });
});
