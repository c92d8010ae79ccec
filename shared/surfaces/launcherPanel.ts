/**
 * The launcher's (guide center, guides §2) decisions made on the page, as pure functions: the panel's size,
 * what the search box keeps, and the launcher-closed flag (stored for 8 hours, per api key and visitor).
 */
import { LAUNCHER_CLOSED_MS, LAUNCHER_DEFAULTS, WHATSNEW_SEEN_DELAY_MS } from '../constants';
import type { LauncherEntry, LauncherToShow } from '../protocol';

/**
 * spec: guides §2 Launcher — "Default size width 330 by height 310. Height adds 39 ... for search and 40 for
 * the credit line." The configured width and height replace the defaults; the additions still apply.
 */
export function launcherPanelSize(launcher: Pick<LauncherToShow, 'width' | 'height' | 'enableSearch' | 'hideCredits'>): { width: number; height: number } {
  return {
    width: launcher.width,
    height: launcher.height + (launcher.enableSearch ? LAUNCHER_DEFAULTS.searchHeight : 0) + (launcher.hideCredits ? 0 : LAUNCHER_DEFAULTS.creditHeight),
  };
}

/** The listed guides whose name contains the search text (case-insensitive, trimmed); all of them for no text. */
export function filterLauncherGuides(guides: readonly LauncherEntry[], search: string): LauncherEntry[] {
  const text = search.trim().toLowerCase();
  return text ? guides.filter((g) => g.name.toLowerCase().includes(text)) : guides.slice();
}

/** The local storage key of the launcher-closed flag (analytics §9 storage keys), per api key and visitor. */
export function launcherClosedKey(apiKey: string, visitorId: string): string {
  return `_wm_launcher-closed.${apiKey}.${visitorId}`;
}

/** What closing the launcher at `now` stores: the flag with its end, 8 hours on (guides §2). */
export function launcherClosedRecord(now: number): string {
  return JSON.stringify({ closed: true, until: now + LAUNCHER_CLOSED_MS });
}

/** Whether a stored launcher-closed flag still holds at `now` (absent, unreadable or ended: false). */
export function isLauncherClosed(stored: string | null, now: number): boolean {
  if (!stored) return false;
  try {
    const flag = JSON.parse(stored) as { closed?: unknown; until?: unknown };
    return flag.closed === true && typeof flag.until === 'number' && now < flag.until;
  } catch {
    return false;
  }
}

/**
 * Whether the panel opens by itself when the page loads. Only when the app's launcher settings say so
 * (`autoOpen`, off unless set: a panel nobody asked for covers part of the host's page, issue #36), and then not
 * when the visitor closed it within the last 8 hours, nor for an onboarding tutorial already done.
 */
export function shouldAutoOpenLauncher(launcher: Pick<LauncherToShow, 'autoOpen' | 'onboarding'>, stored: string | null, now: number): boolean {
  const tutorialDone = launcher.onboarding !== undefined && !needsStopTutorialConfirm(launcher);
  return launcher.autoOpen === true && !tutorialDone && !isLauncherClosed(stored, now);
}

/** guides §2 onboarding close: closing asks 'Are you sure you want to stop this tutorial?' while one is under way. */
export function needsStopTutorialConfirm(launcher: Pick<LauncherToShow, 'onboarding'>): boolean {
  return launcher.onboarding !== undefined && launcher.onboarding.percent < 100;
}

/** One what's-new item of the launcher's feed (guides §2): a whatsnew step of a listed guide. */
export interface WhatsNewItem {
  guideId: string;
  stepId: string;
  /** The guide's name, the item's heading. */
  name: string;
  /** Already shown (seenState other than none): drawn as seen, never counted as unseen. */
  seen: boolean;
}

/**
 * guides §2 "What's-new item: rendered inside the launcher": the whatsnew steps of the guides the launcher
 * lists, in listing order. Their content is resolved by the worker like any step's; this is the list only.
 */
export function whatsNewItems(guides: ReadonlyArray<{ id: string; name?: string; steps: ReadonlyArray<{ id: string; type: string; seenState?: string }> }>): WhatsNewItem[] {
  return guides.flatMap((g) =>
    g.steps
      .filter((s) => s.type === 'whatsnew')
      .map((s) => ({ guideId: g.id, stepId: s.id, name: g.name ?? g.id, seen: !!s.seenState && s.seenState !== 'none' })),
  );
}

/**
 * guides §2, §9 What's-new seen delay: an item active (top third in view, see isAnnouncementInView) since
 * `activeSince` is seen once WHATSNEW_SEEN_DELAY_MS have passed; null activeSince (not in view) is never due.
 */
export function isWhatsNewSeenDue(activeSince: number | null, now: number): boolean {
  return activeSince !== null && now - activeSince >= WHATSNEW_SEEN_DELAY_MS;
}
