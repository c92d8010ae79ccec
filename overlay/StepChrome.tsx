/**
 * What every step surface shares: the content, the close button (multiplication sign, aria-label close;
 * guides §2), the step position text 'Step {current} of {total}' and the powered-by credit.
 */
import type { ReactNode } from 'react';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { renderBlocks } from './renderBlocks';

export interface StepChromeProps {
  step: StepToShow;
  handlers: StepHandlers;
  titleId: string;
}

export function StepChrome({ step, handlers, titleId }: StepChromeProps): ReactNode {
  return (
    <>
      <button type="button" className="wm-close" aria-label="close" onClick={() => handlers.onDismiss({ id: 'close', type: 'BUTTON' })}>
        {'\u00d7'}
      </button>
      <div id={titleId}>{renderBlocks(step.content, { onAction: handlers.onAction })}</div>
      {(step.stepCount > 1 || !step.hideCredits) && (
        <div className="wm-footer">
          <span>{step.stepCount > 1 ? `Step ${step.stepIndex + 1} of ${step.stepCount}` : ''}</span>
          {!step.hideCredits && <span className="wm-credit">Powered by Waymark</span>}
        </div>
      )}
    </>
  );
}
