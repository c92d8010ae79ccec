/**
 * The guide display's contract with the rest of the shim: what createAgent gives it (options), what the host's
 * guide API calls on it, and what host hooks and subscriptions hear (guides §4). Types, and the names of the
 * commands the shim forwards.
 */
import type { HookName } from '../../shared/guides/applyGuideTransition';
import type { FrameState } from '../../shared/frames/frameVisibility';
import type { GuideDiagnostics, LogLevel } from '../../shared/protocol';
import type { Bridge } from '../createBridge';
import type { EventPropertyCollector } from '../collectEventProperties';
import type { AgentAsset } from '../agentOptions';
import type { Running } from '../agentState';
import type { FramedGuides } from '../frames/createFrameGuides';

export interface GuideDisplayOptions {
  bridge: Bridge;
  /** The URL of one of the agent's files (the overlay, the authoring chunk). */
  asset(name: AgentAsset): string;
  /**
   * The running agent: its options, frame state and frames chunk. Tests give `frame` and `onShown` instead.
   */
  running?: Running;
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
   * to date by the frames chunk and read on each tick. @default `running.frame`, else the top frame leads and is visible
   */
  frame?: FrameState;
  /** guides §4: the step this frame shows now, or null (told to the other frames). @default to `running.frames` */
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

/**
 * The guide API's commands the shim forwards by name to the guides chunk (GuideDisplay.command): they answer
 * nothing, so the shim keeps one loop for them all instead of a function each.
 */
export const GUIDE_COMMANDS = [
  'hideGuides',
  'stopGuides',
  'toggleLauncher',
  'showLauncher',
  'hideLauncher',
  'removeLauncher',
  'openResourceCenter',
  'closeResourceCenter',
  'toggleResourceCenter',
  'addCustomAction',
  'addGlobalScript',
] as const;
export type GuideCommand = (typeof GUIDE_COMMANDS)[number];

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
  /** null when guides are off for this page (the chunk then starts only session recording). */
  createGuideDisplay(options: GuideDisplayOptions): GuideDisplay | null;
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
  /** A command of the guide API (GUIDE_COMMANDS) with the host's arguments as given. */
  command(name: GuideCommand, args: unknown[]): void;
  /** guides §2 Designer: the launch flow, as the Shift+Alt+7 shortcut runs it (the leader frame only). */
  launchDesigner(): void;
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
  /** Guides across frames: what the frames chunk asks of this frame's guides. */
  framed: FramedGuides;
  stop(): void;
}
