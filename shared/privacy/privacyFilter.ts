/**
 * The privacy filter: integrator patterns whose matches are replaced with 'redacted' in what the agent
 * records (spec: analytics §5 "Privacy filter replaces matches with 'redacted'", §5 Config "the privacy filter
 * must be valid", §8 'Invalid privacy filter for agent').
 *
 * Compiled filters are plain RegExps, which the structured clone algorithm copies, so the worker can hold
 * them and redact there.
 */
import { MESSAGES } from '../messages';

/** What an integrator may configure: a RegExp, a pattern string (compiled global), or a list of those. */
export type PrivacyFilter = RegExp | string | ReadonlyArray<RegExp | string>;

/** The text a match is replaced with (spec: analytics §5). */
export const REDACTED = 'redacted';

/**
 * Returns null for a usable filter, else `MESSAGES.invalidPrivacyFilter`. Refused: anything that is not a
 * RegExp, a string or an array of those (arrays do not nest); a string that does not compile; and a pattern
 * that matches the empty string (`''`, `a*`, `\b`, `x|`): replacing empty matches would write 'redacted'
 * between every character, or at every word boundary, destroying the value instead of hiding a secret.
 * An empty array is valid and redacts nothing.
 */
export function checkPrivacyFilter(filter: unknown): string | null {
  return compilePrivacyFilter(filter) === null ? MESSAGES.invalidPrivacyFilter : null;
}

/**
 * Compiles a filter into fresh global RegExps, one per item, or null when `checkPrivacyFilter` refuses it.
 * A RegExp keeps its other flags (`i`, `m`, `s`, `u`, `y`, ...) and gains `g`; a string is compiled with
 * `g` only. The host's RegExp objects are never reused, so their `lastIndex` is never touched.
 */
export function compilePrivacyFilter(filter: unknown): RegExp[] | null {
  const items: unknown[] = Array.isArray(filter) ? filter : [filter];
  const compiled: RegExp[] = [];
  for (const item of items) {
    const re = compileOne(item);
    if (re === null) return null;
    compiled.push(re);
  }
  return compiled;
}

/**
 * Returns a copy of `value` in which every string, at any depth of arrays and plain objects, has each
 * filter's matches replaced with 'redacted'. Filters run in order, each on the previous one's output.
 * Object keys are left alone, as are non-string leaves and objects that are not plain (Date, Map, class
 * instances: returned as the same reference). The input is never mutated; with no filters the same value
 * is returned without copying. Shared and cyclic references are copied once and stay shared.
 */
export function redact(value: unknown, filters: readonly RegExp[]): unknown {
  if (filters.length === 0) return value;
  return redactValue(value, filters, new Map());
}

function redactValue(value: unknown, filters: readonly RegExp[], copies: Map<object, unknown>): unknown {
  if (typeof value === 'string') return redactString(value, filters);
  if (typeof value !== 'object' || value === null) return value;
  const seen = copies.get(value);
  if (seen !== undefined) return seen;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    copies.set(value, copy);
    for (let i = 0; i < value.length; i++) if (i in value) copy[i] = redactValue(value[i], filters, copies);
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const key of Object.keys(value)) {
    // defineProperty so an own `__proto__` key (as JSON.parse makes) stays a key and is not a prototype.
    Object.defineProperty(copy, key, {
      value: redactValue(value[key], filters, copies), enumerable: true, writable: true, configurable: true,
    });
  }
  return copy;
}

function redactString(s: string, filters: readonly RegExp[]): string {
  let out = s;
  for (const re of filters) {
    // checkPrivacyFilter cannot prove a pattern never matches empty (`a|(?=b)`); an empty match is left as it
    // is rather than inserting 'redacted' where there was nothing to hide.
    out = out.replace(re, (match: string) => (match === '' ? match : REDACTED));
  }
  return out;
}

/** Short text with letters, digits, spaces and punctuation, where zero-width patterns such as `\b` match. */
const EMPTY_MATCH_PROBE = 'aZ0 _-.,\n';

function compileOne(item: unknown): RegExp | null {
  let re: RegExp;
  try {
    if (typeof item === 'string') {
      re = new RegExp(item, 'g');
    } else if (isRegExp(item)) {
      re = new RegExp(item.source, item.flags.includes('g') ? item.flags : `${item.flags}g`);
    } else {
      return null;
    }
  } catch {
    return null;
  }
  return matchesEmpty(re) ? null : re;
}

function matchesEmpty(re: RegExp): boolean {
  if (new RegExp(re.source, re.flags.replace(/[gy]/g, '')).test('')) return true;
  const probe = new RegExp(re.source, re.flags.replace('y', ''));
  for (const m of EMPTY_MATCH_PROBE.matchAll(probe)) if (m[0] === '') return true;
  return false;
}

/** A RegExp from this realm or another (a host page's iframe): checked by tag and its string parts. */
function isRegExp(v: unknown): v is RegExp {
  return Object.prototype.toString.call(v) === '[object RegExp]'
    && typeof (v as RegExp).source === 'string' && typeof (v as RegExp).flags === 'string';
}

/** An object literal or null-prototype object, from any realm. */
function isPlainObject(v: object): v is Record<string, unknown> {
  if (Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}
