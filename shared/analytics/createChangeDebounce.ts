import { CHANGE_EVENT_DEBOUNCE_MS } from '../constants';

/**
 * spec: analytics §9 — "Click debounce for change events 5000 ms". The spec gives the number only; ours:
 * a change event of an element that had one less than 5000 ms before is not sent. Change events carry the
 * element, never the value, so a toggled checkbox or a select stepped through with the arrow keys says
 * nothing new until the element has been quiet for the window; each repeat restarts it (a debounce).
 *
 * Returns the judge: `true` when the change of `element` at `now` (ms) is to be captured.
 */
export function createChangeDebounce(windowMs: number = CHANGE_EVENT_DEBOUNCE_MS): (element: object, now: number) => boolean {
  const lastChange = new WeakMap<object, number>();
  return (element, now) => {
    const last = lastChange.get(element);
    lastChange.set(element, now);
    return last === undefined || now - last >= windowMs;
  };
}
