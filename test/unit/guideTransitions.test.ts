import { describe, expect, it } from 'vitest';
import type { Guide } from '../../shared/guides/guides';
import type { SeenReason } from '../../shared/protocol';
import { defaultSeenReason } from '../../shared/guides/applyGuideTransition';
import { NOW, SHOWN_AT, UPDATED_AT, deepFreeze, step, guide3, guide4, apply, refusal, states } from './transitionFixtures';

describe('guides §4 Transitions: Show', () => {
  it('sets the step active with lastSeenAt and seenReason, and records guideSeen', () => {
    const r = apply(guide4(), { type: 'show', stepId: 'a1', reason: 'api' });
    expect(r.guide.steps[0]).toEqual({ id: 'a1', guideId: 'g4', type: 'tooltip', seenState: 'active', lastSeenAt: NOW, seenReason: 'api' });
    expect(r.events).toEqual([
      { type: 'guideSeen', props: { guide_id: 'g4', guide_step_id: 'a1', reason: 'api', last_updated_at: UPDATED_AT, duration: 0 } },
    ]);
    expect(r.show).toBe('a1');
    expect(r.hooks).toEqual([]);
    expect(r.timestamps).toEqual({});
    expect(r.warnings).toEqual([]);
    expect(states(r.guide)).toEqual(['active', 'none', 'none', 'none']);
  });

  it('clears every snoozed step of the guide, reporting each with guideSnoozeCanceled before guideSeen', () => {
    const g = guide4({
      a2: { seenState: 'snoozed', snoozeEndTime: NOW + 1000, seenReason: 'auto' },
      a4: { seenState: 'snoozed', snoozeEndTime: NOW - 1000 },
    });
    const r = apply(g, { type: 'show', stepId: 'a1', reason: 'continue' });
    expect(r.events).toEqual([
      { type: 'guideSnoozeCanceled', props: { guide_id: 'g4', guide_step_id: 'a2' } },
      { type: 'guideSnoozeCanceled', props: { guide_id: 'g4', guide_step_id: 'a4' } },
      { type: 'guideSeen', props: { guide_id: 'g4', guide_step_id: 'a1', reason: 'continue', last_updated_at: UPDATED_AT, duration: 0 } },
    ]);
    expect(states(r.guide)).toEqual(['active', 'none', 'none', 'none']);
    expect(r.guide.steps[1]).not.toHaveProperty('snoozeEndTime');
    expect(r.guide.steps[3]).not.toHaveProperty('snoozeEndTime');
  });

  it('showing a snoozed step again cancels its snooze and makes it active', () => {
    const r = apply(guide4({ a2: { seenState: 'snoozed', snoozeEndTime: NOW - 1 } }), { type: 'show', stepId: 'a2', reason: 'auto' });
    expect(r.events.map((e) => e.type)).toEqual(['guideSnoozeCanceled', 'guideSeen']);
    expect(r.guide.steps[1]).toEqual({ id: 'a2', guideId: 'g4', type: 'tooltip', seenState: 'active', lastSeenAt: NOW, seenReason: 'auto' });
  });

  it('replacing the shown step sets it back to none and fires updated', () => {
    const r = apply(guide3(), { type: 'show', stepId: 's3', reason: 'permalink' });
    expect(states(r.guide)).toEqual(['none', 'none', 'active']);
    expect(r.show).toBe('s3');
    expect(r.hooks).toEqual(['updated']);
  });

  it('showing the step already on screen again refreshes it and fires updated', () => {
    const r = apply(guide3(), { type: 'show', stepId: 's1', reason: 'api' });
    expect(r.guide.steps[0]).toMatchObject({ seenState: 'active', lastSeenAt: NOW, seenReason: 'api' });
    expect(r.hooks).toEqual(['updated']);
  });

  it.each([
    ['auto', 'auto'],
    ['api', 'api'],
    ['badge,api', 'api'],
    ['dom-launcher', 'dom'],
    ['launcher', 'launcher'],
    ['auto-launcher', 'auto'],
    ['extensionIcon', 'api'],
    ['', 'api'],
  ] as const)('defaults a missing seen reason from launchMethod %j to %j', (launchMethod, expected) => {
    expect(defaultSeenReason({ id: 'g', launchMethod, steps: [] })).toBe(expected);
  });

  it.each([
    ['an empty reason', '', 'no seen reason'],
    ['no reason', undefined, 'no seen reason'],
    ['an unknown reason', 'sideways', "unknown seen reason 'sideways'"],
  ])('logs %s as critical and defaults it from the launch method', (_label, reason, said) => {
    const g = guide4({}, { launchMethod: 'badge,dom' });
    const r = apply(g, { type: 'show', stepId: 'a2', reason: reason as unknown as SeenReason });
    expect(r.warnings).toEqual([
      `critical: step a2 of guide g4 was shown with ${said}; defaulted to 'badge' from launchMethod 'badge,dom'`,
    ]);
    expect(r.guide.steps[1].seenReason).toBe('badge');
    expect(r.events).toEqual([
      { type: 'guideSeen', props: { guide_id: 'g4', guide_step_id: 'a2', reason: 'badge', last_updated_at: UPDATED_AT, duration: 0 } },
    ]);
  });

  it('refuses an unknown step', () => {
    expect(refusal(guide3(), { type: 'show', stepId: 'nope', reason: 'api' })).toBe('guide g3 has no step nope');
  });
});

describe('guides §4 Transitions: Advance', () => {
  it('advances to the next step: guideAdvanced with duration and destination, show the next', () => {
    const r = apply(guide3(), { type: 'advance', stepId: 's1' }, { autoLaunched: true });
    expect(r.events).toEqual([
      {
        type: 'guideAdvanced',
        props: { guide_id: 'g3', guide_step_id: 's1', seen_reason: 'auto', duration: 4_250, destination_step_id: 's2' },
      },
    ]);
    expect(states(r.guide)).toEqual(['advanced', 'none', 'none']);
    expect(r.guide.steps[0].destinationStepId).toBe('s2');
    expect(r.show).toBe('s2');
    expect(r.hooks).toEqual(['advanced', 'beforeUpdate', 'updated']);
    expect(r.timestamps).toEqual({}); // not the final advance, even though auto-launched
    expect(r.warnings).toEqual([]);
  });

  it('advancing the last step increments dismissCount, hides, and omits destination_step_id', () => {
    const g = guide3({
      s1: { seenState: 'advanced' },
      s2: { seenState: 'advanced' },
      s3: { seenState: 'active', seenReason: 'continue', lastSeenAt: NOW - 900, dismissCount: 2 },
    });
    const r = apply(g, { type: 'advance', stepId: 's3' });
    expect(r.events).toEqual([{ type: 'guideAdvanced', props: { guide_id: 'g3', guide_step_id: 's3', seen_reason: 'continue', duration: 900 } }]);
    expect(r.events[0].props).not.toHaveProperty('destination_step_id');
    expect(r.guide.steps[2]).toMatchObject({ seenState: 'advanced', dismissCount: 3 });
    expect(r.guide.steps[2]).not.toHaveProperty('destinationStepId');
    expect(r.show).toBeNull();
    expect(r.hooks).toEqual(['advanced', 'beforeUnmount', 'unmounted']);
    expect(r.timestamps).toEqual({});
  });

  it('the final advance of an auto-launched guide sets finalAdvancedAutoAt', () => {
    const g = guide3({ s1: { seenState: 'advanced' }, s2: { seenState: 'advanced' }, s3: { seenState: 'active', lastSeenAt: NOW } });
    const r = apply(g, { type: 'advance', stepId: 's3' }, { autoLaunched: true });
    expect(r.timestamps).toEqual({ finalAdvancedAutoAt: NOW });
    expect(r.guide.steps[2].dismissCount).toBe(1);
  });

  it('advancing a one-step guide is its final advance', () => {
    const g = deepFreeze<Guide>({ id: 'g1', launchMethod: 'auto', steps: [step('g1', 'only', { seenState: 'active', seenReason: 'auto', lastSeenAt: SHOWN_AT })] });
    const r = apply(g, { type: 'advance', stepId: 'only' }, { autoLaunched: true });
    expect(r.show).toBeNull();
    expect(r.guide.steps[0]).toMatchObject({ seenState: 'advanced', dismissCount: 1 });
    expect(r.timestamps).toEqual({ finalAdvancedAutoAt: NOW });
  });

  it('jumping several steps marks the skipped steps advanced', () => {
    const g = guide4({ a2: { seenState: 'active', seenReason: 'api', lastSeenAt: SHOWN_AT }, a3: { seenState: 'snoozed', snoozeEndTime: NOW + 5 } });
    const r = apply(g, { type: 'advance', stepId: 'a2', destinationStepId: 'a4' });
    // a1 is earlier than the step that becomes active next, a3 is skipped: both are marked advanced.
    expect(states(r.guide)).toEqual(['advanced', 'advanced', 'advanced', 'none']);
    expect(r.guide.steps[2]).not.toHaveProperty('snoozeEndTime');
    expect(r.events).toEqual([
      {
        type: 'guideAdvanced',
        props: { guide_id: 'g4', guide_step_id: 'a2', seen_reason: 'api', duration: 4_250, destination_step_id: 'a4' },
      },
    ]);
    expect(r.show).toBe('a4');
    expect(r.guide.steps[3].dismissCount).toBeUndefined(); // only the last step's own advance counts
  });

  it('jumps from the first to the third of four steps', () => {
    const r = apply(guide4({ a1: { seenState: 'active', lastSeenAt: SHOWN_AT } }), { type: 'advance', stepId: 'a1', destinationStepId: 'a3' });
    expect(states(r.guide)).toEqual(['advanced', 'advanced', 'none', 'none']);
    expect(r.show).toBe('a3');
  });

  it('a 2-step guide advances from its first step to its last (the next step)', () => {
    const g = deepFreeze<Guide>({ id: 'g2', launchMethod: 'auto', steps: [step('g2', 'b1', { seenState: 'active' }), step('g2', 'b2')] });
    expect(apply(g, { type: 'advance', stepId: 'b1', destinationStepId: 'b2' }).show).toBe('b2');
    expect(apply(g, { type: 'advance', stepId: 'b1' }).show).toBe('b2');
  });

  it('force advances an already advanced step again', () => {
    const r = apply(guide3({ s1: { seenState: 'advanced', seenReason: 'auto', lastSeenAt: SHOWN_AT } }), { type: 'advance', stepId: 's1', force: true });
    expect(r.show).toBe('s2');
    // Not on screen, so no time on screen; the seen reason stays the step's.
    expect(r.events[0].props).toEqual({ guide_id: 'g3', guide_step_id: 's1', seen_reason: 'auto', duration: 0, destination_step_id: 's2' });
  });

  it('a step without a seen reason reports the launch method default, and duration 0 without lastSeenAt', () => {
    const r = apply(guide4({ a1: { seenState: 'active' } }), { type: 'advance', stepId: 'a1' });
    expect(r.events[0].props).toEqual({ guide_id: 'g4', guide_step_id: 'a1', seen_reason: 'api', duration: 0, destination_step_id: 'a2' });
  });

  it('refuses an already advanced step', () => {
    expect(refusal(guide3({ s1: { seenState: 'advanced' } }), { type: 'advance', stepId: 's1' })).toBe('step s1 of guide g3 is already advanced');
  });

  it('refuses when locked, even when forced', () => {
    expect(refusal(guide3(), { type: 'advance', stepId: 's1' }, { locked: true })).toBe('guide g3 is locked: step s1 cannot advance');
    expect(refusal(guide3(), { type: 'advance', stepId: 's1', force: true }, { locked: true })).toBe('guide g3 is locked: step s1 cannot advance');
  });

  it('refuses skipping directly from the first to the last step', () => {
    expect(refusal(guide3(), { type: 'advance', stepId: 's1', destinationStepId: 's3' })).toBe(
      'cannot skip from the first step s1 straight to the last step s3 of guide g3',
    );
    expect(refusal(guide4(), { type: 'advance', stepId: 'a1', destinationStepId: 'a4', force: true })).toBe(
      'cannot skip from the first step a1 straight to the last step a4 of guide g4',
    );
  });

  it('refuses an unknown destination', () => {
    expect(refusal(guide3(), { type: 'advance', stepId: 's1', destinationStepId: 'zz' })).toBe('cannot advance step s1: guide g3 has no step zz');
  });

  it('refuses the step itself as destination', () => {
    expect(refusal(guide3(), { type: 'advance', stepId: 's1', destinationStepId: 's1' })).toBe('cannot advance step s1 of guide g3 to itself');
  });

  it('refuses an earlier destination (going back is previous)', () => {
    expect(refusal(guide4({ a3: { seenState: 'active' } }), { type: 'advance', stepId: 'a3', destinationStepId: 'a2' })).toBe(
      'cannot advance step a3 of guide g4 back to earlier step a2; use previous',
    );
  });

  it('refuses an unknown step', () => {
    expect(refusal(guide3(), { type: 'advance', stepId: 'nope' })).toBe('guide g3 has no step nope');
  });
});

describe('guides §4 Transitions: Previous', () => {
  it('goes back one step, recording an advance event to the destination step', () => {
    const g = guide3({
      s1: { seenState: 'advanced', lastSeenAt: SHOWN_AT - 10_000 },
      s2: { seenState: 'active', seenReason: 'continue', lastSeenAt: SHOWN_AT },
    });
    const r = apply(g, { type: 'previous', stepId: 's2' }, { autoLaunched: true });
    expect(r.events).toEqual([
      {
        type: 'guideAdvanced',
        props: { guide_id: 'g3', guide_step_id: 's2', seen_reason: 'continue', duration: 4_250, destination_step_id: 's1' },
      },
    ]);
    expect(r.show).toBe('s1');
    expect(r.guide.steps[1]).toMatchObject({ seenState: 'advanced', destinationStepId: 's1' });
    expect(r.guide.steps[0]).toBe(g.steps[0]); // becomes active when the caller shows it
    expect(r.hooks).toEqual(['beforeUpdate', 'updated']);
    expect(r.timestamps).toEqual({});
  });

  it('goes back by the given number of steps; steps in between keep their state', () => {
    const g = guide4({
      a1: { seenState: 'advanced' },
      a2: { seenState: 'advanced' },
      a3: { seenState: 'active', seenReason: 'api', lastSeenAt: SHOWN_AT },
    });
    const r = apply(g, { type: 'previous', stepId: 'a3', steps: 2 });
    expect(r.show).toBe('a1');
    expect(r.events[0].props).toEqual({ guide_id: 'g4', guide_step_id: 'a3', seen_reason: 'api', duration: 4_250, destination_step_id: 'a1' });
    expect(states(r.guide)).toEqual(['advanced', 'advanced', 'advanced', 'none']);
  });

  it('refuses the first step', () => {
    expect(refusal(guide3(), { type: 'previous', stepId: 's1' })).toBe('step s1 is the first step of guide g3: there is no previous step');
  });

  it('refuses an already advanced step', () => {
    expect(refusal(guide3({ s2: { seenState: 'advanced' } }), { type: 'previous', stepId: 's2' })).toBe('step s2 of guide g3 is already advanced');
  });

  it('refuses going back before the first step', () => {
    expect(refusal(guide4({ a3: { seenState: 'active' } }), { type: 'previous', stepId: 'a3', steps: 3 })).toBe(
      'cannot go back 3 steps from step a3 of guide g4: it is only 2 steps from the first',
    );
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses steps = %s', (steps) => {
    expect(refusal(guide3({ s3: { seenState: 'active' } }), { type: 'previous', stepId: 's3', steps })).toBe(
      `cannot go back ${steps} steps: steps must be a positive whole number`,
    );
  });

  it('refuses an unknown step', () => {
    expect(refusal(guide3(), { type: 'previous', stepId: 'nope' })).toBe('guide g3 has no step nope');
  });
});
