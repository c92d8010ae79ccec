/**
 * The time- and state-based rules of guide auto display (spec: guides §4 Transitions, Auto display,
 * Throttling), in the shape of shared/eligibility/autoDisplayRules.ts: small named rules, each
 * `evaluate(ctx) -> { pass, reason }` (STYLE §3). They need facts the base `RuleContext` lacks (the clock,
 * throttling, recent state changes), carried as `ctx.schedule`.
 */
import { canRepeat, isStepSeen, isStepSnoozeReady, snoozedStepOf } from './canRepeat';
import { REDISPLAY_SAFEGUARD_MS } from '../constants';
import { continuationStep } from '../guides/continuationStep';
import type { ThrottlingConfig, ThrottlingTimestamps } from '../guides/guides';
import { isInTimebox } from './isInTimebox';
import { MESSAGES } from '../messages';
import { nextDisplayTime, throttlingBypassOf } from './nextDisplayTime';
import { evaluateRules, type EligibilityRule, type RuleContext, type RuleResult } from './autoDisplayRules';

/** The clock and scheduling facts the rules of this file read. */
export interface ScheduleFacts {
  /** Epoch ms the decision is made at. */
  now: number;
  /** spec: guides §3 throttling config; absent means no throttling. */
  throttling?: ThrottlingConfig;
  /** spec: guides §3 throttling timestamps. */
  timestamps?: ThrottlingTimestamps;
  /** "guideId/stepId" -> epoch ms of the step's last advance, dismiss or snooze (guides §4 Health check). */
  recentChanges?: Record<string, number>;
}

/** The base rule context plus the scheduling facts. */
export type ScheduleRuleContext = RuleContext & { schedule: ScheduleFacts };

/** A rule over {@link ScheduleRuleContext}; base `EligibilityRule`s (a narrower context) mix in. */
export type ScheduleRule = EligibilityRule<ScheduleRuleContext>;

const pass = (reason = 'ok'): RuleResult => ({ pass: true, reason });
const refuse = (reason: string): RuleResult => ({ pass: false, reason });

/** The key of `ScheduleFacts.recentChanges` for a step. */
export function recentChangeKey(guideId: string, stepId: string): string {
  return `${guideId}/${stepId}`;
}

/** spec: guides §4 Control group — a control-group guide is never shown. */
export const controlGroupRule: ScheduleRule = {
  name: 'controlGroup',
  evaluate: ({ guide }) => (guide.control === true ? refuse(MESSAGES.controlGroup) : pass()),
};

/** spec: guides §4 Auto display — "A step can show only if ... it is not an announcement". */
export const announcementRule: ScheduleRule = {
  name: 'announcement',
  evaluate: ({ guide }) => (guide.attributes?.isAnnouncement === true ? refuse('announcements are not auto displayed') : pass()),
};

/** spec: guides §4 Timebox — refused before `showsAfter` and after `expiresAfter` (the bounds themselves are inside). */
export const timeboxRule: ScheduleRule = {
  name: 'timebox',
  evaluate: ({ guide, schedule }) =>
    isInTimebox(guide, schedule.now)
      ? pass()
      : refuse(`outside timebox (showsAfter ${String(guide.showsAfter)}, expiresAfter ${String(guide.expiresAfter)}) at ${iso(schedule.now)}`),
};

/**
 * spec: guides §4 Health check — "a step that went advanced, dismissed or snoozed cannot be auto or
 * continue displayed again within 60 s unless reset". The time of the change is the later of
 * `schedule.recentChanges["guideId/stepId"]` and, for a step whose seenState is advanced, dismissed or
 * snoozed, its `lastSeenAt`. Refused while `now - changedAt < REDISPLAY_SAFEGUARD_MS`; at 60 s exactly it
 * passes. A reset is the caller removing the entry. The caller restores the seen state and logs the
 * refusal as an error.
 */
export const healthCheckRule: ScheduleRule = {
  name: 'healthCheck',
  evaluate: ({ guide, step, schedule }) => {
    if (!step) return pass('no step');
    const times = [schedule.recentChanges?.[recentChangeKey(guide.id, step.id)]];
    if (isStepSeen(step) || step.seenState === 'snoozed') times.push(step.lastSeenAt);
    const known = times.filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
    if (!known.length) return pass('no recent change');
    const changedAt = Math.max(...known);
    const since = schedule.now - changedAt;
    return since < REDISPLAY_SAFEGUARD_MS
      ? refuse(`step ${step.id} changed ${since} ms ago; redisplay safeguard is ${REDISPLAY_SAFEGUARD_MS} ms`)
      : pass();
  },
};

/**
 * spec: guides §4 Snooze, Auto display — a guide with a step snoozed until after `now` is refused; a
 * step whose snooze ended ("snoozed-ready") passes, and the throttling rule lets it bypass throttling.
 */
export const snoozedRule: ScheduleRule = {
  name: 'snoozed',
  evaluate: ({ guide, step, schedule }) => {
    const snoozed = snoozedStepOf(guide, schedule.now);
    if (snoozed) return refuse(`step ${snoozed.id} is snoozed until ${iso(snoozed.snoozeEndTime!)}`);
    return step && isStepSnoozeReady(step, schedule.now) ? pass(`step ${step.id} snooze ended`) : pass();
  },
};

/**
 * spec: guides §4 Repeat — a step already seen (advanced or dismissed) shows again only per
 * `canRepeat`; a too-early redisplay's reason starts with 'redisplay too early' (the caller logs it as an
 * error). Steps not seen pass, and so does the step the guide continues at (guides §4 Continuation): going
 * back with Previous continues at a step already marked advanced, which is not a repeat.
 */
export const repeatRule: ScheduleRule = {
  name: 'repeat',
  evaluate: ({ guide, step, lastGuideStepSeen, schedule }) => {
    if (!step || !isStepSeen(step)) return pass('not a repeat');
    if (continuationStep(guide, lastGuideStepSeen, schedule.now).step?.id === step.id) return pass('continuation, not a repeat');
    const { pass: ok, reason } = canRepeat(guide, step, schedule.now);
    return { pass: ok, reason };
  },
};

/**
 * spec: guides §4 Throttling, Auto display — refused while `now` is before the next display time
 * (`nextDisplayTime`, days by the visitor's local midnight). Override guides (`overrideAutoThrottling`)
 * and snoozed-ready guides bypass it.
 */
export const throttlingRule: ScheduleRule = {
  name: 'throttling',
  evaluate: ({ guide, schedule }) => {
    const bypass = throttlingBypassOf(guide, schedule.now);
    if (bypass) return pass(`${bypass} bypasses throttling`);
    const next = nextDisplayTime(schedule.throttling, schedule.timestamps);
    if (next === null) return pass('not throttled');
    return schedule.now < next ? refuse(`throttled until ${iso(next)}`) : pass();
  },
};

/**
 * The schedule rules in the order they are checked: lasting refusals about the guide first (control group,
 * announcement, timebox), then the step's state (snooze, which lasts longer than the health check's minute, then health check, repeat), then app-wide pacing
 * (throttling), so a reason names the most lasting obstacle. Run them after `AUTO_DISPLAY_RULES`.
 */
export const SCHEDULE_RULES: readonly ScheduleRule[] = [
  controlGroupRule,
  announcementRule,
  timeboxRule,
  snoozedRule,
  healthCheckRule,
  repeatRule,
  throttlingRule,
];

/** `evaluateRules` of shared/eligibility/autoDisplayRules.ts, for schedule rules. */
export const evaluateScheduleRules: (rules: readonly ScheduleRule[], ctx: ScheduleRuleContext) => RuleResult = evaluateRules;

/** An epoch-ms time as the reasons show it; a time outside Date's range is shown as the raw number. */
function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
