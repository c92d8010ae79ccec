/**
 * Where a tooltip step sits (guides §2, §9): beside its target with a caret, on the side with room (flip) or the
 * one `layoutDir` forces; shifted to stay inside 2 % .. 98 % of the viewport's width (its caret at least 10 px from
 * its corners); hidden while the target is scrolled out of sight; following the target on scroll at most every
 * 10 ms and 50 ms after the last window resize (createRepositionScheduler), and at once when the target or the box
 * changes size (a ResizeObserver) or the target moves in the layout (floating-ui's autoUpdate), from the frame the
 * box is drawn in (after its layout, before its paint). The React Tooltip calls it from a layout effect,
 * a painted tooltip (overlay/static) when it draws. Returns the stop.
 */
import { arrow, autoUpdate, computePosition, flip, hide, offset, shift, type Placement } from '@floating-ui/dom';
import { TOOLTIP_DEFAULTS } from '../shared/constants';
import { createRepositionScheduler } from '../shared/surfaces/createRepositionScheduler';

export interface TooltipPlacement {
  /** 'auto', or the side the tooltip must take: 'top', 'bottom', 'left', 'right'. */
  layoutDir: string;
  /** The gap between the target and the box, the caret's size. */
  arrowSize: number;
  /** How far the caret stands out of the box (its border included). */
  caretOut: number;
}

const SIDES = new Set(['top', 'bottom', 'left', 'right']);
const OPPOSITE: Record<string, string> = { top: 'bottom', bottom: 'top', left: 'right', right: 'left' };

export function followTarget(target: Element, floating: HTMLElement, caret: HTMLElement, { layoutDir, arrowSize, caretOut }: TooltipPlacement): () => void {
  const forced = SIDES.has(layoutDir);
  const update = () =>
    computePosition(target, floating, {
      strategy: 'fixed',
      placement: (forced ? layoutDir : 'bottom') as Placement,
      middleware: [
        offset(arrowSize),
        ...(forced ? [] : [flip({ fallbackPlacements: ['top', 'right', 'left'] })]),
        // guides §9: inside 2 % .. 98 % of the viewport's width, 8 px from its top and bottom.
        shift(() => {
          const width = floating.ownerDocument.documentElement.clientWidth;
          return { padding: { left: width * TOOLTIP_DEFAULTS.marginLeft, right: width * (1 - TOOLTIP_DEFAULTS.marginRight), top: 8, bottom: 8 } };
        }),
        arrow({ element: caret, padding: TOOLTIP_DEFAULTS.caretOffset }),
        hide(),
      ],
    }).then(({ x, y, placement, middlewareData }) => {
      floating.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      // Its element scrolled out of sight inside a scrolling panel: the tooltip waits unseen rather than point at
      // nothing over the panel's other content; it comes back with the element.
      floating.style.visibility = middlewareData.hide?.referenceHidden ? 'hidden' : '';
      const side = placement.split('-')[0]!;
      floating.dataset.side = side;
      const a = middlewareData.arrow;
      Object.assign(caret.style, {
        left: a?.x != null ? `${a.x}px` : '',
        top: a?.y != null ? `${a.y}px` : '',
        right: '',
        bottom: '',
        [OPPOSITE[side]!]: `${-caretOut}px`,
      });
    });
  const win = floating.ownerDocument.defaultView ?? window;
  const scheduler = createRepositionScheduler(update, {
    now: () => win.performance.now(),
    setTimeout: (fn, ms) => win.setTimeout(fn, ms),
    clearTimeout: (handle) => win.clearTimeout(handle as number),
  });
  // Scroll events do not bubble; a capturing listener on the window hears every scrolling ancestor.
  const listen = { capture: true, passive: true };
  win.addEventListener('scroll', scheduler.onScroll, listen);
  win.addEventListener('resize', scheduler.onResize);
  // Issue #34: placing reads the layout. Asked for in the task that drew the box, that read is a forced layout of
  // the whole page (10-28 ms in profiles of the bench page), on top of the box's drawing. Started instead from the
  // box's first resize observation, it comes after the frame's own layout, which the browser does anyway, and
  // before that frame paints: the box shows in the same frame, placed, and the agent's task stays small.
  // The same observer then follows the box's and the target's size. floating-ui's own (elementResize) would place
  // the box again on its first observation, in the same frame, just after the first placing wrote the box's
  // transform: a second placing whose reads recomputed the page's style (11-14 ms in profiles of the bench page).
  let stopAuto = () => {};
  const stopResizes = onResizes([target, floating], () => {
    stopAuto = autoUpdate(target, floating, update, { ancestorScroll: false, ancestorResize: false, elementResize: false });
  }, () => void update());
  return () => {
    stopResizes();
    stopAuto();
    scheduler.cancel();
    win.removeEventListener('scroll', scheduler.onScroll, listen);
    win.removeEventListener('resize', scheduler.onResize);
  };
}

/**
 * Runs `first` once `elements` have been laid out by the browser's own rendering (a ResizeObserver's first
 * delivery, after layout and before paint), then `resized` each time one of them changes size; `first` at once
 * (and never `resized`) where there is no ResizeObserver. Returns the stop.
 */
function onResizes(elements: Element[], first: () => void, resized: () => void): () => void {
  const Observer = elements[0]!.ownerDocument.defaultView?.ResizeObserver;
  if (!Observer) {
    first();
    return () => {};
  }
  let started = false;
  const observer = new Observer(() => {
    if (started) return resized();
    started = true;
    first();
  });
  for (const element of elements) observer.observe(element);
  return () => observer.disconnect();
}

/** The placement a tooltip step's attributes ask for (guides §3 layoutDir, arrowSize; the theme's caret). */
export function placementOf(attributes: Record<string, unknown>, caretOut: number): TooltipPlacement {
  const arrowSize = attributes.arrowSize;
  return {
    layoutDir: String(attributes.layoutDir ?? 'auto'),
    arrowSize: typeof arrowSize === 'number' && Number.isFinite(arrowSize) && arrowSize > 0 ? arrowSize : TOOLTIP_DEFAULTS.arrowSize,
    caretOut,
  };
}
