/**
 * guides §5 the host's functions for guides: custom actions (a string name and a function) and global scripts (a
 * script or beforeMount function; a test function and a regex regular expression when given; otherwise
 * 'Error adding invalid GlobalScript via API'). The e2e walk: e2e/hostExtensions.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import { createGuideHooks } from '../../shim/guides/createGuideHooks';
import { createHostExtensions } from '../../shim/guides/createHostExtensions';
import type { ActiveGuide } from '../../shim/guides/guideDisplayTypes';

const guide = (guideId: string, guideName = guideId): ActiveGuide => ({ guideId, guideName, stepId: `${guideId}-1`, stepIndex: 0, stepCount: 1, reason: 'auto' });

function setup() {
  const logs: string[] = [];
  const hooks = createGuideHooks((level, message) => logs.push(`${level} ${message}`));
  const ext = createHostExtensions(hooks, (level, message) => logs.push(`${level} ${message}`));
  return { logs, hooks, ext };
}

describe('guides §5 addGlobalScript', () => {
  it("refuses what has neither script nor beforeMount, a test that is no function, a regex that is no RegExp: 'Error adding invalid GlobalScript via API'", () => {
    const { ext, logs } = setup();
    expect(MESSAGES.invalidGlobalScript).toBe('Error adding invalid GlobalScript via API');
    for (const bad of [null, {}, { script: 'alert(1)' }, { script: () => 1, test: true }, { beforeMount: () => 1, regex: '^a' }]) {
      expect(ext.addGlobalScript(bad)).toBe(false);
    }
    expect(logs).toEqual(Array(5).fill(`error ${MESSAGES.invalidGlobalScript}`));
    expect(ext.addGlobalScript({ script: () => 1 })).toBe(true);
    expect(ext.addGlobalScript({ beforeMount: () => 1, test: () => true, regex: /x/ })).toBe(true);
  });

  it('runs for the steps its test and regex accept (guide name or id): beforeMount as a cancelable hook, script once drawn', () => {
    const { ext, hooks } = setup();
    const drawn: string[] = [];
    ext.addGlobalScript({ regex: /^Tour/, test: (g: ActiveGuide) => g.guideId !== 'skip', beforeMount: (g: ActiveGuide) => g.guideId !== 'blocked', script: (g: ActiveGuide, t: Element | null) => drawn.push(`${g.guideId} ${t === null}`) });
    expect(hooks.run('beforeMount', guide('blocked', 'Tour blocked'))).toBe(false);
    expect(hooks.run('beforeMount', guide('ok', 'Tour ok'))).toBe(true);
    expect(hooks.run('beforeMount', guide('blocked', 'Other'))).toBe(true); // the regex does not apply to it
    ext.drawn(guide('a', 'Tour a'), null);
    ext.drawn(guide('skip', 'Tour skip'), null);
    ext.drawn(guide('Tour-by-id', 'unnamed'), null);
    ext.drawn(guide('b', 'Banner'), null);
    expect(drawn).toEqual(['a true', 'Tour-by-id true']);
  });

  it('a script that throws is logged; the others still run', () => {
    const { ext, logs } = setup();
    const ran: string[] = [];
    ext.addGlobalScript({ script: () => { throw new Error('boom'); } });
    ext.addGlobalScript({ script: () => ran.push('second') });
    ext.drawn(guide('g'), null);
    expect(ran).toEqual(['second']);
    expect(logs).toContain('error global script threw: boom');
  });
});

describe('guides §5 addCustomAction', () => {
  it('needs a string name and a function; a block runs it by name with the guide, its other parameters and the target', () => {
    const { ext, logs } = setup();
    expect(ext.addCustomAction('', () => 1)).toBe(false);
    expect(ext.addCustomAction('open', 'not a function')).toBe(false);
    expect(logs).toEqual(['error addCustomAction needs a string name and a function', 'error addCustomAction needs a string name and a function']);
    const calls: unknown[] = [];
    expect(ext.addCustomAction('openChat', (...args: unknown[]) => calls.push(args))).toBe(true);
    const target = {} as Element;
    expect(ext.runCustomAction('openChat', guide('g'), ['billing'], target)).toBe(true);
    expect(calls).toEqual([[guide('g'), ['billing'], target]]);
    expect(ext.runCustomAction('missing', guide('g'), [], null)).toBe(false);
    expect(logs.at(-1)).toBe('warn guide g: no custom action missing (addCustomAction)');
  });
});
