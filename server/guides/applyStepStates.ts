/**
 * Puts a visitor's stored guide history back into the guide list, so a step the visitor dismissed is not
 * shown again after a reload (guides §3 "Step" seenState/lastSeenAt, "Other records" last-step-seen record).
 */
import type { Guide, LastGuideStepSeen, SeenState } from '../../shared/guides/guides';
import { DEFAULT_SNOOZE_MS } from '../../shared/constants';
import type { StepStateEvent } from '../ingest/createEventStore';

/** spec: guides §4 "Transitions" — the state each guide event leaves its step in. */
const STATE_OF_EVENT: Record<StepStateEvent['type'], SeenState> = {
  guideSeen: 'active',
  guideAdvanced: 'advanced',
  guideDismissed: 'dismissed',
  guideSnoozed: 'snoozed',
  // guides §4 Control group: the steps of a control-group guide are notSeen, recorded once.
  control: 'notSeen',
  // guides §4 Step timeout: a step not seen in time is notSeen.
  guideTimeout: 'notSeen',
}

/** The guide list for one visitor, and their last-step-seen record. */
export interface VisitorGuides {
  guides: Guide[];
  /** `{}` when the visitor has no guide history (the agent requires the field to be present). */
  lastGuideStepSeen: LastGuideStepSeen & { snoozeEndTime?: number };
}

/**
 * Returns copies of `guides` whose steps carry the visitor's latest `seenState`, `lastSeenAt` and
 * `seenReason`, plus the record of the visitor's most recent step event. `guides` is not modified.
 * @param states one entry per (guide, step): the latest state-setting event, from `latestStepStates`
 */
export function applyStepStates(guides: Guide[], states: StepStateEvent[], visitorId: string): VisitorGuides {
  const byStep = new Map(states.map((s) => [stepKey(s.guideId, s.guideStepId), s]));
  const result = structuredClone(guides);
  for (const guide of result) {
    for (const step of guide.steps) {
      const state = byStep.get(stepKey(guide.id, step.id));
      if (!state) continue;
      step.seenState = STATE_OF_EVENT[state.type];
      step.lastSeenAt = state.time;
      if (state.dismissCount > 0) step.dismissCount = state.dismissCount;
      if (state.seenReason !== undefined) step.seenReason = state.seenReason;
      if (state.type === 'guideSnoozed') {
        // spec: guides §4 Snooze — a snoozed step may show again once snoozeEndTime has passed.
        step.snoozeEndTime = snoozeEndTime(state);
      }
    }
  }

  let latest: StepStateEvent | undefined;
  for (const state of states) {
    if (!latest || state.time > latest.time || (state.time === latest.time && state.id > latest.id)) latest = state;
  }
  const lastGuideStepSeen: VisitorGuides['lastGuideStepSeen'] = latest
    ? {
        guideId: latest.guideId,
        guideStepId: latest.guideStepId,
        time: latest.time,
        state: STATE_OF_EVENT[latest.type],
        ...(latest.seenReason !== undefined ? { seenReason: latest.seenReason } : {}),
        visitorId,
        ...(latest.destinationStepId !== undefined ? { destinationStepId: latest.destinationStepId } : {}),
        ...(latest.type === 'guideSnoozed' ? { snoozeEndTime: snoozeEndTime(latest) } : {}),
        ...(latest.dismissCount > 0 ? { dismissCount: latest.dismissCount } : {}),
      }
    : {};
  return { guides: result, lastGuideStepSeen };
}


function snoozeEndTime(state: StepStateEvent): number {
  return state.time + (state.snoozeDuration ?? DEFAULT_SNOOZE_MS);
}

function stepKey(guideId: string, stepId: string): string {
  return `${guideId}\u0000${stepId}`;
}
