/**
 * Entry of dist/agent/waymark.render.js (issue #34): a classic script the worker loads with importScripts, never
 * the page. It assigns its API to one global (shared/guides/stepRenderer.ts) rather than relying on the bundle's
 * IIFE name, so the worker finds it under the name both sides share.
 */
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import { renderStepNodes } from './renderStepNodes';

(self as unknown as Record<string, StepRenderer>)[STEP_RENDERER_GLOBAL] = { renderStepNodes };
