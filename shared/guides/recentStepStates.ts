/**
 * guides §9 "Step-state and throttling storage time-to-live: 10,000 ms". Each step change this browser made
 * (shown, advanced, dismissed, snoozed) is kept with the guide state for 10 s, and the next guide.json answer is
 * read with those changes on top wherever its own record of the step is older. Without it a visitor who dismisses
 * a guide and at once opens another page saw the guide again: the dismissal was still in the worker's queue (or
 * on its way beside the next page's guide.json), so the collector answered as if nothing had happened. After
 * 10 s the collector's answer is the truth again (a reset from the console, another device).
 */
import { STEP_STATE_TTL_MS } from '../constants';
import type { GuideLoadResponse, LastGuideStepSeen, SeenState } from './guides';

/** One step's state as a step action of this browser left it. */
export interface RecentStepState {
  guideId: string;
  stepId: string;
  /** Epoch ms of the change. */
  at: number;
  seenState: SeenState;
  seenReason?: string;
  snoozeEndTime?: number;
  /** The step the guide moved on to (an advance to a destination, Back). */
  destinationStepId?: string;
}

/** The entries still younger than the TTL at `now`, then `change` (one entry per step: the latest). */
export function keepRecentStepStates(entries: readonly RecentStepState[] | undefined, now: number, change?: RecentStepState): RecentStepState[] {
  const kept = (Array.isArray(entries) ? entries : []).filter(
    (e) => now - e.at < STEP_STATE_TTL_MS && !(change && e.guideId === change.guideId && e.stepId === change.stepId),
  );
  return change ? [...kept, change] : kept;
}

/**
 * `response` with the recent changes on top: a step whose own `lastSeenAt` is older than its change takes the
 * change's state, and the last-step-seen record becomes the latest change when the response's is older (a
 * multi-step guide continues where the visitor left it). `response` is not modified.
 */
export function withRecentStepStates(response: GuideLoadResponse, entries: readonly RecentStepState[] | undefined, now: number): GuideLoadResponse {
  const recent = keepRecentStepStates(entries, now);
  if (!recent.length) return response;
  const guides = response.guides.map((guide) => {
    if (!recent.some((e) => e.guideId === guide.id)) return guide;
    const steps = guide.steps.map((step) => {
      const change = recent.find((e) => e.guideId === guide.id && e.stepId === step.id);
      if (!change || (step.lastSeenAt ?? 0) >= change.at) return step;
      return { ...step, seenState: change.seenState, lastSeenAt: change.at, seenReason: change.seenReason, snoozeEndTime: change.snoozeEndTime };
    });
    return { ...guide, steps };
  });
  const latest = recent.reduce((a, b) => (b.at >= a.at ? b : a));
  const last = response.lastGuideStepSeen;
  const lastGuideStepSeen: LastGuideStepSeen = (last?.time ?? 0) >= latest.at
    ? last
    : {
        guideId: latest.guideId,
        guideStepId: latest.stepId,
        time: latest.at,
        state: latest.seenState,
        seenReason: latest.seenReason,
        destinationStepId: latest.destinationStepId,
        snoozeEndTime: latest.snoozeEndTime,
      };
  return { ...response, guides, lastGuideStepSeen };
}
