/**
 * Issue #34: what the render chunk (dist/agent/waymark.render.js, overlay/render) gives the worker that loads it
 * (worker/guides/loadScript.ts): one global, named here so both sides spell it the same way.
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
