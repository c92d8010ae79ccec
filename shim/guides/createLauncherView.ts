/**
 * guides §2 Launcher (guide center) on the page: the launcher of the last guide load, whether its panel is open,
 * whether the host removed it; the launcher-closed flag (8 hours) in local storage; opening by itself only when
 * its settings say so (`autoOpen`: at the first tick with no step to show; not on a page where the visitor
 * snoozed a guide: "not now" is not a cue to open a panel); the host's toggle/show/hide/remove;
 * drawn in the leader frame, or any frame its device.iframe allows (guides §6); critical errors (guides §8).
 */
import { MESSAGES } from '../../shared/messages';
import type { GuideLoadResult, LauncherToShow } from '../../shared/protocol';
import { launcherClosedRecord, shouldAutoOpenLauncher } from '../../shared/surfaces/launcherPanel';
import type { LauncherHandlers } from '../../overlay/api';
import type { DisplayContext } from './displayContext';
import type { LauncherCommand } from './guideDisplayTypes';
import { readStored } from '../pageStorage';

export interface LauncherView {
  /** Takes the launcher of a guide load (a config that cannot initialize is a critical error). */
  set(result: GuideLoadResult): void;
  /** Asks the worker for the launcher as the guides stand now (after the visitor's steps), and redraws it. */
  refresh(): Promise<void>;
  draw(): void;
  command(command: LauncherCommand): void;
  /** Guide loop: redraws when the element of a launchType element launcher came or went. */
  follow(): void;
  /** Guide loop, no step to show: opens the panel if it is to open by itself. */
  autoOpen(): void;
  /** The visitor snoozed a guide ("not now"): the panel does not open by itself on this page after all. */
  stayClosed(): void;
  has(): boolean;
}

export function createLauncherView(ctx: DisplayContext): LauncherView {
  const { bridge, log, critical } = ctx;
  let launcher: LauncherToShow | null = null;
  let open = false;
  let removed = false;
  /** Whether the panel opens by itself (autoOpen) is decided once per page. */
  let decided = false;
  /** The panel is to open by itself at the first tick with no step to show. */
  let autoOpen = false;
  let anchor: Element | null = null;

  /** guides §6: the launcher shows in the leader frame, or in any frame when its device.iframe allows. */
  const here = () => ctx.frame.leader || launcher?.iframe === true;

  function draw(): void {
    const shown = removed || !here() ? null : launcher;
    // guides §2: the config's script, from an allowed origin, once, unless preventCodeInjection.
    if (shown?.scriptUrl) ctx.loadScript({ url: shown.scriptUrl });
    anchor = shown?.elementPathRule ? ctx.query(shown.elementPathRule) : null;
    if (!shown && !ctx.hasOverlay()) return;
    void ctx.overlay().then((v) => v.showLauncher(shown, open, anchor, handlers));
  }

  async function refresh(): Promise<void> {
    const fresh = await bridge.call((w) => w.launcherView());
    if (fresh && launcher) {
      launcher = fresh;
      draw();
    }
  }

  /** Opens or closes the panel; closing stores the launcher-closed flag for 8 hours, opening clears it. */
  function setOpen(next: boolean): void {
    if (!launcher || removed) {
      log('warn', 'there is no launcher on this page');
      return;
    }
    autoOpen = false; // the visitor or the host decided
    if (next === open) return;
    open = next;
    try {
      if (next) localStorage.removeItem(launcher.closedFlagKey);
      else localStorage.setItem(launcher.closedFlagKey, launcherClosedRecord(Date.now()));
    } catch {
      // Storage refused (private mode, quota): the panel still closes, only for this page.
    }
    draw();
  }

  const handlers: LauncherHandlers = {
    onToggle: setOpen,
    onOpenGuide(guideId) {
      // The panel steps aside for the guide; that is not the visitor closing it (no closed flag).
      open = false;
      draw();
      void ctx.showGuide(guideId, undefined, 'launcher');
    },
    async onWhatsNewSeen(guideId, stepId) {
      // guides §2 a what's-new item active for the seen delay is seen: a guideSeen (reason launcher), and the
      // unseen count goes down.
      const result = await bridge.call((w) => w.stepAction({ guideId, stepId, action: 'seen', reason: 'launcher', url: location.href }));
      if (!result.ok) log('warn', result.error.message);
      await refresh();
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

  return {
    set(result) {
      if (result.launcherError) critical(`${MESSAGES.launcherInitFailed}: ${result.launcherError}`);
      // guides §6: kept in every frame, drawn where here() says, so a change of leader moves it.
      launcher = result.launcher ?? null;
      if (launcher && !decided) {
        decided = true;
        // Opened by the loop once no step is showing or about to show: a tutorial's panel never lands on
        // top of a welcome lightbox.
        autoOpen = shouldAutoOpenLauncher(launcher, readStored(() => localStorage, launcher.closedFlagKey), Date.now());
      }
      draw();
    },
    refresh,
    draw,
    command(command) {
      if (command === 'remove') {
        removed = true;
        open = false;
        draw();
      } else {
        setOpen(command === 'toggle' ? !open : command === 'show');
      }
    },
    follow() {
      // launchType element: the element may come and go with the page.
      if (launcher?.elementPathRule && !removed && ctx.query(launcher.elementPathRule) !== anchor) draw();
    },
    autoOpen() {
      if (autoOpen && launcher && !removed) {
        autoOpen = false;
        open = true;
        draw();
      }
    },
    stayClosed() {
      autoOpen = false;
    },
    has: () => launcher !== null,
  };
}
