/**
 * Building-block actions of a shown step (guides §3, §4, §5), run in order: dismissGuide, advanceGuide,
 * previousStep, snoozeGuide (its parameter: ms), goToStep, showGuide, openLink (http(s) only, a new tab),
 * submitPoll (the answers go to the poll beacon), conditionalSplit (the first case whose element exists runs
 * its actions; 'no case matched' otherwise), automation, customAction (a host's function by name). Answers true once one of them moved the guide on
 * (the visitor's activity is then recorded with it).
 */
import type { GuideAction } from '../../shared/guides/guides';
import type { LogLevel, StepAction, StepToShow } from '../../shared/protocol';
import type { UiElement } from '../../overlay/api';
import { runAutomation } from './runAutomation';

/** A clicked element of a guide with the actions it ran, for guideActivity. */
export type UiElementAction = UiElement & { actions: string[] };

/** The transitions an action may ask for. */
export type TransitionName = 'advance' | 'previous' | 'dismiss' | 'snooze' | 'goToStep';

/** Whether a step action is a transition (moves the guide on), not showing, recording on or timing out a step. */
export const isTransition = (action: string): action is TransitionName => /^(advance|previous|dismiss|snooze|goToStep)$/.test(action);

/** The actions that move the guide on (or away) themselves. */
const MOVES = new Set(['dismissGuide', 'advanceGuide', 'previousStep', 'snoozeGuide', 'goToStep', 'showGuide', 'conditionalSplit']);

export interface BlockActionHost {
  transition(step: StepToShow, action: TransitionName, ui: UiElementAction | null, extra?: Partial<StepAction>): Promise<boolean>;
  /** Reports an action of the visitor on the step to the worker. */
  act(action: StepAction['action'], step: StepToShow, extra?: Partial<StepAction>): Promise<unknown>;
  /** The step's answered poll completed its guide: closing the thank-you then only takes it off the page. */
  completed(step: StepToShow): void;
  showGuideById(guideId: string): Promise<boolean>;
  /** guides §5 a host's custom action (addCustomAction) by name, with the action's other parameters. */
  customAction(name: string, parameters: unknown[]): void;
  query(selector: string): Element | null;
  log(level: LogLevel, message: string): void;
}

export async function runBlockActions(
  host: BlockActionHost,
  step: StepToShow,
  actions: GuideAction[],
  activity: UiElementAction,
  answers?: Record<string, string>,
): Promise<boolean> {
  const { log } = host;
  for (const a of actions) {
    const parameter = a.parameters?.[0];
    switch (a.action) {
      case 'dismissGuide':
        await host.transition(step, 'dismiss', activity);
        return true;
      case 'advanceGuide':
        await host.transition(step, 'advance', activity);
        return true;
      case 'previousStep':
        await host.transition(step, 'previous', activity);
        return true;
      case 'snoozeGuide':
        await host.transition(step, 'snooze', activity, typeof parameter === 'number' && parameter > 0 ? { snoozeMs: parameter } : {});
        return true;
      case 'goToStep':
        await host.transition(step, 'goToStep', activity, { targetStepId: String(parameter ?? '') });
        return true;
      case 'showGuide':
        await host.act('activity', step, { uiElement: activity });
        if (parameter !== undefined) await host.showGuideById(String(parameter));
        return true;
      case 'openLink': {
        const href = String(parameter ?? '');
        if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener');
        break;
      }
      case 'submitPoll': {
        // guides §2, §5: the step's poll answers go to the poll beacon; the overlay shows the thank-you.
        if (!answers || !Object.keys(answers).length) {
          log('info', `guide ${step.guideId} step ${step.stepId}: a poll was submitted without an answer`);
          break;
        }
        // Answering the last step's poll completes the guide (not shown again on the next page, even with the
        // thank-you left open), unless the same button moves the guide on itself.
        const completes = step.stepIndex === step.stepCount - 1 && !actions.some((x) => MOVES.has(x.action));
        await host.act('poll', step, completes ? { pollAnswers: answers, completes } : { pollAnswers: answers });
        if (completes) host.completed(step);
        break;
      }
      case 'conditionalSplit': {
        // guides §4 Conditional split: the first case whose element exists runs its actions.
        const cases = (a.parameters ?? []) as Array<{ elementPathRule?: unknown; actions?: unknown }>;
        const match = cases.find((c) => typeof c?.elementPathRule === 'string' && host.query(c.elementPathRule) !== null);
        if (!match) {
          log('warn', `guide ${step.guideId} step ${step.stepId}: conditional split: no case matched`);
          break;
        }
        if (Array.isArray(match.actions) && (await runBlockActions(host, step, match.actions as GuideAction[], activity, answers))) return true;
        break;
      }
      case 'customAction':
        host.customAction(String(parameter), a.parameters?.slice(1) ?? []);
        break;
      case 'automation': {
        const automation = step.automations?.find((x) => x.id === String(parameter));
        if (automation) void runAutomation(step, automation, host.query, log);
        else log('warn', `guide ${step.guideId}: no automation ${String(parameter)}`);
        break;
      }
    }
  }
  return false;
}
