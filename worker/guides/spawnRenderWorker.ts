/**
 * The render worker (issue #34), started by the guide worker: the render chunk from its own URL, or, where that URL
 * is on another origin than this worker (a worker can start only same-origin scripts), from a blob: that imports
 * it. Null where neither can start (a browser without nested workers, a policy refusing them).
 */
import { RENDER_WORKER_NAME } from '../../shared/guides/stepRenderer';
import type { RenderWorker } from './createStepPainter';

export function spawnRenderWorker(url: string): RenderWorker | null {
  if (typeof Worker !== 'function') return null;
  const options = { name: RENDER_WORKER_NAME };
  try {
    return new Worker(url, options) as unknown as RenderWorker;
  } catch {
    try {
      const blob = new Blob([`importScripts(${JSON.stringify(url)})`], { type: 'text/javascript' });
      return new Worker(URL.createObjectURL(blob), options) as unknown as RenderWorker;
    } catch {
      return null;
    }
  }
}
