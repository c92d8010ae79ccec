/**
 * A tooltip step anchored to its target with a caret (guides §2), placed and kept beside it by followTarget.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { TOOLTIP_DEFAULTS } from '../shared/constants';
import { followTarget, placementOf } from './followTarget';
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

export function Tooltip({ step, target, handlers }: TooltipProps): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  const caret = useRef<HTMLDivElement>(null);
  const { bordered, outset: caretOut } = tooltipCaret(step.attributes.theme);
  const { layoutDir, arrowSize } = placementOf(step.attributes, caretOut);

  useLayoutEffect(() => {
    if (!box.current || !caret.current) return;
    return followTarget(target, box.current, caret.current, { layoutDir, arrowSize, caretOut });
  }, [target, layoutDir, arrowSize, caretOut]);

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
