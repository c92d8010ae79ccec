/**
 * The main-thread half of the guide path (guides §2, §4), the entry of the lazy chunk waymark.guides.js (which also
 * starts form validation and session recording). The
 * worker decides which steps may show; the page supplies the DOM facts, draws through the overlay (loaded the
 * first time something shows), and reports what the visitor does. This file wires the parts of shim/guides/:
 * the step flow (createStepFlow), the loop (createGuideLoop), the launcher and resource center views, host
 * hooks and subscriptions, and answers the host's guide API.
 */
import { watchDebuggerLaunch } from './guides/watchDebuggerLaunch';
import { MESSAGES } from '../shared/messages';
import type { SeenReason, StepAction, StepToShow } from '../shared/protocol';
import type { Overlay, OverlayModule } from '../overlay/api';
import type * as FormsModule from './forms/index';
import type { FormValidation } from './forms/index';
import { guidesOff } from './agentOptions';
import { importChunk } from './importChunk';
import { hadGuidesKey, readJson, writeJson } from './pageStorage';
import { createTargetCache } from './queryDeep';
import { createGuideHooks } from './guides/createGuideHooks';
import { createHostExtensions } from './guides/createHostExtensions';
import { startRecordingWhenDecided } from './guides/startRecordingWhenDecided';
import { createGuideLoop } from './guides/createGuideLoop';
import { createLauncherView } from './guides/createLauncherView';
import { createResourceCenterView } from './guides/createResourceCenterView';
import { createScriptLoader } from './guides/createScriptLoader';
import { createStepFlow, keyOf } from './guides/createStepFlow';
import { isTransition } from './guides/runBlockActions';
import type { DisplayContext } from './guides/displayContext';
import { watchAuthoring } from './guides/watchAuthoring';
import type { GuideDisplay, GuideDisplayOptions, LauncherCommand, ResourceCenterCommand } from './guides/guideDisplayTypes';

export type {
  ActiveGuide,
  GuideDisplay,
  GuideDisplayModule,
  GuideDisplayOptions,
  GuideHook,
  GuideNotice,
  GuideNoticeName,
  LauncherCommand,
  ResourceCenterCommand,
} from './guides/guideDisplayTypes';

export function createGuideDisplay(options: GuideDisplayOptions): GuideDisplay | null {
  const { bridge, log, running } = options;
  const onShown = options.onShown ?? ((step: { guideId: string; stepId: string } | null) => running?.frames?.shown(step));
  const frame = options.frame ?? running?.frame ?? { isTop: window.top === window, leader: window.top === window, visibility: 'visible', othersShowing: false };
  // Session recording (issue #18) whether guides are on or not: with them off (disableGuides, guides.disabled)
  // this chunk starts only the recording and answers null, so the guide API says guides are disabled.
  const stopRecording = running && frame.isTop ? startRecordingWhenDecided(bridge, options.asset('record'), log) : null;
  if (running && guidesOff(running.options)) {
    if (stopRecording) running.uninstall.push(stopRecording);
    return null;
  }
  let overlay: Promise<Overlay> | null = null;
  let forms: Promise<FormValidation | null> | null = null;
  const hadGuides = hadGuidesKey(running?.options.apiKey ?? '');
  /** teardown (issue #7): nothing is drawn again. */
  let stopped = false;
  const ctx: DisplayContext = {
    bridge,
    log,
    // Issue #34: the steps chunk draws the steps the worker painted; React's overlay loads only for what they are not.
    overlay: () =>
      (overlay ??= importChunk<OverlayModule>(options.asset('steps')).then((m) =>
        m.createOverlay(document, { log, loadReact: () => importChunk<OverlayModule>(options.asset('overlay')) }),
      )),
    hasOverlay: () => overlay !== null,
    // Made ready, not only fetched: its shadow root and parsed stylesheet too, so the first step costs its render alone.
    prefetchOverlay: () => void ctx.overlay().catch(() => (overlay = null)),
    // Without storage the flag is never set, and the overlay loads when a guide comes.
    hadGuides: { read: () => readJson(hadGuides) === true, write: (had) => writeJson(hadGuides, had) },
    // The first element matching an author's selector, or null (also for one that does not parse); a target
    // found before is checked, not searched for again (shim/queryDeep.ts).
    query: createTargetCache(),
    frame,
    frames: () => running?.frames,
    loadScript: createScriptLoader(options.preventCodeInjection, options.trustedScriptUrl ?? ((url) => url), log),
    showGuide,
    formFields(fields) {
      if (!forms && !(Array.isArray(fields) && fields.length)) return;
      const url = options.asset('forms');
      forms ??= importChunk<typeof FormsModule>(url).then(
        (m) => m.startFormValidation(log),
        (err: unknown) => (log('error', `the forms module did not load (${url}): ${String(err)}`), null),
      );
      void forms.then((f) => !stopped && f?.set(fields));
    },
    critical(message) {
      log('error', message);
      void bridge.call((w) => w.reportError({ message, critical: true }));
    },
  };
  const hooks = createGuideHooks(log);
  const extensions = createHostExtensions(hooks, log);
  const launcher = createLauncherView(ctx);
  const resourceCenter = createResourceCenterView(ctx, () => launcher.has() && void launcher.refresh());
  const flow = createStepFlow(ctx, hooks, {
    onShown,
    // A step the leader gave moves on there: the leader tells the frames.
    onMoving: (step) => !step.viaFrame && tellFrames(step),
    onMoved: moved,
    tick: () => loop.tick(),
    extensions,
  });
  const loop = createGuideLoop({ ctx, flow, launcher, resourceCenter }, options);
  hooks.on('snoozed', () => launcher.stayClosed());

  function moved(): void {
    // guides §4 Throttling: the next auto guide of the page waits for the next display time this move may have set.
    loop.throttle();
    // guides §2: the visitor's step moves the launcher's onboarding progress and completion marks on.
    if (launcher.has()) void launcher.refresh();
    if (resourceCenter.has()) void resourceCenter.refresh();
  }

  /** A guide moved on here: the other frames drop its steps now, and take the throttling timestamps after it. */
  function tellFrames(step: { guideId: string; stepId: string }): void {
    const frames = ctx.frames();
    if (!frames) return;
    frames.moved(step.guideId, step.stepId);
    void bridge.call((w) => w.throttling()).then((t) => frames.throttled(t.timestamps));
  }

  /**
   * Why the loop is paused: 'api' (stopGuides, delayGuides), 'author' (a preview or the designer here), and from
   * the leader frame 'options' (its stopGuides) and 'preview'. A hold hides what shows (not for good: the loop may
   * show it again); the last one let go runs the loop.
   */
  const holds = new Set<string>(options.delayed ? ['api'] : []);
  const ownHold = () => holds.has('api') || holds.has('author');
  function hold(reason: string, held: boolean): void {
    if (held === holds.has(reason)) return;
    if (held) holds.add(reason);
    else holds.delete(reason);
    loop.setPaused(holds.size > 0);
    if (held) flow.hideGuides(false);
    else loop.tick();
  }

  /** guides §4 hideGuides: this frame's guide goes, and every other frame's (receiveHideGuides). */
  function hideInEveryFrame(): void {
    flow.hideGuides();
    ctx.frames()?.hideGuides();
  }

  /** Shows a loaded guide by id (API, permalink, activation), whatever its auto rules say. */
  async function showGuide(guideId: string, stepId: string | undefined, reason: SeenReason, quiet = false): Promise<boolean> {
    const result = await bridge.call((w) => w.stepForGuide(guideId, stepId, reason));
    if (!result.ok) {
      log('warn', result.error.message);
      return false;
    }
    const target = flow.targetOf(result.value);
    if (target === false) {
      // Its element may be in a frame of this page: the leader gives it to the frame that has it.
      if (await ctx.frames()?.showElsewhere(result.value)) return true;
      if (!quiet) log('info', `${MESSAGES.noElementForStep} ${result.value.stepId} of guide ${guideId}`);
      return false;
    }
    if (flow.shown()) void ctx.overlay().then((v) => v.hide());
    return flow.show(result.value, target);
  }

  // guides §2 Designer, §3 Preview: the authoring chunk loads only for an author.
  const init = running?.options;
  const authoring = init
    ? watchAuthoring({
        apiKey: init.apiKey,
        serverUrl: running.init.contentHost,
        disableDesigner: init.disableDesigner === true,
        disableShortcut: init.disableDesignerKeyboardShortcut === true,
        isTop: () => frame.isTop || frame.leader,
        authorUrl: options.asset('author'),
        log,
        host: () => ({
          bridge,
          overlay: ctx.overlay,
          query: ctx.query,
          holdGuides(held) {
            hold('author', held);
            // The frames hold theirs too (receiveStartPreview).
            ctx.frames()?.preview(held);
            // Let go, the page's own guides are asked again (a preview replaced them in the worker).
            if (!held) void api.reload();
          },
          designing(open) {
            if (running) running.designing = open;
          },
          showGuide: (guideId, stepId) => showGuide(guideId, stepId, 'api'),
          hideGuides: hideInEveryFrame,
          activeStep() {
            const step = flow.shown()?.step;
            return step ? { guideId: step.guideId, stepId: step.stepId } : (ctx.frames()?.shownElsewhere() ?? null);
          },
        }),
      })
    : null;
  const stopDebuggerLaunch = running ? watchDebuggerLaunch(running) : null;

  loop.tick();

  /**
   * Leader: what a follower's visitor did on a step this frame gave it. A next step whose element is here (or that
   * needs none) shows here at once and the follower hears none; otherwise the follower hears it (it shows it when
   * its element is there) and it waits in the candidates for the frame that has it.
   */
  async function actForFrame(action: StepAction): Promise<Awaited<ReturnType<GuideDisplay['framed']['act']>>> {
    const result = await bridge.call((w) => w.stepAction({ ...action, url: location.href }));
    if (!result.ok || !isTransition(action.action)) return result;
    flow.suppressed.add(keyOf(action));
    flow.candidates = flow.candidates.filter((c) => c.guideId !== action.guideId);
    moved();
    tellFrames(action);
    const next: StepToShow | null = result.value;
    if (!next) return result;
    flow.suppressed.delete(keyOf(next));
    const target = flow.targetOf(next);
    if (target !== false) {
      void flow.show(next, target, true);
      return { ok: true, value: null };
    }
    flow.candidates.unshift(next);
    return result;
  }

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
    hideGuides: flow.hideGuides,
    goToStep: flow.goToStep,
    getActiveGuide() {
      const shown = flow.shown();
      return shown ? flow.describe(shown.step) : null;
    },
    getActiveGuides() {
      const shown = flow.shown();
      const list = flow.candidates.filter((c) => !flow.suppressed.has(keyOf(c)) && c !== shown?.step).map(flow.describe);
      return shown ? [flow.describe(shown.step), ...list] : list;
    },
    on: hooks.on,
    addHook: hooks.addHook,
    command(name, args) {
      switch (name) {
        case 'hideGuides':
          return hideInEveryFrame();
        case 'stopGuides':
          return api.pause();
        case 'addCustomAction':
          return void extensions.addCustomAction(args[0], args[1]);
        case 'addGlobalScript':
          return void extensions.addGlobalScript(args[0]);
      }
      // toggle/show/hide/removeLauncher, open/close/toggleResourceCenter.
      const [, verb, surface] = /^(\w+?)(Launcher|ResourceCenter)$/.exec(name)!;
      if (surface === 'Launcher') api.launcher(verb as LauncherCommand);
      else api.resourceCenter(verb as ResourceCenterCommand);
    },
    launchDesigner: () => authoring?.launch({ flow: 'launch', via: 'api' }),
    resourceCenter: resourceCenter.command,
    launcher: launcher.command,
    start() {
      hold('api', false);
      ctx.frames()?.options(false);
    },
    pause() {
      hold('api', true);
      // The leader's stopGuides holds for the whole tab (receiveOptions).
      ctx.frames()?.options(true);
    },
    async reload() {
      await loop.load(location.href);
      loop.tick();
    },
    supported: loop.supported,
    framed: {
      // The leader's holds (its stopGuides, a preview) stop its own asking: only this frame's own ones count here.
      placeable: (steps) =>
        flow.shown() || ownHold() || frame.visibility === 'hidden' ? [] : steps.filter((s) => !flow.suppressed.has(keyOf(s)) && flow.targetOf(s)).map(keyOf),
      async showForLeader(step) {
        const target = flow.shown() || ownHold() ? null : flow.targetOf(step);
        return target ? flow.show(step, target) : false;
      },
      act: actForFrame,
      idle: () => !flow.shown() && !holds.size,
      hasTarget: (step) => Boolean(flow.targetOf(step)),
      drop(guideId, stepId) {
        // Kept off for this page: a later load of this frame (its worker has not heard) may bring the step back.
        flow.suppressed.add(keyOf({ guideId, stepId }));
        flow.candidates = flow.candidates.filter((c) => c.guideId !== guideId);
      },
      throttle(timestamps) {
        // Merged where later; the guide list is asked again so candidates are judged with them (when none shows).
        void bridge.call((w) => w.throttling(timestamps)).then((t) => {
          if (t.changed && !flow.shown() && !stopped) void api.reload();
        });
      },
      hold,
    },
    frameChanged() {
      if (stopped) return;
      launcher.draw();
      resourceCenter.draw();
      loop.tick();
    },
    stop() {
      stopped = true;
      authoring?.stop();
      stopDebuggerLaunch?.();
      loop.stop();
      if (overlay) void overlay.then((v) => v.destroy());
      if (forms) void forms.then((f) => f?.stop());
      stopRecording?.();
    },
  };
  return api;
}
