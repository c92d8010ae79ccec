/**
 * guides §2 Resource center on the page (drawn in the leader frame only, guides §6): the resource center of the
 * last guide load and what the visitor did with it (open, the active module, a provider's widget open in its
 * place); announcements seen in view (an advanced event); native integrations; the api launch's commands.
 */
import type { ResourceCenterToShow } from '../../shared/protocol';
import type { ResourceCenterHandlers, ResourceCenterState } from '../../overlay/api';
import type { DisplayContext } from './displayContext';
import type { ResourceCenterCommand } from './guideDisplayTypes';
import { queryDeep } from '../queryDeep';

export interface ResourceCenterView {
  set(rc: ResourceCenterToShow | undefined): void;
  /** Asks the worker for the resource center as the guides stand now, and redraws it. */
  refresh(): Promise<void>;
  draw(): void;
  /** The top-level guide's activation (launch method dom): the visitor's event on `element` toggles the panel there. */
  toggle(element?: Element): void;
  /**
   * The guide loop's resource center phase (guides §4), each tick: a panel whose element the app drew again
   * moves to the new one (or to its corner when there is none).
   */
  follow(): void;
  command(command: ResourceCenterCommand): void;
  has(): boolean;
}

/** `onAnnouncementSeen` also moves the launcher's what's-new count on: `refreshLauncher`. */
export function createResourceCenterView(ctx: DisplayContext, refreshLauncher: () => void): ResourceCenterView {
  const { bridge, log } = ctx;
  let resourceCenter: ResourceCenterToShow | null = null;
  const state: ResourceCenterState = { open: false, activeModule: null, nativeOpen: false, anchor: null };

  function draw(): void {
    const here = ctx.frame.leader ? resourceCenter : null;
    if (!here && !ctx.hasOverlay()) return;
    void ctx.overlay().then((v) => v.showResourceCenter(here, { ...state }, handlers));
  }

  async function refresh(): Promise<void> {
    const fresh = await bridge.call((w) => w.resourceCenterView());
    if (resourceCenter) {
      resourceCenter = fresh;
      draw();
    }
  }

  const handlers: ResourceCenterHandlers = {
    onToggle(open) {
      // guides §2: closing clears the active module.
      state.open = open;
      state.activeModule = null;
      if (!open) state.anchor = null;
      draw();
    },
    onOpenModule(moduleId) {
      state.activeModule = moduleId;
      draw();
    },
    onOpenGuide(guideId) {
      handlers.onToggle(false);
      void ctx.showGuide(guideId, undefined, 'resourceCenter');
    },
    async onAnnouncementSeen(guideId, stepId) {
      // guides §2: an announcement in view is seen: an advanced event, and the unseen count goes down.
      const result = await bridge.call((w) => w.stepAction({ guideId, stepId, action: 'advance', url: location.href }));
      if (!result.ok) log('warn', result.error.message);
      await refresh();
      // The launcher counts the same what's-new steps.
      refreshLauncher();
    },
    onIntegration(what, error) {
      // guides §2 a native integration hides the badge while its widget is open; §8 its API failing closes us.
      if (what === 'failed') log('warn', `resource center integration failed: ${(error as Error)?.message ?? String(error)}`);
      state.nativeOpen = what === 'opened';
      if (what !== 'closed') handlers.onToggle(false);
      else draw();
    },
    onError(error) {
      resourceCenter = null;
      log('error', `resource center: ${(error as Error)?.message ?? String(error)}`);
    },
  };

  return {
    set(rc) {
      const next = rc ?? null;
      // Another page's resource center (or none) starts closed.
      if (next?.guideId !== resourceCenter?.guideId) Object.assign(state, { open: false, activeModule: null, nativeOpen: false, anchor: null });
      resourceCenter = next;
      draw();
    },
    refresh,
    draw,
    toggle(element) {
      state.anchor = element ?? null;
      handlers.onToggle(!state.open);
    },
    follow() {
      if (!state.open || !state.anchor || state.anchor.isConnected) return;
      const selector = resourceCenter?.activation?.selector;
      state.anchor = selector ? queryDeep(selector) : null;
      draw();
    },
    command(command) {
      if (!resourceCenter) return log('warn', 'there is no resource center on this page');
      handlers.onToggle(command === 'toggle' ? !state.open : command === 'open');
    },
    has: () => resourceCenter !== null,
  };
}
