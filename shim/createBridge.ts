/**
 * The shim's end of the shim-worker contract (STYLE §2). It starts the dedicated worker from a same-origin
 * file, runs the versioned handshake, and gathers captured events so they cross in one Comlink call per
 * CAPTURE_BATCH_MS instead of one per DOM event. Every other call goes after the buffered events, so the
 * worker sees events and identity changes in the order the page made them.
 */
import { proxy, releaseProxy, wrap, type Endpoint } from 'comlink';
import { CAPTURE_BATCH_MS } from '../shared/constants';
import type { CapturedEvent } from '../shared/events';
import { PROTOCOL_VERSION, type LogLevel, type ShimCallbacks, type WorkerApi, type WorkerInit } from '../shared/protocol';

/**
 * The worker API as the shim calls it: every method answers with a promise. Declared here rather than with
 * Comlink's `Remote<>`, which splits a `Promise<Outcome<T>>` into a union of promises.
 */
export type RemoteWorker = {
  [K in keyof WorkerApi]: (...args: Parameters<WorkerApi[K]>) => Promise<Awaited<ReturnType<WorkerApi[K]>>>;
};

export interface Bridge {
  /** Buffers one captured event for the next batch. */
  capture(event: CapturedEvent): void;
  /** Hands the buffered events to the worker now (page hide, explicit flush). */
  flushCaptured(): void;
  /** Calls the worker after every event captured so far. */
  call<T>(fn: (api: RemoteWorker) => Promise<T>): Promise<T>;
  terminate(): void;
}

/** Starts the agent's dedicated worker from a same-origin URL (no blob:, so `worker-src 'self'` holds). */
export function startWorker(workerUrl: string, log: (level: LogLevel, message: string) => void): Worker {
  const worker = new Worker(workerUrl, { name: 'waymark' });
  worker.addEventListener('error', (event) => {
    log('error', `the Waymark worker failed (${workerUrl}): ${event.message || 'could not load the script'}`);
  });
  return worker;
}

/**
 * Connects to the worker API on `endpoint` (a Worker, or a MessagePort in the contract test) and sends
 * the handshake and `init`.
 */
export function createBridge(
  endpoint: Endpoint & { terminate?(): void },
  init: WorkerInit,
  callbacks: ShimCallbacks,
  log: (level: LogLevel, message: string) => void,
): Bridge {
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
  void api.init(init, proxy(callbacks));

  let buffer: CapturedEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flushCaptured(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (!buffer.length) return;
    const batch = buffer;
    buffer = [];
    void api.push(batch);
  }

  return {
    capture(event) {
      buffer.push(event);
      if (timer === null) timer = setTimeout(flushCaptured, CAPTURE_BATCH_MS);
    },
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
