/**
 * A lightbox step: centred over a backdrop (guides §2; default 500 wide, backdrop z-index 10000). The mobile
 * lightbox (step type mobile-lightbox) is the same dialog fitted to a phone: the viewport's width less a
 * margin on each side, at most 320 wide (guides §2 mobile layout), its content scrolling under a close
 * button that stays put. Both are modal dialogs (useModalDialog): focus moves in and comes back, Tab stays
 * inside, the page beside is hidden from assistive technology.
 */
import { useRef, type ReactNode } from 'react';
import { LIGHTBOX_DEFAULTS, MOBILE_LIGHTBOX_DEFAULTS, TOOLTIP_DEFAULTS } from '../shared/constants';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { StepChrome, surfaceLabel, themeStyle } from './StepChrome';
import { useModalDialog } from './useModalDialog';

export interface LightboxProps {
  step: StepToShow;
  handlers: StepHandlers;
  /** The mobile lightbox layout. @default false */
  mobile?: boolean;
  /** The dimmed backdrop; off when block-out panes dim the page instead. @default true */
  backdrop?: boolean;
}

export function Lightbox({ step, handlers, mobile = false, backdrop = true }: LightboxProps): ReactNode {
  const dialog = useRef<HTMLDivElement>(null);
  useModalDialog(dialog, `${step.guideId}/${step.stepId}`);
  const { maxWidth, margin } = MOBILE_LIGHTBOX_DEFAULTS;
  const width = mobile
    ? `min(${Math.min(numberOr(step.attributes.width, maxWidth), maxWidth)}px, calc(100vw - ${2 * margin}px))`
    : numberOr(step.attributes.width, LIGHTBOX_DEFAULTS.width);
  const { contentId, props: label } = surfaceLabel(step);
  return (
    <>
      {backdrop && <div className="wm-backdrop" style={{ zIndex: LIGHTBOX_DEFAULTS.backdropZIndex }} />}
      <div
        ref={dialog}
        className={mobile ? 'wm-step wm-lightbox wm-mobile-lightbox' : 'wm-step wm-lightbox'}
        role="dialog"
        aria-modal="true"
        {...label}
        tabIndex={-1}
        data-guide-id={step.guideId}
        data-step-id={step.stepId}
        style={{ width, height: fixedHeight(step.attributes), zIndex: TOOLTIP_DEFAULTS.zIndex, ...themeStyle(step) }}
      >
        <StepChrome step={step} handlers={handlers} contentId={contentId} />
      </div>
    </>
  );
}

/**
 * guides §3 attributes.autoHeight: a step fits its content unless autoHeight is false, when its `height` is
 * its height (what does not fit scrolls). The height to set, or undefined.
 */
export function fixedHeight(attributes: StepToShow['attributes']): number | undefined {
  return attributes.autoHeight === false ? numberOr(attributes.height, 0) || undefined : undefined;
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
