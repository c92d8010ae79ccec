/**
 * The shim's end of the shim-worker contract (STYLE §2). Over the endpoint shim/startWorker.ts gives it
 * (a worker, a blob: worker or the in-page fallback), it runs the versioned handshake, and gathers captured events so they cross in one Comlink call per
 * CAPTURE_BATCH_MS instead of one per DOM event. Every other call goes after the buffered events, so the
 * worker sees events and identity changes in the order the page made them.
 */
import { proxy, releaseProxy, wrap, type Endpoint } from 'comlink';
import { CAPTURE_BATCH_MS } from '../shared/constants';
import type { CapturedEvent } from '../shared/events/events';
import { PROTOCOL_VERSION, type ClickVerdictMessage, type Identity, type LogLevel, type SessionFacts, type ShimCallbacks, type WorkerApi, type WorkerInit } from '../shared/protocol';

/**
 * The worker API as the shim calls it: every method answers with a promise. Declared here rather than with
 * Comlink's `Remote<>`, which splits a `Promise<Outcome<T>>` into a union of promises.
 */
export type RemoteWorker = {
  [K in keyof WorkerApi]: (...args: Parameters<WorkerApi[K]>) => Promise<Awaited<ReturnType<WorkerApi[K]>>>;
};

/** A captured event the page still holds, with the identity and session it was captured under. */
export interface HeldEvent {
  event: CapturedEvent;
  identity: Identity;
  session: SessionFacts;
}

export interface Bridge {
  /** Numbers one captured event and buffers it for the next batch; answers its sequence. */
  capture(event: Omit<CapturedEvent, 'sequence'>): number;
  /** Changes the identity of the events captured from now on (and tells the worker, in order). */
  setIdentity(identity: Identity): void;
  /** The session changed (inactivity, visitor change): events from now on carry the new one. */
  setSession(session: SessionFacts): void;
  /**
   * Events not yet known to be done with: still buffered, or handed over but not acknowledged by the
   * worker. What the page-hide beacon sends.
   */
  held(): HeldEvent[];
  /** Hands the buffered events to the worker now (page hide, explicit flush). */
  flushCaptured(): void;
  /** A dead/error click verdict; it travels with the next batch of events, not in a call of its own. */
  verdict(verdict: ClickVerdictMessage): void;
  /** Calls the worker after every event captured so far. */
  call<T>(fn: (api: RemoteWorker) => Promise<T>): Promise<T>;
  terminate(): void;
}

/**
 * Connects to the worker API on `endpoint` (a Worker, or a MessagePort in the contract test) and sends
 * the handshake and `init`.
 */
/** Events held for the page-hide beacon at most; past it the oldest go (the worker has them anyway). */
const MAX_HELD_EVENTS = 10_000;

export function createBridge(
  endpoint: Endpoint & { terminate?(): void },
  init: WorkerInit,
  log: (level: LogLevel, message: string) => void,
  on: Partial<Pick<ShimCallbacks, 'campaign' | 'segmentFlags' | 'guideState'>> = {},
): Bridge {
  let sequence = 0;
  let identity = init.identity;
  let session = init.session;
  /** Events in sequence order, each kept until the worker says it is done with it. */
  let held: HeldEvent[] = [];
  const delivered = (upTo: number) => {
    let n = 0;
    while (n < held.length && held[n]!.event.sequence <= upTo) n++;
    if (n) held = held.slice(n);
  };

  const remote = wrap<WorkerApi>(endpoint);
  const api = remote as unknown as RemoteWorker;
  // Comlink messages are delivered in order and the browser holds them until the worker script has run,
  // so hello and init need not be awaited before the first batch is posted.
  void api.hello(PROTOCOL_VERSION).then(
    (hello) => {
      if (hello.protocolVersion !== PROTOCOL_VERSION) {
        log('error', `the Waymark worker speaks protocol ${hello.protocolVersion}, the shim ${PROTOCOL_VERSION}: reload the page`);
      }
    },
    (err: unknown) => log('error', `the Waymark worker did not answer: ${String(err)}`),
  );
  const ignore = () => undefined;
  const callbacks: ShimCallbacks = {
    log,
    delivered,
    campaign: on.campaign ?? ignore,
    segmentFlags: on.segmentFlags ?? ignore,
    guideState: on.guideState ?? ignore,
  };
  void api.init(init, proxy(callbacks));

  let buffer: CapturedEvent[] = [];
  let verdicts: ClickVerdictMessage[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flushCaptured(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (!buffer.length && !verdicts.length) return;
    const batch = buffer;
    const judged = verdicts;
    buffer = [];
    verdicts = [];
    void api.push(batch, judged.length ? judged : undefined);
  }

  return {
    capture(event) {
      const numbered = event as CapturedEvent;
      numbered.sequence = sequence++;
      buffer.push(numbered);
      held.push({ event: numbered, identity, session });
      // One event in, so at most one over: the oldest goes.
      if (held.length > MAX_HELD_EVENTS) held.shift();
      if (timer === null) timer = setTimeout(flushCaptured, CAPTURE_BATCH_MS);
      return numbered.sequence;
    },
    verdict(v) {
      verdicts.push(v);
      if (timer === null) timer = setTimeout(flushCaptured, CAPTURE_BATCH_MS);
    },
    setIdentity(next) {
      identity = next;
      flushCaptured();
      void api.setIdentity(next);
    },
    setSession(next) {
      session = next;
      flushCaptured();
      void api.setSession(next);
    },
    held: () => held.slice(),
    flushCaptured,
    call(fn) {
      flushCaptured();
      return fn(api);
    },
    terminate() {
      flushCaptured();
      remote[releaseProxy]();
      endpoint.terminate?.();
    },
  };
}
