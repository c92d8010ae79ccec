/**
 * Entry of dist/agent/waymark.worker.js: serves the worker API to the shim, then says it is ready (the shim
 * falls back to another mode when a worker never does: shim/startWorker.ts).
 */
import type { Endpoint } from 'comlink';
import { WORKER_READY_MESSAGE } from '../shared/constants';
import { createStepPainter } from './guides/createStepPainter';
import { spawnRenderWorker } from './guides/spawnRenderWorker';
import { startRenderWorkerEarly } from './guides/startRenderWorkerEarly';
import { createPorts } from './ports';
import { serveWorkerApi } from './serveWorkerApi';

const ports = createPorts();
// Issue #34: steps are painted only here, in the dedicated worker, which can start the render worker (now, where its
// file is beside ours) or load the render chunk with importScripts.
const spawn = startRenderWorkerEarly(self.location.href, spawnRenderWorker, (fn, ms) => ports.clock.setTimeout(fn, ms));
const stepPainter = (url: string, log: Parameters<typeof createStepPainter>[0]['log']) =>
  createStepPainter({ url, importScripts: (u) => importScripts(u), spawn, clock: ports.clock, log });
serveWorkerApi(self as unknown as Endpoint, { ...ports, stepPainter });
postMessage({ type: WORKER_READY_MESSAGE });
