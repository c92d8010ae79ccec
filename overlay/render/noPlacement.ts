/**
 * Issue #34: what the render chunk has in @floating-ui/dom's place. A tooltip is placed by its layout effect
 * (overlay/followTarget.ts), which a render to nodes never runs: the page places the painted box. So the chunk does
 * without floating-ui's ~20 KB; called anyway, these say where placement belongs.
 */
const onThePage = (): never => {
  throw new Error('placement runs on the page, not in the render chunk');
};

export const arrow = onThePage;
export const autoUpdate = onThePage;
export const computePosition = onThePage;
export const flip = onThePage;
export const hide = onThePage;
export const offset = onThePage;
export const shift = onThePage;
