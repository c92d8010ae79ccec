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
