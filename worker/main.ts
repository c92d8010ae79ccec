/**
 * Entry of dist/agent/waymark.worker.js: serves the worker API to the shim, then says it is ready (the shim
 * falls back to another mode when a worker never does: shim/startWorker.ts).
 */
import type { Endpoint } from 'comlink';
import { WORKER_READY_MESSAGE } from '../shared/constants';
import { STEP_RENDERER_GLOBAL } from '../shared/guides/stepRenderer';
import { createStepPainter } from './guides/createStepPainter';
import { loadScript } from './guides/loadScript';
import { createRenderChunkLoads } from './guides/renderChunkLoads';
import { createPorts } from './ports';
import { serveWorkerApi } from './serveWorkerApi';

const ports = createPorts();
// Issue #34: steps are painted only here, in the dedicated worker, which loads the render chunk beside itself.
const ranRenderChunk = () => STEP_RENDERER_GLOBAL in self;
const renderChunk = createRenderChunkLoads((url) => loadScript(url, ranRenderChunk));
self.addEventListener('message', (event: MessageEvent) => renderChunk.onMessage(event.data));
const stepPainter = (url: string, log: Parameters<typeof createStepPainter>[0]['log']) =>
  createStepPainter({ url, loadScript: renderChunk.load, clock: ports.clock, log });
serveWorkerApi(self as unknown as Endpoint, { ...ports, stepPainter });
postMessage({ type: WORKER_READY_MESSAGE });
