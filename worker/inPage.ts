/**
 * Entry of dist/agent/waymark.inpage.js, the last install mode (issue #7): the worker code on the page's
 * main thread, served on one port of a MessageChannel, so the shim talks to it exactly as to a worker.
 * Loaded only where no worker could start.
 */
import { createPorts } from './ports';
import { serveWorkerApi } from './serveWorkerApi';

export function startInPage(port: MessagePort): { stop(): void } {
  serveWorkerApi(port, createPorts());
  return { stop: () => port.close() };
}

/**
 * The shim's end of the in-page mode: a port to the worker API served on the other end of a MessageChannel,
 * with the `terminate` of a worker (kept in this chunk: the initial shim pays no bytes for it, issue #16).
 */
export function connectInPage(): MessagePort & { terminate(): void } {
  const channel = new MessageChannel();
  const running = startInPage(channel.port2);
  channel.port1.start();
  return Object.assign(channel.port1, { terminate: () => (running.stop(), channel.port1.close()) });
}

/**
 * Why the agent runs here, logged as a warning by the shim (kept in this chunk: the initial shim pays no
 * bytes for it). A cross-origin isolated page (COOP + COEP require-corp) starts a dedicated worker only from a
 * script served with its own `Cross-Origin-Embedder-Policy: require-corp` header (issue #16), which the
 * browser blocks without saying so in a way a page can read.
 */
export function fallbackNotice(): string {
  const why = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated
    ? 'this page is cross-origin isolated (COOP and COEP require-corp), so the worker script must be served with ' +
      "'Cross-Origin-Embedder-Policy: require-corp' (and 'Cross-Origin-Resource-Policy: cross-origin' from another origin); " +
      'the reference server and the files of `npx waymark-copy-agent` served with those headers run in a worker'
    : 'a cross-origin agent without workerUrl, or a CSP without worker-src blob:';
  return `Waymark runs its worker code on the main thread: no worker could start (${why})`;
}
