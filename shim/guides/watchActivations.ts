/**
 * guides §4 element activation: the visitor's `event` on an element matching `selector` runs `run` with that
 * element (shows a dom-launched guide, or opens the resource center next to it). At most 50 targets per guide;
 * an invalid selector is logged once and skipped. The guide loop calls `rescan` each tick, so an element the app
 * renders after the guide load (a help button drawn when its data arrives) activates too.
 */
import { ELEMENT_ACTIVATION_MAX_TARGETS } from '../../shared/constants';
import type { LogLevel } from '../../shared/protocol';

export interface Activation {
  guideId: string;
  event: string;
  selector: string;
  run: (element: Element) => void;
}

export interface ActivationWatch {
  /** Listens on the targets that appeared since the last scan. */
  rescan(): void;
  /** Removes every listener (each guide load replaces the watch). */
  undo(): void;
}

export function watchActivations(activations: Activation[], log: (level: LogLevel, message: string) => void): ActivationWatch {
  /** Per activation, each element listened on and how to stop listening. */
  const watched = activations.map((activation) => ({ activation, bound: new Map<Element, () => void>(), valid: true, warned: false }));

  function rescan(): void {
    for (const w of watched) {
      const { guideId, event, selector, run } = w.activation;
      if (!w.valid) continue;
      // An element the app took out (a re-render) is let go, so its replacement counts within the 50.
      for (const [el, off] of w.bound) {
        if (!el.isConnected) {
          off();
          w.bound.delete(el);
        }
      }
      let targets: Element[];
      try {
        targets = Array.from(document.querySelectorAll(selector));
      } catch {
        w.valid = false;
        log('warn', `guide ${guideId}: activation selector ${selector} is not valid`);
        continue;
      }
      if (targets.length > ELEMENT_ACTIVATION_MAX_TARGETS && !w.warned) {
        w.warned = true;
        log('warn', `guide ${guideId}: ${targets.length} elements match its activation; the first ${ELEMENT_ACTIVATION_MAX_TARGETS} are used`);
      }
      for (const el of targets) {
        if (w.bound.size >= ELEMENT_ACTIVATION_MAX_TARGETS) break;
        if (w.bound.has(el)) continue;
        const listener = () => run(el);
        el.addEventListener(event, listener);
        w.bound.set(el, () => el.removeEventListener(event, listener));
      }
    }
  }

  rescan();
  return {
    rescan,
    undo() {
      for (const w of watched) {
        for (const off of w.bound.values()) off();
        w.bound.clear();
      }
    },
  };
}
