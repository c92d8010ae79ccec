/**
 * The shim-worker contract, guide side (guides §4, §7, §8): the worker loads guides and judges them, the shim
 * checks DOM facts, draws, and reports what the visitor did. The surfaces' view types (badges, launcher,
 * resource center) are in ./surfaces.ts.
 */
import type { EventPropertyRule } from '../analytics/eventPropertyRules';
import type { Outcome } from '../errors';
import type { Automation, DomNode, GuideAction, ElementContainsRule, StepType, ThrottlingConfig, ThrottlingTimestamps } from '../guides/guides';
import type { RecentStepState } from '../guides/recentStepStates';
import type { BadgeToShow, LauncherToShow, ResourceCenterToShow } from './surfaces';
import type { GUIDE_TAIL_MESSAGE } from '../constants';

/**
 * Worker to page, one-way (issue #32): a guide or poll event the worker wrote (`sequence`, and `json` as its beacon
 * carries it), or the sequences of those it is done with (`done`: sent, or dropped). Firefox and WebKit end a page's
 * worker with the page, within the 500 ms a guide event waits for the next (guides §7): a visitor who dismissed a
 * guide and left at once lost the dismissal. The page posts what it still holds at page hide, as it does its own
 * events; the collector stores each (tabId, frameId, sequence) once, whichever copy comes first.
 */
export interface GuideTailMessage {
  type: typeof GUIDE_TAIL_MESSAGE;
  sequence?: number;
  json?: string;
  done?: number[];
}

/** Guide engine settings (guides §4, §5, §7, §8), and what the shim kept of the engine's state. */
export interface GuideSettings {
  /** guides §8 guideTimeout / guides.timeout: a guide load is given up after this many ms. @default none */
  timeoutMs?: number;
  /** guides §5: no guides for anonymous visitors. @default false */
  dropAnonymous?: boolean;
  /** guides §5: guide events are blocked, so guides are too. @default false */
  guideEventsBlocked?: boolean;
  /** guides §3 throttling config. @default off */
  throttling?: ThrottlingConfig;
  /** guides §4 Auto display: adoption (isTraining) guides before the others, or after. @default 'before' */
  adoptionGuides?: 'before' | 'after';
  /** Adds debug=true to guide.json. @default false */
  debug?: boolean;
  /** guides §7: no content prefetch of the guides that may show. @default false */
  disablePrefetch?: boolean;
  /** Script and style origins guide content may load from (guides §5); the content host is always allowed. */
  allowedOrigins?: string[];
  /** What an earlier page of this visitor left (see ShimCallbacks.guideState). */
  state?: GuideState;
  /**
   * Issue #34: the URL of the render chunk (dist/agent/waymark.render.js) the worker loads lazily to paint steps
   * (StepToShow.painted). @default none: steps are drawn with the React overlay
   */
  renderUrl?: string;
}

/** Guide state that outlives a page: kept by the shim in local storage, per api key and visitor. */
export interface GuideState {
  /** Whose state it is: a page of another visitor ignores it. */
  visitorId: string;
  /** guides §7, §9: the availability probe's verdict and until when it holds (4 hours). */
  probe?: { ok: boolean; until: number };
  /** guides §3 throttling timestamps of auto-launched guides. */
  timestamps?: ThrottlingTimestamps;
  /** guides §7: the collector answered 451 for this visitor: no tracking, no guide loading. */
  denied?: boolean;
  /** guides §9: this browser's step changes of the last 10 s, laid over the next guide.json answer. */
  recentSteps?: RecentStepState[];
}

/** How a step came to be shown (guides §4 Show: the seenReason). */
export type SeenReason = 'auto' | 'api' | 'continue' | 'badge' | 'dom' | 'launcher' | 'permalink' | 'resourceCenter';

/**
 * A step the worker has judged displayable, with its content resolved: the shim only checks DOM facts
 * (is the target there and visible) and renders it.
 */
export interface StepToShow {
  guideId: string;
  guideName: string;
  stepId: string;
  type: StepType;
  /** Zero-based position and total, for 'Step {current} of {total}'. */
  stepIndex: number;
  stepCount: number;
  elementPathRule?: string;
  /** guides §3, §5: what the target must contain; judged by the shim, which has the element. */
  elementContainsRulesList?: ElementContainsRule[];
  content: DomNode;
  attributes: Record<string, unknown>;
  hideCredits: boolean;
  reason: SeenReason;
  /** lastUpdatedAt of the guide, echoed in guideSeen. */
  lastUpdatedAt?: number;
  /** guides §3 the language the guide is served in (its events say it): a later load in another redraws the step. */
  language?: string;
  /** guides §3 the guide's automations, run by the building-block action `automation` (parameter: its id). */
  automations?: Automation[];
  /** guides §3 contentUrlCss, fetched by the worker: styles for the step, scoped to the overlay's shadow root. */
  css?: string;
  /**
   * guides §4 Auto display: an auto candidate whose guide bypasses throttling (overrideAutoThrottling, or snoozed
   * and ready): not held back by the next display time a later dismissal on the page sets.
   */
  bypassesThrottling?: true;
  /** guides §3 contentUrlJs from an allowed origin, with its SRI integrity when the step has contentJsHash. */
  script?: { url: string; integrity?: string };
  /** guides §3 advanceMethod: 'element click' or 'mouseover' (or both, comma-separated) on the target advances. */
  advanceMethod?: string;
  /**
   * guides §3 the guide's attributes.embedConfig: the step is drawn inside the page's element at `selector` (before
   * its content, or in place of it), which is then its target: the step waits for it like a tooltip's.
   */
  embed?: { selector: string; method: 'replace' | 'prepend' };
  /** guides §3 confirmationElementPathRule: the visitor's click on this element (or inside it) advances the step. */
  confirmationElementPathRule?: string;
  /**
   * analytics §4 Frames: set by a follower frame on a step its leader gave it to show (showGuideStepInFrame): the
   * leader's frame id, where the step's actions go (its worker loaded the guide). Never set by a worker.
   */
  viaFrame?: string;
  /**
   * Issue #34: the step's surface as the worker rendered it, for lightbox, mobile-lightbox, tooltip and banner steps
   * that are not embedded. The page builds it without React (overlay/static), so a guide's first paint evaluates no
   * React on the host's main thread. Absent (the render chunk did not load, the main-thread mode, another type):
   * the page draws the step with the React overlay.
   */
  painted?: PaintedStep;
}

/**
 * A node of a painted step: text, or `[tag, attributes, children]`. A `style` attribute is CSS text the page sets
 * through the CSSOM (`style.cssText`), never as an attribute, so a host's CSP without 'unsafe-inline' styles lets
 * it through as it does React's.
 */
export type PaintedNode = string | [tag: string, attributes: Array<[name: string, value: string]>, children: PaintedNode[]];

/** A step's surface rendered by the worker with the overlay's own components (overlay/render). */
export interface PaintedStep {
  /** The surface's top-level elements, in order (a lightbox: its backdrop, then its dialog). */
  nodes: PaintedNode[];
  /** The building blocks' actions: an element with the attribute `data-wm-action="i"` does `actions[i]`. */
  actions: GuideAction[][];
}

/** What a guide load hands back: the auto steps to try, in display order. */
export interface GuideLoadResult {
  candidates: StepToShow[];
  /**
   * guides §4 Throttling: the next display time (epoch ms) while it is ahead; candidates without
   * `bypassesThrottling` wait on this page until then.
   */
  throttledUntil?: number;
  /**
   * guides §3 attributes.activation, §4 element activation: guides that show when the visitor does `event`
   * on an element matching `selector` (launch method dom), when their rules other than launch method allow.
   */
  activations: Array<{ guideId: string; event: string; selector: string }>;
  /** analytics §3 event property rules from guide.json `features`, collected by the shim on clicks. */
  eventPropertyRules: EventPropertyRule[];
  /** guides §3 globalJsUrl of the load response, from an allowed origin: a script for every page. */
  globalScript?: string;
  /** guides §2 badges of badge-launched guides whose rules (but the launch method) allow them. */
  badges: BadgeToShow[];
  /** guides §2 the launcher (guide center) of the load response's `launcher` config, when it shows here. */
  launcher?: LauncherToShow;
  /** guides §2 the resource center eligible on this page (none when a module failed to load, guides §8). */
  resourceCenter?: ResourceCenterToShow;
  /** Why the load response's launcher config cannot initialize (logged by the shim as a critical error). */
  launcherError?: string;
  /** Guides that were loaded but not eligible, with why: what a debugger would show. */
  skipped: Array<{ guideId: string; stepId?: string; reason: string }>;
  /**
   * analytics §2 form validation: guide.json's `settings.formValidation.fields` as served (unchecked: the forms
   * chunk checks them with shared/forms/formValidation before it uses any). Absent when the app validates none.
   */
  formFields?: unknown;
}

/** A visitor action on a shown step, reported by the shim. */
export interface StepAction {
  guideId: string;
  stepId: string;
  action: 'seen' | 'dismiss' | 'advance' | 'previous' | 'snooze' | 'goToStep' | 'activity' | 'timeout' | 'poll';
  /** For poll: the raw answers of the step's polls, by poll id. */
  pollAnswers?: Record<string, string>;
  /**
   * For poll: the answers complete the guide, which advances its last step at once while the thank-you stays on
   * screen (the poll is the guide's last step and its button moves the guide on no other way).
   */
  completes?: boolean;
  /** For timeout: why the step was not seen in time (guides §4 Step timeout), and the timeout, ms. */
  timeoutReason?: 'page' | 'element' | 'other';
  timeoutMs?: number;
  /** For seen: how the step came to be shown. */
  reason?: SeenReason;
  /** For goToStep: the step to go to; for advance: a destination other than the next step. */
  targetStepId?: string;
  /** For previous: how many steps back. @default 1 */
  steps?: number;
  /** For snooze: how long, ms. @default 1 day */
  snoozeMs?: number;
  /** ms the step was on screen, for dismiss and advance. */
  duration?: number;
  /** For activity: the clicked element of the guide. */
  uiElement?: { id: string; type: string; actions: string[] };
  url: string;
}

/** guides §4: what the engine made of the last guide load (the "why is this guide not showing"). */
export interface GuideDiagnostics {
  url: string;
  loadedAt: number | null;
  /** The last load's refusal or failure, when it did not load. */
  loadError: string | null;
  guides: Array<{ id: string; name?: string; completion: 'complete' | 'in progress' | 'not started'; candidate: boolean; reason: string }>;
}


/** The guide part of the worker's API. */
export interface GuidesApi {
  /** Requests guide.json for the page and returns the displayable auto steps in order. */
  loadGuides(url: string): Promise<Outcome<GuideLoadResult>>;
  /** The step to show for a guide shown by API (first step, or `stepId`). */
  stepForGuide(guideId: string, stepId?: string, reason?: SeenReason): Promise<Outcome<StepToShow>>;
  /**
   * Applies a visitor action on a shown step (guides §4 Transitions) and records its guide events; answers
   * the step to show next (null: hide), or the refusal.
   */
  stepAction(action: StepAction): Promise<Outcome<StepToShow | null>>;
  /** The id of the loaded guide with this name, for showGuideByName. */
  guideIdByName(name: string): Promise<string | null>;
  /** Why each loaded guide shows or not, as the last load judged it: the guide debugger's view. */
  guideDiagnostics(): Promise<GuideDiagnostics>;
  /**
   * guides §2 Launcher of the last guide load, judged again on the guides as they stand now (onboarding
   * progress, what's-new count, completion after the visitor's actions); null when there is none.
   */
  launcherView(): Promise<LauncherToShow | null>;
  /** guides §2 Resource center of the last guide load as the guides stand now (null: none). */
  resourceCenterView(): Promise<ResourceCenterToShow | null>;
  /**
   * guides §3 Preview, §6: the preview endpoint's guide (and a resource center's children) replaces the page's
   * guides until `null` ends the preview. Meanwhile guide.json is not asked, and the preview's guide events and
   * state stay out of the visitor's analytics. Answers the guide's steps, or the payload's problem.
   */
  previewGuide(payload: PreviewPayload | null): Promise<Outcome<PreviewLoaded | null>>;
  /**
   * guides §4 Throttling across frames (receiveThrottlingState): `merge` (another frame's timestamps) is kept where
   * it is later than this worker's; answers the timestamps now, whether the merge changed them, and the next display
   * time of auto guides they make with the last load's throttling config (null: not throttled), which the page's
   * guide loop holds its candidates to after a guide moved on.
   */
  throttling(merge?: ThrottlingTimestamps): Promise<{ timestamps: ThrottlingTimestamps; changed: boolean; nextDisplayAt: number | null }>;
}

/** What the preview endpoint answered (guides §7 Preview), as the authoring chunk hands it over. */
export interface PreviewPayload {
  guide: unknown;
  children?: unknown[];
}

/** The previewed guide as the preview bar shows it. */
export interface PreviewLoaded {
  guideId: string;
  name?: string;
  stepIds: string[];
}
