/**
 * The shim's end of the shim-worker contract (STYLE §2). Over the endpoint shim/startWorker.ts gives it
 * (a worker, a blob: worker or the in-page fallback), it runs the versioned handshake, and gathers captured
 * events so they cross in one message per tick of the agent (250 ms, shim/createTicker) instead of one per DOM
 * event, from a task the agent runs anyway: the shim sets no timer per event. Every other call goes
 * after the buffered events, so the worker sees events and identity changes in the order the page made them.
 *
 * What it costs the host per click is the point (issue #16). Batches and delivery marks are one-way messages
 * (no reply task). A batch holding a watched click waits for the click's verdict (told DEAD_CLICK_MS after the click,
 * on the agent's next tick, and sent with it at once), so an isolated click crosses once, with its verdict.
 */
import type { Endpoint } from 'comlink';
import { byReference, createRemote } from './createRemote';
import { DEAD_CLICK_MS, DELIVERED_MESSAGE, GUIDE_TAIL_MESSAGE, PUSH_MESSAGE } from '../shared/constants';
import { TICK_MS, type Ticker } from './createTicker';
import type { CapturedEvent } from '../shared/events/events';
import { PROTOCOL_VERSION, type ClickVerdictMessage, type DeliveredMessage, type GuideTailMessage, type Identity, type PushMessage, type LogLevel, type Metadata, type SessionFacts, type ShimCallbacks, type WorkerApi, type WorkerInit } from '../shared/protocol';

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
  /**
   * Numbers one captured event and buffers it for the next batch; answers its sequence. `awaitsVerdict`: a
   * click whose verdict (or its absence: `[]`) will follow; the batch waits for it.
   */
  capture(event: Omit<CapturedEvent, 'sequence'>, awaitsVerdict?: boolean): number;
  /** Changes the identity (and metadata) of the events captured from now on, and tells the worker, in order. */
  setIdentity(identity: Identity, metadata?: Metadata): void;
  /** The session changed (inactivity, visitor change): events from now on carry the new one. */
  setSession(session: SessionFacts): void;
  /**
   * Events not yet known to be done with: still buffered, or handed over but not acknowledged by the
   * worker. What the page-hide beacon sends.
   */
  held(): HeldEvent[];
  /**
   * Guide and poll events the worker wrote and has not sent (issue #32), as its beacon carries them: what the
   * page-hide beacon posts to guide.gif.
   */
  heldGuideEvents(): string[];
  /** Hands the buffered events to the worker now (page hide, explicit flush). */
  flushCaptured(): void;
  /** A click's verdict (`[]`: none); it travels with the batch of its click or the next, not on its own. */
  verdict(verdict: ClickVerdictMessage): void;
  /** Calls the worker after every event captured so far (once the bridge has started). */
  call<T>(fn: (api: RemoteWorker) => Promise<T>): Promise<T>;
  /**
   * Sends `init` now if it was deferred (`deferInit`): runs `prepare` first, which completes `init`, then
   * hands over the events captured meanwhile. Does nothing the second time.
   */
  start(): void;
  /** Resolves once `init` went to the worker. */
  started: Promise<void>;
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
  ticker: Ticker,
  on: Partial<Pick<ShimCallbacks, 'campaign' | 'segmentFlags' | 'guideState'>> = {},
  deferInit?: { prepare(): void },
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

  const api = createRemote<RemoteWorker>(endpoint);
  // Comlink messages are delivered in order and the browser holds them until the worker script has run, so
  // init need not be awaited before the first batch is posted. The worker checks the protocol version init
  // carries and logs a mismatch through the log callback (no handshake round trip at start, issue #16).
  /** The worker's guide events by sequence, until it says they are sent (GuideTailMessage). */
  const guideEvents = new Map<number, string>();
  endpoint.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as DeliveredMessage | GuideTailMessage | null;
    if (data?.type === DELIVERED_MESSAGE) delivered(data.upTo);
    if (data?.type === GUIDE_TAIL_MESSAGE) {
      if (data.json !== undefined) guideEvents.set(data.sequence!, data.json);
      for (const done of data.done ?? []) guideEvents.delete(done);
    }
  });
  const ignore = () => undefined;
  const callbacks: ShimCallbacks = {
    log,
    campaign: on.campaign ?? ignore,
    segmentFlags: on.segmentFlags ?? ignore,
    guideState: on.guideState ?? ignore,
  };
  let isStarted = false;
  let markStarted = () => undefined as void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  /**
   * Issue #16: with `deferInit`, what init carries from the browser's stores (session, tab, stored campaign and
   * guide state) is read when the page is idle (shim/whenIdle.ts), or earlier when something cannot wait
   * (identity or session change, page hide, teardown). Events captured before then wait here, in order.
   */
  function start(): void {
    if (isStarted) return;
    isStarted = true;
    // Completes init in place: the events held meanwhile share its session object.
    deferInit?.prepare();
    void api.init({ ...init, protocolVersion: PROTOCOL_VERSION }, byReference(callbacks));
    flushCaptured();
    markStarted();
  }

  let buffer: CapturedEvent[] = [];
  let verdicts: ClickVerdictMessage[] = [];
  /** Clicks of the buffer whose verdict has not come yet. */
  const awaiting = new Set<number>();
  /** When the buffer's first event (or verdict) came. */
  let openedAt = 0;

  function flushCaptured(): void {
    // Not started: the batch waits for init (start flushes it).
    if (!isStarted || (!buffer.length && !verdicts.length)) return;
    const message: PushMessage = { type: PUSH_MESSAGE, events: buffer, verdicts };
    buffer = [];
    verdicts = [];
    awaiting.clear();
    endpoint.postMessage(message);
  }

  // Each tick sends the batch, unless it holds a click whose verdict is still to come (the verdict sends it); a
  // batch that has waited past any verdict's time goes all the same (a visitor clicking on and on), and a
  // verdict that comes after it follows on its own (the worker holds a click up to 5 s for it, createVerdictHold).
  ticker.every(1, () => (!awaiting.size || Date.now() - openedAt > DEAD_CLICK_MS + TICK_MS) && flushCaptured());

  /** Something joined the buffer. */
  function opened(): void {
    if (!buffer.length && !verdicts.length) openedAt = Date.now();
  }

  if (!deferInit) start();

  return {
    capture(event, awaitsVerdict) {
      const numbered = event as CapturedEvent;
      numbered.sequence = sequence++;
      opened();
      buffer.push(numbered);
      held.push({ event: numbered, identity, session });
      // One event in, so at most one over: the oldest goes.
      if (held.length > MAX_HELD_EVENTS) held.shift();
      if (awaitsVerdict) awaiting.add(numbered.sequence);
      return numbered.sequence;
    },
    verdict(v) {
      opened();
      // An alive click ([]) is sent too: the worker then need not wait for a verdict.
      verdicts.push(v);
      awaiting.delete(v.sequence);
      // The batch waited for this verdict: it goes now, from the task that told it (the watcher's tick, or the
      // page's own task that had the click's effect).
      if (!awaiting.size) flushCaptured();
    },
    setIdentity(next, metadata) {
      // The events before the change keep the identity they were captured under: init goes first.
      start();
      identity = next;
      flushCaptured();
      void api.setIdentity(next, metadata);
    },
    setSession(next) {
      start();
      session = next;
      flushCaptured();
      void api.setSession(next);
    },
    held: () => held.slice(),
    heldGuideEvents: () => [...guideEvents.values()],
    flushCaptured() {
      // Page hide or an explicit flush: what the page holds goes now, so init goes now too.
      start();
      flushCaptured();
    },
    call(fn) {
      if (!isStarted) return started.then(() => (flushCaptured(), fn(api)));
      flushCaptured();
      return fn(api);
    },
    start,
    started,
    terminate() {
      start();
      flushCaptured();
      endpoint.terminate?.();
    },
  };
}
