/**
 * Entry of dist/agent/waymark.render.js (issue #34): a classic script for the worker, never the page. The guide
 * worker starts it as a worker of its own (named RENDER_WORKER_NAME), where it answers render requests; where that
 * cannot start, the guide worker loads it with importScripts and calls the global it assigns (named in
 * shared/guides/stepRenderer.ts, not left to the bundle's IIFE name). Either way it compiles its render path first
 * (warmUp).
 */
import { RENDER_WORKER_NAME, STEP_RENDERER_GLOBAL, type RenderReply, type RenderRequest, type StepRenderer } from '../../shared/guides/stepRenderer';
import { renderStepNodes } from './renderStepNodes';
import { warmUp } from './warmUp';

const renderer: StepRenderer = { renderStepNodes };
// globalThis is the worker's `self` (and lets a test in Node load the entry as it is).
const scope = globalThis as unknown as Record<string, unknown> & { name?: unknown; onmessage?: unknown; postMessage?(message: RenderReply): void };
scope[STEP_RENDERER_GLOBAL] = renderer;
if (scope.name === RENDER_WORKER_NAME && typeof scope.postMessage === 'function') {
  scope.onmessage = ({ data }: { data: RenderRequest }) => {
    const reply: RenderReply = { id: data.id };
    try {
      reply.painted = renderStepNodes(data.step);
    } catch (error) {
      reply.error = String(error);
    }
    scope.postMessage!(reply);
  };
  // A step that was already waiting when this worker started goes first: it compiles what it needs by itself.
  setTimeout(() => warmUp(renderer));
} else {
  warmUp(renderer);
}
