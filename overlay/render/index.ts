/**
 * Entry of dist/agent/waymark.render.js (issue #34): a classic script the worker loads with importScripts, never
 * the page. It assigns its API to one global (shared/guides/stepRenderer.ts) rather than relying on the bundle's
 * IIFE name, so the worker finds it under the name both sides share; then it compiles its render path (warmUp).
 */
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import { renderStepNodes } from './renderStepNodes';
import { warmUp } from './warmUp';

const renderer: StepRenderer = { renderStepNodes };
// globalThis is the worker's `self` (and lets a test in Node load the entry as it is).
(globalThis as unknown as Record<string, StepRenderer>)[STEP_RENDERER_GLOBAL] = renderer;
warmUp(renderer);
