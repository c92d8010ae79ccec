/**
 * Issue #34: what the render chunk (dist/agent/waymark.render.js, overlay/render) gives the worker that loads it
 * with importScripts: one global, named here so both sides spell it the same way.
 */
import type { PaintedStep, StepToShow } from '../protocol/guides';

/** The global the render chunk assigns when it runs (`self.waymarkRender`). */
export const STEP_RENDERER_GLOBAL = 'waymarkRender';

/** The render chunk's API. */
export interface StepRenderer {
  /**
   * A lightbox, mobile lightbox, tooltip or banner step that is not embedded, as the overlay's components draw it
   * (StepToShow.painted); undefined for any other step.
   */
  renderStepNodes(step: StepToShow): PaintedStep | undefined;
}

/**
 * The name the guide worker gives the render worker it starts (issue #34): the render chunk, run as a worker of its
 * own under this name, answers render requests, so its load and its renders never hold the guide worker up.
 */
export const RENDER_WORKER_NAME = 'waymark-render';

/** Guide worker to render worker: paint this step. */
export interface RenderRequest {
  id: number;
  step: StepToShow;
}

/** Render worker to guide worker: the step's nodes (none for a type it does not paint), or why the render threw. */
export interface RenderReply {
  id: number;
  painted?: PaintedStep;
  error?: string;
}
