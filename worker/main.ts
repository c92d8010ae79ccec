/**
 * Entry of dist/agent/waymark.worker.js: serves the worker API to the shim, then says it is ready (the shim
 * falls back to another mode when a worker never does: shim/startWorker.ts).
 */
import type { Endpoint } from 'comlink';
import { WORKER_READY_MESSAGE } from '../shared/constants';
import { createStepPainter } from './guides/createStepPainter';
import { spawnRenderWorker } from './guides/spawnRenderWorker';
import { createPorts } from './ports';
import { serveWorkerApi } from './serveWorkerApi';

const ports = createPorts();
// Issue #34: steps are painted only here, in the dedicated worker, which can start the render worker or load the
// render chunk with importScripts.
const stepPainter = (url: string, log: Parameters<typeof createStepPainter>[0]['log']) =>
  createStepPainter({ url, importScripts: (u) => importScripts(u), spawn: spawnRenderWorker, clock: ports.clock, log });
serveWorkerApi(self as unknown as Endpoint, { ...ports, stepPainter });
postMessage({ type: WORKER_READY_MESSAGE });
