/**
 * What a visitor's action on a shown step does (guides §4 Transitions, §5, §7, §8, §9): activity and poll answers
 * are recorded (answers that complete the guide also advance its last step); a step timeout is logged, recorded
 * and marks the step notSeen; every other action goes through the step state machine
 * (shared/guides/applyGuideTransition), whose events are recorded and whose throttling timestamps and step change
 * are kept for the next page. Answers the step to show next (null: hide), or the refusal.
 */
import { ERROR_CODES, fail, ok, type Outcome } from '../../shared/errors';
import type { GuideEventProps, GuideEventType } from '../../shared/events/events';
import { applyGuideTransition, type GuideTransition } from '../../shared/guides/applyGuideTransition';
import { pageRuleException } from '../../shared/eligibility/autoDisplayRules';
import { recentChangeKey } from '../../shared/eligibility/scheduleRules';
import { keepRecentStepStates } from '../../shared/guides/recentStepStates';
import { MESSAGES } from '../../shared/messages';
import type { GuideState, LogLevel, SeenReason, StepAction, StepToShow } from '../../shared/protocol';
import type { Clock } from '../ports';
import type { ContentLoader } from './createContentLoader';
import type { GuideBook } from './createGuideBook';
import type { GuideHealth } from './createGuideHealth';

export interface StepActionOptions {
  clock: Clock;
  log(level: LogLevel, message: string): void;
  book: GuideBook;
  loader: ContentLoader;
  health: GuideHealth;
  record(type: GuideEventType, props: GuideEventProps, url: string): void;
  /** guides §4 Health check: when each step last went advanced, dismissed or snoozed (read by the next load). */
  recentChanges: Record<string, number>;
  /** The guide state that outlives the page (throttling timestamps, recent step changes), and how to save it. */
  state: GuideState;
  saveState(): void;
}

/** The state-machine transition of a visitor action (guides §4 Transitions). */
export function transitionOf(action: StepAction): GuideTransition {
  const stepId = action.stepId;
  switch (action.action) {
    case 'seen': return { type: 'show', stepId, reason: action.reason ?? 'auto' };
    case 'advance': return { type: 'advance', stepId, destinationStepId: action.targetStepId };
    case 'previous': return { type: 'previous', stepId, steps: action.steps };
    case 'dismiss': return { type: 'dismiss', stepId };
    case 'snooze': return { type: 'snooze', stepId, durationMs: action.snoozeMs };
    case 'goToStep': return { type: 'goToStep', stepId, targetStepId: action.targetStepId ?? '' };
    default: throw new Error(`no transition for ${action.action}`);
  }
}

/** A poll answer as recorded (guides §5): numeric and yes/no polls parse integers; null when it does not parse. */
export function pollValue(raw: string, type: string, numericResponses: unknown): string | number | null {
  const numeric = /^(NumberScale|NPSRating|NPS|YesNo)$/i.test(type) || (numericResponses !== undefined && numericResponses !== false);
  if (!numeric) return raw;
  const value = Number.parseInt(raw, 10);
  return Number.isFinite(value) ? value : null;
}

export function createStepActions(options: StepActionOptions): (action: StepAction) => Promise<Outcome<StepToShow | null>> {
  const { clock, log, book, loader, health, record, recentChanges, state } = options;
  /** How each guide was last shown (its seen reason): auto-launched guides set throttling timestamps. */
  const shownReason = new Map<string, SeenReason>();

  return async (action) => {
    const found = book.find(action.guideId, action.stepId);
    if (!found) return fail(ERROR_CODES.unknownGuide, `no step ${action.stepId} in guide ${action.guideId}`);
    const { guide, step } = found;
    if (action.action === 'activity') {
      const ui = action.uiElement;
      record('guideActivity', {
        guide_id: guide.id,
        guide_step_id: step.id,
        ui_element_id: ui?.id ?? '',
        ui_element_type: ui?.type ?? '',
        ui_element_actions: (ui?.actions ?? []).map((a) => ({ action: a })),
      }, action.url);
      return ok(null);
    }
    if (action.action === 'poll') {
      // guides §5: pollResponse {poll_id, poll_response, duration, poll_type} on the poll beacon.
      const duration = step.seenState === 'active' && step.lastSeenAt !== undefined ? Math.max(0, clock.now() - step.lastSeenAt) : 0;
      for (const [pollId, raw] of Object.entries(action.pollAnswers ?? {})) {
        const poll = guide.polls?.find((p) => p.id === pollId);
        const type = poll?.attributes?.type ?? 'FreeForm';
        const value = pollValue(raw, type, poll?.numericResponses);
        if (value === null) {
          log('warn', `guide ${guide.id} poll ${pollId}: '${raw}' is not a number; not recorded`);
          continue;
        }
        record('pollResponse', { guide_id: guide.id, guide_step_id: step.id, poll_id: pollId, poll_response: value, duration, poll_type: type }, action.url);
      }
      // The last step's answers complete the guide: it advances now (the shim keeps the thank-you on screen).
      if (!action.completes) return ok(null);
    }
    if (action.action === 'timeout') {
      // spec: guides §4 Step timeout, §8 — logged, a guideTimeout event with the reason, and the step is
      // marked notSeen (timed out) so it is not tried again.
      log('warn', MESSAGES.stepTimedOut(guide.id, step.id));
      record('guideTimeout', {
        guide_id: guide.id,
        guide_step_id: step.id,
        reason: action.timeoutReason ?? 'other',
        guideSeenTimeoutLength: action.timeoutMs,
      }, action.url);
      book.markNotSeen(guide.id, step.id);
      return ok(null);
    }
    const transition: GuideTransition = action.action === 'poll' ? { type: 'advance', stepId: step.id } : transitionOf(action);
    if (transition.type === 'show' && transition.reason !== 'api' && transition.reason !== 'permalink') {
      // spec: guides §5 — rendered where its page rule does not match (an SPA page change raced the
      // render): a page rule exception, and the guide goes back on the failed list. A host's or a
      // permalink's explicit ask is not held to the page rule.
      const exception = pageRuleException(guide, step, action.url);
      if (exception) {
        const message = `${MESSAGES.pageRuleException}: guide ${guide.id} step ${step.id}: ${exception}`;
        health.setFailed(guide.id, message);
        log('warn', message);
        health.notSeen(guide, step.id, 'pageRule', action.url);
        return fail(ERROR_CODES.pageRule, message);
      }
    }
    const now = clock.now();
    // spec: guides §4 Throttling — only auto-launched guides set the throttling timestamps.
    const autoLaunched = (shownReason.get(guide.id) ?? step.seenReason) === 'auto';
    const result = applyGuideTransition(guide, transition, { now, autoLaunched });
    if (!result.ok) {
      log('warn', `guide ${action.action} refused: ${result.refusal}`);
      return fail(ERROR_CODES.badPayload, result.refusal);
    }
    for (const warning of result.warnings) log('error', warning);
    book.update(guide.id, () => result.guide);
    for (const e of result.events) record(e.type, e.props, action.url);
    if (transition.type === 'show') shownReason.set(guide.id, transition.reason);
    else recentChanges[recentChangeKey(guide.id, step.id)] = now;
    // guides §9: kept 10 s for the next page, whose guide.json may not know of it yet (shared/guides/recentStepStates).
    const after = result.guide.steps.find((s) => s.id === step.id);
    state.recentSteps = keepRecentStepStates(state.recentSteps, now, {
      guideId: guide.id,
      stepId: step.id,
      at: now,
      seenState: after?.seenState ?? 'none',
      seenReason: after?.seenReason,
      snoozeEndTime: after?.snoozeEndTime,
      destinationStepId: result.show ?? undefined,
    });
    if (Object.keys(result.timestamps).length) state.timestamps = { ...state.timestamps, ...result.timestamps };
    options.saveState();
    if (!result.show || transition.type === 'show' || action.action === 'poll') return ok(null);
    const next = result.guide.steps.find((s) => s.id === result.show);
    return next ? loader.resolveStep(result.guide, next, 'continue') : ok(null);
  };
}
