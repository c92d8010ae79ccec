/**
 * The contract of the lazily loaded overlay module (dist/agent/waymark.overlay.js). The shim imports these
 * types only; the module itself is fetched with a dynamic import the first time a guide is shown, so hosts
 * that never see a guide never pay for React.
 */
import type { GuideAction } from '../shared/guides/guides';
import type { OverlayHost } from './createOverlayHost';
import type { BadgeToShow, LauncherToShow, LogLevel, ResourceCenterToShow, StepToShow } from '../shared/protocol';

/** A clicked element of a guide, for guideActivity. */
export interface UiElement {
  id: string;
  type: string;
}

/** guides §2, §5 poll answers of a step at submitPoll: poll id -> the raw answer (text, select, checked radio). */
export type PollAnswers = Record<string, string>;

export interface StepHandlers {
  /** A building block with actions was clicked; `answers` when one of them is submitPoll. */
  onAction(actions: GuideAction[], uiElement: UiElement, answers?: PollAnswers): void;
  /** The close button or Escape (guides §2). */
  onDismiss(uiElement: UiElement | null): void;
}

/** What the visitor does with the launcher (guides §2 Launcher). */
export interface LauncherHandlers {
  /** Open (true) or close (false): the badge, the close button, the confirmed stop of a tutorial. */
  onToggle(open: boolean): void;
  /** A listed guide was clicked: the shim shows it with seen reason launcher. */
  onOpenGuide(guideId: string): void;
  /** The badge image did not load (the badge falls back to its mark). */
  onBadgeImageError(): void;
  /** guides §2, §9 a what's-new item has been active (top third in view) for the seen delay: it is seen. */
  onWhatsNewSeen(guideId: string, stepId: string): void;
  /** Rendering the launcher threw: it is taken off the page. */
  onError(error: unknown): void;
}

/** What the shim keeps of the resource center between renders (guides §2). */
export interface ResourceCenterState {
  open: boolean;
  /** The open module's guide id ("opening a module marks it active; closing clears the active module"). */
  activeModule: string | null;
  /** A native integration's widget is open: the resource center's badge is hidden meanwhile. */
  nativeOpen: boolean;
  /** guides §2 "anchored to an element": the page's element that opened the panel (launch method dom). */
  anchor?: Element | null;
}

/** What the visitor does with the resource center (guides §2 Resource center). */
export interface ResourceCenterHandlers {
  /** Open (true) or close (false): the badge, the close button, Escape. */
  onToggle(open: boolean): void;
  /** A module opened (its guide id) or the way back home (null). */
  onOpenModule(moduleId: string | null): void;
  /** A listed guide was clicked: the shim shows it with seen reason resourceCenter. */
  onOpenGuide(guideId: string): void;
  /** An announcement was scrolled into view (checked every 500 ms): it is marked seen. */
  onAnnouncementSeen(guideId: string, stepId: string): void;
  /** An integration module's provider widget opened, closed, or its API failed (which closes the resource center). */
  onIntegration(what: 'opened' | 'closed' | 'failed', error?: unknown): void;
  /** Rendering the resource center threw: it is taken off the page. */
  onError(error: unknown): void;
}

export interface Overlay {
  /**
   * Renders `step` (replacing what is shown), anchored to `target` for tooltips. A promise when it is drawn later
   * (issue #34: a step the worker did not paint waits for the React overlay's chunk), settled once it is drawn, or
   * rejected when it cannot be: the step is seen only then.
   */
  show(step: StepToShow, target: Element | null, handlers: StepHandlers): void | Promise<void>;
  /** Removes what is shown. */
  hide(): void;
  /** guides §2: renders these badges on their targets (replacing the previous set); a click opens the guide. */
  showBadges(badges: Array<{ badge: BadgeToShow; target: Element }>, onOpen: (guideId: string) => void): void;
  /**
   * guides §2 Launcher: renders the launcher (badge or element-anchored panel), open or closed, replacing the
   * previous render; null removes it.
   */
  showLauncher(launcher: LauncherToShow | null, open: boolean, anchor: Element | null, handlers: LauncherHandlers): void;
  /** guides §2 Resource center: renders it (badge and panel) as `state` says, replacing the previous render; null removes it. */
  showResourceCenter(resourceCenter: ResourceCenterToShow | null, state: ResourceCenterState, handlers: ResourceCenterHandlers): void;
  /** Removes the overlay's host element and listeners. */
  destroy(): void;
}

/** Configuration of the overlay. */
export interface OverlayOptions {
  /**
   * Where the overlay reports what went wrong while drawing (guides §8 'Failed to add BlockOut ui'): the
   * shim's logger, so it reaches the same console and history as the agent's other messages. @default none
   */
  log?(level: LogLevel, message: string): void;
  /** The page's overlay host, when the painted steps made it first (issue #34). @default one of its own */
  host?: OverlayHost;
  /**
   * The React overlay, for what the painted steps do not draw (overlay/static's createOverlay only): imported
   * the first time it is needed.
   */
  loadReact?(): Promise<OverlayModule>;
}

export interface OverlayModule {
  createOverlay(doc: Document, options?: OverlayOptions): Overlay;
}
