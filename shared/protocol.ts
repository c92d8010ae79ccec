/**
 * The contract between the main-thread shim and the dedicated worker. The shim holds a Comlink
 * `Remote<WorkerApi>`; the worker exposes one object that `satisfies WorkerApi`. Arguments and results
 * are structured-clone data only: host-supplied functions run on the shim side and send their results.
 */
import type { UrlTransform } from './privacy/applyUrlTransforms';
import type { CapturedEvent, GuideEventType } from './events/events';
import type { AgentError, Outcome } from './errors';
import type { SignedMetadataMode } from './identity/checkSignedMetadata';
import type { EventPropertyRule } from './analytics/eventPropertyRules';
import type { Automation, DomNode, ElementContainsRule, StepType, ThrottlingConfig, ThrottlingTimestamps } from './guides/guides';

/** Bumped whenever a message shape changes; the handshake refuses a mismatch. */
export const PROTOCOL_VERSION = 1;

/** Who the events are about. */
export interface Identity {
  visitorId: string;
  accountId: string;
  /** The previous visitor id after an identify, sent with guide requests. */
  oldVisitorId?: string;
}

/** Per-tab facts the envelope carries (wire-protocol.md "Common fields"). */
export interface SessionFacts {
  sessionId: string;
  tabId: string;
  frameId: string;
  parentTabId: string;
}

/** Visitor, account and parent account metadata (analytics §3 Metadata). */
export interface Metadata {
  visitor: Record<string, unknown>;
  account: Record<string, unknown>;
  parentAccount: Record<string, unknown>;
}

/** Everything the worker needs to start, sent once by `init`. */
export interface WorkerInit {
  apiKey: string;
  /** Origin of the collector, without a trailing slash. */
  dataHost: string;
  /** Origin that serves guide content, without a trailing slash. */
  contentHost: string;
  agentVersion: string;
  identity: Identity;
  session: SessionFacts;
  metadata: Metadata;
  /** Campaign fields and channel for the `utm` envelope field: the session's stored source, if any. */
  utm: Record<string, string>;
  /**
   * What the worker classifies the traffic from (analytics §4): a new session, or a page arriving with
   * campaign parameters or from another site, gets a new source; otherwise `utm` stands.
   */
  campaign?: { pageUrl: string; referrer: string; newSession: boolean };
  /** Device class of the page, for step device rules. */
  device: 'desktop' | 'mobile';
  /** analytics §7: send every event beacon by POST. @default false */
  sendEventsWithPostOnly?: boolean;
  /** Signed metadata (analytics §3) as the host gave it; the worker checks it and sends it with every beacon. */
  signedMetadata?: { jwt?: unknown; signingKeyName?: unknown };
  /**
   * analytics §4, §5: 'required' refuses to write anything without valid signed metadata; 'enabled' signs
   * when it can and falls back to unsigned; 'off' never signs. @default 'enabled'
   */
  signedMetadataMode?: SignedMetadataMode;
  /** Data-only URL transforms for event URLs (analytics §5); already validated by the shim. */
  urlTransforms?: UrlTransform[];
  /** Compiled privacy filters: every match in an event becomes 'redacted' (analytics §5). */
  privacyFilters?: RegExp[];
  /** analytics §8: critical errors carry no stack. @default false */
  disableStackTraces?: boolean;
  /** The tab's last page loads before this one, oldest first: U-turns across full navigations (analytics §4). */
  recentPages?: Array<{ url: string; time: number }>;
  /** Guide engine settings and the guide state the shim keeps for this visitor (guides §4, §7). */
  guides?: GuideSettings;
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
}

/**
 * The shim's verdict on a click it watched (analytics §4): 'deadClick' (no effect within 500 ms) and/or
 * 'errorClick' (a page error right after it, with its message). Only sent when there is something to
 * say, with the next batch; the worker stops waiting for it 1 s after the click.
 */
export interface ClickVerdictMessage {
  sequence: number;
  frustrationTypes: string[];
  errorMessage?: string;
}

/** An internal error for the error log (analytics §8). */
export interface ErrorReportMessage {
  message: string;
  stack?: string;
  critical?: boolean;
}

/** What the worker reports to the shim without being asked. */
export interface ShimCallbacks {
  /** A log line for the shim's logger (console and log history). */
  log(level: LogLevel, message: string): void;
  /**
   * Every event of this page with a sequence up to `sequence` is done with (delivered, or dropped with a
   * log): the shim stops holding it for its page-hide beacon. Sent in order, so a high-water mark.
   */
  delivered(sequence: number): void;
  /** The session's traffic source as classified by the worker, for the shim to keep for later pages. */
  campaign(utm: Record<string, string>): void;
  /** The visitor's segment flags, each time the collector answers (analytics §7). */
  segmentFlags(flags: string[]): void;
  /** Guide state to keep for the next page of this visitor (probe verdict, throttling, a 451). */
  guideState(state: GuideState): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

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
  /** guides §3 the guide's automations, run by the building-block action `automation` (parameter: its id). */
  automations?: Automation[];
  /** guides §3 contentUrlCss, fetched by the worker: styles for the step, scoped to the overlay's shadow root. */
  css?: string;
  /** guides §3 contentUrlJs from an allowed origin, with its SRI integrity when the step has contentJsHash. */
  script?: { url: string; integrity?: string };
}

/** guides §2 Badges: where a badge-launched guide's badge goes; a click on it shows the guide (reason badge). */
export interface BadgeToShow {
  guideId: string;
  /** The guide's name, for the badge's accessible label. */
  label: string;
  /** CSS selector of the element the badge is placed on. */
  selector: string;
  position: BadgePosition;
  /** An image from an allowed origin; a default "?" mark otherwise. */
  imageUrl?: string;
  /**
   * guides §2 "Badges (image or building-block)": `attributes.badge.content`, a building-block tree checked
   * like step content (checkBuildingBlocks); drawn as the badge in place of the image or the "?" mark.
   */
  content?: DomNode;
  /** Shown only while the pointer is over the target. */
  showOnHover: boolean;
}

export type BadgePosition = 'top-left' | 'top-right' | 'inline' | 'inline-left' | 'inline-right' | 'over';

/** spec: guides §2 Launcher — where its badge sits. */
export type LauncherPosition = 'bottom-right' | 'bottom-left' | 'top-left' | 'top-right';

/** A guide the launcher lists (guides §2 Launcher: a guide listing); a click shows it with reason launcher. */
export interface LauncherEntry {
  guideId: string;
  name: string;
  /** attributes.isOnboarding. */
  isOnboarding: boolean;
  /** guides §4 Guide completion: every step (multi-step: the last) advanced or dismissed. */
  complete: boolean;
}

/**
 * guides §2 Launcher (guide center), as the worker judged the load response's `launcher` config for this
 * page: the panel's settings and the guides it lists (launch method launcher, eligible here).
 */
export interface LauncherToShow {
  /** 'badge': a badge at `position` opens it; 'element': clicks on `elementPathRule`'s element do. */
  launchType: 'badge' | 'element';
  position: LauncherPosition;
  /** The element that opens the launcher (launchType element). */
  elementPathRule?: string;
  /** launcherBadgeUrl from an allowed origin; a default mark otherwise. */
  badgeImageUrl?: string;
  enableSearch: boolean;
  /** No powered-by credit line in the footer. */
  hideCredits: boolean;
  /** The panel's size before the search box and credit line are added (see launcherPanelSize). */
  width: number;
  height: number;
  /** device.iframe: shown in a child frame too (otherwise only the top frame shows it; guides §6). */
  iframe: boolean;
  guides: LauncherEntry[];
  /** guides §2 onboarding progress over the listed onboarding guides, when `data.onboarding` and there are some. */
  onboarding?: { percent: number };
  /** guides §2 what's-new unseen count, when `data.whatsnew` and listed guides have whatsnew steps. */
  whatsnewUnseen?: number;
  /**
   * guides §2 What's-new feed, when `data.whatsnew`: the whatsnew steps of the listed guides, with their
   * content resolved and verified by the worker like any step's (an item whose content fails is left off).
   */
  whatsnew?: WhatsNewEntry[];
  /** Local storage key of the launcher-closed flag, per api key and visitor (analytics §9 storage keys). */
  closedFlagKey: string;
  /** guides §2 custom content (`data.contentUrl`): building blocks shown at the top of the panel, checked like a step's. */
  content?: DomNode;
  /** guides §2 `data.contentUrlCss`: the stylesheet's text, scoped to the overlay's shadow root. */
  css?: string;
  /** guides §2 `data.contentUrlJs` from an allowed origin; the shim loads it unless preventCodeInjection. */
  scriptUrl?: string;
}

/** One what's-new item of the launcher's feed (guides §2). */
export interface WhatsNewEntry {
  guideId: string;
  stepId: string;
  name: string;
  /** Already shown: drawn as seen, not counted. */
  seen: boolean;
  /** The step's building blocks. */
  content: DomNode;
}

/** guides §2 Resource center module kinds (the values of attributes.resourceCenter.moduleId are ours). */
export type ResourceCenterModuleKind = 'guideList' | 'onboarding' | 'announcements' | 'iframe' | 'sandbox' | 'integration' | 'custom';

/** A guide a resource center module lists (guide list, onboarding task, announcement). */
export interface ResourceCenterItem {
  guideId: string;
  /** The first step: what a click shows, or the announcement marked seen when scrolled into view. */
  stepId: string;
  name: string;
  /** The plain text of the first step's content, for search (3 characters or more). */
  text: string;
  seenSteps: number;
  totalSteps: number;
  complete: boolean;
  /** announcements: the first step's building blocks, rendered in the module. */
  content?: DomNode;
}

/** A module of the resource center, as the worker checked it. */
export interface ResourceCenterModule {
  guideId: string;
  kind: ResourceCenterModuleKind;
  title: string;
  items: ResourceCenterItem[];
  /** onboarding: seen steps over total steps, a whole number. */
  percent?: number;
  /** announcements: items not seen yet. */
  unseen?: number;
  /** iframe: its page, from an allowed origin. */
  iframeSrc?: string;
  /** sandbox, custom: the building blocks of the module's first step. */
  content?: DomNode;
  /** integration: the provider (drift, intercom, zendesk) and what of it (chat, knowledge base, messaging). */
  integration?: { provider: string; name: string };
}

/** guides §2 Resource center as the worker judged it for this page. */
export interface ResourceCenterToShow {
  guideId: string;
  title: string;
  position: LauncherPosition;
  /**
   * guides §4 launch methods: badge (a badge in `position` opens it), dom (`activation`: the visitor's `event`
   * on an element matching `selector` opens or closes it), api (the host's open/close/toggleResourceCenter,
   * always there). The top-level guide's content failing validation leaves api only: no badge, no activation.
   */
  badge: boolean;
  activation?: { event: string; selector: string };
  /** The top-level guide's first step content, verified and checked: the home view's introduction. */
  intro?: DomNode;
  modules: ResourceCenterModule[];
  /** Unseen announcements over every module: the badge bubble's count. */
  unseenCount: number;
}

/** What a guide load hands back: the auto steps to try, in display order. */
export interface GuideLoadResult {
  candidates: StepToShow[];
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
}

/** A visitor action on a shown step, reported by the shim. */
export interface StepAction {
  guideId: string;
  stepId: string;
  action: 'seen' | 'dismiss' | 'advance' | 'previous' | 'snooze' | 'goToStep' | 'activity' | 'timeout' | 'poll';
  /** For poll: the raw answers of the step's polls, by poll id. */
  pollAnswers?: Record<string, string>;
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

/** Counts of what one flush did, for `flushNow()` and tests. */
export interface FlushReport {
  sent: number;
  pending: number;
  errors: AgentError[];
}

/** Answer to the version handshake. */
export interface Hello {
  protocolVersion: number;
  agentVersion: string;
}

/** The worker's API as the shim sees it (every call is asynchronous across the bridge). */
export interface WorkerApi {
  /** Version handshake; the first call the bridge makes. */
  hello(protocolVersion: number): Hello;
  /** Starts the pipeline. `callbacks` is a Comlink proxy living in the shim. */
  init(options: WorkerInit, callbacks: ShimCallbacks): Outcome<null>;
  /** A batch of captured events, in capture order, with dead/error click verdicts reached since the last. */
  push(events: CapturedEvent[], verdicts?: ClickVerdictMessage[]): void;
  /** Identity after identify or clearSession; later events carry it. */
  setIdentity(identity: Identity): void;
  /** A new session (inactivity, visitor change): later events carry it. */
  setSession(session: SessionFacts): void;
  /** analytics §1 lock/unlock: while false, no event of any kind is written. */
  setSending(sending: boolean): void;
  /** Sends an internal error to the error log, de-duplicated by hash (analytics §7, §8). */
  reportError(error: ErrorReportMessage): void;
  /** Sends every queued event now. */
  flush(): Promise<Outcome<FlushReport>>;
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
}

/** guides §4: what the engine made of the last guide load (the "why is this guide not showing"). */
export interface GuideDiagnostics {
  url: string;
  loadedAt: number | null;
  /** The last load's refusal or failure, when it did not load. */
  loadError: string | null;
  guides: Array<{ id: string; name?: string; completion: 'complete' | 'in progress' | 'not started'; candidate: boolean; reason: string }>;
}

export type { GuideEventType };
