/**
 * Starting the agent on the page (guides §1, analytics §1, §3, §4, §7, §9): identity and session from storage,
 * the worker's init, the worker and its bridge, the DOM listeners, the first beacon's identify, meta and load
 * events, the guides chunk (the overlay only when a guide shows), prompt capture, and frames. Everything put into
 * the page is undone by `Running.uninstall` at teardown.
 */
import { AGENT_VERSION, IFRAME_RESCAN_MS, RENDER_CHUNK_MESSAGE, STEP_SEEN_TIMEOUT_MS } from '../shared/constants';
import { enrichEvent } from '../shared/events/enrichEvent';
import { nextSession } from '../shared/identity/sessionRules';
import type { GuideState, WorkerInit } from '../shared/protocol';
import { guidesOff, type AgentEnvironment, type InitializeOptions } from './agentOptions';
import type { Running } from './agentState';
import { createBridge } from './createBridge';
import type { Capture } from './createCapture';
import type { GuideDisplay, GuideDisplayModule } from './createGuideDisplay';
import type { LogLevel } from '../shared/protocol';
import { assetUrlOf, type ChunkLoader } from './loadChunk';
import { loadIdentity, loadTabFacts, secureRandom, sessionStore } from './loadIdentity';
import { hadGuidesKey, recentPages, readJson, rememberPage, writeJson } from './pageStorage';
import type { PagePrivacy } from './privacy';
import type { PromptsModule } from './prompts';
import type { FramesModule } from './startFrames';
import { startWorker } from './startWorker';
import { trustedScriptUrl } from './trustedScriptUrl';
import { watchClickEffects } from './watchClickEffects';
import { watchTabClones } from './watchTabClones';
import { watchUrl } from './watchUrl';
import { metadataOf, metaProps } from './metadata';
import { whenIdle } from './whenIdle';
import { createTicker, TICK_MS } from './createTicker';

/** What starting needs of the agent. */
export interface StartHost {
  env: AgentEnvironment;
  log(level: LogLevel, message: string): void;
  loadChunk: ChunkLoader;
  capture: Capture;
  /** Runs a body so that nothing it throws reaches the host page. */
  guard(fn: () => void): void;
  /** The agent's state exists: events may be captured from now on. */
  onRunning(r: Running): void;
  /** Whether `r` is still the running agent (not torn down meanwhile). */
  isCurrent(r: Running): boolean;
  onSegmentFlags(flags: string[]): void;
  /** guides §5 setGuidesDisabled, or a delay, holds the guide loop. */
  guidesDisabled(): boolean;
}

export function startAgent(options: InitializeOptions, privacy: PagePrivacy | null, host: StartHost): Running {
  const { env, log, loadChunk } = host;
  const { capture } = host.capture;
  // Set once the agent's state exists; callbacks made before then find none, as they found no running agent.
  let r: Running | undefined;
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
  const metadata = metadataOf(options);
  const sessions = sessionStore(options.apiKey);
  const guideOptions = options.guides ?? {};
  const campaignKey = `_wm_campaign.${options.apiKey}`;
  const guideStateKey = `_wm_guides.${options.apiKey}`;
  const top = window.top === window;
  let stopClones = () => undefined as void;
  const renderUrl = guidesOff(options) ? undefined : assetUrlOf(env, 'render');
  const init: WorkerInit = {
    apiKey: options.apiKey,
    dataHost: trimOrigin(options.dataHost ?? origin),
    contentHost: trimOrigin(options.contentHost ?? origin),
    agentVersion: AGENT_VERSION,
    identity,
    // Filled from the browser's stores when the page is idle (readStores below, issue #16).
    session: {} as WorkerInit['session'],
    metadata,
    // Classified in the worker (the site lists are no business of the main thread); see onCampaign. The
    // session's stored source and whether the session is new come with the other stores (readStores).
    utm: {},
    campaign: { pageUrl: document.URL, referrer: document.referrer, newSession: true },
    device: matchMedia('(max-width: 767px)').matches ? 'mobile' : 'desktop',
    sendEventsWithPostOnly: options.sendEventsWithPostOnly === true,
    // Checked by the worker (analytics §5), which logs and drops an invalid pair.
    signedMetadata: options.jwt !== undefined || options.signingKeyName !== undefined ? { jwt: options.jwt, signingKeyName: options.signingKeyName } : undefined,
    signedMetadataMode: options.signedMetadata,
    urlTransforms: [...(privacy?.filters.urlTransforms ?? [])],
    privacyFilters: [...(privacy?.filters.privacyFilters ?? [])],
    disableStackTraces: options.disableStackTraces === true,
    guides: {
      timeoutMs: guideOptions.timeout ?? options.guideTimeout,
      dropAnonymous: guideOptions.dropAnonymous === true,
      throttling: guideOptions.throttling,
      adoptionGuides: guideOptions.adoptionGuides,
      allowedOrigins: guideOptions.allowedOrigins,
      disablePrefetch: guideOptions.disablePrefetch === true,
      renderUrl,
    },
  };
  /**
   * Issue #16: everything the start needs of local and session storage, read once the page is idle (the bridge
   * sends init then; see shim/whenIdle.ts), so that the host's load pays none of their first-touch IPCs. The
   * session is decided as of the page's start; activity since then is kept.
   */
  const readStores = () => {
    const session = nextSession(sessions.read(), now, identity.visitorId, secureRandom);
    running.session = { ...session.record, lastActivityAt: running.session.lastActivityAt };
    sessions.write(running.session);
    running.sessionSavedAt = Date.now();
    const tab = loadTabFacts();
    // A duplicated tab starts with the original's tab id; the clone takes a new one (analytics §4). Not
    // after a teardown (it sends init with what the page holds): nothing would close the channel.
    const clones = watchTabClones(!host.isCurrent(running), options.apiKey, tab.tabId, tab.frameId, (tabId) => {
      running.init.session = { ...running.init.session, tabId };
      bridge.setSession(running.init.session);
    });
    stopClones = clones.stop;
    tab.tabId = clones.tabId;
    // In place: the bridge and the events captured meanwhile hold this object.
    Object.assign(init.session, { sessionId: session.record.sessionId }, tab);
    init.utm = readJson(campaignKey) ?? { channel: 'Direct' };
    init.campaign!.newSession = session.isNew;
    // A child frame's loads are not the tab's page changes (U-turns, analytics §4).
    init.recentPages = top ? recentPages() : [];
    if (top) rememberPage(document.URL, now);
    const guideState = readJson<GuideState>(guideStateKey);
    if (guideState?.visitorId === identity.visitorId) init.guides!.state = guideState;
    // Issue #16: where this app has drawn guides before, the overlay's chunk is asked for now rather than once the
    // guides chunk has started. Since issue #34 that is the steps chunk (no React: the worker paints the steps).
    if (!guidesOff(options) && readJson(hadGuidesKey(options.apiKey)) === true) {
      import(/* @vite-ignore */ assetUrlOf(env, 'steps')).catch(() => undefined);
    }
  };
  const worker = startWorker({
    scriptUrl: assetUrlOf(env, 'worker'),
    workerUrl: typeof options.workerUrl === 'string' && options.workerUrl ? options.workerUrl : undefined,
    inPageUrl: assetUrlOf(env, 'inpage'),
    log,
    onMode: (mode) => r && (r.workerMode = mode),
  });
  // Issue #34: named to the worker at once, which asks for it when it is ready rather than at init (the page's idle
  // time), well before guide.json; a page with guides off never loads it.
  if (renderUrl) worker.postMessage({ type: RENDER_CHUNK_MESSAGE, url: renderUrl });
  const ticker = createTicker();
  const bridge = createBridge(worker, init, log, ticker, {
    campaign: (utm) => {
      // The session's traffic source as the worker classified it: kept for the session's later pages.
      init.utm = utm;
      writeJson(campaignKey, utm);
    },
    segmentFlags: host.onSegmentFlags,
    guideState: (state) => writeJson(guideStateKey, state),
  }, { prepare: () => readStores() });
  const running: Running = (r = {
    options,
    init,
    bridge,
    identity,
    guides: null,
    guidesReady: Promise.resolve(null),
    // document.URL, not location.href: the same URL (pushState updates both) at a tenth of the cost here.
    pageUrl: privacy?.pageUrl ?? (() => document.URL),
    prepare: privacy?.prepare ?? ((event, ctx) => enrichEvent(event, ctx).json),
    // Until readStores: this page's activity alone (no event is 30 minutes old before the page is idle).
    session: { lastActivityAt: now } as Running['session'],
    sessionSavedAt: now,
    ticker,
    uninstall: [],
    workerMode: null,
    clicks: watchClickEffects(
      (sequence, frustrationTypes, errorMessage) => bridge.verdict({ sequence, frustrationTypes, errorMessage }),
      options.errorClickLogging !== false,
      ticker,
    ),
    sessions,
    frame: { isTop: top, leader: top, visibility: top ? 'visible' : 'unknown', othersShowing: false },
  });
  host.onRunning(running);

  host.capture.listen(running);
  whenIdle(bridge.start);
  running.uninstall.push(
    () => stopClones(),
    watchUrl((url) => {
      running.clicks.effect();
      // The stores first: the tab's earlier pages go to the worker before this one joins them.
      bridge.start();
      if (top) rememberPage(url, Date.now());
      capture({ type: 'load', props: {} });
    }, running.ticker),
    running.clicks.stop,
    running.ticker.stop!,
  );

  // wire-protocol.md: on initialization the agent sends identify, meta and load in its first beacon.
  const ids = { visitor_id: identity.visitorId, account_id: identity.accountId };
  capture({ type: 'identify', props: { old_visitor_id: '', old_account_id: '', ...ids } });
  capture({ type: 'meta', props: metaProps(identity.visitorId, metadata) });
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  capture({ type: 'load', props: { load_time: Math.round((nav?.loadEventEnd || performance.now()) * 10) / 10 } });

  const delay = guideOptions.delay ?? options.delayGuides;
  const seenTimeout = guideOptions.seenTimeout;
  // The guide loop and its API are a chunk of their own (waymark.guides.js), so the initial shim stays
  // small; it is fetched now, the overlay (React) only when a guide shows. With guides off it starts only
  // session recording and answers null. It starts once init went to the worker: its flags (overlay seen,
  // debugger, preview record) are in local storage, read off the host's load like the rest (issue #16).
  running.guidesReady = loadChunk<GuideDisplayModule, Promise<GuideDisplay | null>>('guides', (m) => bridge.started.then(() => {
    const display = m.createGuideDisplay({
      bridge,
      asset: (name) => assetUrlOf(env, name),
      log,
      // guides §5 delayGuides: true holds the loop until startGuides(); a number of ms starts it then.
      delayed: host.guidesDisabled() || delay === true || (typeof delay === 'number' && delay > 0),
      preventCodeInjection: options.preventCodeInjection === true,
      trustedScriptUrl,
      onEventPropertyRules: host.capture.setPropertyCollector,
      seenTimeoutMs: seenTimeout === true ? STEP_SEEN_TIMEOUT_MS : typeof seenTimeout === 'number' ? seenTimeout : undefined,
      // Its frame state, frames chunk and options (the authoring launch reads apiKey and the designer options).
      running,
    });
    if (typeof delay === 'number' && delay > 0) setTimeout(() => host.guidesDisabled() || display?.start(), delay);
    return (running.guides = display);
  })) as Promise<GuideDisplay | null>;
  if (Array.isArray(options.promptCapture) && options.promptCapture.length) {
    // The prompt-capture chunk's fetch/XHR observers turn the page's own AI requests into prompt events.
    const rules = options.promptCapture;
    void loadChunk<PromptsModule, void>('prompts', (m) => {
      const uninstall = m.installPromptCapture(rules, { emit: (props) => capture({ type: 'prompt', props: { ...props } }), privacyFilters: [...(privacy?.filters.privacyFilters ?? [])], log });
      if (host.isCurrent(running)) running.uninstall.push(uninstall);
    });
  }
  startFramesWhenDue(running, host);
  return running;
}

/**
 * analytics §4 Frames, §7: the frames chunk joins this frame to its tab's frames and installs the agent into
 * child iframes. A child frame loads it at once; the top frame once the page has an iframe element (a live
 * list, checked every 250 ms), so a page without frames never fetches it.
 */
function startFramesWhenDue(r: Running, host: StartHost): void {
  const iframes = document.getElementsByTagName('iframe');
  const due = () => {
    if (r.frame.isTop && !iframes.length) return;
    stopPoll();
    // Joined once init went to the worker: the frame's record carries its frameId (readStores).
    void host.loadChunk<FramesModule, void>('frames', (m) => void r.bridge.started.then(() => host.guard(() => host.isCurrent(r) && m.startFrames(r, host.env, host.log, trustedScriptUrl, (next) => host.capture.changeIdentity(r, next, true)))));
  };
  const stopPoll = r.ticker.every(IFRAME_RESCAN_MS / TICK_MS, due);
  r.uninstall.push(stopPoll);
  due();
}

/** An origin as given, without trailing slashes. */
function trimOrigin(host: string): string {
  return host.replace(/\/+$/, '');
}
