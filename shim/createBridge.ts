/**
 * The shim's end of the shim-worker contract (STYLE §2). Over the endpoint shim/startWorker.ts gives it
 * (a worker, a blob: worker or the in-page fallback), it runs the versioned handshake, and gathers captured
 * events so they cross in one message per CAPTURE_BATCH_MS instead of one per DOM event. Every other call goes
 * after the buffered events, so the worker sees events and identity changes in the order the page made them.
 *
 * What it costs the host per click is the point (issue #16). Batches and delivery marks are one-way messages
 * (no reply task). A batch holding a watched click waits for the click's verdict (at most DEAD_CLICK_MS, plus
 * the batch time), so an isolated click crosses once, with its verdict, from the watcher's own task.
 */
import type { Endpoint } from 'comlink';
import { byReference, createRemote } from './createRemote';
import { CAPTURE_BATCH_MS, DEAD_CLICK_MS, DELIVERED_MESSAGE, PUSH_MESSAGE } from '../shared/constants';
import type { CapturedEvent } from '../shared/events/events';
import { PROTOCOL_VERSION, type ClickVerdictMessage, type DeliveredMessage, type Identity, type PushMessage, type LogLevel, type SessionFacts, type ShimCallbacks, type WorkerApi, type WorkerInit } from '../shared/protocol';

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
/** The longest a batch waits for its clicks' verdicts: the watch, then the usual batch time. */
const MAX_BATCH_WAIT_MS = DEAD_CLICK_MS + CAPTURE_BATCH_MS;

export function createBridge(
  endpoint: Endpoint & { terminate?(): void },
  init: WorkerInit,
  log: (level: LogLevel, message: string) => void,
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
  endpoint.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as DeliveredMessage | null;
    if (data?.type === DELIVERED_MESSAGE) delivered(data.upTo);
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
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Clicks of the buffer whose verdict has not come yet. */
  const awaiting = new Set<number>();
  /** When the buffer's first event (or verdict) came. */
  let openedAt = 0;

  function flushCaptured(): void {
    // clearTimeout(null) does nothing.
    clearTimeout(timer!);
    timer = null;
    // Not started: the batch waits for init (start flushes it).
    if (!isStarted || (!buffer.length && !verdicts.length)) return;
    const message: PushMessage = { type: PUSH_MESSAGE, events: buffer, verdicts };
    buffer = [];
    verdicts = [];
    awaiting.clear();
    endpoint.postMessage(message);
  }

  /** Flushes when the batch is due: CAPTURE_BATCH_MS after it opened, later while it waits for verdicts. */
  function flushWhenDue(): void {
    timer = null;
    const age = Date.now() - openedAt;
    const due = awaiting.size ? MAX_BATCH_WAIT_MS : CAPTURE_BATCH_MS;
    if (age >= due) flushCaptured();
    // While it waits for a verdict, the verdict flushes it (see `verdict`), or this timer at the latest.
    else timer = setTimeout(flushWhenDue, due - age);
  }

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
      // A click joining a batch that waits only its 50 ms (a real click's focus event came first) moves the
      // timer now, not from a task of its own at 50 ms.
      if (awaitsVerdict) awaiting.add(numbered.sequence), clearTimeout(timer!), (timer = null);
      if (timer === null) timer = setTimeout(flushWhenDue, (awaiting.size ? MAX_BATCH_WAIT_MS : CAPTURE_BATCH_MS) - (Date.now() - openedAt));
      return numbered.sequence;
    },
    verdict(v) {
      opened();
      // An alive click ([]) is sent too: the worker then need not wait for a verdict.
      verdicts.push(v);
      awaiting.delete(v.sequence);
      if (awaiting.size) return;
      // The batch waited for this verdict: it goes now when due (from the watcher's task, no task of its own).
      clearTimeout(timer!);
      flushWhenDue();
    },
    setIdentity(next) {
      // The events before the change keep the identity they were captured under: init goes first.
      start();
      identity = next;
      flushCaptured();
      void api.setIdentity(next);
    },
    setSession(next) {
      start();
      session = next;
      flushCaptured();
      void api.setSession(next);
    },
    held: () => held.slice(),
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
