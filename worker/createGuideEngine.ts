/**
 * The worker's side of the guide path (guides §2, §4, §5, §7, §8): requests guide.json for the page, judges
 * which steps may show, resolves their content, and turns the visitor's actions on a shown step into guide
 * events. This file wires the pieces of worker/guides/ and holds the loading refusals (451, dropAnonymous,
 * blocked guide events, non-web URLs, the availability probe) and the request itself.
 */
import { restartPreviewAt } from '../shared/guides/restartPreviewAt';
import { continuesVisitor, isAnonymousVisitorId } from '../shared/identity/identityRules';
import { ERROR_CODES, fail, ok, type Outcome } from '../shared/errors';
import type { GuideLoadResponse, ThrottlingTimestamps } from '../shared/guides/guides';
import { completionStatus } from '../shared/guides/continuationStep';
import { nextDisplayTime } from '../shared/eligibility/nextDisplayTime';
import { asGuideLoadResponse, checkGuideLoadResponse } from '../shared/guides/validateGuidePayload';
import { MESSAGES } from '../shared/messages';
import type { GuideDiagnostics, GuideLoadResult, GuidesApi, GuideState } from '../shared/protocol';
import type { SendQueue } from './createSendQueue';
import { assetCheckFor } from './guides/checkAssetUrl';
import { createAvailabilityProbe } from './guides/createAvailabilityProbe';
import { createContentLoader } from './guides/createContentLoader';
import { createGuideBook } from './guides/createGuideBook';
import { createGuideHealth } from './guides/createGuideHealth';
import { createGuideOutbox, type GuideOutboxOptions } from './guides/createGuideOutbox';
import { createLoadJudge } from './guides/createLoadJudge';
import { createStepActions } from './guides/createStepActions';
import { createSurfaceViews, LAUNCHER_GUIDE } from './guides/createSurfaceViews';
import { warmJudgement } from './guides/warmJudgement';
import { requestGuideList } from './requestGuideList';

/** What the engine needs: the outbox's needs (config, ports, log, sequence, lock, persistence, beacon params) and more. */
export interface GuideEngineDeps extends GuideOutboxOptions {
  /** Signed metadata, when valid: guide.json then goes by POST carrying it (guides §7). */
  auth?: () => { jwt: string; signingKeyName: string } | undefined;
  /** Keeps guide state for the visitor's next page (the shim's local storage). */
  saveState?: (state: GuideState) => void;
  /** The collector answered 451: the caller stops all tracking of the visitor (guides §7, §8). */
  onDenied?: () => void;
}

/** The guide part of the worker's API (its calls, with `loadGuides` as `load`), and the engine's two beacons. */
export interface GuideEngine extends Omit<GuidesApi, 'loadGuides'> {
  load(url: string): Promise<Outcome<GuideLoadResult>>;
  /** The guide beacon's queue. */
  events: SendQueue;
  /** The poll beacon's queue (pollResponse). */
  pollEvents: SendQueue;
}

export function createGuideEngine(deps: GuideEngineDeps): GuideEngine {
  const { config, ports, log } = deps;
  let requestId = 0;
  let diagnostics: Omit<GuideDiagnostics, 'guides'> = { url: '', loadedAt: null, loadError: null };
  /** What outlives the page (probe verdict, throttling timestamps, a 451), as the shim kept it. */
  const state: GuideState = { ...config.guides?.state, visitorId: config.identity.visitorId };
  const saveState = () => previewing || deps.saveState?.({ ...state, visitorId: config.identity.visitorId });
  /** guides §4 Health check: when each step last went advanced, dismissed or snoozed. */
  const recentChanges: Record<string, number> = {};
  const checkAsset = assetCheckFor(config);
  const book = createGuideBook();
  const outbox = createGuideOutbox(deps);
  /** guides §3 Preview: an author's preview runs; its guide events and state are not the visitor's. */
  let previewing = false;
  /** The visitor's step facts when a preview began, put back when it ends (the preview's actions were not theirs). */
  let beforePreview: Pick<GuideState, 'recentSteps' | 'timestamps'> & { changes: Record<string, number> } | null = null;
  const record: typeof outbox.record = (type, props, url) => {
    if (previewing) return;
    // guides §3 Guide event props: the language the collector served the guide in (issue #17), when it says one.
    const language = book.byId(props.guide_id)?.language;
    outbox.record(type, language && props.language === undefined ? { ...props, language } : props, url);
  };
  const health = createGuideHealth({ clock: ports.clock, log, record, pageUrl: () => diagnostics.url });
  const renderUrl = config.guides?.renderUrl;
  // Issue #34: only in the dedicated worker (the main-thread mode has no painter) and with the shim's URL.
  const painter = renderUrl ? ports.stepPainter?.(renderUrl, log) : undefined;
  // Its render chunk loads now, as the worker starts, where guides are on (the shim gives no renderUrl otherwise):
  // asked for beside guide.json instead, it came 40-80 ms after guide.json's answer in traces of a cold bench page,
  // and the first step waited for it. Every page with guides on asks for guide.json anyway; the chunk is 7 KB gzip,
  // and cached by the browser after the first page.
  painter?.warm();
  const loader = createContentLoader({ ports, log, checkAsset, health, disablePrefetch: config.guides?.disablePrefetch, painter });
  const surfaces = createSurfaceViews({ config, clock: ports.clock, log, book, loader, checkAsset });
  const probe = createAvailabilityProbe({ config, ports, log, state, saveState });
  const stepAction = createStepActions({ clock: ports.clock, log, book, loader, health, record, recentChanges, state, saveState });
  const judge = createLoadJudge({
    config,
    now: () => ports.clock.now(),
    log,
    book,
    loader,
    surfaces,
    checkAsset,
    record,
    state,
    recentChanges,
    onJudged: (url, now) => {
      diagnostics = { url, loadedAt: now, loadError: null };
    },
  });

  /**
   * analytics §4 identity change: the kept state is one visitor's. An anonymous visitor who signs in is the same
   * person (the collector remaps them) and keeps it; anyone else on this browser starts without the throttling
   * timestamps, step changes or 451 of the visitor before.
   */
  function followVisitor(): void {
    const { visitorId } = config.identity;
    if (state.visitorId === visitorId) return;
    if (!continuesVisitor(state.visitorId, visitorId)) {
      delete state.timestamps;
      delete state.recentSteps;
      delete state.denied;
      for (const key of Object.keys(recentChanges)) delete recentChanges[key];
    }
    state.visitorId = visitorId;
    saveState();
  }

  /** A refused load: the spec's callback message, logged with why. */
  function refuse(message: string, why: string): Outcome<never> {
    log('warn', `${message} (${why})`);
    diagnostics = { ...diagnostics, loadError: `${message} (${why})` };
    return fail(ERROR_CODES.badPayload, message);
  }

  return {
    events: outbox.events,
    pollEvents: outbox.pollEvents,

    async load(url) {
      const settings = config.guides ?? {};
      // guides §6: in preview mode guide requests leave the page alone (the preview endpoint gave its guide).
      if (previewing) return fail(ERROR_CODES.badPayload, 'a preview runs: guide.json is not asked');
      followVisitor();
      // spec: guides §5, §7, §8 — loading is refused for a visitor the collector answered 451 for, for
      // anonymous visitors with dropAnonymous, while guide events are blocked, and for pages that are not web URLs.
      if (state.denied) return refuse(MESSAGES.guidesBlocked, 'the collector answered 451 for this visitor');
      if (settings.dropAnonymous && isAnonymousVisitorId(config.identity.visitorId)) {
        return refuse(MESSAGES.guidesBlocked, 'dropAnonymous is set and the visitor is anonymous');
      }
      if (settings.guideEventsBlocked) return refuse(MESSAGES.guidesBlocked, 'guide events are blocked');
      if (!/^https?:\/\/[^/]/i.test(url)) return refuse(MESSAGES.invalidGuideUrl, `${url || '(empty)'} is not a web page URL`);
      // guides §7: a probe (once per 4 hours) flies beside guide.json, as the original agent's did, and its
      // verdict is awaited before the answer is used: a new visitor's first guide waits one round trip less.
      // A failed probe's kept verdict asks nothing.
      const reachable = probe();
      if (reachable === false) return refuse(MESSAGES.guidesBlocked, MESSAGES.guidesUnreachable);
      const id = String(++requestId);
      const asked = requestGuideList(ports, {
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
          cachedGuides: loader.cachedGuideIds(LAUNCHER_GUIDE.id),
          metadata: config.metadata,
        },
        acc: deps.params?.().acc,
        auth: deps.auth?.(),
        debug: settings.debug,
        timeoutMs: settings.timeoutMs,
      });
      if (painter && requestId === 1) {
        // Issue #34: the judging code compiled while the first answer is on its way (warmJudgement). Only in the
        // dedicated worker (a painter): in the main-thread mode this would be the host's time.
        ports.clock.setTimeout(() => void warmJudgement(ports, config, checkAsset, url).catch(() => undefined), 0);
      }
      const answer = await asked;
      if (!(await reachable)) return refuse(MESSAGES.guidesBlocked, MESSAGES.guidesUnreachable);
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
      // A preview that started while guide.json was asked keeps the page.
      if (previewing) return fail(ERROR_CODES.badPayload, 'a preview runs: guide.json is not asked');
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
        book.set([]);
        diagnostics = { url, loadedAt: ports.clock.now(), loadError: MESSAGES.notInSubscription };
        log('warn', MESSAGES.notInSubscription);
        return fail(ERROR_CODES.notInSubscription, MESSAGES.notInSubscription);
      }
      return ok(await judge.judge(response, url));
    },

    async stepForGuide(guideId, stepId, reason = 'api') {
      let guide = book.byId(guideId);
      if (!guide) return fail(ERROR_CODES.unknownGuide, `no guide with id ${guideId}`);
      const step = stepId ? guide.steps.find((s) => s.id === stepId) : guide.steps[0];
      if (!step) return fail(ERROR_CODES.unknownGuide, `guide ${guideId} has no step ${stepId ?? '(none)'}`);
      if (previewing) {
        // guides §3: a preview (re)starts its guide at the step asked: the steps reset, the earlier ones advanced
        // with reason continue, and a later step shows as the guide's continuation.
        book.update(guideId, (g) => restartPreviewAt(g, step.id));
        guide = book.byId(guideId)!;
        if (guide.steps[0]!.id !== step.id) reason = 'continue';
      }
      return loader.resolveStep(guide, guide.steps.find((s) => s.id === step.id)!, reason);
    },

    stepAction,

    async guideIdByName(name) {
      return book.list().find((g) => g.name === name)?.id ?? null;
    },

    async launcherView() {
      return (await surfaces.launcherOf(false)).launcher ?? null;
    },

    async resourceCenterView() {
      return (await surfaces.resourceCenterOf(false)) ?? null;
    },

    async previewGuide(payload) {
      if (!payload) {
        previewing = false;
        book.set([]);
        if (beforePreview) {
          const { changes, ...kept } = beforePreview;
          Object.assign(state, kept);
          for (const key of Object.keys(recentChanges)) if (!(key in changes)) delete recentChanges[key];
          Object.assign(recentChanges, changes);
          beforePreview = null;
        }
        return ok(null);
      }
      const body = { guides: [payload.guide, ...(payload.children ?? [])], lastGuideStepSeen: {} };
      const problem = checkGuideLoadResponse(body);
      if (problem) return fail(ERROR_CODES.badPayload, problem);
      previewing = true;
      beforePreview ??= { recentSteps: state.recentSteps, timestamps: state.timestamps, changes: { ...recentChanges } };
      const guides = asGuideLoadResponse(body).guides;
      book.set(guides);
      const guide = guides[0]!;
      return ok({ guideId: guide.id, name: guide.name, stepIds: guide.steps.map((s) => s.id) });
    },

    async throttling(merge = {}) {
      const timestamps: ThrottlingTimestamps = { ...state.timestamps };
      let changed = false;
      for (const [name, at] of Object.entries(merge) as Array<[keyof ThrottlingTimestamps, number]>) {
        if (at > (timestamps[name] ?? -Infinity)) (timestamps[name] = at), (changed = true);
      }
      if (changed) (state.timestamps = timestamps), saveState();
      // guides §4 Throttling: what the page's guide loop holds the candidates of the last load to.
      return { timestamps, changed, nextDisplayAt: nextDisplayTime(judge.throttling(), timestamps) };
    },

    async guideDiagnostics() {
      return {
        ...diagnostics,
        guides: book.list().map((g) => {
          const verdict = judge.verdictOf(g.id);
          return { id: g.id, name: g.name, completion: completionStatus(g), candidate: verdict?.candidate ?? false, reason: verdict?.reason ?? 'not judged yet' };
        }),
      };
    },
  };
}
