/**
 * Entry of dist/agent/waymark.render.js (issue #34): a classic script for the guide worker, never the page. The worker
 * loads it once guide.json is asked for (worker/guides/createStepPainter.ts) and calls the global it assigns (named in
 * shared/guides/stepRenderer.ts, not left to the bundle's IIFE name). It compiles its render path as it loads
 * (warmUp), while guide.json is still on its way.
 */
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import { renderStepNodes } from './renderStepNodes';
import { warmUp } from './warmUp';

const renderer: StepRenderer = { renderStepNodes };
// globalThis is the worker's `self` (and lets a test in Node load the entry as it is).
(globalThis as Record<string, unknown>)[STEP_RENDERER_GLOBAL] = renderer;
warmUp(renderer);
