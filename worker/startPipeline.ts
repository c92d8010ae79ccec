/**
 * What `init` builds in the worker: the page's traffic source, the signed-metadata decision, the event send
 * queue, the guide engine, segment flags, the error reporter, the health report and the event preparer, wired to the shim's
 * callbacks (spec: analytics §3, §4, §5, §7, §9; guides §7, §8). Then what earlier page loads left unsent is
 * restored, and segment flags are asked for.
 */
import { BEACON_SOURCE, EVENT_SEND_DELAY_MS } from '../shared/constants';
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import { createEventPreparer } from '../shared/events/prepareEvent';
import { checkSignedMetadata, decideMetadataUse } from '../shared/identity/checkSignedMetadata';
import { readCampaign, toUtm } from '../shared/analytics/readCampaign';
import { toBase64Url } from '../shared/wire/jzb';
import type { GuideTailMessage, LogLevel, ShimCallbacks, WorkerInit } from '../shared/protocol';
import { createErrorReporter, type ErrorReporter } from './createErrorReporter';
import { createGuideEngine, type GuideEngine } from './createGuideEngine';
import { createSegmentFlags, type SegmentFlags } from './createSegmentFlags';
import { createSendQueue, type SendQueue } from './createSendQueue';
import type { WorkerPorts } from './ports';
import { createCollectorPause } from './createCollectorPause';
import { createMonitor, type Monitor } from './createMonitor';

/** The worker's state after init. */
export interface Pipeline {
  config: WorkerInit;
  context: EnvelopeContext;
  analytics: SendQueue;
  guides: GuideEngine;
  /** analytics §1 lock: false while event writing is stopped (also after a 451, or refused signed metadata). */
  sending: boolean;
  prepare(captured: CapturedEvent, ctx: EnvelopeContext): string;
  errors: ErrorReporter;
  /** The health report's counts (analytics §9 monitoring flush). */
  monitor: Monitor;
  segments: SegmentFlags;
  /** The page the latest event came from, for segment flag requests. */
  url: string;
}

export interface PipelineOptions {
  ports: WorkerPorts;
  callbacks: ShimCallbacks;
  /** Events of this page up to `upTo` are done with (the one-way DeliveredMessage). */
  delivered(upTo: number): void;
  /** The page's copy of the guide events not yet sent (the one-way GuideTailMessage, issue #32). */
  guideTail?(message: GuideTailMessage): void;
  log(level: LogLevel, message: string): void;
  /** Guide events' own per-page counter (analytics events carry the shim's sequence). */
  nextGuideSequence(): number;
}

/** Calls a shim callback; a dropped callback (a closed page) must not break sending. */
export function tell<A extends unknown[]>(fn: ((...args: A) => unknown) | undefined, ...args: A): void {
  void Promise.resolve(fn?.(...args)).catch(() => undefined);
}

export function startPipeline(options: WorkerInit, { ports: given, callbacks, delivered, guideTail, log, nextGuideSequence }: PipelineOptions): Pipeline {
  const config: WorkerInit = { ...options };
  const monitor = createMonitor({
    apiKey: config.apiKey,
    dataHost: config.dataHost,
    agentVersion: config.agentVersion,
    current: () => ({ visitorId: config.identity.visitorId, sessionId: config.session.sessionId }),
    // The pipeline's lock: a visitor whose tracking is stopped is not named in a report either.
    mayReport: () => pipeline?.sending !== false,
    ports: given,
  });
  // Every part below counts into the health report through its ports.
  const ports: WorkerPorts = { ...given, tally: monitor };
  if (config.campaign) {
    // analytics §3, §4: a session's source is set when it starts, or when a page brings a campaign or
    // comes from another site; a direct page view mid-session keeps the session's source.
    const campaign = readCampaign(config.campaign.pageUrl, config.campaign.referrer);
    if (config.campaign.newSession || campaign.channel !== 'Direct' || !config.utm.channel) {
      config.utm = toUtm(campaign);
      tell(callbacks.campaign, config.utm);
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
  const pause = createCollectorPause();
  const analytics = createSendQueue({
    apiKey: config.apiKey,
    dataHost: config.dataHost,
    endpoint: 'ptm.gif',
    mode: config.sendEventsWithPostOnly ? 'post-only' : 'get-or-post',
    delayMs: EVENT_SEND_DELAY_MS,
    params: beaconParams,
    auth,
    persistKey: persistKey('ptm.gif'),
    pause,
    onDone(items) {
      // Batches finish in queue order, so the highest own sequence done is a high-water mark.
      let highest = acknowledged;
      for (const item of items) if (item.sequence !== undefined && item.sequence > highest) highest = item.sequence;
      if (highest > acknowledged) {
        acknowledged = highest;
        delivered(highest);
      }
    },
    ports,
    log,
  });
  // Closures below read the pipeline being built; they may run before it is assigned (never with a value).
  let pipeline: Pipeline | undefined;
  pipeline = {
    config,
    context: { identity: config.identity, session: config.session, utm: config.utm },
    analytics,
    monitor,
    guides: createGuideEngine({
      config,
      ports,
      log,
      nextSequence: nextGuideSequence,
      isSending: () => pipeline?.sending !== false,
      persistKey: persistKey('guide.gif'),
      params: beaconParams,
      pause,
      auth,
      tail: guideTail,
      saveState: (guideState) => tell(callbacks.guideState, guideState),
      // spec: guides §7, §8 — a 451 stops tracking of the visitor: nothing more is written for this page.
      onDenied: () => {
        if (pipeline) pipeline.sending = false;
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
        url: pipeline?.url ?? '',
      }),
      getAuth: auth,
      getAcc: () => beaconParams().acc,
      onFlags: (flags) => tell(callbacks.segmentFlags, flags),
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
  if (refused) pipeline.sending = false;
  if (config.guides?.state?.denied) {
    // spec: guides §7, §8 — the collector answered 451 for this visitor on an earlier page.
    pipeline.sending = false;
    log('warn', 'tracking of this visitor is stopped: the collector answered 451 on an earlier page');
  }
  // What earlier page loads could not send goes first (analytics §9 durability).
  void analytics.restore().then((n) => n && log('info', `sending ${n} events left unsent by an earlier page`));
  void pipeline.guides.events.restore();
  void pipeline.guides.pollEvents.restore();
  void pipeline.segments.load();
  return pipeline;
}
