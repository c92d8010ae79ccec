/**
 * The main-thread half of the guide path (guides §2, §4), the entry of the lazy chunk waymark.guides.js. The
 * worker decides which steps may show; the page supplies the DOM facts, draws through the overlay (loaded the
 * first time something shows), and reports what the visitor does. This file wires the parts of shim/guides/:
 * the step flow (createStepFlow), the loop (createGuideLoop), the launcher and resource center views, host
 * hooks and subscriptions, and answers the host's guide API.
 */
import { watchDebuggerLaunch } from './guides/watchDebuggerLaunch';
import { MESSAGES } from '../shared/messages';
import type { SeenReason } from '../shared/protocol';
import type { Overlay, OverlayModule } from '../overlay/api';
import type * as FormsModule from './forms/index';
import type { FormValidation } from './forms/index';
import type * as RecordModule from './recording/index';
import { importChunk } from './importChunk';
import { readJson, writeJson } from './pageStorage';
import { createTargetCache } from './queryDeep';
import { createGuideHooks } from './guides/createGuideHooks';
import { createGuideLoop } from './guides/createGuideLoop';
import { createLauncherView } from './guides/createLauncherView';
import { createResourceCenterView } from './guides/createResourceCenterView';
import { createScriptLoader } from './guides/createScriptLoader';
import { createStepFlow, keyOf } from './guides/createStepFlow';
import type { DisplayContext } from './guides/displayContext';
import { watchAuthoring } from './guides/watchAuthoring';
import type { GuideDisplay, GuideDisplayOptions } from './guides/guideDisplayTypes';

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

export function createGuideDisplay(options: GuideDisplayOptions): GuideDisplay {
  const { bridge, log, running } = options;
  const onShown = options.onShown ?? ((step: { guideId: string; stepId: string } | null) => running?.frames?.shown(step));
  const frame = options.frame ?? running?.frame ?? { isTop: window.top === window, leader: window.top === window, visibility: 'visible', othersShowing: false };
  let overlay: Promise<Overlay> | null = null;
  let forms: Promise<FormValidation | null> | null = null;
  // issue #18: the worker says whether this session records (recording.json, sampling); only then is the recorder
  // fetched. The top frame records its same-origin iframes, so a child frame's agent records nothing itself.
  const recorder =
    running && frame.isTop
      ? bridge.call((w) => w.recordingDecision()).then(
          (on) => (on && !stopped ? importChunk<typeof RecordModule>(options.asset('record')).then((m) => (stopped ? null : m.startRecording(bridge, log))) : null),
          (err: unknown) => (log('error', `session recording did not start: ${String(err)}`), null),
        )
      : null;
  const hadGuidesKey = `_wm_overlay.${running?.options.apiKey ?? ''}`;
  /** teardown (issue #7): nothing is drawn again. */
  let stopped = false;
  const ctx: DisplayContext = {
    bridge,
    log,
    overlay: () => (overlay ??= importChunk<OverlayModule>(options.asset('overlay')).then((m) => m.createOverlay(document, { log }))),
    hasOverlay: () => overlay !== null,
    // Made ready, not only fetched: its shadow root and parsed stylesheet too, so the first step costs its render alone.
    prefetchOverlay: () => void ctx.overlay().catch(() => (overlay = null)),
    // Without storage the flag is never set, and the overlay loads when a guide comes.
    hadGuides: { read: () => readJson(hadGuidesKey) === true, write: (had) => writeJson(hadGuidesKey, had) },
    // The first element matching an author's selector, or null (also for one that does not parse); a target
    // found before is checked, not searched for again (shim/queryDeep.ts).
    query: createTargetCache(),
    frame,
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
  const launcher = createLauncherView(ctx);
  const resourceCenter = createResourceCenterView(ctx, () => launcher.has() && void launcher.refresh());
  const flow = createStepFlow(ctx, hooks, {
    onShown,
    onMoved() {
      // guides §2: the visitor's step moves the launcher's onboarding progress and completion marks on.
      if (launcher.has()) void launcher.refresh();
      if (resourceCenter.has()) void resourceCenter.refresh();
    },
    tick: () => loop.tick(),
  });
  const loop = createGuideLoop({ ctx, flow, launcher, resourceCenter }, options);

  /** Shows a loaded guide by id (API, permalink, activation), whatever its auto rules say. */
  async function showGuide(guideId: string, stepId: string | undefined, reason: SeenReason, quiet = false): Promise<boolean> {
    const result = await bridge.call((w) => w.stepForGuide(guideId, stepId, reason));
    if (!result.ok) {
      log('warn', result.error.message);
      return false;
    }
    const target = flow.targetOf(result.value);
    if (target === false) {
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
            loop.setPaused(held);
            // Let go, the page's own guides are asked again (a preview replaced them in the worker).
            if (held) flow.hideGuides();
            else void api.reload();
          },
          showGuide: (guideId, stepId) => showGuide(guideId, stepId, 'api'),
          hideGuides: flow.hideGuides,
          activeStep() {
            const step = flow.shown()?.step;
            return step ? { guideId: step.guideId, stepId: step.stepId } : null;
          },
        }),
      })
    : null;
  const stopDebuggerLaunch = running ? watchDebuggerLaunch(running) : null;

  loop.tick();

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
    resourceCenter: resourceCenter.command,
    launcher: launcher.command,
    start() {
      loop.setPaused(false);
      loop.tick();
    },
    pause() {
      loop.setPaused(true);
      api.hideGuides();
    },
    async reload() {
      await loop.load(location.href);
      loop.tick();
    },
    supported: loop.supported,
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
      void recorder?.then((stop) => stop?.());
    },
  };
  return api;
}
