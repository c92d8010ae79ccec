/**
 * Work the overlay does ahead of a guide, in the page's idle time. (Until 2026-11-28 the step's font faces were also
 * looked up ahead, on a canvas: a CPU profile of the bench's cold lightbox put 7-50 ms in that idle callback, a long
 * task of its own, against ~3 ms it saved the frame that paints the step; issue #34.)
 */

/** `run` in `doc`'s window's next idle time (within 2 s), or in a task where there is no idle callback. */
export function whenIdle(doc: Document, run: () => void): void {
  const view = doc.defaultView;
  if (!view) return;
  if (typeof view.requestIdleCallback === 'function') view.requestIdleCallback(run, { timeout: 2000 });
  else view.setTimeout(run, 0);
}
