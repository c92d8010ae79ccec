/**
 * shim/guides/runBlockActions submitPoll (guides §2, §5): answering the poll of a guide's last step completes the
 * guide, unless the same button moves the guide on itself; a middle step's poll only sends its answers.
 */
import { describe, expect, it } from 'vitest';
import type { GuideAction } from '../../shared/guides/guides';
import type { StepAction, StepToShow } from '../../shared/protocol';
import { runBlockActions, type BlockActionHost } from '../../shim/guides/runBlockActions';

function fakeHost() {
  const calls: string[] = [];
  const host: BlockActionHost = {
    transition: async (_step, action) => (calls.push(`transition ${action}`), true),
    act: async (action: StepAction['action'], _step: StepToShow, extra?: Partial<StepAction>) => void calls.push(`act ${action}${extra?.completes ? ' completes' : ''}`),
    showGuideById: async () => true,
    customAction: () => undefined,
    query: () => null,
    log: (_level, message) => void calls.push(`log ${message}`),
    completed: (step) => void calls.push(`completed ${step.stepId}`),
  };
  return { host, calls };
}

const stepAt = (stepIndex: number, stepCount: number) => ({ guideId: 'g', stepId: `g-${stepIndex + 1}`, stepIndex, stepCount }) as StepToShow;
const submit: GuideAction = { action: 'submitPoll', eventType: 'click', parameters: [] } as GuideAction;
const advance: GuideAction = { action: 'advanceGuide', eventType: 'click', parameters: [] } as GuideAction;
const ui = { id: 'send', type: 'BUTTON', actions: ['submitPoll'] };

describe('guides §2, §5 submitPoll', () => {
  it("the last step's answered poll completes the guide", async () => {
    const { host, calls } = fakeHost();
    expect(await runBlockActions(host, stepAt(0, 1), [submit], ui, { nps: '9' })).toBe(false);
    expect(calls).toEqual(['act poll completes', 'completed g-1']);
  });

  it("a middle step's poll, and a button that also moves the guide on, only send the answers", async () => {
    const middle = fakeHost();
    await runBlockActions(middle.host, stepAt(0, 2), [submit], ui, { nps: '9' });
    expect(middle.calls).toEqual(['act poll']);
    const moving = fakeHost();
    expect(await runBlockActions(moving.host, stepAt(1, 2), [submit, advance], ui, { nps: '9' })).toBe(true);
    expect(moving.calls).toEqual(['act poll', 'transition advance']);
  });

  it('a poll submitted without an answer sends nothing and completes nothing', async () => {
    const { host, calls } = fakeHost();
    await runBlockActions(host, stepAt(0, 1), [submit], ui, {});
    expect(calls).toEqual(['log guide g step g-1: a poll was submitted without an answer']);
  });
});
