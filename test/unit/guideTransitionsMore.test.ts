/** The step state machine, continued: dismiss, snooze, goToStep, hooks, throttling timestamps (guides §4 Transitions). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SNOOZE_MS } from '../../shared/constants';
import type { Guide } from '../../shared/guides/guides';
import { CANCELABLE_HOOK_OF, type GuideTransition } from '../../shared/guides/applyGuideTransition';
import { NOW, SHOWN_AT, guide3, guide4, apply, refusal, states } from './transitionFixtures';

describe('guides §4 Transitions: Dismiss', () => {
  it('records guideDismissed, increments dismissCount and hides', () => {
    const r = apply(guide3(), { type: 'dismiss', stepId: 's1' });
    expect(r.events).toEqual([{ type: 'guideDismissed', props: { guide_id: 'g3', guide_step_id: 's1', seen_reason: 'auto', duration: 4_250 } }]);
    expect(r.guide.steps[0]).toMatchObject({ seenState: 'dismissed', dismissCount: 1 });
    expect(r.show).toBeNull();
    expect(r.hooks).toEqual(['beforeUnmount', 'unmounted', 'dismissed', 'hidden']);
    expect(r.timestamps).toEqual({});
  });

  it('adds to an existing dismissCount and drops a snooze end time', () => {
    const r = apply(guide3({ s2: { seenState: 'snoozed', snoozeEndTime: NOW + 60_000, dismissCount: 4 } }), { type: 'dismiss', stepId: 's2' });
    expect(r.guide.steps[1]).toEqual({ id: 's2', guideId: 'g3', type: 'tooltip', seenState: 'dismissed', dismissCount: 5 });
  });

  it('sets latestDismissedAutoAt only for an auto-launched guide', () => {
    expect(apply(guide3(), { type: 'dismiss', stepId: 's1' }, { autoLaunched: true }).timestamps).toEqual({ latestDismissedAutoAt: NOW });
    expect(apply(guide3(), { type: 'dismiss', stepId: 's1' }, { autoLaunched: false }).timestamps).toEqual({});
  });

  it('refuses an already dismissed step', () => {
    expect(refusal(guide3({ s1: { seenState: 'dismissed' } }), { type: 'dismiss', stepId: 's1' })).toBe('step s1 of guide g3 is already dismissed');
  });

  it('refuses an unknown step', () => {
    expect(refusal(guide3(), { type: 'dismiss', stepId: 'nope' })).toBe('guide g3 has no step nope');
  });
});

describe('guides §4 Transitions: Snooze', () => {
  it('snoozes for exactly 86,400,000 ms by default', () => {
    expect(DEFAULT_SNOOZE_MS).toBe(86_400_000);
    const r = apply(guide3(), { type: 'snooze', stepId: 's1' });
    expect(r.events).toEqual([
      {
        type: 'guideSnoozed',
        props: { guide_id: 'g3', guide_step_id: 's1', seen_reason: 'auto', duration: 4_250, snooze_duration: 86_400_000 },
      },
    ]);
    expect(r.guide.steps[0]).toMatchObject({ seenState: 'snoozed', snoozeEndTime: NOW + 86_400_000 });
    expect(r.guide.steps[0].dismissCount).toBeUndefined();
    expect(r.show).toBeNull();
    expect(r.hooks).toEqual(['beforeUnmount', 'unmounted', 'snoozed', 'hidden']);
    expect(r.timestamps).toEqual({});
  });

  it('snoozes for the given duration', () => {
    const r = apply(guide3(), { type: 'snooze', stepId: 's1', durationMs: 3_600_000 });
    expect(r.events[0].props.snooze_duration).toBe(3_600_000);
    expect(r.guide.steps[0].snoozeEndTime).toBe(NOW + 3_600_000);
  });

  it('sets latestSnoozedAutoAt only for an auto-launched guide', () => {
    expect(apply(guide3(), { type: 'snooze', stepId: 's1' }, { autoLaunched: true }).timestamps).toEqual({ latestSnoozedAutoAt: NOW });
    expect(apply(guide3(), { type: 'snooze', stepId: 's1' }).timestamps).toEqual({});
  });

  it('refuses an already snoozed step', () => {
    expect(refusal(guide3({ s1: { seenState: 'snoozed', snoozeEndTime: NOW + 1 } }), { type: 'snooze', stepId: 's1' })).toBe(
      'step s1 of guide g3 is already snoozed',
    );
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])('refuses a duration of %s ms', (durationMs) => {
    expect(refusal(guide3(), { type: 'snooze', stepId: 's1', durationMs })).toBe(
      `cannot snooze step s1 of guide g3 for ${durationMs} ms: the duration must be a positive finite number`,
    );
  });

  it('refuses an unknown step', () => {
    expect(refusal(guide3(), { type: 'snooze', stepId: 'nope' })).toBe('guide g3 has no step nope');
  });
});

describe('guides §4 Transitions: goToStep', () => {
  it('a later target is an advance to it', () => {
    const g = guide4({ a1: { seenState: 'active', seenReason: 'api', lastSeenAt: SHOWN_AT } });
    const r = apply(g, { type: 'goToStep', stepId: 'a1', targetStepId: 'a3' });
    expect(r).toEqual(apply(g, { type: 'advance', stepId: 'a1', destinationStepId: 'a3' }));
    expect(r.show).toBe('a3');
    expect(states(r.guide)).toEqual(['advanced', 'advanced', 'none', 'none']);
  });

  it('an earlier target is a previous by the distance to it', () => {
    const g = guide4({ a1: { seenState: 'advanced' }, a2: { seenState: 'advanced' }, a4: { seenState: 'active', lastSeenAt: SHOWN_AT } });
    const r = apply(g, { type: 'goToStep', stepId: 'a4', targetStepId: 'a2' });
    expect(r).toEqual(apply(g, { type: 'previous', stepId: 'a4', steps: 2 }));
    expect(r.show).toBe('a2');
    expect(r.events[0].props.destination_step_id).toBe('a2');
  });

  it('refuses the same step', () => {
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's1', targetStepId: 's1' })).toBe('goToStep: step s1 of guide g3 is already the current step');
  });

  it('refuses a missing step id', () => {
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's1', targetStepId: '' })).toBe('goToStep from step s1 of guide g3 names no target step');
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's1' } as unknown as GuideTransition)).toBe(
      'goToStep from step s1 of guide g3 names no target step',
    );
  });

  it('refuses an unknown step', () => {
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's1', targetStepId: 's9' })).toBe('goToStep: guide g3 has no step s9');
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's0', targetStepId: 's2' })).toBe('goToStep: guide g3 has no step s0');
  });

  it("keeps advance's and previous' refusals", () => {
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's1', targetStepId: 's2' }, { locked: true })).toBe('guide g3 is locked: step s1 cannot advance');
    expect(refusal(guide3(), { type: 'goToStep', stepId: 's1', targetStepId: 's3' })).toBe(
      'cannot skip from the first step s1 straight to the last step s3 of guide g3',
    );
    expect(refusal(guide3({ s3: { seenState: 'advanced' } }), { type: 'goToStep', stepId: 's3', targetStepId: 's1' })).toBe(
      'step s3 of guide g3 is already advanced',
    );
  });
});

describe('guides §4 Transitions: Guide lifecycle hooks', () => {
  it('names the cancelable hook the caller runs before each transition', () => {
    expect(CANCELABLE_HOOK_OF).toEqual({
      show: 'beforeMount',
      advance: 'beforeAdvance',
      previous: 'beforePrevious',
      dismiss: 'beforeDismiss',
      snooze: 'beforeSnooze',
      goToStep: 'beforeAdvance',
    });
  });
});

describe('guides §4 Throttling: timestamps only for auto-launched guides', () => {
  const lastActive = () => guide3({ s1: { seenState: 'advanced' }, s2: { seenState: 'advanced' }, s3: { seenState: 'active', lastSeenAt: SHOWN_AT } });
  it.each<[string, () => Guide, GuideTransition]>([
    ['show', guide4, { type: 'show', stepId: 'a1', reason: 'auto' }],
    ['advance (not final)', guide3, { type: 'advance', stepId: 's1' }],
    ['previous', lastActive, { type: 'previous', stepId: 's3' }],
    ['final advance', lastActive, { type: 'advance', stepId: 's3' }],
    ['dismiss', guide3, { type: 'dismiss', stepId: 's1' }],
    ['snooze', guide3, { type: 'snooze', stepId: 's1' }],
  ])('%s of a guide not launched automatically sets none', (_name, make, transition) => {
    expect(apply(make(), transition, { autoLaunched: false }).timestamps).toEqual({});
  });
});
