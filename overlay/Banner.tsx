/**
 * A banner step (guides §2): across the top of the viewport by default, or the bottom with
 * `attributes.position: 'bottom'`; no backdrop, the page stays usable, so it is a labelled region, not a modal.
 * Its height is the content's, at most `attributes.height` (default 500), scrolling beyond.
 */
import type { ReactNode } from 'react';
import { BANNER_DEFAULTS, TOOLTIP_DEFAULTS } from '../shared/constants';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { fixedHeight, numberOr } from './Lightbox';
import { StepChrome, surfaceLabel, themeStyle } from './StepChrome';

export interface BannerProps {
  step: StepToShow;
  handlers: StepHandlers;
}

export function Banner({ step, handlers }: BannerProps): ReactNode {
  const { contentId, props: label } = surfaceLabel(step);
  const atBottom = step.attributes.position === 'bottom';
  return (
    <div
      className="wm-step wm-banner"
      role="region"
      {...label}
      data-guide-id={step.guideId}
      data-step-id={step.stepId}
      style={{
        maxHeight: numberOr(step.attributes.height, BANNER_DEFAULTS.height),
        height: fixedHeight(step.attributes),
        zIndex: TOOLTIP_DEFAULTS.zIndex,
        ...(atBottom ? { top: 'auto', bottom: 0 } : {}),
        ...themeStyle(step),
      }}
    >
      <StepChrome step={step} handlers={handlers} contentId={contentId} />
    </div>
  );
}
