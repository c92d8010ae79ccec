/**
 * The one object the worker exposes over Comlink. It owns the event pipeline (enrich, batch, compress,
 * send, retry) and the guide engine; the shim only hands over batches of captured events and DOM facts.
 */
import { AGENT_VERSION, DELIVERED_MESSAGE } from '../shared/constants';
import type { CapturedEvent } from '../shared/events/events';
import { annotateFrustration, createRageClickDetector, createUTurnDetector } from '../shared/analytics/detectFrustration';
import { ERROR_CODES, fail, ok, type Outcome } from '../shared/errors';
import { PROTOCOL_VERSION, type LogLevel, type ShimCallbacks, type WorkerApi, type WorkerInit, type DeliveredMessage, type GuideTailMessage } from '../shared/protocol';
import type { QueueItem } from './createSendQueue';
import { createVerdictHold, type ReleasedEvent } from './createVerdictHold';
import type { WorkerPorts } from './ports';
import { startPipeline, tell, type Pipeline } from './startPipeline';
import { createRecorder, type Recorder } from './recording/createRecorder';

/**
 * `toPage` posts the one-way messages to the shim (worker/serveWorkerApi.ts gives the endpoint's); without it
 * (tests of the API alone) they go nowhere.
 */
export function createWorkerApi(ports: WorkerPorts, toPage: (message: DeliveredMessage | GuideTailMessage) => void = () => undefined) {
  let running: Pipeline | null = null;
  let callbacks: ShimCallbacks | null = null;
  /** Session recording (issue #18), made when the page first asks whether it records. */
  let recorder: Recorder | null = null;
  /** Guide events' own per-page counter (analytics events carry the shim's). */
  let guideSequence = 0;

  const log = (level: LogLevel, message: string): void => {
    if (level === 'error' || level === 'warn') running?.monitor.add(level === 'error' ? 'errors' : 'warnings');
    // The shim's logger owns the console and the log history; a dropped callback must not break sending.
    tell(callbacks?.log, level, message);
  };
  const notInitialized = () => fail(ERROR_CODES.notInitialized, 'the worker was called before init');
  // analytics §4: frustration is judged here, off the main thread, from what the shim captured.
  const rage = createRageClickDetector();
  const uTurn = createUTurnDetector();
  const hold = createVerdictHold(ports.clock, process);
  const post = (message: DeliveredMessage | GuideTailMessage) => {
    try {
      toPage(message);
    } catch {
      // A closed page: nothing holds the events any more.
    }
  };
  const delivered = (upTo: number) => post({ type: DELIVERED_MESSAGE, upTo });

  /** Marks rage clicks and U-turn page loads with `frustrationTypes` (wire-protocol.md "click"). */
  function withFrustration(captured: CapturedEvent): CapturedEvent {
    if (captured.type === 'click') {
      const { x, y } = captured.props as { x?: unknown; y?: unknown };
      if (typeof x !== 'number' || typeof y !== 'number') return captured;
      const verdict = rage.observe({ time: captured.time, x, y, sequence: captured.sequence });
      // One rage click per burst: the click that makes it (a visitor's six furious clicks are one, not three).
      return verdict.rage && verdict.newBurst ? { ...captured, props: annotateFrustration(captured.props, 'rageClick') } : captured;
    }
    if (captured.type === 'load') {
      const verdict = uTurn.observe({ time: captured.time, url: captured.url });
      return verdict.uTurn ? { ...captured, props: annotateFrustration(captured.props, 'uTurn') } : captured;
    }
    return captured;
  }

  /** Frustration marks and the shim's verdicts, then prepare (transforms, privacy filter, envelope), then the send queue. */
  function process(released: ReleasedEvent[]): void {
    if (!running) return;
    const { analytics, prepare } = running;
    const items: QueueItem[] = [];
    for (const { event, under, verdict } of released) {
      let captured = event;
      try {
        captured = withFrustration(captured);
        if (verdict) {
          let props = captured.props;
          for (const type of verdict.types) props = annotateFrustration(props, type);
          if (verdict.errorMessage) props = { ...props, errorMessage: verdict.errorMessage };
          captured = { ...captured, props };
        }
        // The identity and session the event was pushed under, though it may be released after a change.
        const json = prepare(captured, under);
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
      if (options.protocolVersion !== undefined && options.protocolVersion !== PROTOCOL_VERSION) {
        log('error', `the Waymark worker speaks protocol ${PROTOCOL_VERSION}, the shim ${options.protocolVersion}: reload the page`);
      }
      // Each full page load has a worker of its own: replay the tab's previous loads so A -> B -> A across
      // navigations is seen as the U-turn it is.
      for (const page of options.recentPages ?? []) uTurn.observe(page);
      running = startPipeline(options, { ports, callbacks, delivered, guideTail: post, log, nextGuideSequence: () => guideSequence++ });
      return ok(null);
    },

    push(events, judged) {
      if (!running) return;
      if (!running.sending) {
        // Not written (analytics §1 lock, or a 451): acknowledged all the same, so the shim does not hold
        // them for its page-hide beacon.
        const last = events[events.length - 1];
        if (last) delivered(last.sequence);
        return;
      }
      if (events.length) running.url = events[events.length - 1]!.url;
      hold.push(events, judged, running.context);
    },

    reportError(error) {
      if (!running) return;
      running.monitor.add('errors');
      void running.errors.report(error);
    },

    setSession(session) {
      if (!running) return;
      running.config.session = session;
      running.context.session = session;
    },

    setSending(sending) {
      if (running) running.sending = sending;
    },

    setIdentity(identity, metadata) {
      if (!running) return;
      running.config.identity = identity;
      running.context.identity = identity;
      if (metadata) running.config.metadata = metadata;
      // analytics §4: flags follow the visitor; bursts of changes collapse into one request (50 ms).
      running.segments.request();
    },

    async flush() {
      if (!running) return notInitialized();
      // A flush is asked for now: clicks still waiting for a verdict go as they are.
      hold.release(true);
      // The recorder's chunks go too (issue #18: at once on flushNow); they are not events, so not counted. The
      // health report follows the events, so it counts what this flush sent.
      const [reports] = await Promise.all([
        Promise.all([running.analytics.flush(), running.guides.events.flush(), running.guides.pollEvents.flush()]),
        recorder?.flush(),
      ]);
      void running.monitor.flush();
      return ok({
        sent: reports.reduce((n, r) => n + r.sent, 0),
        pending: reports.reduce((n, r) => n + r.pending, 0),
        errors: reports.flatMap((r) => r.errors),
      });
    },

    async recordingDecision() {
      if (!running) return false;
      return (recorder ??= createRecorder(running, ports, log)).decide();
    },

    pushRecording(events, flush) {
      return recorder?.push(events, flush) ?? null;
    },

    async previewGuide(payload) {
      if (!running) return notInitialized();
      return running.guides.previewGuide(payload);
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

    async throttling(merge) {
      return running ? running.guides.throttling(merge) : { timestamps: {}, changed: false, nextDisplayAt: null };
    },

    async guideDiagnostics() {
      return running ? running.guides.guideDiagnostics() : { url: '', loadedAt: null, loadError: 'Waymark is not initialized', guides: [] };
    },
  } satisfies WorkerApi;
  return api;
}
