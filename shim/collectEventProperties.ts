/**
 * Collects the event properties of a click (analytics §3 event property rules, shared/analytics/eventPropertyRules.ts)
 * on the main thread, where the page is. Values of password and hidden inputs are never read (analytics §5),
 * and each value is cut to the attribute limit (analytics §9: 256 characters).
 */
import type { EventPropertyRule } from '../shared/analytics/eventPropertyRules';

const VALUE_LIMIT = 256;

/** The event properties of a click on `target` under the rules of the last guide load; null when none. */
export type EventPropertyCollector = (target: Element) => Record<string, string> | null;

/**
 * The properties the rules give for a click on `target`; null when no feature matches. Bundled in the guides
 * chunk, which hands the shim a collector with each guide load's rules (the rules come with guide loads only).
 */
export function collectEventProperties(target: Element, rules: readonly EventPropertyRule[]): Record<string, string> | null {
  let found: Record<string, string> | null = null;
  for (const rule of rules) {
    const feature = matchSelectors(target, rule.featureRules);
    if (!feature) continue;
    const value = rule.selector ? fromSelector(rule.selector) : rule.path ? fromPath(rule.path) : feature.getAttribute(rule.source ?? '');
    if (value === null) continue;
    (found ??= {})[rule.name] = value.slice(0, VALUE_LIMIT);
  }
  return found;
}

/** The closest element (itself or an ancestor) matching one of `selectors`; an invalid selector matches nothing. */
export function matchSelectors(el: Element, selectors: readonly string[] | undefined): Element | null {
  if (!selectors?.length) return null;
  for (const selector of selectors) {
    try {
      const found = el.closest(selector);
      if (found) return found;
    } catch {
      // An invalid selector from the host matches nothing.
    }
  }
  return null;
}

function fromSelector(selector: string): string | null {
  let el: Element | null;
  try {
    el = document.querySelector(selector);
  } catch {
    return null;
  }
  if (!el) return null;
  if (el instanceof HTMLInputElement) return el.type === 'password' || el.type === 'hidden' ? null : el.value;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
  return (el.textContent ?? '').trim();
}

function fromPath(path: string): string | null {
  let value: unknown = window;
  for (const key of path.split('.')) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}
