/**
 * guides §4 element activation: the visitor's `event` on an element matching `selector` runs `run` (shows a
 * dom-launched guide, or opens the resource center). At most 50 targets per guide; an invalid selector is
 * logged and skipped. Answers the function that removes the listeners (each guide load replaces them).
 */
import { ELEMENT_ACTIVATION_MAX_TARGETS } from '../../shared/constants';
import type { LogLevel } from '../../shared/protocol';

export interface Activation {
  guideId: string;
  event: string;
  selector: string;
  run: () => void;
}

export function watchActivations(activations: Activation[], log: (level: LogLevel, message: string) => void): () => void {
  const undo: Array<() => void> = [];
  for (const { guideId, event, selector, run } of activations) {
    let targets: Element[];
    try {
      targets = Array.from(document.querySelectorAll(selector));
    } catch {
      log('warn', `guide ${guideId}: activation selector ${selector} is not valid`);
      continue;
    }
    if (targets.length > ELEMENT_ACTIVATION_MAX_TARGETS) {
      log('warn', `guide ${guideId}: ${targets.length} elements match its activation; the first ${ELEMENT_ACTIVATION_MAX_TARGETS} are used`);
    }
    for (const el of targets.slice(0, ELEMENT_ACTIVATION_MAX_TARGETS)) {
      el.addEventListener(event, run);
      undo.push(() => el.removeEventListener(event, run));
    }
  }
  return () => {
    for (const fn of undo) fn();
  };
}
