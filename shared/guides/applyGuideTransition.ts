/**
 * The guide step state machine (guides §4 "Step seenState" and "Transitions") as one pure function:
 * a guide, a transition and `now` in; a new guide, the guide events to record, the step to display,
 * the throttling timestamps to write and the lifecycle hooks to fire out, or a refusal with its reason.
 *
 * What it leaves to the caller:
 * - Cancelable hooks (`beforeAdvance`, ...) are host functions, so they live on the main thread: the shim
 *   runs the one named in {@link CANCELABLE_HOOK_OF} before asking for the transition, and does not ask
 *   when the hook cancels.
 * - Advance, Previous and goToStep only name the step to display next (`show`); the destination becomes
 *   `active`, and its `guideSeen` is recorded, when the caller applies a Show transition (reason
 *   `continue`) once the step is actually on screen (wire-protocol.md: guideSeen is sent after display).
 * - Guide completion is `completionStatus` (shared/guides/continuationStep.ts).
 */
import { DEFAULT_SNOOZE_MS } from '../constants';
import type { GuideEventProps, GuideEventType } from '../events/events';
import type { Guide, GuideStep, ThrottlingTimestamps } from './guides';
import type { SeenReason } from '../protocol';

/** One visitor or API action on a step of a guide (guides §4 "Transitions"). */
export type GuideTransition =
  | { type: 'show'; stepId: string; reason: SeenReason }
  | { type: 'advance'; stepId: string; destinationStepId?: string; force?: boolean }
  | { type: 'previous'; stepId: string; steps?: number }
  | { type: 'dismiss'; stepId: string }
  | { type: 'snooze'; stepId: string; durationMs?: number }
  | { type: 'goToStep'; stepId: string; targetStepId: string };

/** The guide lifecycle hooks of guides §4: five cancelable, eight not. */
export type HookName =
  | 'beforeMount'
  | 'beforeAdvance'
  | 'beforePrevious'
  | 'beforeDismiss'
  | 'beforeSnooze'
  | 'beforeUnmount'
  | 'beforeUpdate'
  | 'updated'
  | 'unmounted'
  | 'advanced'
  | 'dismissed'
  | 'snoozed'
  | 'hidden';

/** The facts about the moment and the guide's launch that a transition needs besides the guide. */
export interface TransitionContext {
  /** Epoch ms of the transition. */
  now: number;
  /**
   * The guide is locked: Advance (and a forward goToStep) is refused (guides §4 Advance).
   * @default false
   */
  locked?: boolean;
  /**
   * The guide was launched automatically and is not multi-app, so Dismiss, Snooze and the final Advance set
   * their throttling timestamp (guides §4 Throttling: "of an auto-launched guide (not multi-app)").
   * @default false
   */
  autoLaunched?: boolean;
}

/** A guide event to record, without the envelope (visitor, url, time) the worker adds. */
export interface GuideTransitionEvent {
  type: GuideEventType;
  props: GuideEventProps;
}

/** What a transition produced, or why it was refused. */
export type TransitionResult =
  | {
      ok: true;
      /** A new guide object; the input guide is never mutated. Unchanged steps are shared with the input. */
      guide: Guide;
      /** Guide events to record, in order. */
      events: GuideTransitionEvent[];
      /** Id of the step to display next, or null to hide the guide. */
      show: string | null;
      /** Throttling timestamps to write; empty unless `ctx.autoLaunched`. */
      timestamps: Partial<ThrottlingTimestamps>;
      /** Not-cancelable hooks to fire after the transition, in order. */
      hooks: HookName[];
      /** Messages to log at critical level (guides §4 Show: a missing seen reason). Usually empty. */
      warnings: string[];
    }
  | {
      ok: false;
      /** A human reason naming the guide and step, e.g. "step s2 of guide g is already advanced". */
      refusal: string;
    };

/**
 * The cancelable hook the caller must run, and honour, before asking for each transition (guides §4
 * "Guide lifecycle hooks"). goToStep runs `beforeAdvance` in both directions: even going back, the spec
 * records it as an advance event (guides §4 Previous), and the caller need not know the direction to pick it.
 */
export const CANCELABLE_HOOK_OF: Record<GuideTransition['type'], HookName | null> = {
  show: 'beforeMount',
  advance: 'beforeAdvance',
  previous: 'beforePrevious',
  dismiss: 'beforeDismiss',
  snooze: 'beforeSnooze',
  goToStep: 'beforeAdvance',
};

/**
 * spec: guides §4 Show — the seen reasons a step may be shown with; `resourceCenter` is ours (the spec lists
 * none for a guide opened from the resource center's guide list).
 */
const SEEN_REASONS: readonly SeenReason[] = ['badge', 'dom', 'launcher', 'auto', 'permalink', 'api', 'continue', 'resourceCenter'];

/** Launch methods a missing seen reason is defaulted from, in order of preference. */
const DEFAULT_REASON_ORDER: readonly SeenReason[] = ['auto', 'api', 'badge', 'dom', 'launcher'];

/**
 * Applies one transition to a guide's steps (guides §4 "Transitions"). Pure: depends only on its arguments.
 *
 * - show: the step becomes `active` with `lastSeenAt = now` and its seen reason; `guideSeen` is recorded.
 *   Every snoozed step of the guide goes back to `none` without `snoozeEndTime`, each with a
 *   `guideSnoozeCanceled` event before the `guideSeen`. Another step of the guide that was `active` is
 *   replaced and goes back to `none` (only one step is on screen; `active` means shown). A missing or unknown
 *   reason is defaulted from the launch method, with a critical warning. Hooks: `['updated']` when a step of
 *   the guide was active (it is replaced or refreshed), else none.
 * - advance: refused when locked, when the step is already advanced (unless `force`), for an unknown, same or
 *   earlier destination (going back is Previous or goToStep), and from the first straight to the last step of
 *   a guide of more than two steps (with two steps the next step is the last, so the rule cannot apply).
 *   `force` does not lift the lock nor the skip rule. Every step before the destination that is not yet
 *   advanced is marked advanced (the step itself, skipped steps, earlier steps). The last step's advance
 *   increments its `dismissCount`, hides the guide and sets `finalAdvancedAutoAt`. Hooks:
 *   `['advanced', 'beforeUpdate', 'updated']` when a step follows, `['advanced', 'beforeUnmount', 'unmounted']`
 *   when the guide hides.
 * - previous: refused for the first step, an advanced step, or `steps` that is not a positive integer or would go
 *   before the first step. The step is marked advanced with the earlier step as its destination and a
 *   `guideAdvanced` to it is recorded, so continuation resumes there (guides §4 Continuation). Steps in
 *   between keep their state. Hooks: `['beforeUpdate', 'updated']` (the visitor went back: no `advanced`).
 * - dismiss: refused when already dismissed. Marks the step dismissed, increments `dismissCount`, hides, sets
 *   `latestDismissedAutoAt`. Hooks: `['beforeUnmount', 'unmounted', 'dismissed', 'hidden']`.
 * - snooze: refused when already snoozed or for a duration that is not a positive finite number; default
 *   {@link DEFAULT_SNOOZE_MS}. Sets `snoozeEndTime = now + duration`, hides, sets `latestSnoozedAutoAt`.
 *   Hooks: `['beforeUnmount', 'unmounted', 'snoozed', 'hidden']`.
 * - goToStep: refuses the same step, an empty target id and an unknown step; a later target is an advance
 *   to it (with all of advance's refusals), an earlier one a previous by the distance between them.
 *
 * Event durations are the time the step has been on screen: `now - lastSeenAt` for an active step, else 0.
 * Timestamps are returned only when `ctx.autoLaunched`.
 */
export function applyGuideTransition(guide: Guide, transition: GuideTransition, ctx: TransitionContext): TransitionResult {
  switch (transition.type) {
    case 'show':
      return show(guide, transition.stepId, transition.reason, ctx);
    case 'advance':
      return advance(guide, transition.stepId, transition.destinationStepId, transition.force === true, ctx);
    case 'previous':
      return previous(guide, transition.stepId, transition.steps ?? 1, ctx);
    case 'dismiss':
      return dismiss(guide, transition.stepId, ctx);
    case 'snooze':
      return snooze(guide, transition.stepId, transition.durationMs ?? DEFAULT_SNOOZE_MS, ctx);
    case 'goToStep':
      return goToStep(guide, transition.stepId, transition.targetStepId, ctx);
  }
}

/**
 * The seen reason a step shown without one gets (guides §4 Show): the first of auto, api, badge, dom,
 * launcher that the guide's launch method names, else api. Launch methods combine with `-`, `,` or spaces
 * (so `auto-launcher` names auto), as in shared/eligibility/autoDisplayRules.ts.
 */
export function defaultSeenReason(guide: Guide): SeenReason {
  const methods = String(guide.launchMethod ?? '').split(/[-,\s]+/);
  return DEFAULT_REASON_ORDER.find((m) => methods.includes(m)) ?? 'api';
}

type Refusal = Extract<TransitionResult, { ok: false }>;
type Ok = Extract<TransitionResult, { ok: true }>;

const refuse = (refusal: string): Refusal => ({ ok: false, refusal });

function show(guide: Guide, stepId: string, reason: SeenReason, ctx: TransitionContext): TransitionResult {
  const index = indexOf(guide, stepId);
  if (index < 0) return refuse(unknownStep(guide, stepId));
  const warnings: string[] = [];
  let seenReason = reason;
  if (!SEEN_REASONS.includes(reason)) {
    // spec: guides §4 Show — "A missing seen reason is logged as critical and defaulted from the launch method".
    seenReason = defaultSeenReason(guide);
    const given = reason === undefined || (reason as string) === '' ? 'no seen reason' : `unknown seen reason '${String(reason)}'`;
    warnings.push(
      `critical: step ${stepId} of guide ${guide.id} was shown with ${given}; defaulted to '${seenReason}' from launchMethod '${guide.launchMethod}'`,
    );
  }
  const events: GuideTransitionEvent[] = [];
  let replacing = false;
  const steps = guide.steps.map((step, i) => {
    if (step.seenState === 'active') replacing = true;
    let next = step;
    if (step.seenState === 'snoozed') {
      // spec: guides §4 Show — "Any snoozed step in the guide is cleared and reported".
      next = withState(step, 'none');
      events.push({ type: 'guideSnoozeCanceled', props: { guide_id: guide.id, guide_step_id: step.id } });
    }
    if (i === index) return { ...next, seenState: 'active' as const, lastSeenAt: ctx.now, seenReason };
    // Only one step of a guide is on screen: the step this one replaces was neither advanced nor dismissed.
    return step.seenState === 'active' ? withState(step, 'none') : next;
  });
  events.push({
    type: 'guideSeen',
    props: { guide_id: guide.id, guide_step_id: stepId, reason: seenReason, last_updated_at: guide.lastUpdatedAt, duration: 0 },
  });
  return ok({ ...guide, steps }, events, stepId, {}, replacing ? ['updated'] : [], warnings);
}

function advance(
  guide: Guide,
  stepId: string,
  destinationStepId: string | undefined,
  force: boolean,
  ctx: TransitionContext,
): TransitionResult {
  const index = indexOf(guide, stepId);
  if (index < 0) return refuse(unknownStep(guide, stepId));
  const step = guide.steps[index];
  // spec: guides §4 Advance — "refused if already advanced (unless forced) or if locked".
  if (ctx.locked) return refuse(`guide ${guide.id} is locked: step ${stepId} cannot advance`);
  if (step.seenState === 'advanced' && !force) return refuse(`step ${stepId} of guide ${guide.id} is already advanced`);
  const last = guide.steps.length - 1;
  let destIndex = index + 1;
  if (destinationStepId !== undefined) {
    destIndex = indexOf(guide, destinationStepId);
    if (destIndex < 0) return refuse(`cannot advance step ${stepId}: ${unknownStep(guide, destinationStepId)}`);
    if (destIndex === index) return refuse(`cannot advance step ${stepId} of guide ${guide.id} to itself`);
    if (destIndex < index) {
      return refuse(`cannot advance step ${stepId} of guide ${guide.id} back to earlier step ${destinationStepId}; use previous`);
    }
  }
  // spec: guides §4 Advance — "Skipping directly from the first to the last step is refused".
  if (guide.steps.length > 2 && index === 0 && destIndex === last) {
    return refuse(
      `cannot skip from the first step ${stepId} straight to the last step ${guide.steps[last].id} of guide ${guide.id}`,
    );
  }
  const final = destIndex > last;
  const destination = final ? undefined : guide.steps[destIndex].id;
  const events: GuideTransitionEvent[] = [
    {
      type: 'guideAdvanced',
      props: {
        ...stepProps(guide, step, ctx.now),
        ...(destination !== undefined ? { destination_step_id: destination } : {}),
      },
    },
  ];
  const steps = guide.steps.map((s, i) => {
    if (i === index) {
      const advanced: GuideStep = withState(s, 'advanced');
      if (destination !== undefined) advanced.destinationStepId = destination;
      else delete advanced.destinationStepId;
      // spec: guides §4 Advance — "Advancing the last step increments dismissCount".
      if (final) advanced.dismissCount = (s.dismissCount ?? 0) + 1;
      return advanced;
    }
    // spec: guides §4 Advance — skipped steps, and steps before a later active one, are marked advanced.
    return i < destIndex && s.seenState !== 'advanced' ? withState(s, 'advanced') : s;
  });
  const timestamps: Partial<ThrottlingTimestamps> = final && ctx.autoLaunched ? { finalAdvancedAutoAt: ctx.now } : {};
  const hooks: HookName[] = final ? ['advanced', 'beforeUnmount', 'unmounted'] : ['advanced', 'beforeUpdate', 'updated'];
  return ok({ ...guide, steps }, events, destination ?? null, timestamps, hooks);
}

function previous(guide: Guide, stepId: string, count: number, ctx: TransitionContext): TransitionResult {
  const index = indexOf(guide, stepId);
  if (index < 0) return refuse(unknownStep(guide, stepId));
  const step = guide.steps[index];
  if (step.seenState === 'advanced') return refuse(`step ${stepId} of guide ${guide.id} is already advanced`);
  if (index === 0) return refuse(`step ${stepId} is the first step of guide ${guide.id}: there is no previous step`);
  if (!Number.isInteger(count) || count < 1) return refuse(`cannot go back ${count} steps: steps must be a positive whole number`);
  if (index - count < 0) {
    return refuse(`cannot go back ${count} steps from step ${stepId} of guide ${guide.id}: it is only ${index} steps from the first`);
  }
  const destination = guide.steps[index - count].id;
  // spec: guides §4 Previous — "Records an advance event to the destination step".
  const events: GuideTransitionEvent[] = [
    { type: 'guideAdvanced', props: { ...stepProps(guide, step, ctx.now), destination_step_id: destination } },
  ];
  const steps = guide.steps.map((s, i) => (i === index ? { ...withState(s, 'advanced'), destinationStepId: destination } : s));
  return ok({ ...guide, steps }, events, destination, {}, ['beforeUpdate', 'updated']);
}

function dismiss(guide: Guide, stepId: string, ctx: TransitionContext): TransitionResult {
  const index = indexOf(guide, stepId);
  if (index < 0) return refuse(unknownStep(guide, stepId));
  const step = guide.steps[index];
  if (step.seenState === 'dismissed') return refuse(`step ${stepId} of guide ${guide.id} is already dismissed`);
  const events: GuideTransitionEvent[] = [{ type: 'guideDismissed', props: stepProps(guide, step, ctx.now) }];
  const steps = guide.steps.map((s, i) =>
    i === index ? { ...withState(s, 'dismissed'), dismissCount: (s.dismissCount ?? 0) + 1 } : s,
  );
  const timestamps: Partial<ThrottlingTimestamps> = ctx.autoLaunched ? { latestDismissedAutoAt: ctx.now } : {};
  return ok({ ...guide, steps }, events, null, timestamps, ['beforeUnmount', 'unmounted', 'dismissed', 'hidden']);
}

function snooze(guide: Guide, stepId: string, durationMs: number, ctx: TransitionContext): TransitionResult {
  const index = indexOf(guide, stepId);
  if (index < 0) return refuse(unknownStep(guide, stepId));
  const step = guide.steps[index];
  if (step.seenState === 'snoozed') return refuse(`step ${stepId} of guide ${guide.id} is already snoozed`);
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs <= 0) {
    return refuse(`cannot snooze step ${stepId} of guide ${guide.id} for ${durationMs} ms: the duration must be a positive finite number`);
  }
  const events: GuideTransitionEvent[] = [
    { type: 'guideSnoozed', props: { ...stepProps(guide, step, ctx.now), snooze_duration: durationMs } },
  ];
  // spec: guides §4 Snooze — "sets snoozeEndTime"; the step may show again once it has passed.
  const steps = guide.steps.map((s, i) => (i === index ? { ...s, seenState: 'snoozed' as const, snoozeEndTime: ctx.now + durationMs } : s));
  const timestamps: Partial<ThrottlingTimestamps> = ctx.autoLaunched ? { latestSnoozedAutoAt: ctx.now } : {};
  return ok({ ...guide, steps }, events, null, timestamps, ['beforeUnmount', 'unmounted', 'snoozed', 'hidden']);
}

function goToStep(guide: Guide, stepId: string, targetStepId: string, ctx: TransitionContext): TransitionResult {
  // spec: guides §4 — "goToStep refuses the same step, a missing step id, or an unknown step".
  if (!targetStepId) return refuse(`goToStep from step ${stepId} of guide ${guide.id} names no target step`);
  if (targetStepId === stepId) return refuse(`goToStep: step ${stepId} of guide ${guide.id} is already the current step`);
  const index = indexOf(guide, stepId);
  if (index < 0) return refuse(`goToStep: ${unknownStep(guide, stepId)}`);
  const target = indexOf(guide, targetStepId);
  if (target < 0) return refuse(`goToStep: ${unknownStep(guide, targetStepId)}`);
  return target > index ? advance(guide, stepId, targetStepId, false, ctx) : previous(guide, stepId, index - target, ctx);
}

function ok(
  guide: Guide,
  events: GuideTransitionEvent[],
  show: string | null,
  timestamps: Partial<ThrottlingTimestamps>,
  hooks: HookName[],
  warnings: string[] = [],
): Ok {
  return { ok: true, guide, events, show, timestamps, hooks, warnings };
}

function indexOf(guide: Guide, stepId: string): number {
  return guide.steps.findIndex((s) => s.id === stepId);
}

function unknownStep(guide: Guide, stepId: string): string {
  return `guide ${guide.id} has no step ${stepId}`;
}

/** A copy of `step` in `state`; a step leaving `snoozed` drops its snooze end time. */
function withState(step: GuideStep, state: NonNullable<GuideStep['seenState']>): GuideStep {
  const next: GuideStep = { ...step, seenState: state };
  if (state !== 'snoozed') delete next.snoozeEndTime;
  return next;
}

/** The props common to guideAdvanced, guideDismissed and guideSnoozed (wire-protocol.md "Guide events"). */
function stepProps(guide: Guide, step: GuideStep, now: number): GuideEventProps {
  // Time on screen: only an active step is on screen; an older lastSeenAt is from an earlier display.
  const duration = step.seenState === 'active' && step.lastSeenAt !== undefined ? Math.max(0, now - step.lastSeenAt) : 0;
  return {
    guide_id: guide.id,
    guide_step_id: step.id,
    seen_reason: step.seenReason ?? defaultSeenReason(guide),
    duration,
  };
}
