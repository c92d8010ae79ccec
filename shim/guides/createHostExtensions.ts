/**
 * The host's own functions for guides (guides §5 "Custom actions need a string name and a function. Global scripts
 * need a script or beforeMount function; a test must be a function and a regex a regular expression; otherwise
 * 'Error adding invalid GlobalScript via API'"). The spec names the checks, not the behaviour; ours:
 *
 * - A custom action is a building-block action `{ action: 'customAction', parameters: [name, ...] }`: the host's
 *   function of that name is called with the step (ActiveGuide), the action's other parameters and the step's
 *   target element, when the visitor uses the block. It does not move the guide on by itself.
 * - A global script applies to the steps its `test(guide)` accepts and whose guide name or id its `regex` matches
 *   (both optional): `beforeMount(guide)` before such a step shows (false cancels it, as the beforeMount hook), and
 *   `script(guide, target)` once it is drawn.
 *
 * A host function that throws is logged and never stops the guide.
 */
import { MESSAGES } from '../../shared/messages';
import type { LogLevel } from '../../shared/protocol';
import type { GuideHooks } from './createGuideHooks';
import type { ActiveGuide } from './guideDisplayTypes';

/** A global script as the host gives it (guides §5). */
export interface GlobalScript {
  script?(guide: ActiveGuide, target: Element | null): unknown;
  beforeMount?(guide: ActiveGuide): unknown;
  test?(guide: ActiveGuide): boolean;
  regex?: RegExp;
}

export interface HostExtensions {
  /** addCustomAction: false (with the log) when it is refused. */
  addCustomAction(name: unknown, fn: unknown): boolean;
  addGlobalScript(script: unknown): boolean;
  /** A `customAction` block: false when no host function has that name. */
  runCustomAction(name: string, guide: ActiveGuide, parameters: unknown[], target: Element | null): boolean;
  /** A step was drawn: the global scripts that apply to it run. */
  drawn(guide: ActiveGuide, target: Element | null): void;
}

export function createHostExtensions(hooks: GuideHooks, log: (level: LogLevel, message: string) => void): HostExtensions {
  const actions = new Map<string, (...args: unknown[]) => unknown>();
  const scripts: GlobalScript[] = [];
  const call = (what: string, fn: () => unknown) => {
    try {
      return fn();
    } catch (err) {
      log('error', `${what} threw: ${(err as Error)?.message ?? String(err)}`);
    }
  };
  const applies = (s: GlobalScript, g: ActiveGuide) => (!s.regex || s.regex.test(g.guideName) || s.regex.test(g.guideId)) && (!s.test || call('global script test', () => s.test!(g)) === true);
  const isFn = (v: unknown): v is (...args: never[]) => unknown => typeof v === 'function';

  return {
    addCustomAction(name, fn) {
      if (typeof name !== 'string' || !name || !isFn(fn)) {
        log('error', 'addCustomAction needs a string name and a function');
        return false;
      }
      actions.set(name, fn as (...args: unknown[]) => unknown);
      return true;
    },
    addGlobalScript(value) {
      const s = value as GlobalScript | null;
      const ok = typeof s === 'object' && s !== null && (isFn(s.script) || isFn(s.beforeMount)) &&
        (s.test === undefined || isFn(s.test)) && (s.regex === undefined || s.regex instanceof RegExp);
      if (!ok) {
        log('error', MESSAGES.invalidGlobalScript);
        return false;
      }
      scripts.push(s);
      if (s.beforeMount) hooks.addHook('beforeMount', (g) => (applies(s, g) ? call('global script beforeMount', () => s.beforeMount!(g)) : undefined));
      return true;
    },
    runCustomAction(name, guide, parameters, target) {
      const fn = actions.get(name);
      if (fn) call(`custom action ${name}`, () => fn(guide, parameters, target));
      else log('warn', `guide ${guide.guideId}: no custom action ${name} (addCustomAction)`);
      return Boolean(fn);
    },
    drawn(guide, target) {
      for (const s of scripts) if (s.script && applies(s, guide)) call('global script', () => s.script!(guide, target));
    },
  };
}
