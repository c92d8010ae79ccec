/**
 * Entry of dist/agent/waymark.steps.js (issue #34), what the guides chunk imports the first time something is
 * drawn: the page's overlay. A step the worker painted (StepToShow.painted: lightbox, mobile lightbox, tooltip,
 * banner) is drawn here, from its nodes, without React: a guide's first paint evaluates no React on the host's main
 * thread (24-61 ms of module evaluation in the bench, one long task at the worst moment). Everything else (a step
 * the worker did not paint, an embedded step, one with block-out panes, badges, the launcher, the resource center)
 * goes to the React overlay (overlay/index.tsx), imported the first time one is needed and handed the same shadow
 * root; calls to it run in the order they were made.
 */
import { readBlockOut } from '../../shared/surfaces/blockOutPanes';
import type { PaintedStep, StepToShow } from '../../shared/protocol';
import type { Overlay, OverlayModule, StepHandlers } from '../api';
import { createOverlayHost, mirrorForPage } from '../createOverlayHost';
import { paintStep, type PaintedView } from './paintStep';
import { warmFaces } from './warmFaces';

export const createOverlay: OverlayModule['createOverlay'] = (doc, options = {}) => {
  const parts = createOverlayHost(doc);
  const container = doc.createElement('div');
  parts.shadow.appendChild(container);
  let painted: { step: StepToShow; handlers: StepHandlers; view: PaintedView } | null = null;
  let react: Promise<Overlay> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  /**
   * Runs `use` on the React overlay, loaded the first time, after every call made before it; answers when it ran
   * (rejected when the overlay could not load: logged here, and the next calls still run).
   */
  const later = (use: (overlay: Overlay) => void): Promise<void> => {
    const load = options.loadReact;
    if (!load) return Promise.reject(new Error('no React overlay to draw with'));
    const run = queue.then(() => (react ??= load().then((m) => m.createOverlay(doc, { log: options.log, host: parts })))).then(use);
    queue = run.catch((error: unknown) => {
      react = null;
      options.log?.('error', `the Waymark overlay could not draw: ${error instanceof Error ? error.message : String(error)}`);
    });
    return run;
  };
  const unpaint = () => {
    painted?.view.undo();
    painted = null;
  };

  // guides §2: Escape (key 27) dismisses a guide that has a dismiss action; every step has the close button. The
  // React overlay listens for its own steps.
  const onKeyDown = (event: KeyboardEvent) => {
    if (painted && (event.key === 'Escape' || event.keyCode === 27)) painted.handlers.onDismiss(null);
  };
  doc.addEventListener('keydown', onKeyDown, true);
  let destroyed = false;
  warmFaces(doc, parts, () => painted !== null || react !== null || destroyed);

  return {
    show(step, target, handlers) {
      // The same step again, on the element the page put in place of its own: it follows that one.
      if (painted?.step === step && paintable(step, target)) {
        painted.handlers = handlers;
        return painted.view.retarget(target);
      }
      unpaint();
      if (!paintable(step, target)) return later((overlay) => void overlay.show(step, target, handlers));
      if (react) void later((overlay) => overlay.hide());
      parts.stepSheet.replaceSync(step.css ?? '');
      parts.attach();
      mirrorForPage(container, doc);
      // The step's delegation reads its handlers from the record kept here, which the same step shown again updates.
      const shown = { handlers };
      painted = Object.assign(shown, { step, view: paintStep(container, step, target, () => shown.handlers) });
    },
    hide() {
      unpaint();
      if (react) void later((overlay) => overlay.hide());
    },
    showBadges(badges, onOpen) {
      if (react || badges.length) void later((overlay) => overlay.showBadges(badges, onOpen));
    },
    showLauncher(launcher, open, anchor, handlers) {
      if (react || launcher) void later((overlay) => overlay.showLauncher(launcher, open, anchor, handlers));
    },
    showResourceCenter(resourceCenter, state, handlers) {
      if (react || resourceCenter) void later((overlay) => overlay.showResourceCenter(resourceCenter, state, handlers));
    },
    destroy() {
      destroyed = true;
      unpaint();
      doc.removeEventListener('keydown', onKeyDown, true);
      if (react) void later((overlay) => overlay.destroy());
      else parts.host.remove();
    },
  };
};

/**
 * Whether `step` is drawn from its painted nodes: the worker painted it, and nothing about it needs the React
 * overlay (embedded in the page, block-out panes around its element, a tooltip whose element is gone and so shows as
 * a lightbox). A block-out that does not read is the React overlay's to report (guides §8).
 */
function paintable(step: StepToShow, target: Element | null): step is StepToShow & { painted: PaintedStep } {
  if (!step.painted || step.embed || (step.type === 'tooltip' && !target)) return false;
  try {
    return !(target && readBlockOut(step.attributes));
  } catch {
    return false;
  }
}
