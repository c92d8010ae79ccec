/**
 * A tooltip step anchored to its target with a caret (guides §2). The side is chosen by available space
 * (flip) or forced by `layoutDir`; it shifts to stay inside 2 % .. 98 % of the viewport's width (its caret at
 * least 10 px from its corners, guides §9), hides while the target is scrolled out of sight, and follows the
 * target: on scroll at most every 10 ms and 50 ms after the last window resize (guides §9,
 * createRepositionScheduler), and at once when the target itself changes size or moves in the layout
 * (floating-ui's autoUpdate).
 */
import { arrow, autoUpdate, computePosition, flip, hide, offset, shift, type Placement } from '@floating-ui/dom';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { TOOLTIP_DEFAULTS } from '../shared/constants';
import { createRepositionScheduler } from '../shared/surfaces/createRepositionScheduler';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { fixedHeight, numberOr } from './Lightbox';
import { StepChrome, surfaceLabel, themeStyle } from './StepChrome';
import { tooltipCaret } from '../shared/surfaces/guideTheme';

export interface TooltipProps {
  step: StepToShow;
  target: Element;
  handlers: StepHandlers;
}

const SIDES = new Set(['top', 'bottom', 'left', 'right']);
const OPPOSITE: Record<string, string> = { top: 'bottom', bottom: 'top', left: 'right', right: 'left' };

export function Tooltip({ step, target, handlers }: TooltipProps): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  const caret = useRef<HTMLDivElement>(null);
  const layoutDir = String(step.attributes.layoutDir ?? 'auto');
  const forced = SIDES.has(layoutDir);
  const arrowSize = numberOr(step.attributes.arrowSize, TOOLTIP_DEFAULTS.arrowSize);
  const { bordered, outset: caretOut } = tooltipCaret(step.attributes.theme);

  useLayoutEffect(() => {
    const floating = box.current;
    const caretEl = caret.current;
    if (!floating || !caretEl) return;
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
          arrow({ element: caretEl, padding: TOOLTIP_DEFAULTS.caretOffset }),
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
        Object.assign(caretEl.style, {
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
    const stopAuto = autoUpdate(target, floating, update, { ancestorScroll: false, ancestorResize: false });
    return () => {
      stopAuto();
      scheduler.cancel();
      win.removeEventListener('scroll', scheduler.onScroll, listen);
      win.removeEventListener('resize', scheduler.onResize);
    };
  }, [target, forced, layoutDir, arrowSize, caretOut]);

  const width = numberOr(step.attributes.width, TOOLTIP_DEFAULTS.width);
  const height = fixedHeight(step.attributes);
  const { contentId, props: label } = surfaceLabel(step);
  return (
    <div
      ref={box}
      className={bordered ? 'wm-step wm-tooltip wm-bordered' : 'wm-step wm-tooltip'}
      role="dialog"
      {...label}
      data-guide-id={step.guideId}
      data-step-id={step.stepId}
      style={{ width, height, overflow: height ? 'auto' : undefined, zIndex: TOOLTIP_DEFAULTS.zIndex, ...themeStyle(step) }}
    >
      {/* attributes.caret false: no caret drawn; floating-ui still measures the hidden element. */}
      <div ref={caret} className="wm-caret" hidden={step.attributes.caret === false} />
      <StepChrome step={step} handlers={handlers} contentId={contentId} />
    </div>
  );
}
