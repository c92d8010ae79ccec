/**
 * Issue #34: the render worker started with this worker, before the shim's init names its URL. A returning
 * visitor's guide.json answers soon after init (the availability verdict is kept): a render worker started only
 * then was still loading (a worker's start and the chunk's ~140 KB took 120-180 ms here), and the first step waited
 * for it. Where this worker's file is the agent's own `waymark.worker.js`, the render chunk is beside it, so its
 * worker starts now; the painter takes it over when init names the same URL. One init does not name it (guides off,
 * another URL, no init within RENDER_ADOPT_MS): it is ended.
 */
import type { RenderWorker } from './createStepPainter';

/** How long the early render worker waits to be taken over before it is ended. */
export const RENDER_ADOPT_MS = 10_000;

/** `spawn` as the painter calls it: the early worker for its URL (once), else a new one. */
export function startRenderWorkerEarly(
  workerUrl: string,
  spawn: (url: string) => RenderWorker | null,
  setTimer: (fn: () => void, ms: number) => unknown,
): (url: string) => RenderWorker | null {
  const beside = /\/waymark\.worker\.js$/.test(new URL(workerUrl).pathname) ? new URL('waymark.render.js', workerUrl).href : null;
  let early = beside ? spawn(beside) : null;
  // A start that fails before the painter listens (its file did not load) would leave it a worker that never answers.
  let failedEarly = false;
  early?.addEventListener('error', () => void (failedEarly = true));
  setTimer(() => {
    early?.terminate();
    early = null;
  }, RENDER_ADOPT_MS);
  return (url) => {
    const ready = url === beside && !failedEarly ? early : null;
    if (!ready) early?.terminate();
    early = null;
    return ready ?? spawn(url);
  };
}
