/**
 * URL transforms: integrator rules that rewrite the page URL before it is recorded on events
 * (spec: analytics §3 "URL transform: attr, action, data", §5 allowed actions and errors).
 *
 * shared/ compiles without the DOM lib, so `URL` and `URLSearchParams` are not available: the URL is split
 * into its parts by `parseHref` and joined again by `formatHref`, and every part no transform touches is
 * kept byte for byte (no normalisation of case, encoding or default ports).
 */
import { MESSAGES } from '../messages';

/** The URL part a transform rewrites (spec: analytics §5). */
export type UrlAttr = 'search' | 'hash' | 'pathname' | 'hostname' | 'href' | 'protocol';

/** What a transform does to its part (spec: analytics §5). */
export type UrlAction = 'AllowOnlyKeys' | 'ExcludeKeys' | 'AddTo' | 'Replace' | 'Clear' | 'ForceSecure';

/**
 * One integrator rule (spec: analytics §3 "URL transform: attr, action, data"). `data` depends on the pair,
 * see `applyUrlTransforms`: a string, a string array, a plain object, or a host function. Lists whose data
 * holds a function run on the page's main thread (`hasFunctionData`); the others may cross to the worker.
 */
export interface UrlTransform {
  attr: UrlAttr;
  action: UrlAction;
  data?: unknown;
}

/** Actions allowed per attribute, exactly the table of spec: analytics §5. */
export const ALLOWED_ACTIONS: Record<UrlAttr, readonly UrlAction[]> = {
  search: ['AllowOnlyKeys', 'ExcludeKeys', 'AddTo', 'Replace', 'Clear'],
  hash: ['Replace', 'Clear'],
  pathname: ['Replace', 'Clear', 'AddTo'],
  hostname: ['Replace'],
  href: ['Replace', 'ForceSecure'],
  protocol: ['ForceSecure'],
};

/**
 * A URL cut into the pieces of `protocol://[userinfo@]host[:port]/path?search#hash`, each kept as written.
 * `formatHref(parseHref(s)) === s` for every string `s`.
 */
export interface UrlParts {
  /** Scheme with its colon (`'https:'`), or `''` when the string starts with no scheme. */
  protocol: string;
  /** Whether `//` and an authority follow the scheme; false for `mailto:x` or a bare path. */
  slashes: boolean;
  /** Userinfo with its `@` (`'user:pw@'`), or `''`. */
  userinfo: string;
  /** Host without port; an IPv6 host keeps its brackets (`'[::1]'`). */
  hostname: string;
  /** Port text after the `:`; `null` when there is no `:` at all, `''` for a bare `host:`. */
  port: string | null;
  /** Everything from the end of the authority to the first `?` or `#`. */
  pathname: string;
  /** `''` when there is no `?`, otherwise `'?'` and the query (`'?'` alone for an empty query). */
  search: string;
  /** `''` when there is no `#`, otherwise everything from the first `#` (later `#`s included). */
  hash: string;
}

/** Splits a URL string into `UrlParts` without decoding or normalising anything. Never throws. */
export function parseHref(href: string): UrlParts {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(href);
  const protocol = scheme ? scheme[0] : '';
  let rest = href.slice(protocol.length);
  const parts: UrlParts = {
    protocol, slashes: false, userinfo: '', hostname: '', port: null, pathname: '', search: '', hash: '',
  };
  if (rest.startsWith('//')) {
    parts.slashes = true;
    const end = firstIndexOf(rest, '/?#', 2);
    const authority = rest.slice(2, end);
    rest = rest.slice(end);
    // The last `@` ends the userinfo: a password may itself hold an unencoded `@`.
    const at = authority.lastIndexOf('@');
    parts.userinfo = authority.slice(0, at + 1);
    const hostPort = authority.slice(at + 1);
    // An IPv6 literal holds colons, so its port can only follow the closing bracket.
    const close = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1;
    const colon = close >= 0
      ? (hostPort[close + 1] === ':' ? close + 1 : -1)
      : hostPort.indexOf(':');
    parts.hostname = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
    parts.port = colon >= 0 ? hostPort.slice(colon + 1) : null;
  }
  const pathEnd = firstIndexOf(rest, '?#', 0);
  parts.pathname = rest.slice(0, pathEnd);
  rest = rest.slice(pathEnd);
  const hashAt = rest.indexOf('#');
  parts.search = hashAt >= 0 ? rest.slice(0, hashAt) : rest;
  parts.hash = hashAt >= 0 ? rest.slice(hashAt) : '';
  return parts;
}

/** Joins `UrlParts` back into a URL string; the inverse of `parseHref`. */
export function formatHref(parts: UrlParts): string {
  const authority = parts.slashes
    ? `//${parts.userinfo}${parts.hostname}${parts.port === null ? '' : `:${parts.port}`}`
    : '';
  return `${parts.protocol}${authority}${parts.pathname}${parts.search}${parts.hash}`;
}

/**
 * Checks one transform as given by the integrator. Returns null when it is valid, else exactly one of the
 * spec: analytics §5 messages, tested in this order:
 * 1. not an object, or no `attr` -> `MESSAGES.missingAttr`;
 * 2. no `action` -> `MESSAGES.missingAction`;
 * 3. `attr` not one of the six -> `MESSAGES.invalidUrlAttr`;
 * 4. `action` not allowed for `attr` (see `ALLOWED_ACTIONS`), or `data` missing or of the wrong kind for the
 *    pair -> `MESSAGES.invalidTransformAction`.
 *
 * Data kinds per pair are listed on `applyUrlTransforms`. `data` on `Clear` and `ForceSecure` is ignored.
 */
export function checkUrlTransform(t: unknown): string | null {
  // spec: analytics §5 "A transform must be an object with attr and action".
  if (typeof t !== 'object' || t === null || Array.isArray(t)) return MESSAGES.missingAttr;
  const { attr, action, data } = t as { attr?: unknown; action?: unknown; data?: unknown };
  if (attr === undefined) return MESSAGES.missingAttr;
  if (action === undefined) return MESSAGES.missingAction;
  if (typeof attr !== 'string' || !Object.hasOwn(ALLOWED_ACTIONS, attr)) return MESSAGES.invalidUrlAttr;
  const allowed: readonly string[] = ALLOWED_ACTIONS[attr as UrlAttr];
  if (typeof action !== 'string' || !allowed.includes(action)) return MESSAGES.invalidTransformAction;
  // spec: analytics §5 names only four messages, so data that is missing where the action needs it, or of
  // a kind the pair does not take, is reported as an invalid transform action: the action cannot run as given.
  const rule = dataRule(attr as UrlAttr, action as UrlAction);
  if (rule && typeof data !== 'function' && !rule.isData(data)) return MESSAGES.invalidTransformAction;
  return null;
}

/**
 * True when any transform's `data` is a function. Such a list must run on the page's main thread, where
 * the host's functions live; a list of plain data is structured-clonable and may be handed to the worker.
 * Functions never cross (STYLE §2).
 */
export function hasFunctionData(transforms: readonly UrlTransform[]): boolean {
  return transforms.some((t) => typeof t === 'object' && t !== null && typeof t.data === 'function');
}

/**
 * Applies `transforms` to `href` in list order, each one seeing the result of the one before.
 * Never throws: a transform that fails `checkUrlTransform` is skipped (the caller logs its message once, at
 * configuration time), and so is one whose function throws or returns the wrong kind of value; the URL is
 * then left as it was before that transform. Parts a transform does not touch stay byte-identical.
 *
 * search (the query; keys are compared after decoding `%XX` and `+`):
 * - `AllowOnlyKeys` (`string[]` | `(keys: string[]) => string[]`): keep only parameters whose key is listed,
 *   every occurrence, in their original order and encoding. A function receives the distinct keys present,
 *   decoded, in order of first appearance, and returns the keys to keep.
 * - `ExcludeKeys` (same data): remove every occurrence of the listed keys.
 *   For both: if nothing is removed the URL is unchanged; otherwise the query is rebuilt from the remaining
 *   parameters (empty `&&` segments dropped) and loses its `?` when none remain.
 * - `AddTo` (`Record<string, string | number | boolean>` | `(current: Record<string, string>) => object`):
 *   sets each entry as `encodeURIComponent(key)=encodeURIComponent(value)`. An existing key is overwritten
 *   in place at its first occurrence and its later occurrences are removed; a new key is appended. A
 *   function receives the decoded parameters (first occurrence of each key wins) and returns the entries.
 *   An empty object changes nothing; otherwise empty `&&` segments are dropped as the query is rebuilt.
 * - `Replace` (`string` | `(search: string) => string`): the whole query becomes `data`, written with or
 *   without its leading `?`; `''` or `'?'` leaves no query. A `#` in `data` is written `%23` so it cannot
 *   start a hash. A function receives the current query without `?`.
 * - `Clear`: no query at all, not even a trailing `?`.
 *
 * hash:
 * - `Replace` (`string` | `(hash: string) => string`): the fragment becomes `data`, with or without its
 *   leading `#`; `''` or `'#'` leaves no fragment. A function receives the current fragment without `#`.
 * - `Clear`: no fragment and no `#`.
 *
 * pathname:
 * - `Replace` (`string` | `(path: string) => string`): the path becomes `data`, made absolute with a
 *   leading `/` (`''` gives `/`). `?` and `#` in `data` are written `%3F` and `%23`.
 * - `Clear`: the path becomes `/`.
 * - `AddTo`, one of
 *   - `string`: appended as one or more segments, with exactly one `/` between the path and `data`
 *     (`/a/` + `/b` -> `/a/b`); `''` changes nothing;
 *   - `{ prefix?: string; suffix?: string }` (at least one, no other keys): `prefix` is inserted before the
 *     path (`/docs` with prefix `en` -> `/en/docs`), then `suffix` appended as the string form does;
 *   - `(path: string) => string`: the returned string is appended as the string form does.
 *
 * hostname:
 * - `Replace` (`string` | `(hostname: string) => string`): the host becomes `data`; userinfo and port are
 *   kept. `data` must be a non-empty host: no `/ ? # @` or spaces, and a `:` only inside an IPv6 `[...]`.
 *   A URL without an authority (`mailto:`) is left unchanged.
 *
 * href:
 * - `Replace` (non-empty `string` | `(href: string) => string`): the whole URL becomes `data`; later
 *   transforms apply to it.
 * - `ForceSecure`: as protocol `ForceSecure`.
 *
 * protocol:
 * - `ForceSecure`: `http:` becomes `https:` and `ws:` becomes `wss:` (any case), and an explicit `:80` port
 *   is dropped since it was the insecure default; other schemes are unchanged.
 */
export function applyUrlTransforms(href: string, transforms: readonly UrlTransform[]): string {
  let current = href;
  for (const t of transforms) {
    if (checkUrlTransform(t) !== null) continue;
    try {
      current = applyOne(current, t);
    } catch {
      // spec: analytics §5 gives no runtime error; a failing host function must not break event capture,
      // so the transform is skipped and the URL stays as it was.
    }
  }
  return current;
}

/** Thrown inside `applyOne` when a host function returns a value of the wrong kind; caught by the loop. */
class SkipTransform extends Error {}

interface DataRule {
  /** Accepts `data` given directly (not a function). */
  isData(data: unknown): boolean;
  /** Accepts what a data function returned. */
  isResult(result: unknown): boolean;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isKeyList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isHostname = (v: unknown): v is string =>
  typeof v === 'string' && (/^\[[^\]\s/?#@]+\]$/.test(v) || /^[^\s/?#@:[\]]+$/.test(v));

const STRING_RULE: DataRule = { isData: isString, isResult: isString };
const KEYS_RULE: DataRule = { isData: isKeyList, isResult: isKeyList };
const PARAMS_RULE: DataRule = { isData: isParamObject, isResult: isParamObject };

/** The data a pair needs, or null for actions that take none (`Clear`, `ForceSecure`). */
function dataRule(attr: UrlAttr, action: UrlAction): DataRule | null {
  // spec: analytics §5 — "Replace, AddTo, AllowOnlyKeys, ExcludeKeys need data"; a function is accepted for
  // each of them and its result checked when it runs.
  switch (action) {
    case 'AllowOnlyKeys':
    case 'ExcludeKeys':
      return KEYS_RULE;
    case 'AddTo':
      return attr === 'search' ? PARAMS_RULE : { isData: (v) => isString(v) || isAffixObject(v), isResult: isString };
    case 'Replace':
      if (attr === 'hostname') return { isData: isHostname, isResult: isHostname };
      if (attr === 'href') return { isData: isNonEmptyString, isResult: isNonEmptyString };
      return STRING_RULE;
    default:
      return null;
  }
}

/** Runs one valid transform; throws (`SkipTransform` or whatever a host function throws) to skip it. */
function applyOne(href: string, t: UrlTransform): string {
  const parts = parseHref(href);
  const rule = dataRule(t.attr, t.action);
  /** The transform's data, calling a host function with `arg` and checking what it returns. */
  const resolve = (arg: unknown): unknown => {
    if (typeof t.data !== 'function') return t.data;
    const result: unknown = (t.data as (a: unknown) => unknown)(arg);
    if (!rule || !rule.isResult(result)) throw new SkipTransform();
    return result;
  };

  switch (`${t.attr}.${t.action}`) {
    case 'search.AllowOnlyKeys':
    case 'search.ExcludeKeys': {
      const keys = new Set(resolve(distinctKeys(parts.search)) as string[]);
      const keep = t.action === 'AllowOnlyKeys';
      parts.search = filterQuery(parts.search, (key) => keys.has(key) === keep);
      break;
    }
    case 'search.AddTo':
      parts.search = setParams(parts.search, resolve(currentParams(parts.search)) as Record<string, unknown>);
      break;
    case 'search.Replace': {
      const query = stripLead(resolve(parts.search.slice(1)) as string, '?');
      parts.search = query === '' ? '' : `?${query.replace(/#/g, '%23')}`;
      break;
    }
    case 'search.Clear':
      parts.search = '';
      break;
    case 'hash.Replace': {
      const fragment = stripLead(resolve(parts.hash.slice(1)) as string, '#');
      parts.hash = fragment === '' ? '' : `#${fragment}`;
      break;
    }
    case 'hash.Clear':
      parts.hash = '';
      break;
    case 'pathname.Replace': {
      const path = escapePath(resolve(parts.pathname) as string);
      parts.pathname = path.startsWith('/') ? path : `/${path}`;
      break;
    }
    case 'pathname.Clear':
      parts.pathname = '/';
      break;
    case 'pathname.AddTo': {
      const data = resolve(parts.pathname) as string | { prefix?: string; suffix?: string };
      if (typeof data === 'string') {
        parts.pathname = appendPath(parts.pathname, data);
      } else {
        const prefix = escapePath(data.prefix ?? '').replace(/^\/+|\/+$/g, '');
        if (prefix !== '') parts.pathname = `/${prefix}/${parts.pathname.replace(/^\/+/, '')}`;
        parts.pathname = appendPath(parts.pathname, data.suffix ?? '');
      }
      break;
    }
    case 'hostname.Replace':
      // A URL with no authority has no host to replace.
      if (parts.slashes) parts.hostname = resolve(parts.hostname) as string;
      break;
    case 'href.Replace':
      return resolve(href) as string;
    case 'href.ForceSecure':
    case 'protocol.ForceSecure': {
      const secure = ({ 'http:': 'https:', 'ws:': 'wss:' } as Record<string, string>)[parts.protocol.toLowerCase()];
      if (secure) {
        parts.protocol = secure;
        // The explicit port was the insecure default; kept, it would point the secure scheme at port 80.
        if (parts.port === '80') parts.port = null;
      }
      break;
    }
    default:
      // Unreachable after checkUrlTransform; skipping keeps the loop total if the table ever grows.
      throw new SkipTransform();
  }
  return formatHref(parts);
}

/** Index of the first character of `chars` in `s` at or after `from`, or `s.length`. */
function firstIndexOf(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i])) return i;
  return s.length;
}

function stripLead(s: string, lead: string): string {
  return s.startsWith(lead) ? s.slice(1) : s;
}

/** Keeps `?` and `#` in a path from being read back as the start of the query or fragment. */
function escapePath(s: string): string {
  return s.replace(/\?/g, '%3F').replace(/#/g, '%23');
}

/** `path` + `/` + `segment`, with exactly one `/` between them; an empty segment changes nothing. */
function appendPath(path: string, segment: string): string {
  if (segment === '') return path;
  return `${path.replace(/\/+$/, '')}/${escapePath(segment).replace(/^\/+/, '')}`;
}

/** Form-decoding of a key or value as a browser reads a query: `+` is a space; bad `%` escapes stay as is. */
function decodeComponent(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Splits one `key=value` (or bare `key`) segment into its decoded key and value. */
function decodeSegment(segment: string): [key: string, value: string] {
  const eq = segment.indexOf('=');
  return eq < 0
    ? [decodeComponent(segment), '']
    : [decodeComponent(segment.slice(0, eq)), decodeComponent(segment.slice(eq + 1))];
}

/** The non-empty `&`-separated segments of a `search` part. */
function segmentsOf(search: string): string[] {
  return search.slice(1).split('&').filter((s) => s !== '');
}

function distinctKeys(search: string): string[] {
  return [...new Set(segmentsOf(search).map((s) => decodeSegment(s)[0]))];
}

function currentParams(search: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const segment of segmentsOf(search)) {
    const [key, value] = decodeSegment(segment);
    // defineProperty so a key such as `__proto__` is an ordinary own entry.
    if (Object.hasOwn(params, key)) continue;
    Object.defineProperty(params, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return params;
}

/** Keeps the segments whose decoded key passes `keep`; byte-identical when none is removed. */
function filterQuery(search: string, keep: (key: string) => boolean): string {
  const segments = segmentsOf(search);
  const kept = segments.filter((s) => keep(decodeSegment(s)[0]));
  if (kept.length === segments.length) return search;
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

/** `URLSearchParams.set` for each entry: overwrite the first occurrence, drop the rest, else append. */
function setParams(search: string, entries: Record<string, unknown>): string {
  const keys = Object.keys(entries);
  if (keys.length === 0) return search;
  let segments = segmentsOf(search);
  for (const key of keys) {
    const encoded = `${encodeURIComponent(key)}=${encodeURIComponent(String(entries[key]))}`;
    let placed = false;
    segments = segments.flatMap((s) => {
      if (decodeSegment(s)[0] !== key) return [s];
      if (placed) return [];
      placed = true;
      return [encoded];
    });
    if (!placed) segments.push(encoded);
  }
  return `?${segments.join('&')}`;
}

/** A plain object whose values are strings, numbers or booleans: what search `AddTo` writes. */
function isParamObject(v: unknown): v is Record<string, string | number | boolean> {
  return isPlainObject(v) && Object.values(v).every((x) => ['string', 'number', 'boolean'].includes(typeof x));
}

/** `{ prefix?, suffix? }` with at least one string and no other keys: pathname `AddTo` in object form. */
function isAffixObject(v: unknown): v is { prefix?: string; suffix?: string } {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => (k === 'prefix' || k === 'suffix') && typeof v[k] === 'string');
}

/** An object literal (or null-prototype object), from this realm or another: structured-clonable data. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}
