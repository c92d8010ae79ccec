/**
 * A lightbox step: centred over a backdrop (guides §2; default 500 wide, backdrop z-index 10000). It is a
 * modal dialog: focus moves into it when shown and returns where it was when it closes.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { LIGHTBOX_DEFAULTS, TOOLTIP_DEFAULTS } from '../shared/constants';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { StepChrome } from './StepChrome';

export interface LightboxProps {
  step: StepToShow;
  handlers: StepHandlers;
}

export function Lightbox({ step, handlers }: LightboxProps): ReactNode {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => previous?.focus?.();
  }, [step.guideId, step.stepId]);
  const width = numberOr(step.attributes.width, LIGHTBOX_DEFAULTS.width);
  const titleId = `wm-title-${step.stepId}`;
  return (
    <>
      <div className="wm-backdrop" style={{ zIndex: LIGHTBOX_DEFAULTS.backdropZIndex }} />
      <div
        ref={dialog}
        className="wm-step wm-lightbox"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-guide-id={step.guideId}
        data-step-id={step.stepId}
        style={{ width, zIndex: TOOLTIP_DEFAULTS.zIndex }}
      >
        <StepChrome step={step} handlers={handlers} titleId={titleId} />
      </div>
    </>
  );
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
