/**
 * The worker's side of the guide path (first cut of guides §4, §7): request guide.json for the page,
 * judge which auto steps may show (shared/eligibility/autoDisplayRules), resolve step content, and turn the visitor's
 * actions on a shown step into guide events on the guide beacon.
 */
import { CONTENT_PREFETCH_BATCH, GLOBAL_CSS_WAIT_MS, GUIDE_CACHE_TIMEOUT_MS, STYLESHEET_TIMEOUT_MS, GUIDE_EVENT_FLUSH_MS, GUIDES_BLOCKED_FLAG_MS } from '../shared/constants';
import { isAnonymousVisitorId } from '../shared/identity/identityRules';
import { raceTimeout, TIMED_OUT } from './raceTimeout';
import { requestGuideList } from './requestGuideList';
import { beaconUrl } from '../shared/wire/beaconUrl';
import { ERROR_CODES, fail, ok, type Outcome } from '../shared/errors';
import type { GuideEventProps, GuideEventType, WireGuideEvent } from '../shared/events/events';
import type { DomNode, Guide, GuideLoadResponse, GuideStep } from '../shared/guides/guides';
import { encodeJzb } from '../shared/wire/jzb';
import { MESSAGES } from '../shared/messages';
import type { BadgePosition, BadgeToShow, GuideDiagnostics, LauncherToShow, ResourceCenterModule, ResourceCenterToShow, GuideLoadResult, GuideState, LogLevel, SeenReason, StepAction, StepToShow, WorkerInit } from '../shared/protocol';
import { applyGuideTransition, type GuideTransition } from '../shared/guides/applyGuideTransition';
import { ALL_AUTO_RULES, chooseAutoSteps } from '../shared/eligibility/chooseAutoSteps';
import { readEventPropertyRules } from '../shared/analytics/eventPropertyRules';
import { launchMethods, pageRuleException } from '../shared/eligibility/autoDisplayRules';
import { createErrorRateLimit, type ErrorRateLimit } from '../shared/guides/createErrorRateLimit';
import { completionStatus } from '../shared/guides/continuationStep';
import { recentChangeKey } from '../shared/eligibility/scheduleRules';
import { asDomNode, asGuideLoadResponse, checkGuideLoadResponse } from '../shared/guides/validateGuidePayload';
import { checkBuildingBlocks } from '../shared/guides/checkBuildingBlocks';
import { chooseLauncher } from '../shared/surfaces/chooseLauncher';
import { launcherClosedKey } from '../shared/surfaces/launcherPanel';
import { blockText, chooseResourceCenter, isResourceCenterGuide } from '../shared/surfaces/chooseResourceCenter';
import { isAllowedAssetUrl } from './isAllowedAssetUrl';
import { defaultDigest, sriOf, verifyContentHash } from './verifyContentHash';
import { createSendQueue, type SendQueue } from './createSendQueue';
import type { WorkerPorts } from './ports';

export interface GuideEngineDeps {
  config: WorkerInit;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
  /** The per-page counter of guide events. */
  nextSequence(): number;
  /** analytics §1 lock: no guide event is written while this is false. */
  isSending(): boolean;
  /** Prefix of this page's persisted guide-event chunks (see createSendQueue). */
  persistKey?: string;
  /** Query parameters added to every guide beacon. */
  params?: () => Record<string, string | undefined>;
  /** Signed metadata, when valid: guide.json then goes by POST carrying it (guides §7). */
  auth?: () => { jwt: string; signingKeyName: string } | undefined;
  /** Keeps guide state for the visitor's next page (the shim's local storage). */
  saveState?: (state: GuideState) => void;
  /** The collector answered 451: the caller stops all tracking of the visitor (guides §7, §8). */
  onDenied?: () => void;
}

export interface GuideEngine {
  load(url: string): Promise<Outcome<GuideLoadResult>>;
  stepForGuide(guideId: string, stepId?: string, reason?: SeenReason): Promise<Outcome<StepToShow>>;
  stepAction(action: StepAction): Promise<Outcome<StepToShow | null>>;
  guideIdByName(name: string): Promise<string | null>;
  guideDiagnostics(): Promise<GuideDiagnostics>;
  /** guides §2 Launcher of the last load as the guides stand now (null: none). */
  launcherView(): Promise<LauncherToShow | null>;
  /** guides §2 Resource center of the last load as the guides stand now (null: none). */
  resourceCenterView(): Promise<ResourceCenterToShow | null>;
  events: SendQueue;
  /** The poll beacon's queue (pollResponse). */
  pollEvents: SendQueue;
}

const BADGE_POSITIONS: BadgePosition[] = ['top-left', 'top-right', 'inline', 'inline-left', 'inline-right', 'over'];

export function createGuideEngine(deps: GuideEngineDeps): GuideEngine {
  const { config, ports, log } = deps;
  let requestId = 0;
  let guides: Guide[] = [];
  /** How each guide was last shown (its seen reason): auto-launched guides set throttling timestamps. */
  const shownReason = new Map<string, SeenReason>();
  /** guides §4 Health check: when each step last went advanced, dismissed or snoozed. */
  const recentChanges: Record<string, number> = {};
  /** Control-group guides whose control event this page recorded. */
  const controlRecorded = new Set<string>();
  /** Guides whose expired continuation was logged ('Multi-step continuation has expired' once). */
  const expiredLogged = new Set<string>();
  /** The last load's verdict per guide, for guideDiagnostics. */
  const verdicts = new Map<string, { candidate: boolean; reason: string }>();
  let diagnostics: Omit<GuideDiagnostics, 'guides'> = { url: '', loadedAt: null, loadError: null };
  /** guides §5: script, style and content URLs only from the content host and the configured origins. */
  const assetOrigins = [config.contentHost, ...(config.guides?.allowedOrigins ?? [])];
  const checkAsset = (url: string) => isAllowedAssetUrl(url, `${config.contentHost}/`, assetOrigins);
  /** What outlives the page (probe verdict, throttling timestamps, a 451), as the shim kept it. */
  const state: GuideState = { ...config.guides?.state, visitorId: config.identity.visitorId };
  const saveState = () => deps.saveState?.({ ...state, visitorId: config.identity.visitorId });

  /** A guide's badge (guides §2): attributes.badge {position, imageUrl, showOnHover, isOnlyShowOnce, elementPathRule}. */
  function badgeOf(guide: Guide): BadgeToShow[] {
    const badge = (guide.attributes?.badge ?? {}) as { position?: unknown; imageUrl?: unknown; content?: unknown; showOnHover?: unknown; isOnlyShowOnce?: unknown; elementPathRule?: unknown };
    if (badge.isOnlyShowOnce === true && guide.steps.some((s) => s.seenState && s.seenState !== 'none')) return [];
    const selector = typeof badge.elementPathRule === 'string' && badge.elementPathRule ? badge.elementPathRule : guide.steps[0]?.elementPathRule;
    if (!selector) {
      log('warn', `guide ${guide.id}: a badge needs attributes.badge.elementPathRule or a first step with an elementPathRule`);
      return [];
    }
    const position = BADGE_POSITIONS.includes(badge.position as BadgePosition) ? (badge.position as BadgePosition) : 'top-right';
    let imageUrl: string | undefined;
    if (typeof badge.imageUrl === 'string' && badge.imageUrl) {
      const checked = checkAsset(badge.imageUrl);
      if (checked.ok) imageUrl = checked.href;
      else log('warn', `guide ${guide.id} badge image: ${checked.message}`);
    }
    // guides §2 a building-block badge: attributes.badge.content (ours), checked like any step's blocks; a tree
    // that fails the check falls back to the image or the mark, logged.
    let content: DomNode | undefined;
    if (badge.content !== undefined) {
      const checked = checkBuildingBlocks(badge.content, guide.id, 'badge');
      if (checked.ok) content = checked.content;
      else log('warn', `guide ${guide.id} badge content: ${checked.message}`);
    }
    return [{ guideId: guide.id, label: guide.name ?? guide.id, selector, position, showOnHover: badge.showOnHover === true, ...(imageUrl ? { imageUrl } : {}), ...(content ? { content } : {}) }];
  }

  /** The last load response's global guide CSS (guideCssUrl), put before every step's own. */
  let globalCss: string | undefined;

  /** A refused load: the spec's callback message, logged with why. */
  function refuse(message: string, why: string): Outcome<never> {
    log('warn', `${message} (${why})`);
    diagnostics = { ...diagnostics, loadError: `${message} (${why})` };
    return fail(ERROR_CODES.badPayload, message);
  }

  /**
   * spec: guides §7 "Availability probe", §8, §9 — GET guide.gif with the jzb of [] once; its verdict holds for
   * 4 hours. A failure logs 'Guides disabled: unreachable endpoint guide.gif' and blocks guides until then.
   */
  let probing: Promise<boolean> | null = null;
  function probe(): Promise<boolean> {
    const now = ports.clock.now();
    if (state.probe && state.probe.until > now) return Promise.resolve(state.probe.ok);
    probing ??= (async () => {
      let ok = false;
      try {
        const url = beaconUrl(config.dataHost, 'guide.gif', config.apiKey, { jzb: encodeJzb([]), ct: now, v: config.agentVersion });
        const response = await ports.transport.request({ method: 'GET', url });
        ok = response.status >= 200 && response.status < 300;
      } catch {
        ok = false;
      }
      if (!ok) log('error', MESSAGES.guidesUnreachable);
      state.probe = { ok, until: ports.clock.now() + GUIDES_BLOCKED_FLAG_MS };
      saveState();
      probing = null;
      return ok;
    })();
    return probing;
  }

  const events = createSendQueue({
    apiKey: config.apiKey,
    dataHost: config.dataHost,
    endpoint: 'guide.gif',
    mode: 'get-only',
    delayMs: GUIDE_EVENT_FLUSH_MS,
    debounce: true,
    persistKey: deps.persistKey,
    params: deps.params,
    ports,
    log,
  });

  /** guides §7 — the poll beacon: pollResponse events, on their own queue and endpoint. */
  const pollEvents = createSendQueue({
    apiKey: config.apiKey,
    dataHost: config.dataHost,
    endpoint: 'poll.gif',
    mode: 'get-only',
    delayMs: GUIDE_EVENT_FLUSH_MS,
    debounce: true,
    persistKey: deps.persistKey?.replace('guide.gif', 'poll.gif'),
    params: deps.params,
    ports,
    log,
  });

  function record(type: GuideEventType, props: GuideEventProps, url: string, queue: SendQueue = events): void {
    if (!deps.isSending()) return;
    const event: WireGuideEvent = {
      type,
      browser_time: ports.clock.now(),
      visitor_id: config.identity.visitorId,
      account_id: config.identity.accountId,
      url,
      props,
      sequence: deps.nextSequence(),
      sessionId: config.session.sessionId,
      tabId: config.session.tabId,
      frameId: config.session.frameId,
    };
    queue.enqueue([{ json: JSON.stringify(event), track: false }]);
  }

  /**
   * Verified, parsed content fetched by URL, kept GUIDE_CACHE_TIMEOUT_MS (guides §9: 10 minutes) so a
   * prefetched or already shown step needs no second request; keyed by URL and expected hash.
   */
  const contentCache = new Map<string, { content: unknown; at: number; guideId: string }>();

  /** A step's content: inline, cached, or fetched from an allowed origin and verified against its hash. */
  async function loadContent(guide: Guide, step: GuideStep): Promise<Outcome<unknown>> {
    if (step.domJson !== undefined || !step.domUrl) return ok(step.domJson);
    const checked = checkAsset(step.domUrl);
    if (!checked.ok) return markFailed(guide, checked.message);
    const url = checked.href;
    const key = `${url}\u0000${step.hashes?.domHash ?? ''}`;
    const cached = contentCache.get(key);
    if (cached && ports.clock.now() - cached.at < GUIDE_CACHE_TIMEOUT_MS) return ok(cached.content);
    let text: string;
    try {
      const response = await ports.transport.request({ method: 'GET', url });
      if (response.status < 200 || response.status >= 300) throw new Error(`status ${response.status}`);
      text = await response.text();
    } catch (err) {
      const message = `${MESSAGES.contentLoadFailed}: ${url} (${(err as Error).message})`;
      log('error', message);
      countError(guide);
      return fail(ERROR_CODES.badPayload, message);
    }
    // spec: guides §5, §8 — content must verify against its hash before it is even parsed; a mismatch
    // marks the guide failed and it is never rendered.
    const verified = await verifyContentHash(new TextEncoder().encode(text), url, step.hashes?.domHash, ports.digest ?? defaultDigest);
    if (!verified.ok) return markFailed(guide, verified.message);
    let content: unknown;
    try {
      content = JSON.parse(text);
    } catch {
      return markFailed(guide, `${MESSAGES.contentNotJson}: ${url}`);
    }
    contentCache.set(key, { content, at: ports.clock.now(), guideId: guide.id });
    return ok(content);
  }

  /**
   * guides §7 Assets — content prefetch of the guides that may show, in batches of 10 requests at a time,
   * unless disablePrefetch: a multi-step guide's later steps are then ready when the visitor advances.
   */
  async function prefetch(list: Guide[]): Promise<void> {
    if (config.guides?.disablePrefetch) return;
    const steps = list.flatMap((guide) => guide.steps.filter((s) => s.domJson === undefined && s.domUrl).map((step) => ({ guide, step })));
    for (let i = 0; i < steps.length; i += CONTENT_PREFETCH_BATCH) {
      await Promise.all(steps.slice(i, i + CONTENT_PREFETCH_BATCH).map(({ guide, step }) => loadContent(guide, step)));
    }
  }

  async function resolveStep(guide: Guide, step: GuideStep, reason: SeenReason): Promise<Outcome<StepToShow>> {
    if (failed.has(guide.id)) return fail(ERROR_CODES.badPayload, `guide ${guide.id} failed earlier on this page: ${failed.get(guide.id)}`);
    const loaded = await loadContent(guide, step);
    if (!loaded.ok) return loaded;
    let content = loaded.value;
    const blocks = checkBuildingBlocks(content, guide.id, step.id);
    if (!blocks.ok) return markFailed(guide, blocks.message);
    content = blocks.content;
    const stepCss = step.contentUrlCss ? await loadStylesheet(guide, step.contentUrlCss) : undefined;
    // The load response's global guide CSS comes first, so a step's own sheet can override it.
    const sheets = [globalCss, stepCss].filter((sheet): sheet is string => sheet !== undefined);
    const css = sheets.length ? sheets.join('\n') : undefined;
    let script: StepToShow['script'];
    if (step.contentUrlJs) {
      // guides §5: scripts only from allowed origins; the page checks the hash itself (SRI integrity).
      const checked = checkAsset(step.contentUrlJs);
      if (!checked.ok) return markFailed(guide, checked.message);
      script = { url: checked.href, integrity: sriOf(step.hashes?.contentJsHash) };
    }
    return ok({
      guideId: guide.id,
      guideName: guide.name ?? guide.id,
      stepId: step.id,
      type: step.type,
      stepIndex: guide.steps.indexOf(step),
      stepCount: guide.steps.length,
      elementPathRule: step.elementPathRule,
      elementContainsRulesList: step.elementContainsRulesList,
      content: asDomNode(content),
      attributes: step.attributes ?? {},
      hideCredits: step.hideCredits === true,
      reason,
      lastUpdatedAt: guide.lastUpdatedAt,
      ...(css !== undefined ? { css } : {}),
      ...(Array.isArray(guide.automations) && guide.automations.length ? { automations: guide.automations } : {}),
      ...(script ? { script } : {}),
    });
  }


  /**
   * A step's stylesheet (contentUrlCss) from an allowed origin, as text for the overlay's shadow root. One
   * still loading after 10 seconds fails ('Failed to load ... within 10 seconds'); the step shows without it.
   */
  async function loadStylesheet(
    guide: Guide | null,
    href: string,
    waitMs = STYLESHEET_TIMEOUT_MS,
    timeoutMessage: (url: string) => string = MESSAGES.stylesheetTimeout,
  ): Promise<string | undefined> {
    const checked = checkAsset(href);
    if (!checked.ok) {
      log('error', checked.message);
      return undefined;
    }
    const url = checked.href;
    const cached = contentCache.get(url);
    if (cached && ports.clock.now() - cached.at < GUIDE_CACHE_TIMEOUT_MS) return cached.content as string;
    try {
      const answer = await raceTimeout(
        ports.clock,
        ports.transport.request({ method: 'GET', url }).then(async (r) => (r.status >= 200 && r.status < 300 ? r.text() : Promise.reject(new Error(`status ${r.status}`)))),
        waitMs,
      );
      if (answer === TIMED_OUT) {
        log('error', timeoutMessage(url));
        if (guide) countError(guide);
        return undefined;
      }
      contentCache.set(url, { content: answer, at: ports.clock.now(), guideId: guide?.id ?? '' });
      return answer;
    } catch (err) {
      log('error', `${MESSAGES.contentLoadFailed}: ${url} (${(err as Error).message})`);
      if (guide) countError(guide);
      return undefined;
    }
  }

  /** The state-machine transition of a visitor action (guides §4 Transitions). */
  function transitionOf(action: StepAction): GuideTransition {
    const stepId = action.stepId;
    switch (action.action) {
      case 'seen': return { type: 'show', stepId, reason: action.reason ?? 'auto' };
      case 'advance': return { type: 'advance', stepId, destinationStepId: action.targetStepId };
      case 'previous': return { type: 'previous', stepId, steps: action.steps };
      case 'dismiss': return { type: 'dismiss', stepId };
      case 'snooze': return { type: 'snooze', stepId, durationMs: action.snoozeMs };
      case 'goToStep': return { type: 'goToStep', stepId, targetStepId: action.targetStepId ?? '' };
      default: throw new Error(`no transition for ${action.action}`);
    }
  }

  /** guides §5, §8: a guide whose content did not verify or validate is failed for the page, with why. */
  const failed = new Map<string, string>();
  function markFailed(guide: Guide, message: string): Outcome<never> {
    failed.set(guide.id, message);
    log('error', message);
    countError(guide);
    return fail(ERROR_CODES.badPayload, message);
  }

  /** spec: guides §8 — 30 or more errors a minute for a guide drop it ('Exceeded error rate limit, dropping guide'). */
  const errorRates = new Map<string, ErrorRateLimit>();
  function countError(guide: Guide): void {
    let limit = errorRates.get(guide.id);
    if (!limit) errorRates.set(guide.id, (limit = createErrorRateLimit()));
    const verdict = limit.record(ports.clock.now());
    if (!verdict.exceeded || failed.get(guide.id) === verdict.message) return;
    failed.set(guide.id, verdict.message);
    log('error', `${verdict.message} ${guide.id}`);
    // The spec's renderFail: told to the collector as a guideNotSeen with that reason.
    notSeen(guide, guide.steps[0]?.id ?? '', 'renderFail', diagnostics.url);
  }

  /**
   * guideNotSeen (guides §7): a guide the agent meant to show and could not, with why (`pageRule`,
   * `renderFail`), once per guide and page, so authors can see it in their data.
   */
  const notSeenRecorded = new Set<string>();
  function notSeen(guide: Guide, stepId: string, reason: string, url: string): void {
    if (notSeenRecorded.has(guide.id)) return;
    notSeenRecorded.add(guide.id);
    record('guideNotSeen', { guide_id: guide.id, guide_step_id: stepId, reason }, url);
  }

  function find(guideId: string, stepId: string): { guide: Guide; step: GuideStep } | null {
    const guide = guides.find((g) => g.id === guideId);
    const step = guide?.steps.find((s) => s.id === stepId);
    return guide && step ? { guide, step } : null;
  }

  /** The last load's response and page, for the launcher's view as the visitor's actions change it. */
  let launcherSource: { response: GuideLoadResponse; url: string } | null = null;

  /**
   * guides §2 Launcher of the last load, judged on the guides as they are now (a step advanced since the load
   * moves the onboarding progress on). `logged`: log the guides left off and a refused badge image.
   */
  /** Stands for the launcher where content checks name a guide (its config is no guide of its own). */
  const LAUNCHER_GUIDE: Guide = { id: '(launcher)', launchMethod: 'launcher', steps: [] };

  async function launcherOf(logged: boolean): Promise<{ launcher?: LauncherToShow; launcherError?: string }> {
    if (!launcherSource) return {};
    const choice = chooseLauncher({ ...launcherSource.response, guides }, { url: launcherSource.url, device: config.device, now: ports.clock.now() });
    if (logged) for (const s of choice.skipped) log('debug', `guide ${s.guideId} not in the launcher: ${s.reason}`);
    if (!choice.launcher) return choice.problem ? { launcherError: choice.problem } : {};
    const { launcherBadgeUrl, contentUrl, contentUrlCss, contentUrlJs, ...rest } = choice.launcher;
    const launcher: LauncherToShow = { ...rest, closedFlagKey: launcherClosedKey(config.apiKey, config.identity.visitorId) };
    // guides §2 custom content, CSS and JS from a content URL: the content fetched and checked as a step's
    // (allowed origins, building-block allow-list), the stylesheet fetched (10 s), the script's origin checked.
    if (contentUrl) {
      const loaded = await loadContent(LAUNCHER_GUIDE, { id: LAUNCHER_GUIDE.id, guideId: LAUNCHER_GUIDE.id, type: 'launcher', domUrl: contentUrl });
      const blocks = loaded.ok ? checkBuildingBlocks(loaded.value, LAUNCHER_GUIDE.id, LAUNCHER_GUIDE.id) : null;
      if (blocks?.ok) launcher.content = asDomNode(blocks.content);
      else if (logged) log('warn', `launcher content ${contentUrl} left out: ${blocks ? blocks.message : loaded.ok ? '' : loaded.error.message}`);
    }
    if (contentUrlCss) {
      const css = await loadStylesheet(null, contentUrlCss);
      if (css !== undefined) launcher.css = css;
    }
    if (contentUrlJs) {
      const checked = checkAsset(contentUrlJs);
      if (checked.ok) launcher.scriptUrl = checked.href;
      else if (logged) log('error', `${MESSAGES.scriptLoadFailed}: ${checked.message}`);
    }
    if (launcherBadgeUrl) {
      const checked = checkAsset(launcherBadgeUrl);
      if (checked.ok) launcher.badgeImageUrl = checked.href;
      else if (logged) log('warn', `launcher badge image: ${checked.message}`);
    }
    // guides §2 What's-new feed: each item's content resolved and verified like any step's; one that fails is
    // left off (and logged), the rest still show.
    if (choice.whatsnewItems) {
      launcher.whatsnew = [];
      for (const item of choice.whatsnewItems) {
        const found = find(item.guideId, item.stepId);
        const resolved = found ? await resolveStep(found.guide, found.step, 'launcher') : null;
        if (resolved?.ok) launcher.whatsnew.push({ ...item, content: resolved.value.content });
        else if (logged) log('warn', `what's-new item ${item.guideId}/${item.stepId} left off: ${resolved ? resolved.error.message : 'no such step'}`);
      }
    }
    return { launcher };
  }

  /**
   * guides §2, §4, §8 Resource center of the last load, judged on the guides as they are now: the pure choice,
   * then what needs I/O — announcement and sandbox/custom content (fetched, verified and allow-listed as any
   * step's), the iframe module's origin. Any module that cannot load skips the whole resource center with
   * 'Failed to load one or more Resource Center modules'. `logged`: log what was left off and why.
   */
  async function resourceCenterOf(logged: boolean): Promise<ResourceCenterToShow | undefined> {
    if (!launcherSource) return undefined;
    const { response, url } = launcherSource;
    const choice = chooseResourceCenter({ ...response, guides }, { url, device: config.device, now: ports.clock.now() });
    if (logged) for (const s of choice.skipped) log('debug', `guide ${s.guideId} not in the resource center: ${s.reason}`);
    const problems: string[] = choice.moduleProblem ? [choice.moduleProblem] : [];
    const modules: ResourceCenterModule[] = [];
    const contentOf = async (guideId: string, stepId: string) => {
      const found = find(guideId, stepId);
      if (!found) return undefined;
      const resolved = await resolveStep(found.guide, found.step, 'resourceCenter');
      if (!resolved.ok) {
        problems.push(`module content of guide ${guideId}: ${resolved.error.message}`);
        return undefined;
      }
      return resolved.value.content;
    };
    for (const m of choice.resourceCenter?.modules ?? []) {
      const { contentUrl, stepId, ...rest } = m;
      const module: ResourceCenterModule = { ...rest, items: [] };
      for (const item of m.items) {
        const content = m.kind === 'announcements' ? await contentOf(item.guideId, item.stepId) : undefined;
        const step = find(item.guideId, item.stepId)?.step;
        module.items.push({ ...item, text: blockText(content ?? step?.domJson), ...(content ? { content } : {}) });
      }
      if (contentUrl) {
        const checked = checkAsset(contentUrl);
        if (checked.ok) module.iframeSrc = checked.href;
        else problems.push(`iframe module ${m.guideId}: ${checked.message}`);
      }
      if (stepId) {
        const content = await contentOf(m.guideId, stepId);
        if (content) module.content = content;
      }
      modules.push(module);
    }
    if (problems.length) {
      if (logged) log('error', `${MESSAGES.resourceCenterModulesFailed}: ${problems.join('; ')}`);
      return undefined;
    }
    if (!choice.resourceCenter) return undefined;
    // guides §4 "it falls back to api launch if content validation fails": the top-level guide's own content
    // (the home view's introduction) is verified and checked as any step's; failing, the resource center
    // stays, opened by the host's API only.
    const top = find(choice.resourceCenter.guideId, choice.resourceCenter.stepId);
    if (top && (top.step.domJson !== undefined || top.step.domUrl)) {
      const resolved = await resolveStep(top.guide, top.step, 'resourceCenter');
      if (resolved.ok) return { ...choice.resourceCenter, intro: resolved.value.content, modules };
      if (logged) log('warn', `resource center ${top.guide.id}: its content failed validation (${resolved.error.message}); it opens by API only`);
      const { activation: _dropped, ...rest } = choice.resourceCenter;
      return { ...rest, badge: false, modules };
    }
    return { ...choice.resourceCenter, modules };
  }

  return {
    events,
    pollEvents,

    async load(url) {
      const settings = config.guides ?? {};
      // spec: guides §5, §7, §8 — loading is refused for a visitor the collector answered 451 for, for
      // anonymous visitors with dropAnonymous, while guide events are blocked, and for pages that are not web URLs.
      if (state.denied) return refuse(MESSAGES.guidesBlocked, 'the collector answered 451 for this visitor');
      if (settings.dropAnonymous && isAnonymousVisitorId(config.identity.visitorId)) {
        return refuse(MESSAGES.guidesBlocked, 'dropAnonymous is set and the visitor is anonymous');
      }
      if (settings.guideEventsBlocked) return refuse(MESSAGES.guidesBlocked, 'guide events are blocked');
      if (!/^https?:\/\/[^/]/i.test(url)) return refuse(MESSAGES.invalidGuideUrl, `${url || '(empty)'} is not a web page URL`);
      if (!(await probe())) return refuse(MESSAGES.guidesBlocked, MESSAGES.guidesUnreachable);

      const id = String(++requestId);
      const answer = await requestGuideList(ports, {
        apiKey: config.apiKey,
        dataHost: config.dataHost,
        agentVersion: config.agentVersion,
        id,
        payload: {
          visitorId: config.identity.visitorId,
          accountId: config.identity.accountId,
          url,
          oldVisitorId: config.identity.oldVisitorId,
          // guides §7: the guides whose content this page already holds.
          // (Sheets and launcher content are cached too, under no guide or the launcher's stand-in: not guides.)
          cachedGuides: [...new Set([...contentCache.values()].filter((c) => ports.clock.now() - c.at < GUIDE_CACHE_TIMEOUT_MS && c.guideId && c.guideId !== LAUNCHER_GUIDE.id).map((c) => c.guideId))],
          metadata: config.metadata,
        },
        acc: deps.params?.().acc,
        auth: deps.auth?.(),
        debug: settings.debug,
        timeoutMs: settings.timeoutMs,
      });
      if (answer.kind === 'denied') {
        // spec: guides §7, §8 — 451: stop tracking the visitor and deny future loading.
        state.denied = true;
        saveState();
        log('warn', 'guide.json answered 451: tracking of this visitor stops and guides are no longer loaded');
        deps.onDenied?.();
        return fail(ERROR_CODES.badPayload, `${MESSAGES.guidesBlocked} (451)`);
      }
      if (answer.kind !== 'ok') {
        const message = `${MESSAGES.loadGuideFailed}: ${answer.message}`;
        log('error', message);
        return fail(ERROR_CODES.network, message);
      }
      const body = answer.body;
      const problem = checkGuideLoadResponse(body);
      if (problem) {
        log('error', `${MESSAGES.loadGuideFailed}: ${problem}`);
        return fail(ERROR_CODES.badPayload, problem);
      }
      const response: GuideLoadResponse = asGuideLoadResponse(body);
      // wire-protocol.md: a response whose id is a string different from the request's is stale.
      if (typeof response.id === 'string' && response.id !== id) {
        return fail(ERROR_CODES.badPayload, `stale guide.json response ${response.id} (expected ${id})`);
      }
      if (String(requestId) !== id) return fail(ERROR_CODES.badPayload, 'a newer guide request replaced this one');
      if (response.subscription?.guides === false) {
        // spec: guides §5 — the subscription lacks guides: nothing loads or shows; the shim's guide
        // functions answer with the message.
        guides = [];
        diagnostics = { url, loadedAt: ports.clock.now(), loadError: MESSAGES.notInSubscription };
        log('warn', MESSAGES.notInSubscription);
        return fail(ERROR_CODES.notInSubscription, MESSAGES.notInSubscription);
      }
      guides = response.guides;
      const now = ports.clock.now();
      // guides §3, §8: the response's global CSS for every guide (5 s wait) and global script (allowed origins).
      globalCss = typeof response.guideCssUrl === 'string' && response.guideCssUrl
        ? await loadStylesheet(null, response.guideCssUrl, GLOBAL_CSS_WAIT_MS, (u) => `${MESSAGES.globalCssMissing}: ${u}`)
        : undefined;
      let globalScript: string | undefined;
      if (typeof response.globalJsUrl === 'string' && response.globalJsUrl) {
        const checked = checkAsset(response.globalJsUrl);
        if (checked.ok) globalScript = checked.href;
        else log('error', `${MESSAGES.globalScriptFailed}: ${checked.message}`);
      }
      const choice = chooseAutoSteps(response, {
        url,
        device: config.device,
        adoptionGuides: settings.adoptionGuides,
        schedule: { now, throttling: settings.throttling, timestamps: state.timestamps, recentChanges },
      });
      for (const guideId of choice.expiredContinuations) {
        if (expiredLogged.has(guideId)) continue;
        expiredLogged.add(guideId);
        log('info', `${MESSAGES.continuationExpired} (guide ${guideId})`);
      }
      const candidates: StepToShow[] = [];
      for (const { guide, step, reason } of choice.eligible) {
        const resolved = await resolveStep(guide, step, reason);
        if (resolved.ok) candidates.push(resolved.value);
        else choice.skipped.push({ guideId: guide.id, stepId: step.id, reason: resolved.error.message });
      }
      for (const s of choice.skipped) {
        if (!s.reason.startsWith('controlGroup:')) continue;
        // spec: guides §4 Control group — never shown; its steps are marked notSeen and a control event is
        // recorded once (the collector keeps the notSeen state, so later pages do not record it again).
        const guide = guides.find((g) => g.id === s.guideId);
        if (!guide || controlRecorded.has(guide.id) || guide.steps.some((st) => st.seenState === 'notSeen')) continue;
        controlRecorded.add(guide.id);
        log('info', `${MESSAGES.controlGroup} (guide ${guide.id})`);
        guides = guides.map((g) => (g === guide ? { ...g, steps: g.steps.map((st) => ({ ...st, seenState: 'notSeen' as const })) } : g));
        record('control', { guide_id: guide.id, guide_step_id: guide.steps[0]?.id ?? '', reason: 'control' }, url);
      }
      verdicts.clear();
      for (const c of candidates) verdicts.set(c.guideId, { candidate: true, reason: `shows step ${c.stepId} (${c.reason})` });
      for (const s of choice.skipped) {
        verdicts.set(s.guideId, { candidate: false, reason: s.reason });
        // spec: guides §4 Repeat — a redisplay that comes too early is an error worth seeing.
        log(s.reason.startsWith('repeat: redisplay too early') ? 'error' : 'debug', `guide ${s.guideId} not shown: ${s.reason}`);
      }
      diagnostics = { url, loadedAt: now, loadError: null };
      // guides §4 element activation: dom-launched guides with an activation, judged by every rule but the
      // launch method and throttling (the visitor asked for them).
      const activation = chooseAutoSteps(
        // A resource center's activation opens the resource center (GuideLoadResult.resourceCenter), not a step.
        { ...response, guides: response.guides.filter((g) => launchMethods(g).includes('dom') && typeof g.attributes?.activation === 'object' && !isResourceCenterGuide(g)) },
        { url, device: config.device, schedule: { now, recentChanges }, rules: ALL_AUTO_RULES.filter((r) => r.name !== 'launchMethod' && r.name !== 'throttling') },
      );
      const activations = activation.eligible.flatMap(({ guide }) => {
        const a = guide.attributes?.activation as { event?: unknown; selector?: unknown };
        return typeof a.selector === 'string' && a.selector ? [{ guideId: guide.id, event: typeof a.event === 'string' && a.event ? a.event : 'click', selector: a.selector }] : [];
      });
      // Later steps of the guides that may show (and the activated ones), fetched while the visitor reads.
      void prefetch([...new Set([...candidates.map((c) => c.guideId), ...activations.map((a) => a.guideId)])].flatMap((id) => guides.filter((g) => g.id === id)));
      // guides §2 Badges: badge-launched guides, judged like activations; isOnlyShowOnce hides a seen guide's badge.
      const badgeChoice = chooseAutoSteps(
        // A resource center's badge is its own (guides §2); it and its modules are no badge-launched guides.
        { ...response, guides: response.guides.filter((g) => launchMethods(g).includes('badge') && !isResourceCenterGuide(g)) },
        { url, device: config.device, schedule: { now, recentChanges }, rules: ALL_AUTO_RULES.filter((r) => r.name !== 'launchMethod' && r.name !== 'throttling' && r.name !== 'notDismissed') },
      );
      const badges = badgeChoice.eligible.flatMap(({ guide }) => badgeOf(guide));
      // analytics §3: event property rules ride on guide.json's features.
      const properties = readEventPropertyRules(response.features);
      for (const problem of properties.problems) log('warn', `guide.json features: ${problem}`);
      // guides §2 Launcher: its config judged for this page; a bad one is reported by the shim (critical).
      launcherSource = { response, url };
      const { launcher, launcherError } = await launcherOf(true);
      const resourceCenter = await resourceCenterOf(true);
      return ok({
        candidates,
        skipped: choice.skipped,
        activations,
        badges,
        eventPropertyRules: properties.rules,
        ...(globalScript ? { globalScript } : {}),
        ...(launcher ? { launcher } : {}),
        ...(launcherError ? { launcherError } : {}),
        ...(resourceCenter ? { resourceCenter } : {}),
      });
    },

    async stepForGuide(guideId, stepId, reason = 'api') {
      const guide = guides.find((g) => g.id === guideId);
      if (!guide) return fail(ERROR_CODES.unknownGuide, `no guide with id ${guideId}`);
      const step = stepId ? guide.steps.find((s) => s.id === stepId) : guide.steps[0];
      if (!step) return fail(ERROR_CODES.unknownGuide, `guide ${guideId} has no step ${stepId ?? '(none)'}`);
      return resolveStep(guide, step, reason);
    },

    async stepAction(action) {
      const found = find(action.guideId, action.stepId);
      if (!found) return fail(ERROR_CODES.unknownGuide, `no step ${action.stepId} in guide ${action.guideId}`);
      const { guide, step } = found;
      if (action.action === 'activity') {
        const ui = action.uiElement;
        record('guideActivity', {
          guide_id: guide.id,
          guide_step_id: step.id,
          ui_element_id: ui?.id ?? '',
          ui_element_type: ui?.type ?? '',
          ui_element_actions: (ui?.actions ?? []).map((a) => ({ action: a })),
        }, action.url);
        return ok(null);
      }
      if (action.action === 'poll') {
        // guides §5: numeric polls parse integers, yes/no polls parse the value as an integer; pollResponse
        // {poll_id, poll_response, duration, poll_type} on the poll beacon.
        const duration = step.seenState === 'active' && step.lastSeenAt !== undefined ? Math.max(0, ports.clock.now() - step.lastSeenAt) : 0;
        for (const [pollId, raw] of Object.entries(action.pollAnswers ?? {})) {
          const poll = guide.polls?.find((p) => p.id === pollId);
          const type = poll?.attributes?.type ?? 'FreeForm';
          const numeric = /^(NumberScale|NPSRating|NPS|YesNo)$/i.test(type) || (poll?.numericResponses !== undefined && poll.numericResponses !== false);
          const value = numeric ? Number.parseInt(raw, 10) : raw;
          if (numeric && !Number.isFinite(value)) {
            log('warn', `guide ${guide.id} poll ${pollId}: '${raw}' is not a number; not recorded`);
            continue;
          }
          record('pollResponse', { guide_id: guide.id, guide_step_id: step.id, poll_id: pollId, poll_response: value, duration, poll_type: type }, action.url, pollEvents);
        }
        return ok(null);
      }
      if (action.action === 'timeout') {
        // spec: guides §4 Step timeout, §8 — logged, a guideTimeout event with the reason, and the step is
        // marked notSeen (timed out) so it is not tried again.
        log('warn', MESSAGES.stepTimedOut(guide.id, step.id));
        record('guideTimeout', {
          guide_id: guide.id,
          guide_step_id: step.id,
          reason: action.timeoutReason ?? 'other',
          guideSeenTimeoutLength: action.timeoutMs,
        }, action.url);
        guides = guides.map((g) => (g.id === guide.id ? { ...g, steps: g.steps.map((st) => (st.id === step.id ? { ...st, seenState: 'notSeen' as const } : st)) } : g));
        return ok(null);
      }
      const transition = transitionOf(action);
      if (transition.type === 'show' && transition.reason !== 'api' && transition.reason !== 'permalink') {
        // spec: guides §5 — rendered where its page rule does not match (an SPA page change raced the
        // render): a page rule exception, and the guide goes back on the failed list. A host's or a
        // permalink's explicit ask is not held to the page rule.
        const exception = pageRuleException(guide, step, action.url);
        if (exception) {
          const message = `${MESSAGES.pageRuleException}: guide ${guide.id} step ${step.id}: ${exception}`;
          failed.set(guide.id, message);
          log('warn', message);
          notSeen(guide, step.id, 'pageRule', action.url);
          return fail(ERROR_CODES.pageRule, message);
        }
      }
      const now = ports.clock.now();
      // spec: guides §4 Throttling — only auto-launched guides set the throttling timestamps.
      const autoLaunched = (shownReason.get(guide.id) ?? step.seenReason) === 'auto';
      const result = applyGuideTransition(guide, transition, { now, autoLaunched });
      if (!result.ok) {
        log('warn', `guide ${action.action} refused: ${result.refusal}`);
        return fail(ERROR_CODES.badPayload, result.refusal);
      }
      for (const warning of result.warnings) log('error', warning);
      guides = guides.map((g) => (g.id === guide.id ? result.guide : g));
      for (const e of result.events) record(e.type, e.props, action.url);
      if (transition.type === 'show') shownReason.set(guide.id, transition.reason);
      else recentChanges[recentChangeKey(guide.id, step.id)] = now;
      if (Object.keys(result.timestamps).length) {
        state.timestamps = { ...state.timestamps, ...result.timestamps };
        saveState();
      }
      if (!result.show || transition.type === 'show') return ok(null);
      const next = result.guide.steps.find((s) => s.id === result.show);
      return next ? resolveStep(result.guide, next, 'continue') : ok(null);
    },

    async guideIdByName(name) {
      return guides.find((g) => g.name === name)?.id ?? null;
    },

    async launcherView() {
      return (await launcherOf(false)).launcher ?? null;
    },

    async resourceCenterView() {
      return (await resourceCenterOf(false)) ?? null;
    },

    async guideDiagnostics() {
      return {
        ...diagnostics,
        guides: guides.map((g) => {
          const verdict = verdicts.get(g.id);
          return { id: g.id, name: g.name, completion: completionStatus(g), candidate: verdict?.candidate ?? false, reason: verdict?.reason ?? 'not judged yet' };
        }),
      };
    },
  };
}
