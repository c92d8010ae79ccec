/**
 * Starts the agent's worker wherever the page lets it run (issue #7). Browsers start a dedicated worker only
 * from a same-origin URL, and a host may load waymark.js from a CDN or the collector's origin, so the
 * modes are tried in order:
 * 1. `worker`: the host's own copy of waymark.worker.js (`workerUrl`), or the agent's when it is same-origin;
 * 2. `blob`: a blob: worker that imports the agent's worker script (needs CSP `worker-src blob:`);
 * 3. `main-thread`: the worker code as a module on the page (everything works, at a main-thread cost).
 * A mode failed when the constructor throws, the worker reports an error, or it is not ready within
 * WORKER_READY_TIMEOUT_MS. The shim talks to the returned endpoint at once: messages wait for the mode that
 * works, in order (nothing is transferred until then), so no call of the agent is lost to a failed mode.
 */
import type { Endpoint } from 'comlink';
import { WORKER_READY_MESSAGE, WORKER_READY_TIMEOUT_MS } from '../shared/constants';
import type { LogLevel } from '../shared/protocol';
import { importChunk } from './importChunk';
import { trustedScriptUrl } from './trustedScriptUrl';

export type WorkerMode = 'worker' | 'blob' | 'main-thread';

/** What waymark.inpage.js exports: the worker API served on a port of the page's own MessageChannel. */
export interface InPageModule {
  /** A port to the worker API, served on the other end of a MessageChannel on this page. */
  connectInPage(): AgentEndpoint;
  /** Why no worker could start, in words for the console. */
  fallbackNotice(): string;
}

export interface StartWorkerOptions {
  /** The agent's worker script, beside waymark.js. */
  scriptUrl: string;
  /** The host's copy of the worker script (initialize option `workerUrl`), tried first. */
  workerUrl?: string;
  /** The in-page module of the last mode. */
  inPageUrl: string;
  log(level: LogLevel, message: string): void;
  /** Told once, with the mode that runs. */
  onMode(mode: WorkerMode): void;
}

/** An endpoint that queues what is posted to it until the real one is known. */
export type AgentEndpoint = Endpoint & { terminate(): void };

export function startWorker({ scriptUrl, workerUrl, inPageUrl, log, onMode }: StartWorkerOptions): AgentEndpoint {
  let real: AgentEndpoint | null = null;
  let closed = false;
  const queue: Array<[unknown, Transferable[] | undefined]> = [];
  const listeners: Array<[string, EventListenerOrEventListenerObject]> = [];

  const use = (endpoint: AgentEndpoint, mode: WorkerMode) => {
    if (closed) return endpoint.terminate();
    real = endpoint;
    for (const [type, listener] of listeners) endpoint.addEventListener(type, listener);
    for (const [message, transfer] of queue.splice(0)) endpoint.postMessage(message, transfer);
    onMode(mode);
  };

  const attempts: Array<[WorkerMode, string]> = [];
  if (workerUrl) attempts.push(['worker', new URL(workerUrl, location.href).href]);
  const sameOrigin = new URL(scriptUrl).origin === location.origin;
  if (sameOrigin) attempts.push(['worker', scriptUrl]);
  else attempts.push(['blob', URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(scriptUrl)})`], { type: 'text/javascript' }))]);

  const next = (): void => {
    const attempt = attempts.shift();
    if (!attempt) {
      void importChunk<InPageModule>(inPageUrl).then(
        (m) => {
          log('warn', m.fallbackNotice());
          use(m.connectInPage(), 'main-thread');
        },
        (err: unknown) => log('error', `the Waymark worker code did not load on the page either (${inPageUrl}): ${String(err)}`),
      );
      return;
    }
    const [mode, url] = attempt;
    let worker: Worker;
    try {
      worker = new Worker(trustedScriptUrl(url), { name: 'waymark' });
    } catch (err) {
      log('info', `Waymark worker mode ${mode} cannot start: ${(err as Error)?.message ?? String(err)}`);
      return next();
    }
    let ready = false;
    const fail = (why: string) => {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      worker.terminate();
      log('info', `Waymark worker mode ${mode} failed (${url}): ${why}`);
      next();
    };
    const timer = setTimeout(() => fail(`not ready within ${WORKER_READY_TIMEOUT_MS} ms`), WORKER_READY_TIMEOUT_MS);
    worker.addEventListener('error', (event) => {
      if (!ready) {
        event.preventDefault();
        return fail(event.message || 'could not load the script');
      }
      log('error', `the Waymark worker failed (${url}): ${event.message || 'an error'}`);
    });
    worker.addEventListener('message', function onReady(event: MessageEvent) {
      if (ready || (event.data as { type?: unknown } | null)?.type !== WORKER_READY_MESSAGE) return;
      ready = true;
      clearTimeout(timer);
      worker.removeEventListener('message', onReady);
      use(worker, mode);
    });
  };
  next();

  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      if (real) real.postMessage(message, transfer);
      // postMessage copies the message at the call: a queued one must not see later changes to what it holds
      // (the init's session, replaced by a clearSession before the worker is ready). One clone keeps ports paired.
      else queue.push(structuredClone([message, transfer], { transfer }));
    },
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      listeners.push([type, listener]);
      real?.addEventListener(type, listener);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const i = listeners.findIndex(([t, l]) => t === type && l === listener);
      if (i >= 0) listeners.splice(i, 1);
      real?.removeEventListener(type, listener);
    },
    terminate() {
      closed = true;
      queue.length = 0;
      real?.terminate();
    },
  };
}
