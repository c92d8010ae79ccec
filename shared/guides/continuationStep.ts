/**
 * spec: guides §4 Transitions "Continuation (multi-step)" and "Guide completion". Pure: the clock is the
 * `now` argument; logging is the caller's, told by the `expired` flag.
 */
import { isStepSeen } from '../eligibility/canRepeat';
import { CONTINUATION_EXPIRY_MS } from '../constants';
import type { Guide, GuideStep, LastGuideStepSeen } from './guides';
import { MESSAGES } from '../messages';

/** What {@link continuationStep} decided. */
export interface ContinuationDecision {
  /** The step to show next (seenReason `continue`), or `undefined` when the guide does not continue. */
  step: GuideStep | undefined;
  /** Why, in words for the debugger. */
  reason: string;
  /**
   * spec: guides §4 Continuation — the record was older than 12 hours and is dropped; the caller logs
   * `MESSAGES.continuationExpired` once (the reason is that message).
   */
  expired?: true;
}

/** spec: guides §4 Guide completion. */
export type GuideCompletion = 'complete' | 'in progress' | 'not started';

/** A multi-step guide: `isMultiStep` when the payload says, otherwise more than one step. */
export function isMultiStepGuide(guide: Pick<Guide, 'isMultiStep' | 'steps'>): boolean {
  return guide.isMultiStep ?? guide.steps.length > 1;
}

/**
 * spec: guides §4 Continuation (multi-step) — the step a multi-step guide resumes at, from the last-seen
 * record. In order:
 * - no record for this guide, `attributes.doNotResume` ("not stored for continuation", so never resumed),
 *   or a guide that is not multi-step: no continuation;
 * - last state dismissed: stop;
 * - a record older than 12 hours (`now - record.time > CONTINUATION_EXPIRY_MS`; at exactly 12 h it still
 *   counts) is dropped with `expired: true`, except for `attributes.isOnboarding` guides; a record without
 *   a numeric `time` is not judged old;
 * - active: resume that step; snoozed: resume that step once the snooze ended (`snoozeEndTime <= now`,
 *   the record's end time, else the step's; none known means ended);
 * - advanced: the step named by `destinationStepId`, or else the step after the recorded one (none after
 *   the last step);
 * - any other state, or a recorded step the guide no longer has: no continuation.
 */
export function continuationStep(guide: Guide, record: LastGuideStepSeen | undefined, now: number): ContinuationDecision {
  const none = (reason: string): ContinuationDecision => ({ step: undefined, reason });
  if (!record || record.guideId !== guide.id) return none('no last-seen record for this guide');
  if (guide.attributes?.doNotResume === true) return none('guide has doNotResume');
  if (!isMultiStepGuide(guide)) return none('guide is not multi-step');
  if (record.state === 'dismissed') return none('guide was dismissed: continuation stops');
  const age = isFiniteNumber(record.time) ? now - record.time : 0;
  if (age > CONTINUATION_EXPIRY_MS && guide.attributes?.isOnboarding !== true) {
    return { step: undefined, reason: MESSAGES.continuationExpired, expired: true };
  }
  const index = guide.steps.findIndex((s) => s.id === record.guideStepId);
  const recorded = guide.steps[index];
  if (!recorded) return none(`step ${record.guideStepId} is not in the guide`);
  switch (record.state) {
    case 'active':
      return { step: recorded, reason: `resume active step ${recorded.id}` };
    case 'snoozed': {
      const end = isFiniteNumber(record.snoozeEndTime) ? record.snoozeEndTime : recorded.snoozeEndTime;
      if (isFiniteNumber(end) && end > now) return none(`step ${recorded.id} is snoozed until ${iso(end)}`);
      return { step: recorded, reason: `resume step ${recorded.id}: snooze ended` };
    }
    case 'advanced': {
      const destination = record.destinationStepId ? guide.steps.find((s) => s.id === record.destinationStepId) : undefined;
      if (destination) return { step: destination, reason: `advanced to destination step ${destination.id}` };
      const next = guide.steps[index + 1];
      return next ? { step: next, reason: `advanced: next step ${next.id}` } : none('last step advanced: guide complete');
    }
    default:
      return none(`last state '${record.state}' does not continue`);
  }
}

/**
 * spec: guides §4 Guide completion — "complete when all steps are advanced or dismissed (multi-step: when
 * the last step is). In progress when some step is active, advanced or dismissed but not complete.
 * Otherwise not started." A guide without steps is not started.
 */
export function completionStatus(guide: Pick<Guide, 'isMultiStep' | 'steps'>): GuideCompletion {
  const { steps } = guide;
  if (steps.length === 0) return 'not started';
  const complete = isMultiStepGuide(guide) ? isStepSeen(steps[steps.length - 1]!) : steps.every(isStepSeen);
  if (complete) return 'complete';
  return steps.some((s) => s.seenState === 'active' || isStepSeen(s)) ? 'in progress' : 'not started';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** An epoch-ms time as the reasons show it; a time outside Date's range is shown as the raw number. */
function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
