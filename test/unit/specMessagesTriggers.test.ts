/**
 * Issue #17: the spec's quoted messages that code emitted but no test triggered (see specMessages.test.ts for the
 * whole list). Each test here drives the piece that says the message, with fakes, and reads what it logged.
 */
import { describe, expect, it } from 'vitest';
import type { FrameMessage } from '../../shared/frames/readFrameMessage';
import { MESSAGES } from '../../shared/messages';
import type { LogLevel, StepToShow } from '../../shared/protocol';
import { checkInitializeOptions } from '../../shim/checkInitializeOptions';
import { postFrameMessage } from '../../shim/frames/postFrameMessage';
import { createGuideHooks } from '../../shim/guides/createGuideHooks';
import { createHostExtensions } from '../../shim/guides/createHostExtensions';
import { createStepFlow } from '../../shim/guides/createStepFlow';
import type { DisplayContext } from '../../shim/guides/displayContext';

/** A logger that keeps `level: message` lines. */
function recorder() {
  const lines: string[] = [];
  return { lines, log: (level: LogLevel, message: string) => void lines.push(`${level}: ${message}`) };
}

describe("analytics §5 Config, §8 'submitCssSelectors must be an array'", () => {
  it('logs it for a submitCssSelectors that is not an array and drops the option; an array passes silently', () => {
    const { lines, log } = recorder();
    expect(checkInitializeOptions({ apiKey: 'k', submitCssSelectors: 'form .send' as never }, log))
      .toEqual({ apiKey: 'k', submitCssSelectors: undefined });
    expect(lines).toEqual(['error: submitCssSelectors must be an array']);
    expect(checkInitializeOptions({ apiKey: 'k', submitCssSelectors: ['form .send'] }, log)).toEqual({ apiKey: 'k', submitCssSelectors: ['form .send'] });
    expect(lines).toHaveLength(1);
  });

  it('says both when both selector options are not arrays, input first', () => {
    const { lines, log } = recorder();
    checkInitializeOptions({ apiKey: 'k', inputCssSelectors: {} as never, submitCssSelectors: 'x' as never }, log);
    expect(lines).toEqual([`error: ${MESSAGES.inputSelectorsNotArray}`, `error: ${MESSAGES.submitSelectorsNotArray}`]);
  });
});

describe("analytics §8, guides §8 frame messaging: 'Failed to postMessage'", () => {
  const message: FrameMessage = { type: 'receiveHideGuides', frameId: 'f1' };

  it('a postMessage that throws (an uncloneable value, a window gone) is logged with why, not thrown', () => {
    const { lines, log } = recorder();
    const target = {
      postMessage() {
        throw new Error('An object could not be cloned.');
      },
    } as unknown as Window;
    expect(() => postFrameMessage(target, message, 'k', log)).not.toThrow();
    expect(lines).toEqual(['error: Failed to postMessage: An object could not be cloned.']);
  });

  it('a postMessage that works sends the message namespaced by the api key, to the origin given, and logs nothing', () => {
    const { lines, log } = recorder();
    const sent: unknown[][] = [];
    const target = { postMessage: (...args: unknown[]) => void sent.push(args) } as unknown as Window;
    postFrameMessage(target, message, 'k', log, 'https://app.example');
    postFrameMessage(null, message, 'k', log);
    expect(sent).toEqual([[{ type: 'receiveHideGuides', frameId: 'f1', waymark: 'k' }, 'https://app.example']]);
    expect(lines).toEqual([]);
  });
});

describe("guides §8 info level: 'No element found for step'", () => {
  const step = (over: Partial<StepToShow> = {}): StepToShow => ({
    guideId: 'g',
    guideName: 'Tour',
    stepId: 's1',
    type: 'tooltip',
    stepIndex: 0,
    stepCount: 1,
    elementPathRule: '#save',
    content: { type: 'div', props: {}, children: [] },
    attributes: {},
    hideCredits: false,
    reason: 'auto',
    ...over,
  });

  /** The step flow over a page whose only element is `elements[selector]` (a size and a text, as the flow reads them). */
  function flowOn(elements: Record<string, { text: string; width: number }>) {
    const { lines, log } = recorder();
    const query = (selector: string) => {
      const found = elements[selector];
      return found ? ({ textContent: found.text, getBoundingClientRect: () => ({ width: found.width, height: found.width }) } as unknown as Element) : null;
    };
    const ctx = { log, query } as unknown as DisplayContext;
    const hooks = createGuideHooks(log);
    const flow = createStepFlow(ctx, hooks, { onMoved: () => undefined, tick: () => undefined, extensions: createHostExtensions(hooks, log) });
    return { flow, lines };
  }

  it('a tooltip whose element is not on the page waits, and the guide loop says so once per step', () => {
    const { flow, lines } = flowOn({});
    const missing = step();
    expect(flow.targetOf(missing)).toBe(false);
    flow.noteMissing(missing);
    flow.noteMissing(missing);
    flow.noteMissing(step({ stepId: 's2' }));
    expect(lines).toEqual(['info: No element found for step s1 of guide g', 'info: No element found for step s2 of guide g']);
  });

  it('an element that is there but hidden (no size) counts as missing too', () => {
    const { flow, lines } = flowOn({ '#save': { text: 'Save', width: 0 } });
    expect(flow.targetOf(step())).toBe(false);
    flow.noteMissing(step());
    expect(lines).toEqual([`info: ${MESSAGES.noElementForStep} s1 of guide g`]);
  });

  it('a step whose element is there but fails its contains rules logs why it waits instead, not the missing element', () => {
    const { flow, lines } = flowOn({ '#save': { text: 'Save', width: 10 } });
    const ruled = step({ elementContainsRulesList: [{ matchType: 'contains', matchValue: 'Publish', dataType: 'string' }] });
    expect(flow.targetOf(ruled)).toBe(false);
    flow.noteMissing(ruled);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^debug: guide g step s1 waits: /);
    expect(lines.some((l) => l.includes(MESSAGES.noElementForStep))).toBe(false);
  });

  it('a visible element with no rules is the target, and nothing is logged', () => {
    const { flow, lines } = flowOn({ '#save': { text: 'Save', width: 10 } });
    expect(flow.targetOf(step())).not.toBe(false);
    expect(lines).toEqual([]);
  });
});
