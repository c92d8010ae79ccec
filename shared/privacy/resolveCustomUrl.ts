/**
 * The integrator's custom URL source: what the agent records as the page URL instead of the location
 * (spec: analytics §5 "A custom URL source must be a URL, string or function returning one").
 */
import { MESSAGES } from '../messages';

/**
 * Turns a custom URL source into an href:
 * - a non-empty string is the href;
 * - a URL-like object (a browser `URL`, recognised by its string `href`, since shared/ has no DOM types) gives
 *   its `href`;
 * - a function is called with no arguments, on the main thread, and must return one of the two above
 *   (a function returning a function is not followed).
 *
 * Anything else, a function that throws, or an empty string gives
 * `{ ok: false, error: MESSAGES.invalidCustomUrl }`; the caller logs it and keeps the real location.
 */
export function resolveCustomUrl(source: unknown): { ok: true; href: string } | { ok: false; error: string } {
  try {
    const value: unknown = typeof source === 'function' ? (source as () => unknown)() : source;
    const href = hrefOf(value);
    if (href !== null) return { ok: true, href };
  } catch {
    // spec: analytics §5 has one message for a source that yields no URL; a throwing function is one.
  }
  return { ok: false, error: MESSAGES.invalidCustomUrl };
}

function hrefOf(value: unknown): string | null {
  // An empty string names no page; falling back to the real location records more than '' would.
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'object' && value !== null) {
    const href: unknown = (value as { href?: unknown }).href;
    if (typeof href === 'string' && href !== '') return href;
  }
  return null;
}
