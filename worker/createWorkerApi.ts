/**
 * The one object the worker exposes over Comlink. It owns the event pipeline (enrich, batch, compress,
 * send, retry) and the guide engine; the shim only hands over batches of captured events and DOM facts.
 */
import { AGENT_VERSION, BEACON_SOURCE, EVENT_SEND_DELAY_MS } from '../shared/constants';
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import { annotateFrustration, createRageClickDetector, createUTurnDetector } from '../shared/analytics/detectFrustration';
import { createEventPreparer } from '../shared/events/prepareEvent';
import { checkSignedMetadata, decideMetadataUse } from '../shared/identity/checkSignedMetadata';
import { toBase64Url } from '../shared/wire/jzb';
import { readCampaign, toUtm } from '../shared/analytics/readCampaign';
import { ERROR_CODES, fail, ok, type Outcome } from '../shared/errors';
import { PROTOCOL_VERSION, type LogLevel, type ShimCallbacks, type WorkerApi, type WorkerInit } from '../shared/protocol';
import { createErrorReporter, type ErrorReporter } from './createErrorReporter';
import { createGuideEngine, type GuideEngine } from './createGuideEngine';
import { createSegmentFlags, type SegmentFlags } from './createSegmentFlags';
import { createSendQueue, type QueueItem, type SendQueue } from './createSendQueue';
import type { WorkerPorts } from './ports';

interface Running {
  config: WorkerInit;
  context: EnvelopeContext;
  analytics: SendQueue;
  guides: GuideEngine;
  /** analytics §1 lock: false while event writing is stopped. */
  sending: boolean;
  prepare(captured: CapturedEvent, ctx: EnvelopeContext): string;
  errors: ErrorReporter;
  segments: SegmentFlags;
  /** The page the latest event came from, for segment flag requests. */
  url: string;
}

export function createWorkerApi(ports: WorkerPorts) {
  let running: Running | null = null;
  let callbacks: ShimCallbacks | null = null;
  /** Guide events' own per-page counter (analytics events carry the shim's). */
  let guideSequence = 0;

  const log = (level: LogLevel, message: string): void => {
    // The shim's logger owns the console and the log history; a dropped callback must not break sending.
    void Promise.resolve(callbacks?.log(level, message)).catch(() => undefined);
  };
  const notInitialized = () => fail(ERROR_CODES.notInitialized, 'the worker was called before init');
  // analytics §4: frustration is judged here, off the main thread, from what the shim captured.
  const rage = createRageClickDetector();
  const uTurn = createUTurnDetector();
  /**
   * A click waits here for the shim's dead/error verdict (sent only when there is one), and every event
   * after it waits behind it so the queue keeps capture order. Released on the verdict, or 1 s after the
   * click, or on flush.
   */
  let waiting: CapturedEvent[] = [];
  /** The envelope context (identity, session, utm) each waiting event was pushed under. */
  const pushedUnder = new WeakMap<CapturedEvent, EnvelopeContext>();
  let releaseTimer: unknown = null;
  const verdicts = new Map<number, { types: string[]; errorMessage?: string }>();

  /** Marks rage clicks and U-turn page loads with `frustrationTypes` (wire-protocol.md "click"). */
  function withFrustration(captured: CapturedEvent): CapturedEvent {
    if (captured.type === 'click') {
      const { x, y } = captured.props as { x?: unknown; y?: unknown };
      if (typeof x !== 'number' || typeof y !== 'number') return captured;
      const verdict = rage.observe({ time: captured.time, x, y, sequence: captured.sequence });
      return verdict.rage ? { ...captured, props: annotateFrustration(captured.props, 'rageClick') } : captured;
    }
    if (captured.type === 'load') {
      const verdict = uTurn.observe({ time: captured.time, url: captured.url });
      return verdict.uTurn ? { ...captured, props: annotateFrustration(captured.props, 'uTurn') } : captured;
    }
    return captured;
  }

  /** How long a click waits for the shim's verdict: its 500 ms watch plus room for a busy main thread. */
  const VERDICT_WAIT_MS = 1000;

  /** Hands waiting events to the queue, in order, up to the first click still owed a verdict. */
  function release(force: boolean): void {
    if (!running) return;
    const now = ports.clock.now();
    let n = 0;
    for (; n < waiting.length; n++) {
      const event = waiting[n]!;
      if (event.type !== 'click' || force || verdicts.has(event.sequence)) continue;
      if (now - event.time < VERDICT_WAIT_MS) break;
    }
    if (n) process(waiting.slice(0, n));
    waiting = waiting.slice(n);
    if (releaseTimer !== null) ports.clock.clearTimeout(releaseTimer);
    releaseTimer = null;
    const head = waiting[0];
    if (head) releaseTimer = ports.clock.setTimeout(() => release(false), Math.max(0, head.time + VERDICT_WAIT_MS - now));
  }

  /** Frustration marks, then prepare (transforms, privacy filter, envelope), then the send queue. */
  function process(events: CapturedEvent[]): void {
    if (!running) return;
    const { context, analytics, prepare } = running;
    const items: QueueItem[] = [];
    for (const pushed of events) {
      let captured = pushed;
      try {
        captured = withFrustration(captured);
        const verdict = captured.type === 'click' ? verdicts.get(captured.sequence) : undefined;
        if (verdict) {
          verdicts.delete(captured.sequence);
          let props = captured.props;
          for (const type of verdict.types) props = annotateFrustration(props, type);
          if (verdict.errorMessage) props = { ...props, errorMessage: verdict.errorMessage };
          captured = { ...captured, props };
        }
        // The identity and session the event was pushed under, though it may be released after a change.
        const json = prepare(captured, pushedUnder.get(pushed) ?? context);
        items.push({ json, track: captured.type === 'track', sequence: captured.sequence });
      } catch (err) {
        // One malformed event must not cost the batch: report it and go on.
        const e = err as Error;
        void running.errors.report({ message: `could not prepare a ${captured.type} event: ${e?.message}`, stack: e?.stack, critical: true });
      }
    }
    analytics.enqueue(items);
  }

  const api = {
    hello(protocolVersion: number) {
      if (protocolVersion !== PROTOCOL_VERSION) {
        // The shim checks the answer and refuses to go on; say so here too for a worker-side reader.
        console.warn(`waymark worker speaks protocol ${PROTOCOL_VERSION}, the shim ${protocolVersion}`);
      }
      return { protocolVersion: PROTOCOL_VERSION, agentVersion: AGENT_VERSION };
    },

    init(options: WorkerInit, shimCallbacks: ShimCallbacks): Outcome<null> {
      callbacks = shimCallbacks;
      const config: WorkerInit = { ...options };
      // Each full page load has a worker of its own: replay the tab's previous loads so A -> B -> A across
      // navigations is seen as the U-turn it is.
      for (const page of config.recentPages ?? []) uTurn.observe(page);
      if (config.campaign) {
        // analytics §3, §4: a session's source is set when it starts, or when a page brings a campaign or
        // comes from another site; a direct page view mid-session keeps the session's source.
        const campaign = readCampaign(config.campaign.pageUrl, config.campaign.referrer);
        if (config.campaign.newSession || campaign.channel !== 'Direct' || !config.utm.channel) {
          config.utm = toUtm(campaign);
          void Promise.resolve(callbacks?.campaign(config.utm)).catch(() => undefined);
        }
      }
      const persistKey = (endpoint: string) => `${config.apiKey}|${endpoint}|${config.session.frameId}`;
      const beaconParams = () => ({
        // spec: analytics §7 — acc, the encoded account id when set.
        acc: config.identity.accountId ? toBase64Url(new TextEncoder().encode(config.identity.accountId)) : undefined,
        source: BEACON_SOURCE.worker,
      });
      // analytics §4, §5: signed metadata given but invalid is logged and events go unsigned ('enabled');
      // with 'required', nothing is written without valid signed metadata (the action is refused).
      const signed = config.signedMetadata ? checkSignedMetadata(config.signedMetadata) : { ok: true as const, auth: undefined };
      const decision = decideMetadataUse(config.signedMetadataMode ?? 'enabled', signed);
      if (decision.use !== 'signed' && 'error' in decision && decision.error) log('error', decision.error);
      const signedAuth = decision.use === 'signed' ? decision.auth : undefined;
      const refused = decision.use === 'refuse';
      // Refused: no guide request either (it would carry the unsigned visitor).
      if (refused) config.guides = { ...config.guides, guideEventsBlocked: true };
      const auth = () => signedAuth;
      let acknowledged = -1;
      const analytics = createSendQueue({
        apiKey: config.apiKey,
        dataHost: config.dataHost,
        endpoint: 'ptm.gif',
        mode: config.sendEventsWithPostOnly ? 'post-only' : 'get-or-post',
        delayMs: EVENT_SEND_DELAY_MS,
        params: beaconParams,
        auth,
        persistKey: persistKey('ptm.gif'),
        onDone(items) {
          // Batches finish in queue order, so the highest own sequence done is a high-water mark.
          let highest = acknowledged;
          for (const item of items) if (item.sequence !== undefined && item.sequence > highest) highest = item.sequence;
          if (highest > acknowledged) {
            acknowledged = highest;
            void Promise.resolve(callbacks?.delivered(highest)).catch(() => undefined);
          }
        },
        ports,
        log,
      });
      running = {
        config,
        context: { identity: config.identity, session: config.session, utm: config.utm },
        analytics,
        guides: createGuideEngine({
          config,
          ports,
          log,
          nextSequence: () => guideSequence++,
          isSending: () => running?.sending !== false,
          persistKey: persistKey('guide.gif'),
          params: beaconParams,
          auth,
          saveState: (guideState) => void Promise.resolve(callbacks?.guideState(guideState)).catch(() => undefined),
          // spec: guides §7, §8 — a 451 stops tracking of the visitor: nothing more is written for this page.
          onDenied: () => {
            if (running) running.sending = false;
          },
        }),
        sending: true,
        url: config.campaign?.pageUrl ?? '',
        segments: createSegmentFlags({
          apiKey: config.apiKey,
          dataHost: config.dataHost,
          agentVersion: config.agentVersion,
          ports,
          log,
          getRequest: () => ({
            visitorId: config.identity.visitorId,
            accountId: config.identity.accountId,
            metadata: config.metadata,
            url: running?.url ?? '',
          }),
          getAuth: auth,
          getAcc: () => beaconParams().acc,
          onFlags: (flags) => void Promise.resolve(callbacks?.segmentFlags(flags)).catch(() => undefined),
        }),
        prepare: createEventPreparer({ urlTransforms: config.urlTransforms ?? [], privacyFilters: config.privacyFilters ?? [] }),
        errors: createErrorReporter({
          apiKey: config.apiKey,
          dataHost: config.dataHost,
          agentVersion: config.agentVersion,
          getVisitorId: () => config.identity.visitorId,
          includeStack: config.disableStackTraces !== true,
          ports,
          log,
        }),
      };
      if (refused) running.sending = false;
      if (config.guides?.state?.denied) {
        // spec: guides §7, §8 — the collector answered 451 for this visitor on an earlier page.
        running.sending = false;
        log('warn', 'tracking of this visitor is stopped: the collector answered 451 on an earlier page');
      }
      // What earlier page loads could not send goes first (analytics §9 durability).
      void analytics.restore().then((n) => n && log('info', `sending ${n} events left unsent by an earlier page`));
      void running.guides.events.restore();
      void running.guides.pollEvents.restore();
      void running.segments.load();
      return ok(null);
    },

    push(events, judged) {
      if (!running) return;
      if (!running.sending) {
        // Not written (analytics §1 lock, or a 451): acknowledged all the same, so the shim does not hold
        // them for its page-hide beacon.
        const last = events[events.length - 1];
        if (last) void Promise.resolve(callbacks?.delivered(last.sequence)).catch(() => undefined);
        return;
      }
      if (events.length) running.url = events[events.length - 1]!.url;
      // The shim pushes what it captured before it tells of a new identity or session (createBridge), so
      // the context now is the one these events were captured under; a click's verdict may keep them here
      // until after such a change.
      const under = { ...running.context };
      for (const event of events) {
        pushedUnder.set(event, under);
        waiting.push(event);
      }
      for (const v of judged ?? []) {
        // A verdict for a click already released (a very busy main thread) comes too late to mark it.
        if (waiting.some((e) => e.type === 'click' && e.sequence === v.sequence)) {
          verdicts.set(v.sequence, { types: v.frustrationTypes, errorMessage: v.errorMessage });
        }
      }
      release(false);
    },

    reportError(error) {
      if (running) void running.errors.report(error);
    },

    setSession(session) {
      if (!running) return;
      running.config.session = session;
      running.context.session = session;
    },

    setSending(sending) {
      if (running) running.sending = sending;
    },

    setIdentity(identity) {
      if (!running) return;
      running.config.identity = identity;
      running.context.identity = identity;
      // analytics §4: flags follow the visitor; bursts of changes collapse into one request (50 ms).
      running.segments.request();
    },

    async flush() {
      if (!running) return notInitialized();
      // A flush is asked for now: clicks still waiting for a verdict go as they are.
      release(true);
      const reports = await Promise.all([running.analytics.flush(), running.guides.events.flush(), running.guides.pollEvents.flush()]);
      return ok({
        sent: reports.reduce((n, r) => n + r.sent, 0),
        pending: reports.reduce((n, r) => n + r.pending, 0),
        errors: reports.flatMap((r) => r.errors),
      });
    },

    async loadGuides(url) {
      if (!running) return notInitialized();
      return running.guides.load(url);
    },

    async stepForGuide(guideId, stepId, reason) {
      if (!running) return notInitialized();
      return running.guides.stepForGuide(guideId, stepId, reason);
    },

    async stepAction(action) {
      if (!running) return notInitialized();
      return running.guides.stepAction(action);
    },

    async guideIdByName(name) {
      return running ? running.guides.guideIdByName(name) : null;
    },

    async launcherView() {
      return running ? running.guides.launcherView() : null;
    },

    async resourceCenterView() {
      return running ? running.guides.resourceCenterView() : null;
    },

    async guideDiagnostics() {
      return running ? running.guides.guideDiagnostics() : { url: '', loadedAt: null, loadError: 'Waymark is not initialized', guides: [] };
    },
  } satisfies WorkerApi;
  return api;
}
