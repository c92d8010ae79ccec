/**
 * What every step surface shares: the content, the close button (multiplication sign, aria-label close;
 * guides §2), the step position text 'Step {current} of {total}' and the powered-by credit; and the step box's
 * theme (themeStyle).
 */
import { useContext, useState, type CSSProperties, type ReactNode } from 'react';
import { REQUIRED_ANSWER_TEXT, THANK_YOU_TEXT } from '../shared/constants';
import type { StepToShow } from '../shared/protocol';
import { stepLabel } from '../shared/guides/stepLabel';
import { themeVars } from '../shared/surfaces/guideTheme';
import type { StepHandlers } from './api';
import { ActionMarks, renderBlocks } from './renderBlocks';

export interface StepChromeProps {
  step: StepToShow;
  handlers: StepHandlers;
  /** Id of the content's wrapper, for the surface's aria-describedby. */
  contentId: string;
}

export function StepChrome({ step, handlers, contentId }: StepChromeProps): ReactNode {
  // guides §2: a submitted poll shows its thank-you message in place of the step's content.
  const [thanked, setThanked] = useState(false);
  // guides §3 attributes.isRequired: the step's questions are answered before it sends or moves on.
  const [waiting, setWaiting] = useState(false);
  // Issue #34: the worker's render marks each block's actions (data-wm-action); the browser's has no marker.
  const mark = useContext(ActionMarks);
  const onAction = (actions: Parameters<StepHandlers['onAction']>[0], ui: Parameters<StepHandlers['onAction']>[1], answers?: Record<string, string>, unanswered: string[] = []) => {
    const goesOn = actions.some((a) => a.action === 'submitPoll' || a.action === 'advanceGuide');
    if (step.attributes.isRequired === true && goesOn && unanswered.length) return setWaiting(true);
    setWaiting(false);
    if (answers && Object.keys(answers).length) setThanked(true);
    handlers.onAction(actions, ui, answers);
  };
  const thanks = typeof step.attributes.thankYouMessage === 'string' ? step.attributes.thankYouMessage : THANK_YOU_TEXT;
  return (
    <>
      <button type="button" className="wm-close" aria-label="close" onClick={() => handlers.onDismiss({ id: 'close', type: 'BUTTON' })}>
        {'\u00d7'}
      </button>
      <div id={contentId} data-waymark-step="">
        {thanked ? <p className="wm-thanks" role="status">{thanks}</p> : renderBlocks(step.content, { onAction, mark })}
        {waiting && !thanked && (
          <p className="wm-required" role="alert">
            {REQUIRED_ANSWER_TEXT}
          </p>
        )}
      </div>
      {(step.stepCount > 1 || !step.hideCredits) && (
        <div className="wm-footer">
          <span>{step.stepCount > 1 ? `Step ${step.stepIndex + 1} of ${step.stepCount}` : ''}</span>
          {!step.hideCredits && <span className="wm-credit">Powered by Waymark</span>}
        </div>
      )}
    </>
  );
}

/**
 * How a step surface is named for assistive technology: by its first heading (or, without one, the guide's
 * name), described by its content.
 */
export function surfaceLabel(step: StepToShow): { contentId: string; props: { 'aria-label': string; 'aria-describedby': string } } {
  const contentId = `wm-content-${step.stepId}`;
  return { contentId, props: { 'aria-label': stepLabel(step.content) ?? step.guideName, 'aria-describedby': contentId } };
}

/** The step box's theme (the app's colours, border and corners; shared/surfaces/guideTheme) as CSS custom properties. */
export function themeStyle(step: StepToShow): CSSProperties {
  return themeVars(step.attributes.theme) as CSSProperties;
}
