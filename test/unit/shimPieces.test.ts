import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import { checkInitializeOptions, needsPrivacy } from '../../shim/checkInitializeOptions';
import { createGuideHooks } from '../../shim/guides/createGuideHooks';
import type { ActiveGuide } from '../../shim/guides/guideDisplayTypes';

const guide: ActiveGuide = { guideId: 'g', guideName: 'Tour', stepId: 's1', stepIndex: 0, stepCount: 2, reason: 'auto' };

describe('guides §4 lifecycle hooks and subscriptions on the page', () => {
  it('a cancelable hook returning false cancels; the others still run; a throwing hook is logged and does not cancel', () => {
    const logs: string[] = [];
    const hooks = createGuideHooks((_l, m) => logs.push(m));
    const seen: string[] = [];
    hooks.addHook('beforeAdvance', (g) => void seen.push(`a:${g.stepId}`));
    const remove = hooks.addHook('beforeAdvance', () => false);
    hooks.addHook('beforeAdvance', () => {
      throw new Error('host bug');
    });
    expect(hooks.run('beforeAdvance', guide)).toBe(false);
    expect(seen).toEqual(['a:s1']);
    expect(logs).toEqual(['guide hook beforeAdvance threw: host bug']);
    remove();
    expect(hooks.run('beforeAdvance', guide)).toBe(true);
    expect(hooks.run('beforeDismiss', guide)).toBe(true);
  });

  it('subscribers hear their notice until they stop listening', () => {
    const hooks = createGuideHooks(() => undefined);
    const heard: unknown[] = [];
    const stop = hooks.on('advanced', (n) => heard.push(n));
    hooks.notify('advanced', { guideId: 'g', stepId: 's1', nextStepId: 's2' });
    hooks.notify('dismissed', { guideId: 'g', stepId: 's2' });
    stop();
    hooks.notify('advanced', { guideId: 'g', stepId: 's2' });
    expect(heard).toEqual([{ guideId: 'g', stepId: 's1', nextStepId: 's2' }]);
  });
});

describe('guides §1, analytics §5 initialize checks', () => {
  it('refuses no api key and a disabled agent with the spec\'s words, drops selector options that are not arrays', () => {
    const logs: string[] = [];
    const log = (_l: string, m: string) => void logs.push(m);
    expect(checkInitializeOptions(undefined, log)).toBeNull();
    expect(checkInitializeOptions({ apiKey: '  ' }, log)).toBeNull();
    expect(checkInitializeOptions({ apiKey: 'k', disabled: true }, log)).toBeNull();
    expect(checkInitializeOptions({ apiKey: 'k', inputCssSelectors: '.x' as never, submitCssSelectors: ['.ok'] }, log))
      .toEqual({ apiKey: 'k', inputCssSelectors: undefined, submitCssSelectors: ['.ok'] });
    expect(logs).toEqual([MESSAGES.apiKeyMissing, MESSAGES.apiKeyMissing, MESSAGES.agentDisabled, MESSAGES.inputSelectorsNotArray]);
    expect(MESSAGES.apiKeyMissing).toBe('API key is not set, Waymark will not initialize.');
  });

  it('asks for the privacy chunk only when a transform, filter or custom URL is set', () => {
    expect(needsPrivacy({ apiKey: 'k' })).toBe(false);
    expect(needsPrivacy({ apiKey: 'k', privacyFilter: [/x/] })).toBe(true);
    expect(needsPrivacy({ apiKey: 'k', urlTransforms: [] })).toBe(true);
    expect(needsPrivacy({ apiKey: 'k', customUrl: 'https://a.example/' })).toBe(true);
  });
});
