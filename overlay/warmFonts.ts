/**
 * The first text laid out in a weight the page has not used yet (a step's bold title and buttons) costs the frame
 * that paints it a font lookup (~3 ms median here, measured with scratch pages, issue #16). A canvas measuring a word
 * in each weight a step uses makes the browser load those faces ahead, off the page.
 */

/** The weights and sizes overlay/styles.ts gives a step's text, title and buttons. */
const STEP_FONTS = ['14px system-ui', '600 14px system-ui', 'bold 18px system-ui'];

export function warmFonts(doc: Document): void {
  const context = doc.createElement('canvas').getContext('2d');
  if (!context) return;
  for (const font of STEP_FONTS) {
    context.font = font;
    context.measureText('Welcome');
  }
}

/** `run` in `doc`'s window's next idle time (within 2 s), or in a task where there is no idle callback. */
export function whenIdle(doc: Document, run: () => void): void {
  const view = doc.defaultView;
  if (!view) return;
  if (typeof view.requestIdleCallback === 'function') view.requestIdleCallback(run, { timeout: 2000 });
  else view.setTimeout(run, 0);
}
