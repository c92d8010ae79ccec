/**
 * Entry of dist/agent/waymark.worker.js: serves the worker API to the shim, then says it is ready (the shim
 * falls back to another mode when a worker never does: shim/startWorker.ts).
 */
import type { Endpoint } from 'comlink';
import { WORKER_READY_MESSAGE } from '../shared/constants';
import { createPorts } from './ports';
import { serveWorkerApi } from './serveWorkerApi';

serveWorkerApi(self as unknown as Endpoint, createPorts());
postMessage({ type: WORKER_READY_MESSAGE });
