/**
 * Entry of dist/agent/waymark.worker.js: exposes the worker API to the shim over Comlink, then says it is
 * ready (the shim falls back to another mode when a worker never does: shim/startWorker.ts).
 */
import { expose } from 'comlink';
import { WORKER_READY_MESSAGE } from '../shared/constants';
import { createPorts } from './ports';
import { createWorkerApi } from './createWorkerApi';

expose(createWorkerApi(createPorts()));
postMessage({ type: WORKER_READY_MESSAGE });
