/**
 * The main-thread half of the guide loop (guides §4 "Guide loop", first cut). The worker decides which
 * steps may show; this loop supplies the DOM facts (is the target there and visible), lazily loads the
 * overlay, renders the first step whose facts hold, and reports what the visitor does with it.
 */
import { AUTOMATION_CLICK_DELAY_MS, AUTOMATION_RETRIES, AUTOMATION_RETRY_MS, ELEMENT_ACTIVATION_MAX_TARGETS, GUIDE_LOOP_BUSY_MS, GUIDE_LOOP_IDLE_MS, GUIDE_REQUEST_STALE_MS, PERMALINK_PARAMS, STEP_SEEN_TIMEOUT_MS } from '../shared/constants';
import type { Automation, GuideAction } from '../shared/guides/guides';
import { matchesContainsRules } from '../shared/eligibility/matchesContainsRules';
import { MESSAGES } from '../shared/messages';
import { ERROR_CODES } from '../shared/errors';
import type { BadgeToShow, GuideLoadResult, LauncherToShow, LogLevel, ResourceCenterToShow, SeenReason, StepAction, StepToShow } from '../shared/protocol';
import { launcherClosedRecord, shouldAutoOpenLauncher } from '../shared/surfaces/launcherPanel';
import { mayShowGuidesInFrame, type FrameState } from '../shared/frames/frameVisibility';
import { importChunk } from './importChunk';
import { CANCELABLE_HOOK_OF, type HookName } from '../shared/guides/applyGuideTransition';
import type { LauncherHandlers, Overlay, OverlayModule, ResourceCenterHandlers, ResourceCenterState, UiElement } from '../overlay/api';
import type { Bridge } from './createBridge';
import { createTargetCache } from './queryDeep';
import { collectEventProperties, type EventPropertyCollector } from './collectEventProperties';

export interface GuideDisplayOptions {
  bridge: Bridge;
  overlayUrl: string;
  log(level: LogLevel, message: string): void;
  /** guides §5 delayGuides: the loop starts paused, until startGuides(). @default false */
  delayed?: boolean;
  /**
   * guides §4 Step timeout (guideSeenTimeoutLength): a candidate step whose target has not appeared after
   * this many ms is reported timed out. @default off
   */
  seenTimeoutMs?: number;
  /** guides §2 preventCodeInjection: steps' scripts (contentUrlJs) are never loaded. @default false */
  preventCodeInjection?: boolean;
  /** analytics §3: a collector of each guide load's event property rules (null: none), for the shim's click capture. */
  onEventPropertyRules?(collect: EventPropertyCollector | null): void;
  /** A script URL as the page's sinks take it (Trusted Types, shim/trustedScriptUrl.ts). @default the URL as is */
  trustedScriptUrl?(url: string): string;
  /**
   * analytics §4 Frames: this frame's leadership, visibility and whether another frame shows a guide, kept up
   * to date by the frames chunk and read on each tick. @default the top frame leads and is visible
   */
  frame?: FrameState;
  /** guides §4: the step this frame shows now, or null (told to the other frames). */
  onShown?(step: { guideId: string; stepId: string } | null): void;
}

/** What a guide subscription hears (guides §4: onGuideAdvanced, onGuidePrevious, onGuideDismissed, onGuideSnoozed). */
export interface GuideNotice {
  guideId: string;
  stepId: string;
  /** The step shown next, when there is one. */
  nextStepId?: string;
}

/** The guide a visitor sees now (getActiveGuide). */
export interface ActiveGuide {
  guideId: string;
  guideName: string;
  stepId: string;
  stepIndex: number;
  stepCount: number;
  reason: string;
}

export type GuideNoticeName = 'advanced' | 'previous' | 'dismissed' | 'snoozed';

/** guides §2 Launcher API: toggleLauncher, showLauncher, hideLauncher, removeLauncher. */
export type LauncherCommand = 'toggle' | 'show' | 'hide' | 'remove';
export type ResourceCenterCommand = 'open' | 'close' | 'toggle';

/**
 * A host's lifecycle hook (guides §4). The cancelable ones (beforeMount, beforeAdvance, beforePrevious,
 * beforeDismiss, beforeSnooze) cancel the transition by returning false.
 */
export type GuideHook = (guide: ActiveGuide) => unknown;

/** What waymark.guides.js exports (the shim imports it at start when guides are on). */
export interface GuideDisplayModule {
  createGuideDisplay(options: GuideDisplayOptions): GuideDisplay;
}

export interface GuideDisplay {
  /** Shows the first step (or `stepId`) of a loaded guide; resolves false with a log when it cannot. */
  showGuideById(guideId: string, stepId?: string): Promise<boolean>;
  showGuideByName(name: string): Promise<boolean>;
  hideGuides(): void;
  /** guides §4 goToStep on the shown guide. */
  goToStep(stepId: string): Promise<boolean>;
  getActiveGuide(): ActiveGuide | null;
  /** The steps the loop would show on this page, in order (the shown one first). */
  getActiveGuides(): ActiveGuide[];
  on(name: GuideNoticeName, listener: (notice: GuideNotice) => void): () => void;
  addHook(name: HookName, hook: GuideHook): () => void;
  /** startGuides / stopGuides: run or pause the guide loop (a paused loop hides what it showed). */
  start(): void;
  pause(): void;
  /**
   * guides §2 Launcher: open or close its panel (closing stores the launcher-closed flag for 8 hours), or
   * remove the launcher from this page for good.
   */
  launcher(command: LauncherCommand): void;
  /** guides §4 the resource center's api launch: open, close or toggle its panel. */
  resourceCenter(command: ResourceCenterCommand): void;
  /** loadGuides: ask the worker again for this page. */
  reload(): Promise<void>;
  /** False once guide.json said the subscription lacks guides (guides §5): the loop has stopped. */
  supported(): boolean;
  /** analytics §4 Frames: leadership, visibility or another frame's guide changed; redraw and run the loop. */
  frameChanged(): void;
  stop(): void;
}

export function createGuideDisplay({
  bridge,
  overlayUrl,
  log,
  delayed,
  seenTimeoutMs,
  preventCodeInjection,
  onEventPropertyRules,
  trustedScriptUrl = (url) => url,
  frame = { isTop: window.top === window, leader: window.top === window, visibility: 'visible', othersShowing: false },
  onShown,
}: GuideDisplayOptions): GuideDisplay {
  /** When the loop started: a child frame of unknown visibility waits a while for its parent to say (guides §4). */
  const startedAt = Date.now();
  /**
   * The first element matching `selector` (a guide author's), or null, also for a selector that does not
   * parse; `host >>> inner` reaches into open shadow roots; a target found before is checked, not searched
   * for again (shim/queryDeep.ts).
   */
  const queryOrNull = createTargetCache();
  let candidates: StepToShow[] = [];
  let shown: { step: StepToShow; since: number } | null = null;
  /** Steps hidden by hideGuides or already handled on this page: not auto-shown again. */
  const suppressed = new Set<string>();
  let loadedUrl = '';
  /** When the guide list of this page was asked for (guides §9: stale after an hour). */
  let loadedAt = 0;
  let loading = false;
  /** guides §5: guide.json said the subscription lacks the guides feature. */
  let notInSubscription = false;
  /** teardown (issue #7): the loop never runs again. */
  let stopped = false;
  /** guides §4 Guide loop: skipped while paused (stopGuides, delayGuides). */
  let paused = delayed === true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Where the auto-display phase goes on after a tick ran out of its 50 ms. */
  let resumeAt = 0;
  let overlay: Promise<Overlay> | null = null;
  const noTargetLogged = new Set<string>();
  /** Addresses whose permalink was already opened. */
  const handledPermalinks = new Set<string>();
  /** When each candidate's target was first missing, for the step seen timeout. */
  const waitingSince = new Map<string, number>();
  const listeners = new Map<GuideNoticeName, Set<(notice: GuideNotice) => void>>();
  const hooks = new Map<HookName, Set<GuideHook>>();

  const keyOf = (s: { guideId: string; stepId: string }) => `${s.guideId}/${s.stepId}`;

  /** The shown step changes only here, so the other frames hear of each change (receiveGuideStepShownInFrame). */
  function setShown(next: { step: StepToShow; since: number } | null): void {
    const was = shown?.step;
    shown = next;
    if (was !== next?.step) onShown?.(next ? next.step : null);
  }
  const describe = (step: StepToShow): ActiveGuide => ({
    guideId: step.guideId,
    guideName: step.guideName,
    stepId: step.stepId,
    stepIndex: step.stepIndex,
    stepCount: step.stepCount,
    reason: step.reason,
  });

  function getOverlay(): Promise<Overlay> {
    overlay ??= importChunk<OverlayModule>(overlayUrl).then((m) => m.createOverlay(document, { log }));
    return overlay;
  }

  function act(action: StepAction['action'], step: StepToShow, extra: Partial<StepAction> = {}) {
    return bridge.call((api) =>
      api.stepAction({ guideId: step.guideId, stepId: step.stepId, action, url: location.href, ...extra }),
    );
  }

  /** Runs a host's hooks; false when a cancelable one returned false (guides §4 lifecycle hooks). */
  function runHooks(name: HookName, step: StepToShow): boolean {
    let go = true;
    for (const hook of hooks.get(name) ?? []) {
      try {
        if (hook(describe(step)) === false) go = false;
      } catch (err) {
        log('error', `guide hook ${name} threw: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    return go;
  }

  function notify(name: GuideNoticeName, notice: GuideNotice): void {
    for (const listener of listeners.get(name) ?? []) {
      try {
        listener(notice);
      } catch (err) {
        log('error', `guide listener of ${name} threw: ${(err as Error)?.message ?? String(err)}`);
      }
    }
  }

  /**
   * The target of a step, when the page has it and it is visible; lightboxes need none, but one with a
   * block-out (guides §2 blockOutUI) gets its element when the page has it, to leave it clear.
   */
  function targetOf(step: StepToShow): Element | null | false {
    if (step.type !== 'tooltip') {
      const blockOut = step.attributes.blockOutUI as { enabled?: unknown } | undefined;
      return blockOut?.enabled === true && step.elementPathRule ? queryOrNull(step.elementPathRule) : null;
    }
    if (!step.elementPathRule) return false;
    const el = queryOrNull(step.elementPathRule);
    if (!el) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 && rect.height <= 0) return false;
    if (step.elementContainsRulesList?.length) {
      // guides §5: every element contains rule must pass on the target's text; number rules fail on non-numbers.
      const verdict = matchesContainsRules(step.elementContainsRulesList, el.textContent ?? '');
      if (!verdict.pass) {
        if (!noTargetLogged.has(`${keyOf(step)}#rules`)) {
          noTargetLogged.add(`${keyOf(step)}#rules`);
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
      suppressed.add(keyOf(step));
      return false;
    }
    setShown({ step, since: Date.now() });
    const view = await getOverlay();
    if (shown?.step !== step) return false;
    view.show(step, target, {
      onAction: (actions, ui, answers) => void onAction(step, actions, ui, answers),
      onDismiss: (ui) => void transition(step, 'dismiss', ui ? { ...ui, actions: ['dismissGuide'] } : null),
    });
    const seen = await act('seen', step, { reason: step.reason });
    if (!seen.ok && seen.error.code === ERROR_CODES.pageRule) {
      // guides §5 page rule exception: the page changed under the render; the worker failed the guide.
      suppressed.add(keyOf(step));
      if (shown?.step === step) {
        setShown(null);
        view.hide();
      }
      return false;
    }
    if (step.script) loadScript(step.script);
    return true;
  }

  /** Scripts of steps already added to the page, by URL: each runs once. */
  const scripts = new Set<string>();
  /**
   * guides §3 contentUrlJs: the step's script, from an origin the worker allowed, with its SRI integrity
   * when the step has a hash (the browser refuses a script that does not match); 'Failed to load script'.
   */
  function loadScript({ url, integrity }: { url: string; integrity?: string }, failure: string = MESSAGES.scriptLoadFailed): void {
    if (preventCodeInjection || scripts.has(url)) return;
    scripts.add(url);
    const el = document.createElement('script');
    el.src = trustedScriptUrl(url);
    el.async = true;
    if (integrity) {
      el.integrity = integrity;
      el.crossOrigin = 'anonymous';
    }
    el.onerror = () => log('error', `${failure}: ${url}`);
    document.head.appendChild(el);
  }

  function close(step: StepToShow): void {
    suppressed.add(keyOf(step));
    candidates = candidates.filter((c) => c.guideId !== step.guideId);
    setShown(null);
    void getOverlay().then((v) => v.hide());
  }

  const NOTICE: Partial<Record<StepAction['action'], GuideNoticeName>> = {
    advance: 'advanced',
    goToStep: 'advanced',
    previous: 'previous',
    dismiss: 'dismissed',
    snooze: 'snoozed',
  };

  /**
   * One visitor transition on the shown step (guides §4): the cancelable hook, the worker's state machine
   * (which may refuse), then the next step or nothing, then the subscriptions and the after-hooks.
   */
  async function transition(
    step: StepToShow,
    action: 'advance' | 'previous' | 'dismiss' | 'snooze' | 'goToStep',
    ui: UiElementAction | null,
    extra: Partial<StepAction> = {},
  ): Promise<boolean> {
    if (shown?.step !== step) return false;
    // The state machine names the hook that may cancel each transition.
    const hook = CANCELABLE_HOOK_OF[action]!;
    if (!runHooks(hook, step)) {
      log('info', `guide ${step.guideId}: ${hook} canceled ${action}`);
      return false;
    }
    if (ui) await act('activity', step, { uiElement: ui });
    const result = await act(action, step, extra);
    if (!result.ok) {
      log('warn', result.error.message);
      return false;
    }
    const next = result.value;
    if (next) runHooks('beforeUpdate', step);
    else runHooks('beforeUnmount', step);
    close(step);
    if (!next) runHooks('unmounted', step);
    const notice = NOTICE[action];
    if (notice) notify(notice, { guideId: step.guideId, stepId: step.stepId, nextStepId: next?.stepId });
    if (action === 'dismiss') runHooks('dismissed', step);
    if (action === 'snooze') runHooks('snoozed', step);
    if (action === 'advance' || action === 'goToStep') runHooks('advanced', step);
    if (next) {
      suppressed.delete(keyOf(next));
      const target = targetOf(next);
      if (target === false) {
        // The next step's element is elsewhere (another page): the loop shows it when it appears.
        candidates.unshift(next);
        tick();
      } else if (await show(next, target, true)) {
        runHooks('updated', next);
      }
    } else {
      runHooks('hidden', step);
    }
    // guides §2 Launcher: the visitor's step moves its onboarding progress and completion marks on.
    if (launcher) void refreshLauncher();
    if (resourceCenter) void refreshResourceCenter();
    return true;
  }

  async function onAction(step: StepToShow, actions: GuideAction[], ui: UiElement, answers?: Record<string, string>): Promise<void> {
    if (shown?.step !== step) return;
    const activity = { ...ui, actions: actions.map((a) => a.action) };
    if (!(await runActions(step, actions, activity, answers))) await act('activity', step, { uiElement: activity });
  }

  /** Runs building-block actions in order; true once one of them moved the guide on (and recorded activity). */
  async function runActions(step: StepToShow, actions: GuideAction[], activity: UiElementAction, answers?: Record<string, string>): Promise<boolean> {
    for (const a of actions) {
      const parameter = a.parameters?.[0];
      switch (a.action) {
        case 'dismissGuide':
          await transition(step, 'dismiss', activity);
          return true;
        case 'advanceGuide':
          await transition(step, 'advance', activity);
          return true;
        case 'previousStep':
          await transition(step, 'previous', activity);
          return true;
        case 'snoozeGuide':
          await transition(step, 'snooze', activity, typeof parameter === 'number' && parameter > 0 ? { snoozeMs: parameter } : {});
          return true;
        case 'goToStep':
          await transition(step, 'goToStep', activity, { targetStepId: String(parameter ?? '') });
          return true;
        case 'showGuide':
          await act('activity', step, { uiElement: activity });
          if (parameter !== undefined) await api.showGuideById(String(parameter));
          return true;
        case 'openLink': {
          const href = String(parameter ?? '');
          if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener');
          break;
        }
        case 'submitPoll':
          // guides §2, §5: the step's poll answers go to the poll beacon; the overlay shows the thank-you.
          if (answers && Object.keys(answers).length) await act('poll', step, { pollAnswers: answers });
          else log('info', `guide ${step.guideId} step ${step.stepId}: a poll was submitted without an answer`);
          break;
        case 'conditionalSplit': {
          // guides §4 Conditional split: the first case whose element exists runs its actions.
          const cases = (a.parameters ?? []) as Array<{ elementPathRule?: unknown; actions?: unknown }>;
          const match = cases.find((c) => typeof c?.elementPathRule === 'string' && queryOrNull(c.elementPathRule) !== null);
          if (!match) {
            log('warn', `guide ${step.guideId} step ${step.stepId}: conditional split: no case matched`);
            break;
          }
          if (Array.isArray(match.actions) && (await runActions(step, match.actions as GuideAction[], activity, answers))) return true;
          break;
        }
        case 'automation': {
          const automation = step.automations?.find((x) => x.id === String(parameter));
          if (automation) void runAutomation(step, automation);
          else log('warn', `guide ${step.guideId}: no automation ${String(parameter)}`);
          break;
        }
      }
    }
    return false;
  }

  /**
   * guides §4 Automation: find the target (10 tries, 250 ms apart), skip it when missing or disabled; autofill
   * sets the value as typing would (input and change events), autoclick clicks after 500 ms.
   */
  async function runAutomation(step: StepToShow, automation: Automation): Promise<void> {
    const rules = Array.isArray(automation.target?.elementPathRules) ? automation.target.elementPathRules : [];
    let el: HTMLElement | null = null;
    for (let attempt = 0; attempt < AUTOMATION_RETRIES && !el; attempt++) {
      el = (rules.map(queryOrNull).find((x) => x) ?? null) as HTMLElement | null;
      if (!el) await new Promise((resolve) => setTimeout(resolve, AUTOMATION_RETRY_MS));
    }
    const name = `guide ${step.guideId} automation ${automation.id}`;
    if (!el) return log('info', `${name} skipped: target not found`);
    if ((el as HTMLInputElement).disabled) return log('info', `${name} skipped: target is disabled`);
    if (automation.type === 'autofill') {
      // The prototype's setter, so frameworks that track the value (React) see the change.
      const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, String(automation.value ?? ''));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (automation.type === 'autoclick') {
      await new Promise((resolve) => setTimeout(resolve, AUTOMATION_CLICK_DELAY_MS));
      el.click();
    }
  }

  async function load(url: string): Promise<void> {
    loading = true;
    loadedUrl = url;
    loadedAt = Date.now();
    try {
      const result = await bridge.call((api) => api.loadGuides(url));
      if (loadedUrl !== url) return;
      if (!result.ok && result.error.code === ERROR_CODES.notInSubscription) notInSubscription = true;
      candidates = result.ok ? result.value.candidates : [];
      const activations: Activation[] = result.ok ? result.value.activations.map((a) => ({ ...a, run: () => void activate(a.guideId) })) : [];
      // guides §4 a resource center launched by dom: the visitor's event on its element opens or closes it.
      const rc = result.ok ? result.value.resourceCenter : undefined;
      if (rc?.activation) activations.push({ guideId: rc.guideId, ...rc.activation, run: () => rcHandlers.onToggle(!rcState.open) });
      watchActivations(activations);
      if (result.ok) {
        const rules = result.value.eventPropertyRules;
        onEventPropertyRules?.(rules.length ? (target) => collectEventProperties(target, rules) : null);
      }
      badges = result.ok ? result.value.badges : [];
      if (result.ok) setLauncher(result.value);
      if (result.ok) setResourceCenter(result.value.resourceCenter);
      if (result.ok && result.value.globalScript) loadScript({ url: result.value.globalScript }, MESSAGES.globalScriptFailed);
    } finally {
      loading = false;
    }
    await openPermalink();
  }

  /**
   * guides §2 URL triggers: `waymark_guide` (or `c__waymark_guide`) in the query or the hash shows that guide,
   * at `waymark_step` when given; with `waymark_once` the parameters are removed from the address afterwards.
   */
  async function openPermalink(): Promise<void> {
    const { guide, step, once, prefix } = PERMALINK_PARAMS;
    const query = new URLSearchParams(location.search);
    const hash = new URLSearchParams(location.hash.replace(/^#\/?/, '').replace(/^[^?]*\?/, ''));
    const read = (name: string) => query.get(name) ?? query.get(prefix + name) ?? hash.get(name) ?? hash.get(prefix + name);
    const guideId = read(guide);
    if (!guideId || handledPermalinks.has(`${location.href}`)) return;
    handledPermalinks.add(location.href);
    const shownOk = await showGuide(guideId, read(step) ?? undefined, 'permalink');
    if (!shownOk) log('warn', `permalink: guide ${guideId} could not be shown`);
    if (read(once) !== null) {
      const url = new URL(location.href);
      for (const name of [guide, step, once]) for (const n of [name, prefix + name]) url.searchParams.delete(n);
      if (url.hash) {
        const h = new URLSearchParams(url.hash.slice(1));
        for (const name of [guide, step, once]) for (const n of [name, prefix + name]) h.delete(n);
        url.hash = h.toString();
      }
      history.replaceState(history.state, '', url.href);
      handledPermalinks.add(location.href);
      loadedUrl = location.href; // the same page: no new guide load for the cleaned address
    }
  }

  /**
   * guides §4 element activation: listeners on at most 50 targets per guide, replaced on each load; `run` is
   * what the event does (show the guide, or open the resource center).
   */
  let activationCleanup: Array<() => void> = [];
  type Activation = { guideId: string; event: string; selector: string; run: () => void };
  function watchActivations(activations: Activation[]): void {
    for (const undo of activationCleanup) undo();
    activationCleanup = [];
    for (const { guideId, event, selector, run } of activations) {
      let targets: Element[];
      try {
        targets = Array.from(document.querySelectorAll(selector));
      } catch {
        log('warn', `guide ${guideId}: activation selector ${selector} is not valid`);
        continue;
      }
      if (targets.length > ELEMENT_ACTIVATION_MAX_TARGETS) {
        log('warn', `guide ${guideId}: ${targets.length} elements match its activation; the first ${ELEMENT_ACTIVATION_MAX_TARGETS} are used`);
      }
      for (const el of targets.slice(0, ELEMENT_ACTIVATION_MAX_TARGETS)) {
        el.addEventListener(event, run);
        activationCleanup.push(() => el.removeEventListener(event, run));
      }
    }
  }

  /** An activated guide shows as soon as its step can; past the step seen timeout it gives up with a warning. */
  async function activate(guideId: string): Promise<void> {
    const started = Date.now();
    const limit = seenTimeoutMs ?? STEP_SEEN_TIMEOUT_MS;
    while (!(await showGuide(guideId, undefined, 'dom', true))) {
      if (Date.now() - started >= limit) {
        log('warn', MESSAGES.elementActivationTimeout);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, GUIDE_LOOP_IDLE_MS));
    }
  }

  /** guides §2 badges of the last load, and the targets they were last drawn on ("guideId=index" keys). */
  let badges: BadgeToShow[] = [];
  let drawnBadges: Array<{ badge: BadgeToShow; target: Element }> = [];
  /** guides §4 Guide loop, badges phase: draws each badge whose target is on the page, redrawing on change. */
  function placeBadges(): void {
    const placed: Array<{ badge: BadgeToShow; target: Element }> = [];
    for (const badge of badges) {
      const target = queryOrNull(badge.selector);
      if (target) placed.push({ badge, target });
    }
    const same = placed.length === drawnBadges.length && placed.every((p, i) => p.badge === drawnBadges[i]!.badge && p.target === drawnBadges[i]!.target);
    if (same || (!placed.length && !overlay)) return;
    drawnBadges = placed;
    void getOverlay().then((v) => v.showBadges(placed, (guideId) => void showGuide(guideId, undefined, 'badge')));
  }

  /** guides §2 Launcher of the last load, whether its panel is open, and whether the host removed it. */
  let launcher: LauncherToShow | null = null;
  let launcherOpen = false;
  let launcherRemoved = false;
  /** Whether the panel opened by itself (onboarding under way) is decided once per page. */
  let launcherDecided = false;
  /** The panel is to open by itself at the first tick with no step to show (setLauncher). */
  let launcherAutoOpen = false;
  let launcherAnchor: Element | null = null;

  /** A critical error: logged, and sent to the error log as critical (guides §8 Launcher). */
  function critical(message: string): void {
    log('error', message);
    void bridge.call((w) => w.reportError({ message, critical: true }));
  }

  /**
   * Takes the launcher of a guide load: a config that cannot initialize is a critical error (guides §8); the
   * first launcher of the page opens by itself while an onboarding tutorial is under way, unless closed lately.
   */
  function setLauncher(result: GuideLoadResult): void {
    if (result.launcherError) critical(`${MESSAGES.launcherInitFailed}: ${result.launcherError}`);
    // guides §6: only the leader frame shows the launcher, unless its config allows frames (device.iframe): kept
    // in every frame, drawn where launcherHere() says, so a change of leader moves it.
    launcher = result.launcher ?? null;
    if (launcher && !launcherDecided) {
      launcherDecided = true;
      // Opened by the loop once no step is showing or about to show: a tutorial's panel never lands on
      // top of a welcome lightbox.
      launcherAutoOpen = shouldAutoOpenLauncher(launcher, readStorage(launcher.closedFlagKey), Date.now());
    }
    drawLauncher();
  }

  /** guides §6: the launcher shows in the leader frame, or in any frame when its device.iframe allows. */
  const launcherHere = () => frame.leader || launcher?.iframe === true;

  /** Renders the launcher as it stands (nothing once removed or not here), by its element for launchType element. */
  function drawLauncher(): void {
    const shownLauncher = launcherRemoved || !launcherHere() ? null : launcher;
    // guides §2: the config's script, from an allowed origin, once (loadScript), unless preventCodeInjection.
    if (shownLauncher?.scriptUrl) loadScript({ url: shownLauncher.scriptUrl });
    launcherAnchor = shownLauncher?.elementPathRule ? queryOrNull(shownLauncher.elementPathRule) : null;
    if (!shownLauncher && !overlay) return;
    void getOverlay().then((v) => v.showLauncher(shownLauncher, launcherOpen, launcherAnchor, launcherHandlers));
  }

  /** Asks the worker for the launcher as the guides stand now, and redraws it. */
  async function refreshLauncher(): Promise<void> {
    const fresh = await bridge.call((w) => w.launcherView());
    if (fresh && launcher) {
      launcher = fresh;
      drawLauncher();
    }
  }

  /** Opens or closes the panel; closing stores the launcher-closed flag for 8 hours, opening clears it. */
  function setLauncherOpen(open: boolean): void {
    if (!launcher || launcherRemoved) {
      log('warn', 'there is no launcher on this page');
      return;
    }
    launcherAutoOpen = false; // the visitor or the host decided
    if (open === launcherOpen) return;
    launcherOpen = open;
    try {
      if (open) localStorage.removeItem(launcher.closedFlagKey);
      else localStorage.setItem(launcher.closedFlagKey, launcherClosedRecord(Date.now()));
    } catch {
      // Storage refused (private mode, quota): the panel still closes, only for this page.
    }
    drawLauncher();
  }

  const launcherHandlers: LauncherHandlers = {
    onToggle: setLauncherOpen,
    onOpenGuide(guideId) {
      // The panel steps aside for the guide; that is not the visitor closing it (no closed flag).
      launcherOpen = false;
      drawLauncher();
      void showGuide(guideId, undefined, 'launcher');
    },
    async onWhatsNewSeen(guideId, stepId) {
      // guides §2 a what's-new item active for the seen delay is seen: a guideSeen (reason launcher), and the
      // unseen count goes down.
      const result = await bridge.call((w) => w.stepAction({ guideId, stepId, action: 'seen', reason: 'launcher', url: location.href }));
      if (!result.ok) log('warn', result.error.message);
      await refreshLauncher();
    },
    onBadgeImageError() {
      log('warn', `launcher badge image did not load: ${launcher?.badgeImageUrl ?? ''}`);
      critical(MESSAGES.launcherBadgeImageFailed);
    },
    onError(error) {
      launcher = null;
      critical(`${MESSAGES.launcherInitFailed}: ${(error as Error)?.message ?? String(error)}`);
    },
  };

  /**
   * guides §2 Resource center of the last load (drawn in the leader frame only, guides §6), and what the
   * visitor did with it: open, the active module, a provider's widget open in its place.
   */
  let resourceCenter: ResourceCenterToShow | null = null;
  const rcState: ResourceCenterState = { open: false, activeModule: null, nativeOpen: false };

  function setResourceCenter(rc: ResourceCenterToShow | undefined): void {
    const next = rc ?? null;
    // Another page's resource center (or none) starts closed.
    if (next?.guideId !== resourceCenter?.guideId) Object.assign(rcState, { open: false, activeModule: null, nativeOpen: false });
    resourceCenter = next;
    drawResourceCenter();
  }

  function drawResourceCenter(): void {
    const here = frame.leader ? resourceCenter : null;
    if (!here && !overlay) return;
    void getOverlay().then((v) => v.showResourceCenter(here, { ...rcState }, rcHandlers));
  }

  async function refreshResourceCenter(): Promise<void> {
    const fresh = await bridge.call((w) => w.resourceCenterView());
    if (resourceCenter) {
      resourceCenter = fresh;
      drawResourceCenter();
    }
  }

  const rcHandlers: ResourceCenterHandlers = {
    onToggle(open) {
      // guides §2: closing clears the active module.
      rcState.open = open;
      rcState.activeModule = null;
      drawResourceCenter();
    },
    onOpenModule(moduleId) {
      rcState.activeModule = moduleId;
      drawResourceCenter();
    },
    onOpenGuide(guideId) {
      rcHandlers.onToggle(false);
      void showGuide(guideId, undefined, 'resourceCenter');
    },
    async onAnnouncementSeen(guideId, stepId) {
      // guides §2: an announcement in view is seen: an advanced event, and the unseen count goes down.
      const result = await bridge.call((w) => w.stepAction({ guideId, stepId, action: 'advance', url: location.href }));
      if (!result.ok) log('warn', result.error.message);
      await refreshResourceCenter();
      // The launcher counts the same what's-new steps.
      if (launcher) void refreshLauncher();
    },
    onIntegration(what, error) {
      // guides §2 a native integration hides the badge while its widget is open; §8 its API failing closes us.
      if (what === 'failed') log('warn', `resource center integration failed: ${(error as Error)?.message ?? String(error)}`);
      rcState.nativeOpen = what === 'opened';
      if (what !== 'closed') rcHandlers.onToggle(false);
      else drawResourceCenter();
    },
    onError(error) {
      resourceCenter = null;
      log('error', `resource center: ${(error as Error)?.message ?? String(error)}`);
    },
  };

  function tick(): void {
    if (timer !== null) clearTimeout(timer);
    if (notInSubscription || stopped) return;
    timer = setTimeout(tick, GUIDE_LOOP_IDLE_MS);
    // guides §4 Guide loop: skipped while loading, disabled or delayed, and while the tab is in the background
    // (a step shown there would count as seen by nobody).
    if (loading || paused || document.visibilityState === 'hidden') return;
    if (location.href === loadedUrl) {
      placeBadges();
      // launchType element: the element may come and go with the page.
      if (launcher?.elementPathRule && !launcherRemoved && queryOrNull(launcher.elementPathRule) !== launcherAnchor) drawLauncher();
    }
    // guides §9: a guide list is stale after an hour on the same page; ask again.
    if (loadedUrl && location.href === loadedUrl && Date.now() - loadedAt > GUIDE_REQUEST_STALE_MS && !shown) {
      void load(location.href).then(tick);
      return;
    }
    if (location.href !== loadedUrl) {
      // An SPA page change: eligibility depends on the URL, so ask again (guides §4 page rules).
      if (shown && shown.step.reason !== 'api') {
        const step = shown.step;
        setShown(null);
        void getOverlay().then((v) => v.hide());
        candidates = candidates.filter((c) => c !== step);
      }
      void load(location.href).then(tick);
      return;
    }
    // guides §4 Auto display: a guide shown here, or in another frame of the tab, blocks auto display; frame
    // visibility phase: a frame that cannot be seen shows nothing (one whose parent has not said yet waits a while).
    if (shown || frame.othersShowing || !mayShowGuidesInFrame(frame, Date.now() - startedAt)) return;
    // guides §4 Guide loop: the auto-display phase gets 50 ms; what is left waits for a busy tick 50 ms
    // later, so a page with many candidates and a slow DOM never sees one long task from us.
    const started = performance.now();
    const list = candidates.slice(resumeAt).concat(candidates.slice(0, resumeAt));
    for (let i = 0; i < list.length; i++) {
      const step = list[i]!;
      if (i > 0 && performance.now() - started > GUIDE_LOOP_BUSY_MS) {
        resumeAt = (resumeAt + i) % candidates.length;
        clearTimeout(timer!);
        timer = setTimeout(tick, GUIDE_LOOP_BUSY_MS);
        return;
      }
      if (suppressed.has(keyOf(step))) continue;
      const target = targetOf(step);
      if (target === false) {
        if (seenTimeoutMs !== undefined && seenTimeoutMs > 0) {
          const since = waitingSince.get(keyOf(step)) ?? Date.now();
          waitingSince.set(keyOf(step), since);
          if (Date.now() - since >= seenTimeoutMs) {
            suppressed.add(keyOf(step));
            void act('timeout', step, { timeoutReason: 'element', timeoutMs: seenTimeoutMs });
            continue;
          }
        }
        if (!noTargetLogged.has(keyOf(step)) && !noTargetLogged.has(`${keyOf(step)}#rules`)) {
          noTargetLogged.add(keyOf(step));
          log('info', `${MESSAGES.noElementForStep} ${step.stepId} of guide ${step.guideId}`);
        }
        continue;
      }
      resumeAt = 0;
      void show(step, target);
      return;
    }
    resumeAt = 0;
    if (launcherAutoOpen && launcher && !launcherRemoved) {
      launcherAutoOpen = false;
      launcherOpen = true;
      drawLauncher();
    }
  }

  /** Shows a loaded guide by id (API, permalink, activation), whatever its auto rules say. */
  async function showGuide(guideId: string, stepId: string | undefined, reason: SeenReason, quiet = false): Promise<boolean> {
    const result = await bridge.call((w) => w.stepForGuide(guideId, stepId, reason));
    if (!result.ok) {
      log('warn', result.error.message);
      return false;
    }
    const target = targetOf(result.value);
    if (target === false) {
      if (!quiet) log('info', `${MESSAGES.noElementForStep} ${result.value.stepId} of guide ${guideId}`);
      return false;
    }
    if (shown) void getOverlay().then((v) => v.hide());
    return show(result.value, target);
  }

  tick();

  const api: GuideDisplay = {
    showGuideById: (guideId, stepId) => showGuide(guideId, stepId, 'api'),
    async showGuideByName(name) {
      const id = await bridge.call((w) => w.guideIdByName(name));
      if (!id) {
        log('warn', `no loaded guide is named ${name}`);
        return false;
      }
      return api.showGuideById(id);
    },
    hideGuides() {
      if (!shown) return;
      const step = shown.step;
      suppressed.add(keyOf(step));
      runHooks('beforeUnmount', step);
      setShown(null);
      void getOverlay().then((v) => v.hide());
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
    getActiveGuide: () => (shown ? describe(shown.step) : null),
    getActiveGuides() {
      const list = candidates.filter((c) => !suppressed.has(keyOf(c)) && c !== shown?.step).map(describe);
      return shown ? [describe(shown.step), ...list] : list;
    },
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    addHook(name, hook) {
      const set = hooks.get(name) ?? new Set();
      hooks.set(name, set);
      set.add(hook);
      return () => void set.delete(hook);
    },
    resourceCenter(command) {
      if (!resourceCenter) return log('warn', 'there is no resource center on this page');
      rcHandlers.onToggle(command === 'toggle' ? !rcState.open : command === 'open');
    },
    launcher(command) {
      if (command === 'remove') {
        launcherRemoved = true;
        launcherOpen = false;
        drawLauncher();
      } else {
        setLauncherOpen(command === 'toggle' ? !launcherOpen : command === 'show');
      }
    },
    start() {
      paused = false;
      tick();
    },
    pause() {
      paused = true;
      api.hideGuides();
    },
    async reload() {
      await load(location.href);
      tick();
    },
    supported: () => !notInSubscription,
    frameChanged() {
      if (stopped) return;
      drawLauncher();
      drawResourceCenter();
      tick();
    },
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      watchActivations([]);
      if (overlay) void overlay.then((v) => v.destroy());
    },
  };
  return api;
}

/** A clicked element of a guide with the actions it ran, for guideActivity. */
type UiElementAction = UiElement & { actions: string[] };

/** A local storage item, or null when storage is refused. */
function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

