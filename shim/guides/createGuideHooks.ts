/**
 * A host's lifecycle hooks and subscriptions (guides §4): `run` calls a hook's functions and answers false when a
 * cancelable one (beforeMount, beforeAdvance, ...) returned false; `notify` tells the subscribers of
 * onGuideAdvanced, onGuidePrevious, onGuideDismissed and onGuideSnoozed. A throwing host function is logged and
 * never stops the guide.
 */
import type { HookName } from '../../shared/guides/applyGuideTransition';
import type { LogLevel } from '../../shared/protocol';
import type { ActiveGuide, GuideHook, GuideNotice, GuideNoticeName } from './guideDisplayTypes';

export interface GuideHooks {
  run(name: HookName, guide: ActiveGuide): boolean;
  notify(name: GuideNoticeName, notice: GuideNotice): void;
  addHook(name: HookName, hook: GuideHook): () => void;
  on(name: GuideNoticeName, listener: (notice: GuideNotice) => void): () => void;
}

export function createGuideHooks(log: (level: LogLevel, message: string) => void): GuideHooks {
  const hooks = new Map<HookName, Set<GuideHook>>();
  const listeners = new Map<GuideNoticeName, Set<(notice: GuideNotice) => void>>();
  const add = <K, F>(map: Map<K, Set<F>>, key: K, fn: F) => {
    const set = map.get(key) ?? new Set<F>();
    map.set(key, set);
    set.add(fn);
    return () => void set.delete(fn);
  };
  return {
    run(name, guide) {
      let go = true;
      for (const hook of hooks.get(name) ?? []) {
        try {
          if (hook(guide) === false) go = false;
        } catch (err) {
          log('error', `guide hook ${name} threw: ${(err as Error)?.message ?? String(err)}`);
        }
      }
      return go;
    },
    notify(name, notice) {
      for (const listener of listeners.get(name) ?? []) {
        try {
          listener(notice);
        } catch (err) {
          log('error', `guide listener of ${name} threw: ${(err as Error)?.message ?? String(err)}`);
        }
      }
    },
    addHook: (name, hook) => add(hooks, name, hook),
    on: (name, listener) => add(listeners, name, listener),
  };
}
