/**
 * What a host gives the agent and what it gets back: the options of `initialize` (every field with its
 * default), the public API (`window.waymark` and the npm entry's exports), and where the agent's files are.
 * Types only: nothing here reaches a bundle.
 */
import type { AgentInstallType } from '../shared/frames/electLeaderFrame';
import type { ToolReport } from '../shared/validation/finding';
import type { FlushReport, GuideDiagnostics } from '../shared/protocol';
import type { HookName } from '../shared/guides/applyGuideTransition';
import type { ThrottlingConfig } from '../shared/guides/guides';
import type { UrlTransform } from '../shared/privacy/applyUrlTransforms';
import type { ActiveGuide, GuideHook, GuideNotice } from './createGuideDisplay';
import type { Logger } from './createLogger';
import type { PromptCaptureRule } from './prompts';
import type { WorkerMode } from './startWorker';

/** A visitor, account or parent account: an id and any metadata fields. */
export interface EntityOptions {
  id?: string | number;
  [field: string]: unknown;
}

export interface InitializeOptions {
  /** The subscription's API key. Required: without it the agent does not initialize (guides §1). */
  apiKey: string;
  /** @default an anonymous visitor kept in local storage */
  visitor?: EntityOptions;
  account?: EntityOptions;
  parentAccount?: EntityOptions;
  /** Origin of the collector. @default the origin waymark.js was loaded from (installed from npm: the page's) */
  dataHost?: string;
  /** Origin of guide content. @default the origin waymark.js was loaded from (installed from npm: the page's) */
  contentHost?: string;
  /** Start before the page has finished loading (guides §1). @default false */
  initializeImmediately?: boolean;
  /**
   * The host's own copy of waymark.worker.js (same origin as the page), for an agent loaded from another
   * origin: browsers start workers only from same-origin URLs (issue #7; `npx waymark-copy-agent <folder>`).
   * @default the worker beside waymark.js when that is same-origin, else a blob: worker, else the main thread
   */
  workerUrl?: string;
  /**
   * Capture element text as `txt` on clicks: `true` its first 128 characters, `'extended'` its first 1024
   * (analytics §9). @default false
   */
  captureText?: boolean | 'extended';
  /** guides §1: no guides at all. @default false */
  disableGuides?: boolean;
  /**
   * guides §6: no designer launch at all ('Unable to launch the Visual Design Studio, set to disabled in
   * configuration.'). Previews still run. @default false
   */
  disableDesigner?: boolean;
  /** guides §2 Designer: the Shift+Alt+7 and Shift+Alt+8 shortcuts do nothing. @default false */
  disableDesignerKeyboardShortcut?: boolean;
  guides?: {
    disabled?: boolean;
    /** guides §8: give a guide load up after this many ms. */
    timeout?: number;
    /** guides §5 delayGuides: hold the guide loop until startGuides() (true) or for this many ms. */
    delay?: boolean | number;
    /** guides §5: no guides for anonymous visitors. @default false */
    dropAnonymous?: boolean;
    /** guides §3, §4 throttling of auto-launched guides. @default off */
    throttling?: ThrottlingConfig;
    /** guides §4 Auto display: adoption guides before or after the others. @default 'before' */
    adoptionGuides?: 'before' | 'after';
    /** guides §5: origins guide scripts and styles may come from, besides the content host. */
    allowedOrigins?: string[];
    /**
     * guides §4 Step timeout: true (10,000 ms) or a guideSeenTimeoutLength in ms: a step whose element has
     * not appeared by then is reported with a guideTimeout event. @default off
     */
    seenTimeout?: boolean | number;
    /** guides §7: do not prefetch the content of guides that may show. @default false */
    disablePrefetch?: boolean;
    /**
     * guides §8: a step whose processing (finding its element, reading its box and text) takes more than the 50 ms a
     * loop item gets is logged; with this, it is also ejected: not tried again on this page. @default false
     */
    ejectOnTimeout?: boolean;
  };
  /** guides §2: never load guide scripts (contentUrlJs). @default false */
  preventCodeInjection?: boolean;
  /** guides §8: the same as guides.timeout. */
  guideTimeout?: number;
  /** guides §5: the same as guides.delay. */
  delayGuides?: boolean | number;
  /** analytics §7: send every event beacon by POST, never GET. @default false */
  sendEventsWithPostOnly?: boolean;
  /** Signed metadata (analytics §3): both or neither; a jwt is three dot-separated URL-safe base64 parts. */
  jwt?: string;
  signingKeyName?: string;
  /**
   * analytics §4, §5: 'required' writes nothing unless jwt and signingKeyName are valid (the action is
   * refused, with the reason logged); 'enabled' signs when they are valid and otherwise sends unsigned
   * metadata; 'off' never signs. @default 'enabled'
   */
  signedMetadata?: 'required' | 'enabled' | 'off';
  /**
   * analytics §5: rewrites of event URLs, `{ attr, action, data }`, applied in order. Lists whose data are
   * all values run in the worker; a list with a host function runs on the page at capture.
   */
  urlTransforms?: UrlTransform[];
  /** analytics §5: the URL events report instead of the page's: a string, a URL, or a function returning one. */
  customUrl?: string | URL | (() => string | URL);
  /** analytics §5: a RegExp, a pattern string, or a list; every match in an event becomes 'redacted'. */
  privacyFilter?: RegExp | string | Array<RegExp | string>;
  /** The host's environment; production-like names (prod, prod-eu, ..., rc) start with console logging off. */
  environment?: string;
  /** analytics §8: critical errors are reported without a stack. @default false */
  disableStackTraces?: boolean;
  /**
   * analytics §3, §7 prompt capture: requests of the host's own fetch/XHR to these AI endpoints become
   * 'prompt' events (the privacy filter applied first). Its code is a chunk of its own, loaded only when set.
   */
  promptCapture?: PromptCaptureRule[];
  /** analytics §4: mark a click followed by a page error as an error click, with the message. @default true */
  errorClickLogging?: boolean;
  /** Turn the agent off for this page: it logs 'Waymark is currently disabled.' and does nothing. */
  disabled?: boolean;
  /**
   * Elements that act as inputs without firing `change` (custom widgets): leaving one (focusout) records a
   * change event. Must be an array of selectors ('inputCssSelectors must be an array').
   */
  inputCssSelectors?: string[];
  /**
   * Elements that submit without a form (custom buttons): a click on one also records a submit event.
   * Must be an array of selectors ('submitCssSelectors must be an array').
   */
  submitCssSelectors?: string[];
  /** analytics §9: keep the anonymous visitor id in local storage only, not in a cookie. @default false */
  localStorageOnly?: boolean;
  /** Lifetime of the visitor cookie in days. @default 100 */
  cookieDays?: number;
  /**
   * analytics §4 Frames (names ours). `install: false` keeps the agent out of same-origin child iframes
   * (@default true: it installs itself there, rescanning every 250 ms); `leaderKeys` prefer, in order, the
   * frames whose `leaderKey` is one of them as the leader (@default none: the top frame, else the earliest);
   * `leaderKey` names this frame (a frame the agent installed takes its iframe element's
   * `data-waymark-leader-key`). Only the leader shows the launcher and the resource center.
   */
  frames?: { install?: boolean; leaderKeys?: string[]; leaderKey?: string };
}

/** The agent's methods, as `window.waymark` exposes them. */
export interface WaymarkApi {
  initialize(options: InitializeOptions): void;
  identify(
    visitor: string | number | { visitor?: EntityOptions; account?: EntityOptions; parentAccount?: EntityOptions },
    accountId?: string | number,
  ): void;
  /** A track event; `type`, when given, must be a non-empty string and is sent as `track_event_type`. */
  track(name: string, properties?: Record<string, unknown>, type?: string): void;
  getVisitorId(): string | null;
  getAccountId(): string | null;
  flushNow(): Promise<FlushReport | null>;
  showGuideById(guideId: string, stepId?: string): Promise<boolean>;
  showGuideByName(name: string): Promise<boolean>;
  hideGuides(): void;
  /** guides §4 goToStep on the guide shown now. */
  goToStep(stepId: string): Promise<boolean>;
  /** The guide shown now, or null. */
  getActiveGuide(): ActiveGuide | null;
  /** The guides the loop would show on this page, the shown one first. */
  getActiveGuides(): ActiveGuide[];
  onGuideAdvanced(listener: (notice: GuideNotice) => void): () => void;
  onGuidePrevious(listener: (notice: GuideNotice) => void): () => void;
  onGuideDismissed(listener: (notice: GuideNotice) => void): () => void;
  onGuideSnoozed(listener: (notice: GuideNotice) => void): () => void;
  /**
   * guides §4 lifecycle hooks: beforeMount, beforeAdvance, beforePrevious, beforeDismiss and beforeSnooze
   * cancel by returning false; the others (beforeUnmount, beforeUpdate, updated, unmounted, advanced,
   * dismissed, snoozed, hidden) are told. Returns the function that removes the hook.
   */
  addGuideHook(name: HookName, hook: GuideHook): () => void;
  /**
   * guides §5 a function a building block runs by name: `{ action: 'customAction', parameters: [name, ...rest] }`
   * calls `fn(guide, rest, target)` when the visitor uses it. Needs a string name and a function.
   */
  addCustomAction(name: string, fn: (guide: ActiveGuide, parameters: unknown[], target: Element | null) => unknown): void;
  /**
   * guides §5 a global script: `beforeMount(guide)` before each step it applies to shows (false cancels it) and
   * `script(guide, target)` once the step is drawn; it applies to the steps `test(guide)` accepts and whose guide
   * name or id `regex` matches (both optional). Needs a script or beforeMount function, else
   * 'Error adding invalid GlobalScript via API'.
   */
  addGlobalScript(script: {
    script?(guide: ActiveGuide, target: Element | null): unknown;
    beforeMount?(guide: ActiveGuide): unknown;
    test?(guide: ActiveGuide): boolean;
    regex?: RegExp;
  }): void;
  /**
   * guides §2 Designer: runs the launch flow (as Shift+Alt+7; the integrator tools chunk is fetched for it).
   * Before initialize has started the agent, the spec's error instead; answers whether a launch ran.
   */
  launchDesigner(): Promise<boolean | null>;
  /** guides §2 Launcher (guide center): opens its panel when closed, closes it when open. */
  toggleLauncher(): void;
  /** Opens the launcher's panel. */
  showLauncher(): void;
  /** Closes the launcher's panel (storing the launcher-closed flag for 8 hours, as a visitor's close does). */
  hideLauncher(): void;
  /** Takes the launcher (badge and panel) off this page. */
  removeLauncher(): void;
  /**
   * guides §4 the resource center's api launch: opens its panel (at its corner, home view), whatever its launch
   * methods; the only way in when it has neither badge nor dom activation, or its content failed validation.
   */
  openResourceCenter(): void;
  /** Closes the resource center's panel (clearing the active module). */
  closeResourceCenter(): void;
  /** Opens the resource center's panel when closed, closes it when open. */
  toggleResourceCenter(): void;
  /** Runs the guide loop (after delayGuides, or stopGuides). */
  startGuides(): void;
  /** Pauses the guide loop and hides what it shows. */
  stopGuides(): void;
  /** Asks the collector for this page's guides again. */
  loadGuides(): Promise<void>;
  setGuidesDisabled(disabled: boolean): void;
  areGuidesDisabled(): boolean;
  /** Why each loaded guide shows or not (the last load's verdicts); also printed to the console. */
  debugGuides(): Promise<GuideDiagnostics | null>;
  isReady(): boolean;
  getVersion(): string;
  /**
   * Issue #7: undoes initialize. Held events are handed to the worker and sent (or kept for the next page),
   * then every listener, hook, timer and overlay the agent added and its worker are removed. initialize may
   * be called again afterwards.
   */
  teardown(): Promise<void>;
  /**
   * Where the worker code runs (issue #7): `worker` (a dedicated worker from waymark.worker.js or
   * `workerUrl`), `blob` (a blob: worker importing it), `main-thread` (last resort); null until known.
   */
  getWorkerMode(): WorkerMode | null;
  /** The visitor's segment flags as the collector last answered; [] until it has. */
  getSegmentFlags(): string[];
  /** analytics §4: forget the visitor: a new anonymous visitor, no account, a new session. */
  clearSession(): void;
  /** analytics §1 lock: stop writing any event until startSendingEvents. */
  stopSendingEvents(): void;
  startSendingEvents(): void;
  isSendingEvents(): boolean;
  /** The last log entries, newest last. */
  getLogHistory(): ReturnType<Logger['history']>;
  /** analytics §9: console logging on (kept for later page loads in this browser). */
  enableLogging(): void;
  disableLogging(): void;
  /** Prints the log history (last 100 entries, printed by the tools chunk) and returns it. */
  showLogHistory(): ReturnType<Logger['history']>;
  /**
   * Console tools for integrators (analytics §1, issue #17), each in the tools chunk, printed as a console group
   * and answered: the install (api key, visitor, account, metadata, cookies), the natives the agent relies on,
   * the globals it needs, the page URL as the agent sends it, the environment it runs in.
   */
  validateInstall(): Promise<ToolReport | null>;
  validateNativeMethods(): Promise<ToolReport | null>;
  validateBuiltInGlobals(): Promise<ToolReport | null>;
  validateUrl(url?: string): Promise<ToolReport | null>;
  validateEnvironment(): Promise<ToolReport | null>;
  /**
   * analytics §4 debugging toggles: on (the debugger opens, logging turns on, kept for later pages) or off; the
   * reply is the spec's ('debugging enabled', 'debugging already enabled', ...). Only the leader frame may.
   */
  enableDebugging(): Promise<string | null>;
  disableDebugging(): Promise<string | null>;
}

/** The agent's files besides the initial script: its worker and the chunks it imports when needed. */
export type AgentAsset = 'worker' | 'inpage' | 'guides' | 'overlay' | 'privacy' | 'prompts' | 'frames' | 'author' | 'tools' | 'forms' | 'record' | 'steps' | 'render';

export interface AgentEnvironment {
  /**
   * URL of the folder that holds the agent's files (waymark.worker.js, waymark.overlay.js, ...), or of a file
   * in it; its origin is the default dataHost and contentHost.
   */
  assetBase: string;
  /**
   * Each file's own URL, where a bundler renamed them: the npm entry gives the URLs the host's bundler
   * emitted (`new URL('./waymark.worker.js', import.meta.url)`). @default `waymark.{name}.js` in assetBase
   */
  assets?: Record<AgentAsset, string>;
  /** URL of waymark.js, which the agent installs into child frames (analytics §7); unknown for npm installs. */
  agentUrl?: string;
  /** The agent's global (the snippet's `data-waymark-global`). @default 'waymark' */
  globalKey?: string;
  /** How the agent came to be on the page (analytics §3 Frame record agentInstallType). @default 'snippet' */
  installType?: AgentInstallType;
}

/** Guides off for this page (disableGuides, or guides.disabled): only session recording starts of the guides chunk. */
export function guidesOff(options: InitializeOptions): boolean {
  return !!(options.disableGuides || options.guides?.disabled);
}
