/**
 * spec: guides §4 Transitions "Repeat": whether a step that was already seen may be shown again.
 * Pure: the clock is the `now` argument.
 */
import type { Guide, GuideStep } from '../guides/guides';
import type { RuleResult } from './autoDisplayRules';

/** The answer of {@link canRepeat}: a rule result, plus `tooEarly` when the caller must log an error. */
export interface CanRepeatResult extends RuleResult {
  /** spec: guides §4 Repeat — "Too-early redisplay logs an error": set only on that refusal. */
  tooEarly?: true;
}

/** spec: guides §4 Step seenState — "A step counts as seen when advanced or dismissed." */
export function isStepSeen(step: Pick<GuideStep, 'seenState'>): boolean {
  return step.seenState === 'advanced' || step.seenState === 'dismissed';
}

/**
 * spec: guides §4 Snooze — a step is snoozed while its seenState is snoozed and its `snoozeEndTime` is
 * still ahead of `now`. A snoozed step without a numeric `snoozeEndTime` is not held back: the Snooze
 * transition always sets one, so its absence means there is no end to wait for.
 */
export function isStepSnoozed(step: Pick<GuideStep, 'seenState' | 'snoozeEndTime'>, now: number): boolean {
  return step.seenState === 'snoozed' && isFiniteNumber(step.snoozeEndTime) && step.snoozeEndTime > now;
}

/**
 * spec: guides §4 Snooze, Auto display — "snoozed-ready": the step was snoozed and its end time has come
 * (`snoozeEndTime <= now`), so it "may then be shown again".
 */
export function isStepSnoozeReady(step: Pick<GuideStep, 'seenState' | 'snoozeEndTime'>, now: number): boolean {
  return step.seenState === 'snoozed' && !isStepSnoozed(step, now);
}

/** The first step of the guide that is snoozed until after `now`, if any (spec: guides §4 Repeat "not snoozed"). */
export function snoozedStepOf(guide: Pick<Guide, 'steps'>, now: number): GuideStep | undefined {
  return guide.steps.find((s) => isStepSnoozed(s, now));
}

/**
 * A snoozed-ready guide (spec: guides §4 Auto display): one of its steps was snoozed and that snooze has
 * ended, and no step is still snoozed.
 */
export function isGuideSnoozeReady(guide: Pick<Guide, 'steps'>, now: number): boolean {
  return !snoozedStepOf(guide, now) && guide.steps.some((s) => isStepSnoozeReady(s, now));
}

/** spec: guides §4 Repeat — the dismiss total of a guide: the sum of its steps' `dismissCount`. */
export function dismissTotalOf(guide: Pick<Guide, 'steps'>): number {
  return guide.steps.reduce((sum, s) => sum + (isFiniteNumber(s.dismissCount) && s.dismissCount > 0 ? s.dismissCount : 0), 0);
}

/**
 * spec: guides §4 Repeat — may `step`, already seen, be shown again at `now`? It may when all hold:
 * - the dismiss total (sum of the steps' `dismissCount`) is below `guide.redisplay.maxDismissals`
 *   (0 or absent means unlimited);
 * - the guide is not snoozed (no step snoozed with `snoozeEndTime > now`);
 * - `step.lastSeenAt + guide.redisplay.interval <= now` (at exactly that instant it may repeat).
 *
 * The checks run in that order, so the reason names the most lasting obstacle. Only the last refusal sets
 * `tooEarly`: the spec has the caller log a too-early redisplay as an error.
 *
 * A step that is not seen (neither advanced nor dismissed) is not a repeat: it passes. A seen step of a
 * guide without a usable `redisplay.interval`, or without a numeric `lastSeenAt`, does not repeat.
 *
 * @example canRepeat({ ...guide, redisplay: { interval: 60_000 } }, { ...step, seenState: 'dismissed', lastSeenAt: t }, t + 60_000).pass === true
 */
export function canRepeat(guide: Guide, step: GuideStep, now: number): CanRepeatResult {
  if (!isStepSeen(step)) return { pass: true, reason: `step ${step.id} is not seen yet: not a repeat` };
  const { interval, maxDismissals } = guide.redisplay ?? {};
  const total = dismissTotalOf(guide);
  // spec: guides §4 Repeat — "0 means unlimited"; an absent or unusable limit is read the same way.
  if (isFiniteNumber(maxDismissals) && maxDismissals > 0 && total >= maxDismissals) {
    return { pass: false, reason: `dismissed ${total} times, maxDismissals is ${maxDismissals}` };
  }
  const snoozed = snoozedStepOf(guide, now);
  if (snoozed) return { pass: false, reason: `step ${snoozed.id} is snoozed until ${iso(snoozed.snoozeEndTime!)}` };
  if (!isFiniteNumber(interval) || interval < 0) return { pass: false, reason: 'guide has no redisplay interval' };
  if (!isFiniteNumber(step.lastSeenAt)) return { pass: false, reason: `step ${step.id} has no lastSeenAt` };
  const allowedAt = step.lastSeenAt + interval;
  if (allowedAt > now) {
    return {
      pass: false,
      tooEarly: true,
      reason: `redisplay too early: step ${step.id} was last seen at ${iso(step.lastSeenAt)} and may repeat from ${iso(allowedAt)}`,
    };
  }
  return { pass: true, reason: `redisplay interval passed at ${iso(allowedAt)}` };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** An epoch-ms time as the reasons show it; a time outside Date's range is shown as the raw number. */
function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
