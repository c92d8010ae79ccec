import { describe, expect, it } from 'vitest';
import { canRepeat, dismissTotalOf, isGuideSnoozeReady } from '../../shared/eligibility/canRepeat';
import { CONTINUATION_EXPIRY_MS } from '../../shared/constants';
import { completionStatus, continuationStep } from '../../shared/guides/continuationStep';
import type { Guide, GuideStep, LastGuideStepSeen, ThrottlingConfig } from '../../shared/guides/guides';
import { isInTimebox } from '../../shared/eligibility/isInTimebox';
import { MESSAGES } from '../../shared/messages';
import { isThrottled, nextDisplayTime, startOfNextLocalDay, startOfNextUtcDay } from '../../shared/eligibility/nextDisplayTime';
import { T, MINUTE, HOUR, step, guide, threeSteps } from './scheduleFixtures';

const utc = { startOfNextDay: startOfNextUtcDay };

describe('guides §4 Throttling', () => {
  const every = (interval: number, unit: ThrottlingConfig['unit']): ThrottlingConfig => ({ enabled: true, interval, unit });

  it('is null when throttling is disabled, or there is no timestamp to count from', () => {
    expect(nextDisplayTime({ enabled: false, interval: 30, unit: 'minute' }, { latestDismissedAutoAt: T })).toBeNull();
    expect(nextDisplayTime(undefined, { latestDismissedAutoAt: T })).toBeNull();
    expect(nextDisplayTime(every(30, 'minute'), {})).toBeNull();
    expect(nextDisplayTime(every(30, 'minute'), undefined)).toBeNull();
    expect(nextDisplayTime(every(30, 'minute'), { latestDismissedAutoAt: 'x' as unknown as number, finalAdvancedAutoAt: Number.NaN })).toBeNull();
  });

  it('adds minutes to the latest of the dismissal, snooze and final advance', () => {
    const timestamps = { latestDismissedAutoAt: T - HOUR, latestSnoozedAutoAt: T, finalAdvancedAutoAt: T - 2 * HOUR };
    expect(nextDisplayTime(every(30, 'minute'), timestamps)).toBe(Date.UTC(2026, 10, 22, 16, 0));
    expect(nextDisplayTime(every(30, 'minute'), { finalAdvancedAutoAt: T, latestDismissedAutoAt: T - 1 })).toBe(Date.UTC(2026, 10, 22, 16, 0));
    expect(nextDisplayTime(every(0, 'minute'), { latestDismissedAutoAt: T })).toBe(T);
  });

  it('adds hours', () => {
    expect(nextDisplayTime(every(2, 'hour'), { latestDismissedAutoAt: T })).toBe(Date.UTC(2026, 10, 22, 17, 30));
    expect(nextDisplayTime(every(12, 'hour'), { latestSnoozedAutoAt: T })).toBe(Date.UTC(2026, 10, 23, 3, 30));
  });

  it('for days: the next midnight after the latest timestamp, plus the days (UTC pinned)', () => {
    const dismissed = { latestDismissedAutoAt: T };
    expect(nextDisplayTime(every(0, 'day'), dismissed, utc)).toBe(Date.UTC(2026, 10, 23));
    expect(nextDisplayTime(every(1, 'day'), dismissed, utc)).toBe(Date.UTC(2026, 10, 24));
    expect(nextDisplayTime(every(3, 'day'), dismissed, utc)).toBe(Date.UTC(2026, 10, 26));
    // A fractional day count is rounded up.
    expect(nextDisplayTime(every(1.5, 'day'), dismissed, utc)).toBe(Date.UTC(2026, 10, 25));
  });

  it('day boundaries: a timestamp at midnight counts from the following midnight; months and years roll over', () => {
    expect(nextDisplayTime(every(1, 'day'), { latestDismissedAutoAt: Date.UTC(2026, 10, 23) }, utc)).toBe(Date.UTC(2026, 10, 25));
    expect(nextDisplayTime(every(1, 'day'), { latestDismissedAutoAt: Date.UTC(2026, 10, 22, 23, 59, 59, 999) }, utc)).toBe(
      Date.UTC(2026, 10, 24),
    );
    expect(nextDisplayTime(every(1, 'day'), { finalAdvancedAutoAt: Date.UTC(2026, 11, 31, 22) }, utc)).toBe(Date.UTC(2027, 0, 2));
    expect(nextDisplayTime(every(2, 'day'), { finalAdvancedAutoAt: Date.UTC(2028, 1, 28, 8) }, utc)).toBe(Date.UTC(2028, 2, 2));
  });

  it('steps midnights with the injected start-of-day function (a UTC+2 zone)', () => {
    const plus2 = (ms: number) => startOfNextUtcDay(ms + 2 * HOUR) - 2 * HOUR;
    // 15:30 UTC is 17:30 at UTC+2: the next local midnight is 22:00 UTC, one day on is 22:00 UTC the next day.
    expect(nextDisplayTime(every(1, 'day'), { latestDismissedAutoAt: T }, { startOfNextDay: plus2 })).toBe(Date.UTC(2026, 10, 23, 22));
    // 23:00 UTC is already 01:00 on the 23rd at UTC+2.
    const late = Date.UTC(2026, 10, 22, 23);
    expect(nextDisplayTime(every(1, 'day'), { latestDismissedAutoAt: late }, { startOfNextDay: plus2 })).toBe(Date.UTC(2026, 10, 24, 22));
  });

  it('the default start of day is the next local midnight, whatever the runtime zone', () => {
    const next = startOfNextLocalDay(T);
    const d = new Date(next);
    expect(next).toBeGreaterThan(T);
    expect(next - T).toBeLessThanOrEqual(25 * HOUR);
    expect([d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()]).toEqual([0, 0, 0, 0]);
    expect(startOfNextLocalDay(next)).toBeGreaterThan(next);
  });

  it('accepts the wire spelling of a unit and refuses unusable configs', () => {
    const wire = { enabled: true, interval: 1, unit: 'Days' } as unknown as ThrottlingConfig;
    expect(nextDisplayTime(wire, { latestDismissedAutoAt: T }, utc)).toBe(Date.UTC(2026, 10, 24));
    expect(nextDisplayTime({ enabled: true, interval: 1, unit: 'week' } as unknown as ThrottlingConfig, { latestDismissedAutoAt: T })).toBeNull();
    expect(nextDisplayTime(every(-1, 'minute'), { latestDismissedAutoAt: T })).toBeNull();
    expect(nextDisplayTime(every(Number.NaN, 'minute'), { latestDismissedAutoAt: T })).toBeNull();
  });

  it('isThrottled: held back until the next display time exactly', () => {
    const config = every(30, 'minute');
    const timestamps = { latestDismissedAutoAt: T };
    const next = Date.UTC(2026, 10, 22, 16, 0);
    expect(isThrottled(config, timestamps, next - 1, guide())).toBe(true);
    expect(isThrottled(config, timestamps, next, guide())).toBe(false);
    expect(isThrottled({ ...config, enabled: false }, timestamps, T, guide())).toBe(false);
    expect(isThrottled(every(1, 'day'), timestamps, Date.UTC(2026, 10, 24) - 1, guide(), utc)).toBe(true);
    expect(isThrottled(every(1, 'day'), timestamps, Date.UTC(2026, 10, 24), guide(), utc)).toBe(false);
  });

  it('guides §4 Auto display: overrideAutoThrottling and snoozed-ready guides bypass throttling', () => {
    const config = every(30, 'minute');
    const timestamps = { latestDismissedAutoAt: T };
    expect(isThrottled(config, timestamps, T + MINUTE, guide({ attributes: { overrideAutoThrottling: true } }))).toBe(false);
    const snoozeEnded = guide({ steps: [step('s1', { seenState: 'snoozed', snoozeEndTime: T })] });
    expect(isGuideSnoozeReady(snoozeEnded, T)).toBe(true);
    expect(isThrottled(config, timestamps, T + MINUTE, snoozeEnded)).toBe(false);
    // Still snoozed: not ready, so throttling applies.
    const stillSnoozed = guide({ steps: [step('s1', { seenState: 'snoozed', snoozeEndTime: T + HOUR })] });
    expect(isThrottled(config, timestamps, T + MINUTE, stillSnoozed)).toBe(true);
  });
});

describe('guides §4 Timebox', () => {
  const showsAfter = Date.UTC(2026, 10, 1);
  const expiresAfter = Date.UTC(2026, 11, 1);

  it('is inside between the bounds, the bounds themselves included', () => {
    const g = { showsAfter, expiresAfter };
    expect(isInTimebox(g, T)).toBe(true);
    expect(isInTimebox(g, showsAfter)).toBe(true);
    expect(isInTimebox(g, expiresAfter)).toBe(true);
    expect(isInTimebox(g, showsAfter - 1)).toBe(false);
    expect(isInTimebox(g, expiresAfter + 1)).toBe(false);
  });

  it('ignores absent and non-numeric bounds', () => {
    expect(isInTimebox({}, T)).toBe(true);
    expect(isInTimebox({ showsAfter }, expiresAfter + 1)).toBe(true);
    expect(isInTimebox({ expiresAfter }, 0)).toBe(true);
    expect(isInTimebox({ showsAfter: 'soon' as unknown as number, expiresAfter: Number.NaN }, T)).toBe(true);
    expect(isInTimebox({ expiresAfter: null as unknown as number }, T)).toBe(true);
    // A numeric string counts.
    expect(isInTimebox({ expiresAfter: String(T - 1) as unknown as number }, T)).toBe(false);
  });
});

describe('guides §4 Repeat', () => {
  const seen = (extra: Partial<GuideStep> = {}) => step('s1', { seenState: 'dismissed', lastSeenAt: T, dismissCount: 1, ...extra });
  const repeating = (steps: GuideStep[], maxDismissals = 0): Guide => guide({ redisplay: { interval: HOUR, maxDismissals }, steps });

  it('repeats a seen step once last-seen time plus the interval has come (at that instant exactly)', () => {
    const s = seen();
    expect(canRepeat(repeating([s]), s, T + HOUR)).toEqual({ pass: true, reason: 'redisplay interval passed at 2026-11-22T16:30:00.000Z' });
    const advanced = seen({ seenState: 'advanced', dismissCount: 0 });
    expect(canRepeat(repeating([advanced]), advanced, T + HOUR).pass).toBe(true);
  });

  it('refuses a too-early redisplay with a reason the caller logs as an error', () => {
    const s = seen();
    expect(canRepeat(repeating([s]), s, T + HOUR - 1)).toEqual({
      pass: false,
      tooEarly: true,
      reason: 'redisplay too early: step s1 was last seen at 2026-11-22T15:30:00.000Z and may repeat from 2026-11-22T16:30:00.000Z',
    });
  });

  it('maxDismissals 0 is unlimited; N stops once the dismiss total (all steps) reaches N', () => {
    const many = seen({ dismissCount: 50 });
    expect(canRepeat(repeating([many], 0), many, T + HOUR).pass).toBe(true);
    const s1 = seen();
    const s2 = step('s2', { seenState: 'advanced', dismissCount: 1 });
    expect(dismissTotalOf(repeating([s1, s2]))).toBe(2);
    expect(canRepeat(repeating([s1, s2], 3), s1, T + HOUR).pass).toBe(true);
    expect(canRepeat(repeating([s1, s2], 2), s1, T + HOUR)).toEqual({ pass: false, reason: 'dismissed 2 times, maxDismissals is 2' });
    expect(canRepeat(repeating([s1, step('s2')], 2), s1, T + HOUR).pass).toBe(true);
  });

  it('does not repeat while a step of the guide is snoozed; does once the snooze end time is reached', () => {
    const s1 = seen();
    const s2 = step('s2', { seenState: 'snoozed', snoozeEndTime: T + 2 * HOUR });
    expect(canRepeat(repeating([s1, s2]), s1, T + 2 * HOUR - 1)).toEqual({
      pass: false,
      reason: 'step s2 is snoozed until 2026-11-22T17:30:00.000Z',
    });
    expect(canRepeat(repeating([s1, s2]), s1, T + 2 * HOUR).pass).toBe(true);
  });

  it('a step not seen is not a repeat; a seen step without interval or lastSeenAt does not repeat', () => {
    const fresh = step('s1', { seenState: 'active' });
    expect(canRepeat(guide({ steps: [fresh] }), fresh, T).pass).toBe(true);
    const s = seen();
    expect(canRepeat(guide({ steps: [s] }), s, T + 100 * HOUR)).toEqual({ pass: false, reason: 'guide has no redisplay interval' });
    const noTime = seen({ lastSeenAt: undefined });
    expect(canRepeat(repeating([noTime]), noTime, T)).toEqual({ pass: false, reason: 'step s1 has no lastSeenAt' });
  });
});

describe('guides §4 Continuation', () => {
  const multi = (extra: Partial<Guide> = {}) => guide({ isMultiStep: true, steps: threeSteps(), ...extra });
  const record = (extra: Partial<LastGuideStepSeen> = {}): LastGuideStepSeen => ({ guideId: 'g', guideStepId: 's1', time: T, ...extra });

  it('dismissed: stops', () => {
    expect(continuationStep(multi(), record({ state: 'dismissed' }), T + MINUTE)).toEqual({
      step: undefined,
      reason: 'guide was dismissed: continuation stops',
    });
  });

  it('active: resumes that step', () => {
    const decision = continuationStep(multi(), record({ guideStepId: 's2', state: 'active' }), T + MINUTE);
    expect(decision.step?.id).toBe('s2');
    expect(decision.expired).toBeUndefined();
  });

  it('snoozed: resumes that step only once its snooze end time is reached', () => {
    const snoozed = record({ guideStepId: 's2', state: 'snoozed', snoozeEndTime: T + HOUR });
    expect(continuationStep(multi(), snoozed, T + HOUR - 1)).toEqual({ step: undefined, reason: 'step s2 is snoozed until 2026-11-22T16:30:00.000Z' });
    expect(continuationStep(multi(), snoozed, T + HOUR).step?.id).toBe('s2');
    // Without an end time in the record, the step's own snoozeEndTime counts.
    const fromStep = multi({ steps: threeSteps([{}, { seenState: 'snoozed', snoozeEndTime: T + HOUR }]) });
    expect(continuationStep(fromStep, record({ guideStepId: 's2', state: 'snoozed' }), T + HOUR - 1).step).toBeUndefined();
    expect(continuationStep(fromStep, record({ guideStepId: 's2', state: 'snoozed' }), T + HOUR).step?.id).toBe('s2');
  });

  it('advanced: the destination step, or else the next step; nothing after the last step', () => {
    expect(continuationStep(multi(), record({ state: 'advanced' }), T + MINUTE).step?.id).toBe('s2');
    expect(continuationStep(multi(), record({ state: 'advanced', destinationStepId: 's3' }), T + MINUTE)).toEqual({
      step: expect.objectContaining({ id: 's3' }),
      reason: 'advanced to destination step s3',
    });
    expect(continuationStep(multi(), record({ state: 'advanced', destinationStepId: 'gone' }), T + MINUTE).step?.id).toBe('s2');
    expect(continuationStep(multi(), record({ guideStepId: 's3', state: 'advanced' }), T + MINUTE)).toEqual({
      step: undefined,
      reason: 'last step advanced: guide complete',
    });
  });

  it('a record older than 12 hours is dropped with expired (at exactly 12 hours it still counts)', () => {
    const active = record({ state: 'active' });
    expect(continuationStep(multi(), active, T + CONTINUATION_EXPIRY_MS).step?.id).toBe('s1');
    expect(continuationStep(multi(), active, Date.UTC(2026, 10, 23, 3, 30)).step?.id).toBe('s1');
    expect(continuationStep(multi(), active, Date.UTC(2026, 10, 23, 3, 30, 0, 1))).toEqual({
      step: undefined,
      reason: MESSAGES.continuationExpired,
      expired: true,
    });
    // Dismissed stops before age is looked at, so nothing to log.
    expect(continuationStep(multi(), record({ state: 'dismissed' }), T + 2 * CONTINUATION_EXPIRY_MS).expired).toBeUndefined();
  });

  it('onboarding guides never expire', () => {
    const onboarding = multi({ attributes: { isOnboarding: true } });
    const decision = continuationStep(onboarding, record({ state: 'advanced' }), T + 7 * 24 * HOUR);
    expect(decision.step?.id).toBe('s2');
    expect(decision.expired).toBeUndefined();
  });

  it('doNotResume guides never continue, and expire silently', () => {
    const g = multi({ attributes: { doNotResume: true } });
    expect(continuationStep(g, record({ state: 'active' }), T + MINUTE)).toEqual({ step: undefined, reason: 'guide has doNotResume' });
    expect(continuationStep(g, record({ state: 'active' }), T + 2 * CONTINUATION_EXPIRY_MS).expired).toBeUndefined();
  });

  it('no continuation for another guide, a single-step guide, an unknown step, or a state that does not continue', () => {
    expect(continuationStep(multi(), record({ guideId: 'other', state: 'active' }), T).step).toBeUndefined();
    expect(continuationStep(multi(), undefined, T).step).toBeUndefined();
    expect(continuationStep(guide(), record({ state: 'active' }), T)).toEqual({ step: undefined, reason: 'guide is not multi-step' });
    expect(continuationStep(multi(), record({ guideStepId: 'gone', state: 'active' }), T)).toEqual({
      step: undefined,
      reason: 'step gone is not in the guide',
    });
    expect(continuationStep(multi(), record({ state: 'none' }), T)).toEqual({ step: undefined, reason: "last state 'none' does not continue" });
    // Multi-step by step count when isMultiStep is absent.
    expect(continuationStep(guide({ steps: threeSteps() }), record({ state: 'active' }), T).step?.id).toBe('s1');
  });
});

describe('guides §4 Guide completion', () => {
  const multi = (states: Array<GuideStep['seenState']>) => guide({ isMultiStep: true, steps: threeSteps(states.map((seenState) => ({ seenState }))) });

  it('multi-step: complete when the last step is advanced or dismissed', () => {
    expect(completionStatus(multi([undefined, undefined, undefined]))).toBe('not started');
    expect(completionStatus(multi(['none', 'none', 'none']))).toBe('not started');
    expect(completionStatus(multi(['active', 'none', 'none']))).toBe('in progress');
    expect(completionStatus(multi(['advanced', 'active', 'none']))).toBe('in progress');
    expect(completionStatus(multi(['dismissed', 'none', 'none']))).toBe('in progress');
    expect(completionStatus(multi(['advanced', 'advanced', 'advanced']))).toBe('complete');
    expect(completionStatus(multi(['none', 'none', 'dismissed']))).toBe('complete');
    // Snoozed is not among the spec's in-progress states.
    expect(completionStatus(multi(['snoozed', 'none', 'none']))).toBe('not started');
  });

  it('single-step and explicitly not multi-step guides: complete when all steps are', () => {
    expect(completionStatus(guide({ steps: [step('s1', { seenState: 'dismissed' })] }))).toBe('complete');
    expect(completionStatus(guide({ steps: [step('s1', { seenState: 'active' })] }))).toBe('in progress');
    expect(completionStatus(guide())).toBe('not started');
    const notMulti = guide({ isMultiStep: false, steps: [step('s1'), step('s2', { seenState: 'advanced' })] });
    expect(completionStatus(notMulti)).toBe('in progress');
    expect(completionStatus(guide({ steps: [] }))).toBe('not started');
  });
});
