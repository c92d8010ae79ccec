/**
 * The public API of the agent (`window.waymark`, and the npm entry). Everything here runs on the host's
 * main thread, so it does only what needs the page: read options and storage, listen to the DOM, and
 * hand the rest to the worker. No method ever throws into the host: failures are logged.
 */
import { AGENT_VERSION, BEACON_SOURCE, EVENT_PROPERTY_LIMIT_MS, IFRAME_RESCAN_MS, SESSION_INACTIVITY_MS, STEP_SEEN_TIMEOUT_MS, TEARDOWN_FLUSH_MS } from '../shared/constants';
import { createChangeDebounce } from '../shared/analytics/createChangeDebounce';
import { matchSelectors, type EventPropertyCollector } from './collectEventProperties';
import { beaconUrl } from '../shared/wire/beaconUrl';
import type { UrlTransform } from '../shared/privacy/applyUrlTransforms';
import { enrichEvent, type EnvelopeContext } from '../shared/events/enrichEvent';
import type { PrivacyModule, PagePrivacy } from './privacy';
import type { PromptCaptureRule, PromptsModule } from './prompts';
import type { Frames, FramesModule } from './startFrames';
import type { FrameState } from '../shared/frames/frameVisibility';
import type { CapturedEvent } from '../shared/events/events';
import { PAGE_MESSAGES } from '../shared/messages';
import type { FlushReport, GuideDiagnostics, GuideState, Identity, Metadata, WorkerInit } from '../shared/protocol';
import type { ThrottlingConfig } from '../shared/guides/guides';
import { createBridge, type Bridge } from './createBridge';
import { startWorker, type WorkerMode } from './startWorker';
import { importChunk } from './importChunk';
import { trustedScriptUrl } from './trustedScriptUrl';
import type { ActiveGuide, GuideDisplay, GuideDisplayModule, GuideHook, GuideNotice, GuideNoticeName, LauncherCommand, ResourceCenterCommand } from './createGuideDisplay';
import type { HookName } from '../shared/guides/applyGuideTransition';
import { createLogger, type Logger } from './createLogger';
import { clearIdentity, resolveIdentify } from '../shared/identity/identityRules';
import { nextSession, type SessionRecord } from '../shared/identity/sessionRules';
import { loadIdentity, loadTabFacts, secureRandom, sessionStore, visitorStore } from './loadIdentity';
import { watchClickEffects, type ClickEffectWatcher } from './watchClickEffects';
import { watchTabClones } from './watchTabClones';
import { watchUrl } from './watchUrl';
import { captureElementPath } from './captureElementPath';

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
  /** Capture element text as `txt` on clicks. @default false */
  captureText?: boolean;
  /** guides §1: no guides at all. @default false */
  disableGuides?: boolean;
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
  /** Prints the log history (last 100 entries) and returns it. */
  showLogHistory(): ReturnType<Logger['history']>;
}

/** The agent's files besides the initial script: its worker and the chunks it imports when needed. */
export type AgentAsset = 'worker' | 'inpage' | 'guides' | 'overlay' | 'privacy' | 'prompts' | 'frames';

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
}

/** A running agent's state (exported as a type for the frames chunk, which reads and extends it). */
export interface Running {
  options: InitializeOptions;
  init: WorkerInit;
  /** The URL an event reports: custom URL source and host-function transforms applied. */
  pageUrl(): string;
  /** What the page-hide path does to an event, the same as the worker does. */
  prepare(event: CapturedEvent, ctx: EnvelopeContext): string;
  bridge: Bridge;
  identity: Identity;
  /** Set once waymark.guides.js has loaded (null while loading, or with guides off). */
  guides: GuideDisplay | null;
  /** Resolves with the guide display once its chunk is here; null when guides are off or it failed. */
  guidesReady: Promise<GuideDisplay | null>;
  /** The session as this page knows it; written back to the shared record at most once a minute. */
  session: SessionRecord;
  sessionSavedAt: number;
  /** Dead and error click detection (analytics §4). */
  clicks: ClickEffectWatcher;
  /** Undo functions of hooks installed in the host page (teardown, issue #7). */
  uninstall: Array<() => void>;
  workerMode: WorkerMode | null;
  sessions: ReturnType<typeof sessionStore>;
  /** analytics §4 Frames: this frame's leadership and visibility; the frames chunk once loaded. */
  frame: FrameState;
  frames?: Frames;
}

/** How often the session's last activity is written back to local storage (never on every event). */
const SESSION_SAVE_INTERVAL_MS = 60_000;

export function createAgent(env: AgentEnvironment): WaymarkApi {
  const assetUrl = (name: AgentAsset) => env.assets?.[name] ?? new URL(`waymark.${name}.js`, env.assetBase).href;
  const logger = createLogger();
  const log = logger.log;
  let state: 'idle' | 'waiting' | 'running' = 'idle';
  let running: Running | null = null;
  /** analytics §1 lock. */
  let sending = true;
  /** Calls off an initialize still waiting for the page's load event (teardown). */
  let cancelWaiting: (() => void) | null = null;
  /** The visitor's segment flags as the collector last answered (analytics §7). */
  let segmentFlags: string[] = [];
  /** Commands given before the agent runs, replayed in order once it does (guides §1). */
  const pending: Array<(r: Running) => void> = [];

  /** analytics §3 event property rules of the last guide load; emptied for good when one collection is too slow. */
  let collectProperties: EventPropertyCollector | null = null;
  let eventRulesDisabled = false;

  /** guides §5 setGuidesDisabled: the loop is paused and nothing new shows. */
  let guidesDisabled = false;

  /** analytics §9 change-event debounce: repeats of an element's change within 5000 ms are not sent. */
  const changeIsNew = createChangeDebounce();

  /** Runs `fn` on the guide display once the agent runs; `fallback` when guides are off. */
  function withGuides<T>(fn: (g: GuideDisplay) => Promise<T>, fallback: T): Promise<T> {
    return new Promise((resolve) => {
      whenRunning((r) => {
        void r.guidesReady.then((g) => {
          if (!g || !g.supported()) {
            log('warn', g ? PAGE_MESSAGES.notInSubscription : 'guides are disabled');
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
    onGuides((g) => (g.supported() ? fn(g) : log('warn', PAGE_MESSAGES.notInSubscription)));
  }

  /** toggleLauncher, showLauncher, hideLauncher, removeLauncher: run in the guides chunk once it is here. */
  const launcherCommand = (command: LauncherCommand) => () => guard(() => guideFunction((g) => g.launcher(command)));
  /** open/close/toggleResourceCenter, likewise. */
  const resourceCenterCommand = (command: ResourceCenterCommand) => () => guard(() => guideFunction((g) => g.resourceCenter(command)));

  /** onGuideXxx: listens once the agent runs; returns the function that stops listening. */
  function subscribe(name: GuideNoticeName, listener: (notice: GuideNotice) => void): () => void {
    let remove = () => undefined as void;
    let removed = false;
    onGuides((g) => {
      if (!removed) remove = g.on(name, listener);
    });
    return () => {
      removed = true;
      remove();
    };
  }

  function whenRunning<T>(fn: (r: Running) => T, fallback: T): T {
    if (running) return fn(running);
    pending.push((r) => void fn(r));
    return fallback;
  }

  function capture(event: Omit<CapturedEvent, 'time' | 'url' | 'sequence'> & Partial<CapturedEvent>): number {
    if (!sending || !running) return -1;
    const now = Date.now();
    const r = running;
    // analytics §4: a session ends after 30 minutes without activity. One comparison per event; the
    // shared record is written back at most once a minute, not on every click.
    if (now - r.session.lastActivityAt >= SESSION_INACTIVITY_MS) updateSession(r, now, r.identity.visitorId);
    else {
      r.session.lastActivityAt = now;
      if (now - r.sessionSavedAt >= SESSION_SAVE_INTERVAL_MS) saveSession(r, now);
    }
    return r.bridge.capture({ time: now, url: r.pageUrl(), ...event });
  }

  function saveSession(r: Running, now: number): void {
    r.sessions.write(r.session);
    r.sessionSavedAt = now;
  }

  /**
   * Applies the session rules (shared/identity/sessionRules) against the shared record, which another tab may have
   * renewed or kept alive; tells the worker when the session id changed.
   */
  function updateSession(r: Running, now: number, visitorId: string): void {
    const stored = r.sessions.read();
    const base = stored && stored.lastActivityAt > r.session.lastActivityAt ? stored : r.session;
    const decision = nextSession(base, now, visitorId, secureRandom);
    r.session = decision.record;
    saveSession(r, now);
    if (decision.record.sessionId !== r.init.session.sessionId) {
      r.init.session = { ...r.init.session, sessionId: decision.record.sessionId };
      r.bridge.setSession(r.init.session);
    }
  }

  /** The host element an event is about, or null for our own overlay (guide activity is reported apart). */
  function hostTarget(event: Event): Element | null {
    const target = event.target;
    if (!running || !(target instanceof Element)) return null;
    // The overlay lives in a shadow root, so document listeners see its host element as the target.
    if (target.parentNode === document.documentElement && target.hasAttribute('data-waymark-overlay')) return null;
    // Inside a host component's open shadow root the event was retargeted to its host: the element the
    // visitor used is the first of the composed path (issue #7). Closed roots stay at their host.
    if (target.shadowRoot) {
      const inner = event.composedPath()[0];
      if (inner instanceof Element) return inner;
    }
    return target;
  }

  function onClick(event: MouseEvent): void {
    const target = hostTarget(event);
    if (!target || !running) return;
    const flags: string[] = [event.button === 1 ? 'middle' : event.button === 2 ? 'right' : 'left'];
    if (event.altKey) flags.push('alt');
    if (event.ctrlKey) flags.push('ctrl');
    if (event.metaKey) flags.push('meta');
    if (event.shiftKey) flags.push('shift');
    const props: Record<string, unknown> = { flags, x: event.pageX, y: event.pageY };
    if (collectProperties) {
      // analytics §3, §8: event property rules; a collection over 50 ms is disabled with a critical error.
      const started = performance.now();
      const values = collectProperties(target);
      const took = performance.now() - started;
      if (values) props.event_properties = values;
      if (took > EVENT_PROPERTY_LIMIT_MS) {
        collectProperties = null;
        eventRulesDisabled = true;
        const message = `Event property collection took ${Math.round(took)} ms, over ${EVENT_PROPERTY_LIMIT_MS} ms: disabled for this page`;
        log('error', message);
        void running.bridge.call((w) => w.reportError({ message, critical: true }));
      }
    }
    // Page coordinates: the worker judges rage clicks from them (analytics §4).
    const sequence = capture({ type: 'click', element: captureElementPath(target, running.options), props });
    if (sequence >= 0) running.clicks.watch(sequence, target);
    const submitter = matchSelectors(target, running.options.submitCssSelectors);
    if (submitter) capture({ type: 'submit', element: captureElementPath(submitter, running.options), props: {} });
  }

  /** focusout on an element of inputCssSelectors: a custom input was left, which counts as a change. */
  function onFocusOut(event: FocusEvent): void {
    const target = hostTarget(event);
    if (!target || !running) return;
    const input = matchSelectors(target, running.options.inputCssSelectors);
    if (input && changeIsNew(input, Date.now())) capture({ type: 'change', element: captureElementPath(input, running.options), props: {} });
  }

  /** Loads the prompt-capture chunk and installs its fetch/XHR observers; prompts become events. */
  function installPrompts(rules: PromptCaptureRule[], privacy: PagePrivacy | null): void {
    void loadChunk<PromptsModule, void>('prompts', (m) => {
      const uninstall = m.installPromptCapture(rules, {
        emit: (props) => capture({ type: 'prompt', props: { ...props } }),
        privacyFilters: privacy ? [...privacy.filters.privacyFilters] : [],
        log,
      });
      if (running) running.uninstall.push(uninstall);
    });
  }

  /**
   * Imports the lazy chunk `name` (shim/importChunk.ts tries a failed fetch again) and hands it to `use`; when
   * it cannot load, logs 'the {name} module did not load (url): error' (and `consequence`) and answers null.
   */
  function loadChunk<M, T>(name: AgentAsset, use: (m: M) => T, consequence = ''): Promise<T | null> {
    const url = assetUrl(name);
    return importChunk<M>(url).then(use, (err: unknown) => {
      log('error', `the ${name} module did not load (${url}): ${String(err)}${consequence}`);
      return null;
    });
  }

  /**
   * analytics §4 Frames, §7: the frames chunk joins this frame to its tab's frames and installs the agent into
   * child iframes. A child frame loads it at once; the top frame once the page has an iframe element (a live
   * list, checked every 250 ms), so a page without frames never fetches it.
   */
  function startFramesWhenDue(r: Running): void {
    const iframes = document.getElementsByTagName('iframe');
    const due = () => {
      if (r.frame.isTop && !iframes.length) return;
      clearInterval(poll);
      void loadChunk<FramesModule, void>('frames', (m) => guard(() => running === r && m.startFrames(r, env, log, trustedScriptUrl, (next) => changeIdentity(r, next, true))));
    };
    const poll = setInterval(due, IFRAME_RESCAN_MS);
    r.uninstall.push(() => clearInterval(poll));
    due();
  }

  /** focus, submit and change (analytics §1): the element, never a value (values are not collected). */
  function onElementEvent(event: Event): void {
    const target = hostTarget(event);
    if (!target || !running) return;
    const type = event.type === 'focusin' ? 'focus' : (event.type as 'submit' | 'change');
    if (type === 'change' && !changeIsNew(target, Date.now())) return;
    capture({ type, element: captureElementPath(target, running.options), props: {} });
  }

  /**
   * Page hide: the worker may be gone within milliseconds (navigation) or frozen (background tab), so the
   * page sends what it still holds itself, with sendBeacon, as a plain JSON POST the collector accepts.
   * The worker also flushes and keeps everything in IndexedDB until delivered, so whichever copy arrives
   * first is stored and the collector's dedupe (tabId, frameId, sequence) drops the other.
   */
  function onPageHide(event: Event): void {
    if (!running || (event.type === 'visibilitychange' && document.visibilityState !== 'hidden')) return;
    // Leaving is what a click on a link does: clicks being watched had an effect.
    running.clicks.effect();
    // analytics §1: unload and hidden-state events, captured first so they travel in this very beacon.
    capture({ type: event.type === 'pagehide' ? 'unload' : 'hidden', props: {} });
    const { bridge, init } = running;
    const held = bridge.held();
    bridge.flushCaptured();
    void bridge.call((api) => api.flush());
    if (held.length) sendTail(init, running.prepare, held);
  }

  /**
   * Switches identity: events captured so far cross first and keep the old identity; the identify event
   * is the new visitor's first, with the old ids in its props (wire-protocol.md "identify"). A known
   * visitor changing starts a new session (analytics §4).
   */
  function changeIdentity(r: Running, next: { visitorId: string; accountId: string }, synced?: boolean): void {
    const old = r.identity;
    const identity: Identity = { ...next, oldVisitorId: old.visitorId };
    r.identity = identity;
    r.bridge.setIdentity(identity);
    updateSession(r, Date.now(), identity.visitorId);
    capture({
      type: 'identify',
      props: { old_visitor_id: old.visitorId, old_account_id: old.accountId, visitor_id: next.visitorId, account_id: next.accountId },
    });
    // analytics §4 Frames: the leader's identity reaches the other frames (not one it took from the leader).
    if (!synced) r.frames?.identityChanged();
  }

  function metadataOf(options: InitializeOptions): Metadata {
    return { visitor: { ...options.visitor }, account: { ...options.account }, parentAccount: { ...options.parentAccount } };
  }

  function start(options: InitializeOptions, privacy: PagePrivacy | null): void {
    const origin = new URL(env.assetBase).origin;
    const identity = loadIdentity(
      options.apiKey,
      {
        visitorId: options.visitor?.id,
        accountId: options.account?.id,
        parentAccountId: options.parentAccount?.id,
        localStorageOnly: options.localStorageOnly,
        cookieDays: options.cookieDays,
      },
      log,
    );
    const now = Date.now();
    const sessions = sessionStore(options.apiKey);
    const session = nextSession(sessions.read(), now, identity.visitorId, secureRandom);
    sessions.write(session.record);
    const campaignKey = `_wm_campaign.${options.apiKey}`;
    const guideStateKey = `_wm_guides.${options.apiKey}`;
    const guideState = readJson<GuideState>(guideStateKey);
    const tab = loadTabFacts();
    const top = window.top === window;
    // A duplicated tab starts with the original's tab id; the clone takes a new one (analytics §4).
    const clones = watchTabClones(options.apiKey, tab.tabId, tab.frameId, (tabId) => {
      if (!running) return;
      running.init.session = { ...running.init.session, tabId };
      running.bridge.setSession(running.init.session);
    });
    tab.tabId = clones.tabId;
    const init: WorkerInit = {
      apiKey: options.apiKey,
      dataHost: trimOrigin(options.dataHost ?? origin),
      contentHost: trimOrigin(options.contentHost ?? origin),
      agentVersion: AGENT_VERSION,
      identity,
      session: { sessionId: session.record.sessionId, ...tab },
      metadata: metadataOf(options),
      // Classified in the worker (the site lists are no business of the main thread); see onCampaign.
      utm: readJson(campaignKey) ?? { channel: 'Direct' },
      campaign: { pageUrl: document.URL, referrer: document.referrer, newSession: session.isNew },
      // A child frame's loads are not the tab's page changes (U-turns, analytics §4).
      recentPages: top ? recentPages() : [],
      device: matchMedia('(max-width: 767px)').matches ? 'mobile' : 'desktop',
      sendEventsWithPostOnly: options.sendEventsWithPostOnly === true,
      // Checked by the worker (analytics §5), which logs and drops an invalid pair.
      signedMetadata: options.jwt !== undefined || options.signingKeyName !== undefined ? { jwt: options.jwt, signingKeyName: options.signingKeyName } : undefined,
      signedMetadataMode: options.signedMetadata,
      urlTransforms: privacy ? [...privacy.filters.urlTransforms] : [],
      privacyFilters: privacy ? [...privacy.filters.privacyFilters] : [],
      disableStackTraces: options.disableStackTraces === true,
      guides: {
        timeoutMs: options.guides?.timeout ?? options.guideTimeout,
        dropAnonymous: options.guides?.dropAnonymous === true,
        throttling: options.guides?.throttling,
        adoptionGuides: options.guides?.adoptionGuides,
        allowedOrigins: options.guides?.allowedOrigins,
        disablePrefetch: options.guides?.disablePrefetch === true,
        state: guideState?.visitorId === identity.visitorId ? guideState : undefined,
      },
    };
    const worker = startWorker({
      scriptUrl: assetUrl('worker'),
      workerUrl: typeof options.workerUrl === 'string' && options.workerUrl ? options.workerUrl : undefined,
      inPageUrl: assetUrl('inpage'),
      log,
      onMode: (mode) => running && (running.workerMode = mode),
    });
    const bridge = createBridge(worker, init, log, {
      campaign: (utm) => {
        // The session's traffic source as the worker classified it: kept for the session's later pages.
        init.utm = utm;
        writeJson(campaignKey, utm);
      },
      segmentFlags: (flags) => (segmentFlags = flags),
      guideState: (state) => writeJson(guideStateKey, state),
    });
    running = {
      options,
      init,
      bridge,
      identity,
      guides: null,
      guidesReady: Promise.resolve(null),
      // document.URL, not location.href: the same URL (pushState updates both) at a tenth of the cost here.
      pageUrl: privacy?.pageUrl ?? (() => document.URL),
      prepare: privacy?.prepare ?? ((event, ctx) => enrichEvent(event, ctx).json),
      session: session.record,
      sessionSavedAt: now,
      uninstall: [],
      workerMode: null,
      clicks: watchClickEffects(
        (sequence, frustrationTypes, errorMessage) => bridge.verdict({ sequence, frustrationTypes, errorMessage }),
        options.errorClickLogging !== false,
      ),
      sessions,
      frame: { isTop: top, leader: top, visibility: top ? 'visible' : 'unknown', othersShowing: false },
    };
    state = 'running';

    const listen = (target: EventTarget, type: string, listener: (event: never) => void, options?: AddEventListenerOptions) => {
      target.addEventListener(type, listener as EventListener, options);
      running!.uninstall.push(() => target.removeEventListener(type, listener as EventListener, options));
    };
    const captureOptions = { capture: true, passive: true };
    listen(document, 'click', onClick, captureOptions);
    for (const type of ['focusin', 'submit', 'change']) listen(document, type, onElementEvent, captureOptions);
    if (options.inputCssSelectors?.length) listen(document, 'focusout', onFocusOut, captureOptions);
    // analytics §1, §9: a single-page app's page change is a page load, reported once.
    if (top) rememberPage(document.URL, now);
    running.uninstall.push(
      watchUrl((url) => {
        running?.clicks.effect();
        if (top) rememberPage(url, Date.now());
        capture({ type: 'load', props: {} });
      }),
      clones.stop,
      running.clicks.stop,
    );
    listen(document, 'visibilitychange', onPageHide);
    listen(window, 'pagehide', onPageHide);

    // wire-protocol.md: on initialization the agent sends identify, meta and load in its first beacon.
    const ids = { visitor_id: identity.visitorId, account_id: identity.accountId };
    capture({ type: 'identify', props: { old_visitor_id: '', old_account_id: '', ...ids } });
    capture({
      type: 'meta',
      props: {
        ...metadataOf(options),
        visitor: { ...options.visitor, id: identity.visitorId, language: navigator.language.replace('-', '_') },
        date: new Date().toLocaleDateString('en-GB'),
        version: AGENT_VERSION,
        selfHosted: true,
      },
    });
    const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
    capture({ type: 'load', props: { load_time: Math.round((nav?.loadEventEnd || performance.now()) * 10) / 10 } });

    if (!options.disableGuides && !options.guides?.disabled) {
      const delay = options.guides?.delay ?? options.delayGuides;
      const seenTimeout = options.guides?.seenTimeout;
      // The guide loop and its API are a chunk of their own (waymark.guides.js), so the initial shim stays
      // small; it is fetched now, the overlay (React) only when a guide shows.
      const r = running;
      r.guidesReady = loadChunk<GuideDisplayModule, GuideDisplay>('guides', (m) => {
        const display = m.createGuideDisplay({
          bridge,
          overlayUrl: assetUrl('overlay'),
          log,
          // guides §5 delayGuides: true holds the loop until startGuides(); a number of ms starts it then.
          delayed: guidesDisabled || delay === true || (typeof delay === 'number' && delay > 0),
          preventCodeInjection: options.preventCodeInjection === true,
          trustedScriptUrl,
          onEventPropertyRules: (collect) => {
            if (!eventRulesDisabled) collectProperties = collect;
          },
          seenTimeoutMs: seenTimeout === true ? STEP_SEEN_TIMEOUT_MS : typeof seenTimeout === 'number' ? seenTimeout : undefined,
          frame: r.frame,
          onShown: (step) => r.frames?.shown(step),
        });
        if (typeof delay === 'number' && delay > 0) setTimeout(() => guidesDisabled || display.start(), delay);
        return (r.guides = display);
      });
    }
    if (Array.isArray(options.promptCapture) && options.promptCapture.length) installPrompts(options.promptCapture, privacy);
    startFramesWhenDue(running);
    const queued = pending.splice(0);
    for (const command of queued) command(running);
  }

  const api: WaymarkApi = {
    initialize(given) {
      let options = given;
      if (state !== 'idle') {
        log('warn', PAGE_MESSAGES.initializeOnce);
        return;
      }
      if (!options || typeof options.apiKey !== 'string' || !options.apiKey.trim()) {
        log('warn', PAGE_MESSAGES.apiKeyMissing);
        return;
      }
      if (options.disabled === true) {
        log('info', PAGE_MESSAGES.agentDisabled);
        return;
      }
      // spec: analytics §5, §8 — the selector options must be arrays; anything else is ignored, said once.
      for (const name of ['inputCssSelectors', 'submitCssSelectors'] as const) {
        if (options[name] !== undefined && !Array.isArray(options[name])) {
          log('error', name === 'inputCssSelectors' ? PAGE_MESSAGES.inputSelectorsNotArray : PAGE_MESSAGES.submitSelectorsNotArray);
          options = { ...options, [name]: undefined };
        }
      }
      logger.setEnvironment(typeof options.environment === 'string' ? options.environment : undefined);
      state = 'waiting';
      const go = () => {
        cancelWaiting = null;
        if (state !== 'waiting') return;
        if (!needsPrivacy(options)) return guard(() => start(options, null));
        // URL transforms, a privacy filter or a custom URL source: their code is a chunk of its own, so
        // hosts without them never load it. The agent starts once it is here: no event ever leaves the
        // page without the filters.
        void loadChunk<PrivacyModule, void>(
          'privacy',
          (m) => guard(() => state === 'waiting' && start(options, m.createPagePrivacy(options, log))),
          '; Waymark will not send events without it',
        );
      };
      // guides §1: initialize only once the page is complete, unless initializeImmediately.
      if (options.initializeImmediately || document.readyState === 'complete') go();
      else {
        addEventListener('load', go, { once: true });
        cancelWaiting = () => removeEventListener('load', go);
      }
    },

    async teardown() {
      // Not started yet: the start is called off. Started: what the page holds goes to the worker, the
      // worker sends (or keeps in IndexedDB for the next page) within TEARDOWN_FLUSH_MS, then everything the
      // agent put into the page goes: listeners, hooks, timers, overlays, the worker.
      cancelWaiting?.();
      cancelWaiting = null;
      pending.length = 0;
      const r = running;
      state = 'idle';
      running = null;
      if (!r) return;
      r.bridge.flushCaptured();
      for (const undo of r.uninstall.splice(0)) guard(undo);
      r.guides?.stop();
      void r.guidesReady.then((g) => g?.stop());
      await Promise.race([r.bridge.call((w) => w.flush()).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TEARDOWN_FLUSH_MS))]);
      r.bridge.terminate();
    },

    identify(visitor, accountId) {
      guard(() =>
        whenRunning((r) => {
          const requested = typeof visitor === 'object' && visitor !== null
            ? { visitorId: visitor.visitor?.id, accountId: visitor.account?.id, parentAccountId: visitor.parentAccount?.id }
            : { visitorId: visitor, accountId };
          // analytics §4, §5: invalid ids are ignored and logged, an invalid account clears the account.
          const decision = resolveIdentify(r.identity, requested, secureRandom);
          for (const line of decision.logs) log('warn', line);
          if (decision.changed) changeIdentity(r, { visitorId: decision.visitorId, accountId: decision.accountId });
        }, undefined),
      );
    },

    clearSession() {
      guard(() =>
        whenRunning((r) => {
          const fresh = clearIdentity(secureRandom);
          visitorStore(r.options.apiKey, r.options).write(fresh.visitorId);
          changeIdentity(r, fresh);
        }, undefined),
      );
    },

    track(name, properties, type) {
      guard(() => {
        // spec: analytics §5 — a non-empty string name, and a type string where one is given.
        if (typeof name !== 'string' || !name.trim()) {
          log('error', PAGE_MESSAGES.invalidTrackName);
          return;
        }
        if (type !== undefined && (typeof type !== 'string' || !type.trim())) {
          log('error', PAGE_MESSAGES.invalidTrackType);
          return;
        }
        const props = properties && typeof properties === 'object' ? { ...properties } : {};
        whenRunning(() => capture({ type: 'track', trackEventName: name, trackEventType: type, props }), undefined);
      });
    },

    getVisitorId: () => running?.identity.visitorId ?? null,
    getAccountId: () => running?.identity.accountId || null,

    flushNow() {
      return new Promise((resolve) => {
        whenRunning((r) => {
          r.bridge.call((w) => w.flush()).then(
            (outcome) => resolve(outcome.ok ? outcome.value : null),
            (err: unknown) => {
              log('error', `flushNow failed: ${String(err)}`);
              resolve(null);
            },
          );
        }, undefined);
      });
    },

    showGuideById(guideId, stepId) {
      return withGuides((g) => g.showGuideById(String(guideId), stepId), false);
    },

    hideGuides() {
      // guides §4: every frame's guide goes (receiveHideGuides).
      guard(() => guideFunction((g) => (g.hideGuides(), running?.frames?.hideGuides())));
    },

    showGuideByName(name) {
      return withGuides((g) => g.showGuideByName(String(name)), false);
    },
    goToStep(stepId) {
      return withGuides((g) => g.goToStep(String(stepId)), false);
    },
    getActiveGuide: () => running?.guides?.getActiveGuide() ?? null,
    getActiveGuides: () => running?.guides?.getActiveGuides() ?? [],
    onGuideAdvanced: (listener) => subscribe('advanced', listener),
    onGuidePrevious: (listener) => subscribe('previous', listener),
    onGuideDismissed: (listener) => subscribe('dismissed', listener),
    onGuideSnoozed: (listener) => subscribe('snoozed', listener),
    addGuideHook(name, hook) {
      let remove = () => undefined as void;
      let removed = false;
      onGuides((g) => {
        if (!removed) remove = g.addHook(name, hook);
      });
      return () => {
        removed = true;
        remove();
      };
    },
    toggleLauncher: launcherCommand('toggle'),
    showLauncher: launcherCommand('show'),
    hideLauncher: launcherCommand('hide'),
    removeLauncher: launcherCommand('remove'),
    openResourceCenter: resourceCenterCommand('open'),
    closeResourceCenter: resourceCenterCommand('close'),
    toggleResourceCenter: resourceCenterCommand('toggle'),
    startGuides() {
      guidesDisabled = false;
      guideFunction((g) => g.start());
    },
    stopGuides() {
      guideFunction((g) => g.pause());
    },
    loadGuides() {
      return withGuides(async (g) => void (await g.reload()), undefined);
    },
    setGuidesDisabled(disabled) {
      guidesDisabled = disabled === true;
      guideFunction((g) => (guidesDisabled ? g.pause() : g.start()));
    },
    areGuidesDisabled: () => guidesDisabled || (running !== null && running.options.disableGuides === true) || running?.options.guides?.disabled === true,
    async debugGuides() {
      if (!running) return null;
      const diagnostics = await running.bridge.call((w) => w.guideDiagnostics());
      for (const g of diagnostics.guides) log('info', `guide ${g.id}${g.name ? ` (${g.name})` : ''}: ${g.candidate ? 'may show' : 'not shown'}, ${g.reason}; ${g.completion}`);
      if (diagnostics.loadError) log('info', `last guide load: ${diagnostics.loadError}`);
      return diagnostics;
    },

    stopSendingEvents() {
      sending = false;
      whenRunning((r) => void r.bridge.call((w) => w.setSending(false)), undefined);
    },
    startSendingEvents() {
      sending = true;
      whenRunning((r) => void r.bridge.call((w) => w.setSending(true)), undefined);
    },
    isSendingEvents: () => sending,
    getSegmentFlags: () => segmentFlags.slice(),

    isReady: () => state === 'running',
    getVersion: () => AGENT_VERSION,
    getWorkerMode: () => running?.workerMode ?? null,
    getLogHistory: () => logger.history(),
    enableLogging: () => logger.enable(),
    disableLogging: () => logger.disable(),
    showLogHistory: () => logger.showHistory(),
  };

  /** Runs an API body so that nothing it throws reaches the host page. */
  function guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      const e = err as Error;
      log('error', `internal error: ${e?.message ?? String(err)}`);
      // analytics §8: internal errors go to the error log, de-duplicated by the worker's reporter.
      void running?.bridge.call((w) => w.reportError({ message: `internal error: ${e?.message ?? String(err)}`, stack: e?.stack, critical: true }));
    }
  }

  return api;
}

/** Largest page-hide beacon body; sendBeacon and keepalive share a 64 KiB in-flight quota. */
const TAIL_BODY_LIMIT = 60_000;

/** Sends held events as plain JSON POSTs (`{"events":[...]}`), in pieces within the beacon quota. */
function sendTail(
  init: WorkerInit,
  prepare: (event: CapturedEvent, ctx: EnvelopeContext) => string,
  held: Array<{ event: CapturedEvent; identity: Identity }>,
): void {
  const jsons = held.map(({ event, identity }) => prepare(event, { identity, session: init.session, utm: init.utm }));
  let start = 0;
  while (start < jsons.length) {
    let end = start;
    let size = 12;
    while (end < jsons.length && (end === start || size + jsons[end]!.length + 1 <= TAIL_BODY_LIMIT)) size += jsons[end++]!.length + 1;
    const body = `{"events":[${jsons.slice(start, end).join(',')}]}`;
    const url = beaconUrl(init.dataHost, 'ptm.gif', init.apiKey, { v: AGENT_VERSION, ct: Date.now(), s: body.length, source: BEACON_SOURCE.pageHide });
    // A string body goes as text/plain: no CORS preflight, which a page being unloaded could not wait for.
    if (!navigator.sendBeacon?.(url, body)) {
      void fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit', mode: 'no-cors' }).catch(() => undefined);
    }
    start = end;
  }
}

const PAGES_KEY = '_wm_pages';

/** The tab's last two page loads, oldest first (session storage: this tab only). */
function recentPages(): Array<{ url: string; time: number }> {
  try {
    const pages = JSON.parse(sessionStorage.getItem(PAGES_KEY) ?? '[]') as Array<{ url: string; time: number }>;
    return Array.isArray(pages) ? pages.filter((p) => typeof p?.url === 'string' && typeof p.time === 'number').slice(-2) : [];
  } catch {
    return [];
  }
}

/** Records a page load of this tab, for the next page's U-turn check. One write per page change. */
function rememberPage(url: string, time: number): void {
  try {
    sessionStorage.setItem(PAGES_KEY, JSON.stringify([...recentPages(), { url, time }].slice(-2)));
  } catch {
    // No session storage: U-turns across full navigations go unseen.
  }
}

function readJson<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage unavailable: the next page classifies its own traffic.
  }
}

function needsPrivacy(options: InitializeOptions): boolean {
  return (Array.isArray(options.urlTransforms) && options.urlTransforms.length > 0) ||
    options.privacyFilter !== undefined || options.customUrl !== undefined || options.urlTransforms !== undefined;
}

function trimOrigin(host: string): string {
  return host.replace(/\/+$/, '');
}
