/**
 * Serves the worker API on an endpoint (the worker's own scope, or a port of the page's MessageChannel in the
 * main-thread mode): Comlink for the calls, and beside it, on the same endpoint so in order with them, the
 * one-way capture messages (shared/protocol/capture.ts): batches in, delivery marks out. Comlink ignores
 * messages that are not its own, and answers none of these, so a click costs the page no reply task.
 */
import { expose, type Endpoint } from 'comlink';
import { PUSH_MESSAGE } from '../shared/constants';
import type { PushMessage } from '../shared/protocol';
import { createWorkerApi } from './createWorkerApi';
import type { WorkerPorts } from './ports';

export function serveWorkerApi(endpoint: Endpoint, ports: WorkerPorts): ReturnType<typeof createWorkerApi> {
  const api = createWorkerApi(ports, (message) => endpoint.postMessage(message));
  endpoint.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as Partial<PushMessage> | null;
    if (data?.type === PUSH_MESSAGE && Array.isArray(data.events)) api.push(data.events, data.verdicts);
  });
  expose(api, endpoint);
  return api;
}
