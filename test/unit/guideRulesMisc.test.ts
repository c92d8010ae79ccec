/** Element contains rules, health check, the schedule rules together, error rate limit (guides §4, §5, §8). */
import { describe, expect, it } from 'vitest';
import { REDISPLAY_SAFEGUARD_MS } from '../../shared/constants';
import { createErrorRateLimit } from '../../shared/guides/createErrorRateLimit';
import {
  SCHEDULE_RULES,
  evaluateScheduleRules,
  healthCheckRule,
  recentChangeKey,
  throttlingRule,
  type ScheduleFacts,
  type ScheduleRuleContext,
} from '../../shared/eligibility/scheduleRules';
import type { ElementContainsRule, Guide, GuideStep, LastGuideStepSeen } from '../../shared/guides/guides';
import { matchesContainsRules } from '../../shared/eligibility/matchesContainsRules';
import { MESSAGES } from '../../shared/messages';
import { AUTO_DISPLAY_RULES } from '../../shared/eligibility/autoDisplayRules';
import { chooseAutoSteps } from '../../shared/eligibility/chooseAutoSteps';
import { T, MINUTE, HOUR, step, guide, threeSteps } from './scheduleFixtures';


describe('guides §5 Element contains rules', () => {
  const rule = (matchType: ElementContainsRule['matchType'], matchValue: string | number, dataType?: 'number' | 'string'): ElementContainsRule =>
    dataType ? { matchType, matchValue, dataType } : { matchType, matchValue };
  const passes = (r: ElementContainsRule, text: string) => matchesContainsRules([r], text).pass;

  it('no rules pass', () => {
    expect(matchesContainsRules(undefined, 'x')).toEqual({ pass: true, reason: 'no contains rules' });
    expect(matchesContainsRules([], 'x').pass).toBe(true);
  });

  it('string equal / notEqual: trimmed both sides, case-sensitive', () => {
    expect(passes(rule('equal', 'Total', 'string'), '  Total \n')).toBe(true);
    expect(passes(rule('equal', ' Total '), 'Total')).toBe(true);
    expect(passes(rule('equal', 'total', 'string'), 'Total')).toBe(false);
    expect(passes(rule('equal', 42, 'string'), '42')).toBe(true);
    expect(passes(rule('notEqual', 'Sum', 'string'), 'Total')).toBe(true);
    expect(passes(rule('notEqual', ' Total ', 'string'), 'Total')).toBe(false);
  });

  it('string contains / notContains', () => {
    expect(passes(rule('contains', 'total', 'string'), 'Order total: 42')).toBe(true);
    expect(passes(rule('contains', 'TOTAL', 'string'), 'Order total: 42')).toBe(false);
    expect(passes(rule('notContains', 'refund', 'string'), 'Order total: 42')).toBe(true);
    expect(passes(rule('notContains', 'total', 'string'), 'Order total: 42')).toBe(false);
  });

  it('string greaterThan / lessThan compare by code-unit order', () => {
    expect(passes(rule('greaterThan', 'apple', 'string'), 'banana')).toBe(true);
    expect(passes(rule('greaterThan', 'banana', 'string'), 'apple')).toBe(false);
    expect(passes(rule('lessThan', 'banana', 'string'), 'apple')).toBe(true);
    expect(passes(rule('lessThan', 'apple', 'string'), 'apple')).toBe(false);
    // As strings, '10' sorts before '9'.
    expect(passes(rule('greaterThan', '9', 'string'), '10')).toBe(false);
  });

  it('number equal / notEqual compare values', () => {
    expect(passes(rule('equal', 42, 'number'), ' 42 ')).toBe(true);
    expect(passes(rule('equal', '42', 'number'), '42.0')).toBe(true);
    expect(passes(rule('equal', 42, 'number'), '41')).toBe(false);
    expect(passes(rule('notEqual', 42, 'number'), '41')).toBe(true);
    expect(passes(rule('notEqual', '4.2e1', 'number'), '42')).toBe(false);
  });

  it('number greaterThan / lessThan compare values, strictly', () => {
    expect(passes(rule('greaterThan', '9', 'number'), '10')).toBe(true);
    expect(passes(rule('greaterThan', 10, 'number'), '10')).toBe(false);
    expect(passes(rule('greaterThan', 10, 'number'), '-11')).toBe(false);
    expect(passes(rule('lessThan', 0, 'number'), '-0.5')).toBe(true);
    expect(passes(rule('lessThan', 10, 'number'), '10')).toBe(false);
  });

  it('number contains / notContains compare the trimmed texts of two numbers', () => {
    expect(passes(rule('contains', '02', 'number'), '2026')).toBe(true);
    expect(passes(rule('contains', '7', 'number'), '2026')).toBe(false);
    expect(passes(rule('notContains', '7', 'number'), '2026')).toBe(true);
    expect(passes(rule('notContains', '20', 'number'), '2026')).toBe(false);
  });

  it('number rules fail on a non-numeric text or matchValue, whatever the matchType', () => {
    const types: ElementContainsRule['matchType'][] = ['equal', 'notEqual', 'contains', 'notContains', 'greaterThan', 'lessThan'];
    for (const matchType of types) {
      for (const text of ['abc', '', '   ', '12 items', '1,000', '$5', '0x10', 'Infinity', 'NaN']) {
        expect(passes(rule(matchType, 5, 'number'), text), `${matchType} '${text}'`).toBe(false);
      }
      expect(passes(rule(matchType, 'five', 'number'), '5'), `${matchType} matchValue 'five'`).toBe(false);
    }
    expect(matchesContainsRules([rule('notEqual', 5, 'number')], 'abc')).toEqual({
      pass: false,
      reason: "contains rule 1 (number notEqual '5'): element text 'abc' is not a number",
    });
  });

  it('all rules must pass; the first failure is named', () => {
    const between = [rule('greaterThan', 10, 'number'), rule('lessThan', 20, 'number')];
    expect(matchesContainsRules(between, '15')).toEqual({ pass: true, reason: 'all 2 contains rules pass' });
    expect(matchesContainsRules(between, '25')).toEqual({ pass: false, reason: "contains rule 2 (number lessThan '20'): 25 is not less than 20" });
    expect(matchesContainsRules([rule('contains', 'a'), rule('bogus' as ElementContainsRule['matchType'], 'a')], 'a').pass).toBe(false);
    expect(matchesContainsRules([{ matchType: 'equal', matchValue: 'a', dataType: 'date' as 'string' }], 'a').reason).toMatch(/unknown dataType 'date'/);
  });
});

describe('guides §4 Health check', () => {
  const facts = (extra: Partial<ScheduleFacts> = {}): ScheduleFacts => ({ now: T, ...extra });
  const ctx = (s: GuideStep, schedule: ScheduleFacts): ScheduleRuleContext => ({
    guide: guide({ steps: [s] }),
    step: s,
    url: 'https://app.example/',
    device: 'desktop',
    lastGuideStepSeen: {},
    schedule,
  });

  it('refuses a step changed less than 60 s ago (recentChanges), allows it at 60 s', () => {
    const s = step('s1');
    const recentChanges = { [recentChangeKey('g', 's1')]: T };
    expect(recentChangeKey('g', 's1')).toBe('g/s1');
    expect(healthCheckRule.evaluate(ctx(s, facts({ now: T + REDISPLAY_SAFEGUARD_MS - 1, recentChanges })))).toEqual({
      pass: false,
      reason: 'step s1 changed 59999 ms ago; redisplay safeguard is 60000 ms',
    });
    expect(healthCheckRule.evaluate(ctx(s, facts({ now: T + 60_000, recentChanges }))).pass).toBe(true);
    expect(healthCheckRule.evaluate(ctx(s, facts({ now: T + 30_000, recentChanges: { 'g/other': T } }))).pass).toBe(true);
  });

  it('uses lastSeenAt of an advanced, dismissed or snoozed step; not of an active one', () => {
    for (const seenState of ['advanced', 'dismissed', 'snoozed'] as const) {
      const s = step('s1', { seenState, lastSeenAt: T, snoozeEndTime: T });
      expect(healthCheckRule.evaluate(ctx(s, facts({ now: T + 59_999 }))).pass, seenState).toBe(false);
      expect(healthCheckRule.evaluate(ctx(s, facts({ now: T + 60_000 }))).pass, seenState).toBe(true);
    }
    expect(healthCheckRule.evaluate(ctx(step('s1', { seenState: 'active', lastSeenAt: T }), facts({ now: T + 1 }))).pass).toBe(true);
    // The later of the two times counts.
    const s = step('s1', { seenState: 'dismissed', lastSeenAt: T - HOUR });
    expect(healthCheckRule.evaluate(ctx(s, facts({ now: T + 59_999, recentChanges: { 'g/s1': T } }))).pass).toBe(false);
  });
});

describe('guides §4 Auto display schedule rules', () => {
  const ctx = (g: Guide, schedule: Partial<ScheduleFacts> = {}): ScheduleRuleContext => ({
    guide: g,
    step: g.steps[0],
    url: 'https://app.example/',
    device: 'desktop',
    lastGuideStepSeen: {},
    schedule: { now: T, ...schedule },
  });
  const run = (g: Guide, schedule: Partial<ScheduleFacts> = {}) => evaluateScheduleRules(SCHEDULE_RULES, ctx(g, schedule));
  const throttled = { throttling: { enabled: true, interval: 30, unit: 'minute' as const }, timestamps: { latestDismissedAutoAt: T - MINUTE } };

  it('checks in a fixed order: a snooze (a day) is named before the health check (a minute)', () => {
    expect(SCHEDULE_RULES.map((r) => r.name)).toEqual(['controlGroup', 'announcement', 'timebox', 'snoozed', 'healthCheck', 'repeat', 'throttling']);
  });

  it('guides §4 Control group: never shown, with the spec message', () => {
    expect(run(guide({ control: true }))).toEqual({ pass: false, reason: `controlGroup: ${MESSAGES.controlGroup}` });
  });

  it('announcements are not auto displayed', () => {
    expect(run(guide({ attributes: { isAnnouncement: true } })).reason).toBe('announcement: announcements are not auto displayed');
  });

  it('outside the timebox is refused', () => {
    expect(run(guide({ expiresAfter: T - 1 })).reason).toBe('timebox: outside timebox (showsAfter undefined, expiresAfter 1795361399999) at 2026-11-22T15:30:00.000Z');
    expect(run(guide({ showsAfter: T, expiresAfter: T })).pass).toBe(true);
  });

  it('guides §4 Snooze: refused until the snooze end time; at it, passes and bypasses throttling', () => {
    const snoozed = guide({ steps: [step('s1', { seenState: 'snoozed', snoozeEndTime: T + HOUR, lastSeenAt: T - HOUR })] });
    expect(run(snoozed, { now: T + HOUR - 1 })).toEqual({ pass: false, reason: 'snoozed: step s1 is snoozed until 2026-11-22T16:30:00.000Z' });
    expect(run(snoozed, { now: T + HOUR })).toEqual({ pass: true, reason: 'ok' });
    expect(throttlingRule.evaluate(ctx(snoozed, { now: T + HOUR, ...throttled }))).toEqual({ pass: true, reason: 'snoozedReady bypasses throttling' });
  });

  it('throttling refuses until the next display time; overrideAutoThrottling bypasses it', () => {
    expect(run(guide(), { ...throttled, now: T })).toEqual({ pass: false, reason: 'throttling: throttled until 2026-11-22T15:59:00.000Z' });
    expect(run(guide(), { ...throttled, now: Date.UTC(2026, 10, 22, 15, 59) }).pass).toBe(true);
    expect(run(guide({ attributes: { overrideAutoThrottling: true } }), { ...throttled, now: T })).toEqual({ pass: true, reason: 'ok' });
    expect(throttlingRule.evaluate(ctx(guide(), { now: T }))).toEqual({ pass: true, reason: 'not throttled' });
  });

  it('repeat: a seen step waits for its redisplay interval (after the health check)', () => {
    const g = guide({ redisplay: { interval: HOUR }, steps: [step('s1', { seenState: 'advanced', lastSeenAt: T })] });
    expect(run(g, { now: T + 30_000 }).reason).toBe('healthCheck: step s1 changed 30000 ms ago; redisplay safeguard is 60000 ms');
    expect(run(g, { now: T + HOUR - 1 }).reason).toMatch(/^repeat: redisplay too early: step s1/);
    expect(run(g, { now: T + HOUR }).pass).toBe(true);
  });

  it('repeat: the step a multi-step guide continues at is not a repeat (Previous goes back to an advanced step)', () => {
    const g = guide({ isMultiStep: true, steps: threeSteps([{ seenState: 'advanced', lastSeenAt: T - HOUR }, { seenState: 'active' }]) });
    const back: LastGuideStepSeen = { guideId: 'g', guideStepId: 's2', state: 'advanced', destinationStepId: 's1', time: T - HOUR };
    expect(evaluateScheduleRules(SCHEDULE_RULES, { ...ctx(g), lastGuideStepSeen: back })).toEqual({ pass: true, reason: 'ok' });
    expect(run(g).reason).toBe('repeat: guide has no redisplay interval');
  });

  it('runs after the base auto display rules in one list', () => {
    const rules = [...AUTO_DISPLAY_RULES, ...SCHEDULE_RULES];
    expect(evaluateScheduleRules(rules, ctx(guide({ launchMethod: 'api', control: true }))).reason).toBe("launchMethod: launchMethod 'api' has no auto");
    expect(evaluateScheduleRules(rules, ctx(guide({ control: true }))).reason).toBe(`controlGroup: ${MESSAGES.controlGroup}`);
    expect(evaluateScheduleRules(rules, ctx(guide()))).toEqual({ pass: true, reason: 'ok' });
  });
});

describe('guides §8 Error rate limit', () => {
  it('never reports with 4 errors, even at the same instant', () => {
    const limit = createErrorRateLimit();
    expect([T, T, T, T].map((t) => limit.record(t).exceeded)).toEqual([false, false, false, false]);
  });

  it('5 errors within 10 s are 30 a minute: exceeded, with the spec message', () => {
    const limit = createErrorRateLimit();
    for (const t of [T, T + 2_500, T + 5_000, T + 7_500]) expect(limit.record(t)).toEqual({ exceeded: false });
    expect(limit.record(T + 10_000)).toEqual({ exceeded: true, message: MESSAGES.errorRateExceeded, ratePerMinute: 30 });
    expect(MESSAGES.errorRateExceeded).toBe('Exceeded error rate limit, dropping guide');
    const burst = createErrorRateLimit();
    expect([T, T, T, T, T].map((t) => burst.record(t).exceeded)).toEqual([false, false, false, false, true]);
  });

  it('5 errors over 10.001 s or over 20 minutes are not', () => {
    const just = createErrorRateLimit();
    expect([T, T + 1, T + 2, T + 3, T + 10_001].map((t) => just.record(t).exceeded)).toEqual([false, false, false, false, false]);
    const slow = createErrorRateLimit();
    expect([0, 5, 10, 15, 20].map((m) => slow.record(T + m * MINUTE).exceeded)).toEqual([false, false, false, false, false]);
  });

  it('measures over the last 5 errors only, and forgets on reset', () => {
    const limit = createErrorRateLimit();
    for (const m of [0, 5, 10, 15, 20]) limit.record(T + m * MINUTE);
    const burst = T + 30 * MINUTE;
    expect([0, 1_000, 2_000, 3_000].map((d) => limit.record(burst + d).exceeded)).toEqual([false, false, false, false]);
    expect(limit.record(burst + 4_000)).toEqual({ exceeded: true, message: MESSAGES.errorRateExceeded, ratePerMinute: 75 });
    limit.reset();
    expect(limit.record(burst + 5_000).exceeded).toBe(false);
  });
});

describe('issue #17 guides §3 attributes.stayHidden', () => {
  const judge = (g: Guide) => chooseAutoSteps({ guides: [g], lastGuideStepSeen: {} } as never, { url: 'https://app.example/', device: 'desktop', rules: AUTO_DISPLAY_RULES, schedule: { now: T } });

  it('keeps a guide, or a guide whose next step, stays hidden from showing by itself, and says why', () => {
    expect(judge(guide()).eligible).toHaveLength(1);
    expect(judge(guide({ attributes: { stayHidden: true } })).skipped).toEqual([expect.objectContaining({ guideId: 'g', reason: 'stayHidden: shown only when asked for by id' })]);
    expect(judge(guide({ steps: [step('s1', { attributes: { stayHidden: true } })] })).eligible).toHaveLength(0);
    expect(judge(guide({ attributes: { stayHidden: false } })).eligible).toHaveLength(1);
  });
});
