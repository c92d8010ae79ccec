/**
 * The step a visitor sees and what moves it (guides §4 Show and Transitions, §5 element rules, page rule
 * exception): the loaded candidates, the shown step, the steps not to auto-show again on this page; a step's
 * target (present, visible, its element contains rules passing); showing a step through the overlay (host
 * hooks may cancel it) and reporting it seen; a visitor's transition (the cancelable hook, the worker's state
 * machine, then the next step or nothing, then subscriptions and after-hooks); building-block actions.
 */
import { CANCELABLE_HOOK_OF } from '../../shared/guides/applyGuideTransition';
import { matchesContainsRules } from '../../shared/eligibility/matchesContainsRules';
import { ERROR_CODES } from '../../shared/errors';
import { MESSAGES } from '../../shared/messages';
import type { GuideAction } from '../../shared/guides/guides';
import type { StepAction, StepToShow } from '../../shared/protocol';
import type { UiElement } from '../../overlay/api';
import type { DisplayContext } from './displayContext';
import type { GuideHooks } from './createGuideHooks';
import type { HostExtensions } from './createHostExtensions';
import type { ActiveGuide, GuideNoticeName } from './guideDisplayTypes';
import { runBlockActions, type TransitionName, type UiElementAction } from './runBlockActions';

export interface StepFlowOptions {
  /** guides §4: the step this frame shows now, or null (told to the other frames). */
  onShown?(step: { guideId: string; stepId: string } | null): void;
  /** The worker took a transition of `step` (it is about to leave the page): the other frames hear it first. */
  onMoving?(step: StepToShow): void;
  /** A transition moved a guide on: the launcher's and resource center's views follow. */
  onMoved(): void;
  /** Runs the guide loop now (a next step whose element is not here yet waits in the candidates). */
  tick(): void;
  /** The host's custom actions and global scripts (guides §5). */
  extensions: HostExtensions;
}

export interface StepFlow {
  /** The auto steps of the last load that may show, in display order. */
  candidates: StepToShow[];
  /** Steps hidden by hideGuides or already handled on this page ("guideId/stepId"): not auto-shown again. */
  readonly suppressed: Set<string>;
  /** The step on the page now; `seen` once the worker recorded it (before that it is still being drawn). */
  shown(): Shown | null;
  /** The step's target when the page has it and it is visible (null: needs none), false when it must wait. */
  targetOf(step: StepToShow): Element | null | false;
  show(step: StepToShow, target: Element | null, update?: boolean): Promise<boolean>;
  /** Takes the shown step off the page without a transition (an SPA page change, another step by API). */
  clear(): void;
  /** A shown step whose element the page replaced (a re-render) is drawn on the new one; called each loop tick. */
  follow(): void;
  /**
   * After a guide load: the shown step as the worker serves it now, drawn again when its language changed (a
   * language given while it shows, issue #36), so it reads as its events say. Not seen again: the visitor is on
   * the same step.
   */
  restate(): Promise<void>;
  /**
   * The guide API's hideGuides: the shown step goes, with its hooks, and is not auto-shown again on this page;
   * `suppress` false (a hold: stopGuides, a preview, the leader's) lets the loop show it again once let go.
   */
  hideGuides(suppress?: boolean): void;
  goToStep(stepId: string): Promise<boolean>;
  /** Logs once that a candidate's element is missing ('No element found for step'), unless its rules were said. */
  noteMissing(step: StepToShow): void;
  describe(step: StepToShow): ActiveGuide;
  act(action: StepAction['action'], step: StepToShow, extra?: Partial<StepAction>): ReturnType<DisplayContext['bridge']['call']>;
}

interface Shown {
  step: StepToShow;
  since: number;
  seen?: boolean;
}

export const keyOf = (s: { guideId: string; stepId: string }) => `${s.guideId}/${s.stepId}`;

const NOTICE: Partial<Record<StepAction['action'], GuideNoticeName>> = {
  advance: 'advanced',
  goToStep: 'advanced',
  previous: 'previous',
  dismiss: 'dismissed',
  snooze: 'snoozed',
};

export function createStepFlow(ctx: DisplayContext, hooks: GuideHooks, options: StepFlowOptions): StepFlow {
  const { log } = ctx;
  let shown: Shown | null = null;
  /** The element the shown step is drawn on (null: none, a lightbox). */
  let drawnOn: Element | null = null;
  /** Takes off the shown step's advanceMethod listeners (see watchAdvance). */
  let stopAdvance = () => undefined as void;
  const rulesLogged = new Set<string>();
  const missingLogged = new Set<string>();
  /** Steps whose answered poll completed their guide (runBlockActions submitPoll). */
  const completedByPoll = new WeakSet<StepToShow>();

  /** The shown step changes only here, so the other frames hear of each change (receiveGuideStepShownInFrame). */
  function setShown(next: Shown | null): void {
    const was = shown?.step;
    shown = next;
    if (was === next?.step) return;
    stopAdvance();
    options.onShown?.(next ? next.step : null);
  }

  const describe = (step: StepToShow): ActiveGuide => ({
    guideId: step.guideId,
    guideName: step.guideName,
    stepId: step.stepId,
    stepIndex: step.stepIndex,
    stepCount: step.stepCount,
    reason: step.reason,
  });
  const runHooks = (name: Parameters<GuideHooks['run']>[0], step: StepToShow) => hooks.run(name, describe(step));

  /** A step the leader frame gave (viaFrame) is the leader's worker's to decide on; any other, this frame's. */
  const act = (action: StepAction['action'], step: StepToShow, extra: Partial<StepAction> = {}) => {
    const a: StepAction = { guideId: step.guideId, stepId: step.stepId, action, url: location.href, ...extra };
    const frames = step.viaFrame ? ctx.frames() : undefined;
    return frames ? frames.act(step.viaFrame!, a) : ctx.bridge.call((api) => api.stepAction(a));
  };

  /**
   * The target of a step, when the page has it and it is visible; lightboxes need none, but one with a
   * block-out (guides §2 blockOutUI) gets its element when the page has it, to leave it clear.
   */
  function targetOf(step: StepToShow): Element | null | false {
    // guides §3 embedConfig: an embedded step needs the element it is drawn in.
    if (step.embed) return ctx.query(step.embed.selector) ?? false;
    if (step.type !== 'tooltip') {
      const blockOut = step.attributes.blockOutUI as { enabled?: unknown } | undefined;
      return blockOut?.enabled === true && step.elementPathRule ? ctx.query(step.elementPathRule) : null;
    }
    if (!step.elementPathRule) return false;
    const el = ctx.query(step.elementPathRule);
    if (!el) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 && rect.height <= 0) return false;
    if (step.elementContainsRulesList?.length) {
      // guides §5: every element contains rule must pass on the target's text; number rules fail on non-numbers.
      const verdict = matchesContainsRules(step.elementContainsRulesList, el.textContent ?? '');
      if (!verdict.pass) {
        if (!rulesLogged.has(keyOf(step))) {
          rulesLogged.add(keyOf(step));
          log('debug', `guide ${step.guideId} step ${step.stepId} waits: ${verdict.reason}`);
        }
        return false;
      }
    }
    return el;
  }

  async function show(step: StepToShow, target: Element | null, update = false): Promise<boolean> {
    // A guide moving to its next step updates (beforeUpdate/updated); a guide appearing mounts (beforeMount).
    if (!update && !runHooks('beforeMount', step)) {
      log('info', `guide ${step.guideId} step ${step.stepId}: beforeMount canceled the display`);
      flow.suppressed.add(keyOf(step));
      return false;
    }
    setShown({ step, since: Date.now() });
    // guides §3 attributes.seenDelay (ms; the spec names it, ours to define): the step appears, and is seen, that
    // long after it could; the page keeps it meanwhile (no other step shows), and its element must still be there.
    const delay = Number(step.attributes.seenDelay);
    if (delay > 0) {
      await new Promise((done) => setTimeout(done, delay));
      const still = shown?.step === step && targetOf(step);
      if (still === false) setShown(null);
      if (still === false || shown?.step !== step) return false;
      target = still;
    }
    const view = await ctx.overlay();
    if (shown?.step !== step) return false;
    // Seen once it is on the page: a step drawn with React waits for its chunk (issue #34).
    await draw(view, step, target);
    if (shown?.step !== step) return false;
    const seen = await act('seen', step, { reason: step.reason });
    if (!seen.ok && seen.error.code === ERROR_CODES.pageRule) {
      // guides §5 page rule exception: the page changed under the render; the worker failed the guide.
      flow.suppressed.add(keyOf(step));
      if (shown?.step === step) {
        setShown(null);
        view.hide();
      }
      return false;
    }
    if (shown?.step === step) shown.seen = true;
    options.extensions.drawn(describe(step), target);
    if (step.script) ctx.loadScript(step.script);
    const rule = step.confirmationElementPathRule;
    // guides §8: a confirmation with no confirmation element on the page is a critical error (the step still
    // moves on if the element comes later). Said once per display, not again when the step follows its element.
    if (rule && !ctx.query(rule)) ctx.critical(`confirmation element ${rule} not found for guide ${step.guideId} step ${step.stepId}`);
    watchAdvance(step, target);
    return true;
  }

  /** Draws the shown step on `target`: when it shows, and again when the page replaced its element. */
  function draw(view: Awaited<ReturnType<DisplayContext['overlay']>>, step: StepToShow, target: Element | null): void | Promise<void> {
    drawnOn = target;
    return view.show(step, target, {
      onAction: (actions, ui, answers) => void onAction(step, target, actions, ui, answers),
      onDismiss: (ui) => void (completedByPoll.has(step) ? takeOff(step) : transition(step, 'dismiss', ui ? { ...ui, actions: ['dismissGuide'] } : null)),
    });
  }

  /**
   * guides §3 advanceMethod (with the guide's advanceActions): the visitor's click on the step's element (`element
   * click`) or pointing at it (`mouseover`) advances the step, once, as its Next button would; so does a click on
   * (or inside) its confirmationElementPathRule's element. The listeners go with the step; a call replaces the ones
   * before.
   */
  function watchAdvance(step: StepToShow, target: Element | null): void {
    stopAdvance();
    const rule = step.confirmationElementPathRule;
    if (!step.advanceMethod && !rule) return;
    const events = target ? (step.advanceMethod ?? '').split(',').map((m) => (m.trim() === 'mouseover' ? 'mouseover' : m.trim() === 'element click' ? 'click' : '')).filter(Boolean) : [];
    const advance = () => void transition(step, 'advance', { id: 'element', type: 'element', actions: ['advanceGuide'] });
    const confirm = (event: Event) => {
      const el = rule && ctx.query(rule);
      if (el && event.composedPath().includes(el)) advance();
    };
    events.forEach((e) => target!.addEventListener(e, advance));
    if (rule) document.addEventListener('click', confirm, true);
    stopAdvance = () => {
      events.forEach((e) => target!.removeEventListener(e, advance));
      document.removeEventListener('click', confirm, true);
    };
  }

  /** A step whose guide is complete (its poll answered) leaves the page without another transition. */
  function takeOff(step: StepToShow): void {
    if (shown?.step !== step) return;
    runHooks('beforeUnmount', step);
    close(step);
    runHooks('unmounted', step);
    runHooks('hidden', step);
    options.onMoved();
  }

  function close(step: StepToShow): void {
    flow.suppressed.add(keyOf(step));
    flow.candidates = flow.candidates.filter((c) => c.guideId !== step.guideId);
    setShown(null);
    void ctx.overlay().then((v) => v.hide());
  }

  async function transition(step: StepToShow, action: TransitionName, ui: UiElementAction | null, extra: Partial<StepAction> = {}): Promise<boolean> {
    if (shown?.step !== step) return false;
    // The state machine names the hook that may cancel each transition.
    const hook = CANCELABLE_HOOK_OF[action]!;
    if (!runHooks(hook, step)) {
      log('info', `guide ${step.guideId}: ${hook} canceled ${action}`);
      return false;
    }
    // Not waited for (issue #16: one worker round trip before the next step shows): the worker records an
    // activity synchronously, and handles calls in the order they were posted, so it precedes the transition.
    if (ui) void act('activity', step, { uiElement: ui });
    const result = await act(action, step, extra);
    if (!result.ok) {
      log('warn', result.error.message);
      return false;
    }
    const next = result.value;
    options.onMoving?.(step);
    runHooks(next ? 'beforeUpdate' : 'beforeUnmount', step);
    close(step);
    if (!next) runHooks('unmounted', step);
    const notice = NOTICE[action];
    if (notice) hooks.notify(notice, { guideId: step.guideId, stepId: step.stepId, nextStepId: next?.stepId });
    if (action === 'dismiss') runHooks('dismissed', step);
    if (action === 'snooze') runHooks('snoozed', step);
    if (action === 'advance' || action === 'goToStep') runHooks('advanced', step);
    if (next) {
      flow.suppressed.delete(keyOf(next));
      const target = targetOf(next);
      if (target === false) {
        // The next step's element is elsewhere (another page): the loop shows it when it appears.
        flow.candidates.unshift(next);
        options.tick();
      } else if (await show(next, target, true)) {
        runHooks('updated', next);
      }
    } else {
      runHooks('hidden', step);
    }
    // guides §2 Launcher: the visitor's step moves its onboarding progress and completion marks on.
    options.onMoved();
    return true;
  }

  async function onAction(step: StepToShow, target: Element | null, actions: GuideAction[], ui: UiElement, answers?: Record<string, string>): Promise<void> {
    if (shown?.step !== step) return;
    const activity = { ...ui, actions: actions.map((a) => a.action) };
    const host = {
      transition,
      act,
      showGuideById: (guideId: string) => ctx.showGuide(guideId, undefined, 'api'),
      customAction: (name: string, parameters: unknown[]) => void options.extensions.runCustomAction(name, describe(step), parameters, target),
      query: ctx.query,
      log,
      completed: (done: StepToShow) => void completedByPoll.add(done),
    };
    if (!(await runBlockActions(host, step, actions, activity, answers))) await act('activity', step, { uiElement: activity });
  }

  const flow: StepFlow = {
    candidates: [],
    suppressed: new Set(),
    shown: () => shown,
    targetOf,
    show,
    follow() {
      const step = shown?.step;
      if (!step || !drawnOn || drawnOn.isConnected) return;
      // The page re-rendered the step's element: the step moves onto the new one (until then it waits unseen).
      const next = targetOf(step);
      if (!next) return;
      drawnOn = next;
      void ctx.overlay().then((view) => {
        if (shown?.step !== step || drawnOn !== next) return;
        draw(view, step, next);
        watchAdvance(step, next);
      });
    },
    async restate() {
      const step = shown?.seen && !shown.step.viaFrame ? shown.step : null;
      if (!step) return;
      const now = await ctx.bridge.call((api) => api.stepForGuide(step.guideId, step.stepId, step.reason));
      if (!now.ok || now.value.language === step.language || shown?.step !== step) return;
      // The same step (the other frames need not hear): its new content, handlers and advance listeners.
      const next = now.value;
      shown = { ...shown, step: next };
      const view = await ctx.overlay();
      if (shown?.step !== next) return;
      draw(view, next, drawnOn);
      watchAdvance(next, drawnOn);
    },
    clear() {
      setShown(null);
      void ctx.overlay().then((v) => v.hide());
    },
    hideGuides(suppress = true) {
      if (!shown) return;
      const step = shown.step;
      if (suppress) flow.suppressed.add(keyOf(step));
      runHooks('beforeUnmount', step);
      flow.clear();
      runHooks('unmounted', step);
      runHooks('hidden', step);
    },
    async goToStep(stepId) {
      if (!shown) {
        log('warn', 'goToStep: no guide is shown');
        return false;
      }
      return transition(shown.step, 'goToStep', null, { targetStepId: stepId });
    },
    noteMissing(step) {
      if (rulesLogged.has(keyOf(step)) || missingLogged.has(keyOf(step))) return;
      missingLogged.add(keyOf(step));
      log('info', `${MESSAGES.noElementForStep} ${step.stepId} of guide ${step.guideId}`);
    },
    describe,
    act,
  };
  return flow;
}
