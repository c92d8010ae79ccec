/**
 * The guide part of the public API (guides §4, §5; guides §2 launcher and resource center commands): every
 * call waits for the agent to run and the guides chunk (waymark.guides.js) to load, then runs there. With
 * guides off a call answers its fallback; with a subscription that lacks guides, the spec's message
 * ('This functionality is not supported by your subscription.').
 */
import { MESSAGES } from '../shared/messages';
import { guidesOff, type WaymarkApi } from './agentOptions';
import type { Running } from './agentState';
import type { GuideDisplay, GuideNotice, GuideNoticeName } from './createGuideDisplay';
import { GUIDE_COMMANDS } from './guides/guideDisplayTypes';
import type { LogLevel } from '../shared/protocol';

/** What the guide API needs of the agent. */
export interface GuideApiHost {
  log(level: LogLevel, message: string): void;
  /** Runs an API body so that nothing it throws reaches the host page. */
  guard(fn: () => void): void;
  /** Runs `fn` once the agent runs (at once when it does); answers `fallback` until then. */
  whenRunning<T>(fn: (r: Running) => T, fallback: T): T;
  running(): Running | null;
}

/** The guide calls of WaymarkApi. */
export type GuideApi = Pick<
  WaymarkApi,
  | 'showGuideById' | 'hideGuides' | 'showGuideByName' | 'goToStep' | 'getActiveGuide' | 'getActiveGuides'
  | 'onGuideAdvanced' | 'onGuidePrevious' | 'onGuideDismissed' | 'onGuideSnoozed' | 'addGuideHook'
  | 'toggleLauncher' | 'showLauncher' | 'hideLauncher' | 'removeLauncher'
  | 'openResourceCenter' | 'closeResourceCenter' | 'toggleResourceCenter'
  | 'startGuides' | 'stopGuides' | 'loadGuides' | 'setGuidesDisabled' | 'areGuidesDisabled'
  | 'addCustomAction' | 'addGlobalScript'
>;

export function createGuideApi({ log, guard, whenRunning, running }: GuideApiHost): GuideApi {
  /** guides §5 setGuidesDisabled: the loop is paused and nothing new shows. */
  let guidesDisabled = false;

  /** Runs `fn` on the guide display once the agent runs; `fallback` when guides are off. */
  function withGuides<T>(fn: (g: GuideDisplay) => Promise<T>, fallback: T): Promise<T> {
    return new Promise((resolve) => {
      whenRunning((r) => {
        void r.guidesReady.then((g) => {
          if (!g || !g.supported()) {
            log('warn', g ? MESSAGES.notInSubscription : 'guides are disabled');
            resolve(fallback);
            return;
          }
          fn(g).then(resolve, () => resolve(fallback));
        });
      }, undefined);
    });
  }

  /** Runs `fn` on the guide display once it is here (nothing when guides are off). */
  function onGuides(fn: (g: GuideDisplay) => void): void {
    whenRunning((r) => void r.guidesReady.then((g) => g && fn(g)), undefined);
  }

  /** A guide function on the display; with a subscription that lacks guides, the spec's message instead (guides §5). */
  function guideFunction(fn: (g: GuideDisplay) => void): void {
    onGuides((g) => (g.supported() ? fn(g) : log('warn', MESSAGES.notInSubscription)));
  }

  /**
   * Attaches a host function on the guide display once it is here (onGuideXxx, addGuideHook); answers the
   * function that detaches it, also before it was attached.
   */
  function attach(add: (g: GuideDisplay) => () => void): () => void {
    let remove = () => undefined as void;
    let removed = false;
    onGuides((g) => {
      if (!removed) remove = add(g);
    });
    return () => {
      removed = true;
      remove();
    };
  }

  const api = {
    showGuideById(guideId, stepId) {
      return withGuides((g) => g.showGuideById(String(guideId), stepId), false);
    },

    showGuideByName(name) {
      return withGuides((g) => g.showGuideByName(String(name)), false);
    },
    goToStep(stepId) {
      return withGuides((g) => g.goToStep(String(stepId)), false);
    },
    getActiveGuide: () => running()?.guides?.getActiveGuide() ?? null,
    getActiveGuides: () => running()?.guides?.getActiveGuides() ?? [],
    addGuideHook: (name, hook) => attach((g) => g.addHook(name, hook)),
    startGuides() {
      guidesDisabled = false;
      guideFunction((g) => g.start());
    },
    loadGuides() {
      return withGuides(async (g) => void (await g.reload()), undefined);
    },
    setGuidesDisabled(disabled) {
      guidesDisabled = disabled === true;
      guideFunction((g) => (guidesDisabled ? g.pause() : g.start()));
    },
    areGuidesDisabled() {
      const r = running();
      return guidesDisabled || (!!r && guidesOff(r.options));
    },
  } as GuideApi;
  // Built from their names (the shim's bytes are its budget): onGuideAdvanced, onGuidePrevious, onGuideDismissed,
  // onGuideSnoozed subscribe; the commands run in the guides chunk once it is here (GuideDisplay.command), which
  // also checks the host functions of addCustomAction and addGlobalScript (guides §5).
  const named = api as unknown as Record<string, unknown>;
  for (const notice of ['advanced', 'previous', 'dismissed', 'snoozed'] as GuideNoticeName[]) {
    named[`onGuide${notice[0]!.toUpperCase()}${notice.slice(1)}`] = (listener: (n: GuideNotice) => void) => attach((g) => g.on(notice, listener));
  }
  for (const name of GUIDE_COMMANDS) named[name] = (...args: unknown[]) => guard(() => guideFunction((g) => g.command(name, args)));
  return api;
}
