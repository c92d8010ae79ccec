/**
 * The one object the worker exposes over Comlink. It owns the event pipeline (enrich, batch, compress,
 * send, retry) and the guide engine; the shim only hands over batches of captured events and DOM facts.
 */
import { AGENT_VERSION, EVENT_SEND_DELAY_MS } from '../shared/constants';
import { enrichEvent, type EnvelopeContext } from '../shared/enrichEvent';
import { ERROR_CODES, fail, ok, type Outcome } from '../shared/errors';
import { PROTOCOL_VERSION, type LogLevel, type ShimCallbacks, type WorkerApi, type WorkerInit } from '../shared/protocol';
import { createGuideEngine, type GuideEngine } from './createGuideEngine';
import { createSendQueue, type SendQueue } from './createSendQueue';
import type { WorkerPorts } from './ports';

interface Running {
  config: WorkerInit;
  context: EnvelopeContext;
  analytics: SendQueue;
  guides: GuideEngine;
}

export function createWorkerApi(ports: WorkerPorts) {
  let running: Running | null = null;
  let callbacks: ShimCallbacks | null = null;
  let sequence = 0;

  const log = (level: LogLevel, message: string): void => {
    // The shim's logger owns the console and the log history; a dropped callback must not break sending.
    void Promise.resolve(callbacks?.log(level, message)).catch(() => undefined);
  };
  const notInitialized = () => fail(ERROR_CODES.notInitialized, 'the worker was called before init');

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
      running = {
        config,
        context: { identity: config.identity, session: config.session, utm: config.utm },
        analytics: createSendQueue({
          apiKey: config.apiKey,
          dataHost: config.dataHost,
          endpoint: 'ptm.gif',
          mode: 'get-or-post',
          delayMs: EVENT_SEND_DELAY_MS,
          ports,
          log,
        }),
        guides: createGuideEngine({ config, ports, log, nextSequence: () => sequence++ }),
      };
      return ok(null);
    },

    push(events) {
      if (!running) return;
      const { context, analytics } = running;
      for (const captured of events) {
        const { json } = enrichEvent(captured, context, sequence++);
        analytics.enqueue(json, captured.type === 'track');
      }
    },

    setIdentity(identity) {
      if (!running) return;
      running.config.identity = identity;
      running.context.identity = identity;
    },

    async flush() {
      if (!running) return notInitialized();
      const [analytics, guides] = await Promise.all([running.analytics.flush(), running.guides.events.flush()]);
      return ok({
        sent: analytics.sent + guides.sent,
        pending: analytics.pending + guides.pending,
        errors: [...analytics.errors, ...guides.errors],
      });
    },

    async loadGuides(url) {
      if (!running) return notInitialized();
      return running.guides.load(url);
    },

    async stepForGuide(guideId, stepId) {
      if (!running) return notInitialized();
      return running.guides.stepForGuide(guideId, stepId);
    },

    async stepAction(action) {
      if (!running) return notInitialized();
      return running.guides.stepAction(action);
    },
  } satisfies WorkerApi;
  return api;
}
