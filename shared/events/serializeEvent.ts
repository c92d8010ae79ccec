/**
 * The fast way to an event's wire JSON: written straight from the captured event and the flat element path,
 * without building the nested `parentElem` records or copying the event to redact it. It produces exactly
 * the text `enrichEvent` produces (test/unit/serializeEvent.test.ts holds the two together), so the wire
 * stays as wire-protocol.md describes it.
 *
 * Why: the worker's pipeline is benchmarked at events per second (bench/, issue goal 70,000/s). Measured on
 * the bench's clicks (8-12 levels, ~1,840 characters of JSON), building the records, redacting them as a tree
 * and stringifying took ~18 µs an event with a host's privacy filter; most of it was objects made only to be
 * stringified once.
 *
 * The privacy filters apply to every string value (url, element strings, props' strings) and never to object
 * keys (attribute names included), as `redact` does.
 */
import type { EnvelopeContext } from './enrichEvent';
import type { CapturedEvent } from './events';
import { redact } from '../privacy/privacyFilter';

/** Turns one captured event into its wire JSON (with `bytes`). */
export type EventSerializer = (captured: CapturedEvent, ctx: EnvelopeContext) => string;

/** Strings up to this length have their quoted, cleaned form remembered: tags, classes, ids, attribute values. */
const MEMO_MAX_LENGTH = 160;
/** The memo starts over when it holds this many strings, so a long session cannot grow it without bound. */
const MEMO_MAX_ENTRIES = 8192;

export function createEventSerializer(privacyFilters: readonly RegExp[]): EventSerializer {
  const clean = privacyFilters.length ? (s: string) => redact(s, privacyFilters) as string : null;
  /** Raw string -> its JSON literal after `clean`. Element strings repeat from click to click. */
  let memo = new Map<string, string>();
  const quote = (s: string): string => {
    if (s.length > MEMO_MAX_LENGTH) return JSON.stringify(clean ? clean(s) : s);
    let q = memo.get(s);
    if (q === undefined) {
      if (memo.size >= MEMO_MAX_ENTRIES) memo = new Map();
      q = JSON.stringify(clean ? clean(s) : s);
      memo.set(s, q);
    }
    return q;
  };

  /**
   * The props' JSON with every string value filtered: written directly for plain data, without a filtered copy.
   */
  const propsToJson = (value: unknown): string | undefined => {
    if (!clean) return JSON.stringify(value);
    const json = plainJson(value, quote, 0);
    return json === NOT_PLAIN ? JSON.stringify(redact(value, privacyFilters)) : json;
  };

  // The envelope's fixed parts, rebuilt only when the context hands over new identity or session objects
  // (createWorkerApi replaces them on change; it never edits them in place).
  let identityFor: EnvelopeContext['identity'] | null = null;
  let identityJson = '';
  let tailFor: [EnvelopeContext['session'], EnvelopeContext['utm']] | null = null;
  let tailJson = '';
  /** The last page URL and its JSON literal: consecutive events share their page. */
  let lastUrl = '';
  let lastUrlJson = '""';

  return (captured, ctx) => {
    const props = captured.props as Record<string, unknown> | undefined;
    // `{ target, ...props }` lets the props' own `target` win (at the first position), so the path is not used.
    const overridden = captured.element !== undefined && props !== undefined && props !== null && Object.prototype.hasOwnProperty.call(props, 'target');
    const element = overridden ? undefined : captured.element;
    if (ctx.identity !== identityFor) {
      identityFor = ctx.identity;
      identityJson = members({ visitor_id: ctx.identity.visitorId, account_id: ctx.identity.accountId });
    }
    if (!tailFor || tailFor[0] !== ctx.session || tailFor[1] !== ctx.utm) {
      tailFor = [ctx.session, ctx.utm];
      const { sessionId, tabId, frameId, parentTabId } = ctx.session;
      tailJson = members({ sessionId, tabId, frameId, parentTabId, utm: ctx.utm });
    }

    const parts: string[] = [];
    add(parts, 'type', captured.type);
    add(parts, 'browser_time', captured.time);
    if (identityJson) parts.push(identityJson);
    if (typeof captured.url === 'string') {
      if (captured.url !== lastUrl) {
        lastUrl = captured.url;
        lastUrlJson = JSON.stringify(clean ? clean(lastUrl) : lastUrl);
      }
      parts.push(`"url":${lastUrlJson}`);
    } else if (captured.url !== undefined) {
      const json = JSON.stringify(redact(captured.url, privacyFilters));
      if (json !== undefined) parts.push(`"url":${json}`);
    }
    const target = element ? pathJson(element, quote) : undefined;
    const propsJson = propsToJson(overridden ? { target: null, ...props } : props);
    if (target !== undefined) {
      const rest = propsJson === undefined || propsJson === '{}' ? '' : `,${propsJson.slice(1, -1)}`;
      parts.push(`"props":{"target":${target}${rest}}`);
    } else if (element) {
      // An empty path expands to nothing, which JSON leaves out of `{ target: undefined, ...props }`.
      parts.push(`"props":${propsJson ?? '{}'}`);
    } else if (propsJson !== undefined) {
      parts.push(`"props":${propsJson}`);
    }
    add(parts, 'sequence', captured.sequence);
    if (tailJson) parts.push(tailJson);
    // Not privacy-filtered (as enrichEvent): the host names its own events.
    if (captured.trackEventName !== undefined) parts.push(`"track_event_name":${JSON.stringify(captured.trackEventName)}`);
    if (captured.trackEventType !== undefined) parts.push(`"track_event_type":${JSON.stringify(captured.trackEventType)}`);
    // `bytes` is the length of the JSON without itself: `{` + members + `}`.
    const inner = parts.join(',');
    return `{${inner},"bytes":${inner.length + 2}}`;
  };
}

/** `"key":json` when JSON keeps the value; a number (the common case) without a JSON.stringify call. */
function add(parts: string[], key: string, value: unknown): void {
  if (typeof value === 'number') {
    parts.push(`"${key}":${Number.isFinite(value) ? String(value) : 'null'}`);
    return;
  }
  const json = JSON.stringify(value);
  if (json !== undefined) parts.push(`"${key}":${json}`);
}

/** An object's members without the braces ('' when it has none). */
function members(o: Record<string, unknown>): string {
  return JSON.stringify(o).slice(1, -1);
}

/**
 * The nested target record's JSON from the flat path, field for field as `expandElementPath` builds it
 * (`tag, id, cls, title, attrs, myIndex, childIndex`, then `txt` on the element, then `parentElem`);
 * undefined for a path with no complete level.
 */
function pathJson(path: readonly unknown[], quote: (s: string) => string): string | undefined {
  let out = '';
  let depth = 0;
  let i = 1;
  while (i + 4 < path.length) {
    const title = path[i + 3];
    let level = `{"tag":${quote(String(path[i]))},"id":${quote(String(path[i + 1] ?? ''))},"cls":${quote(String(path[i + 2] ?? ''))},"title":${title === null ? 'null' : quote(String(title))},"attrs":{`;
    const count = Number(path[i + 4]) || 0;
    i += 5;
    for (let a = 0; a < count && i + 1 < path.length; a++, i += 2) {
      level += `${a ? ',' : ''}${JSON.stringify(String(path[i]))}:${quote(String(path[i + 1]))}`;
    }
    level += `},"myIndex":${Number(path[i]) || 0},"childIndex":${Number(path[i + 1]) || 0}`;
    i += 2;
    if (depth === 0) {
      if (typeof path[0] === 'string') level += `,"txt":${quote(path[0])}`;
      out = level;
    } else {
      out += `,"parentElem":${level}`;
    }
    depth++;
  }
  return depth === 0 ? undefined : out + '}'.repeat(depth);
}

/** What {@link plainJson} answers for data it leaves to JSON.stringify (class instances, toJSON, deep nesting). */
const NOT_PLAIN = '\u0000not plain';
/** Deeper than this, plainJson gives up (a cycle, or data no event needs), and JSON.stringify decides. */
const PLAIN_MAX_DEPTH = 32;

/**
 * JSON.stringify of plain data (objects with Object.prototype or no prototype, arrays, strings, finite and
 * other numbers, booleans, null), with strings written by `quote`; NOT_PLAIN for anything else. `undefined`
 * as the whole value gives undefined, as JSON does.
 */
function plainJson(value: unknown, quote: (s: string) => string, depth: number): string | undefined {
  switch (typeof value) {
    case 'string': return quote(value);
    case 'number': return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean': return value ? 'true' : 'false';
    case 'undefined': case 'function': case 'symbol': return undefined;
    case 'bigint': return NOT_PLAIN;
  }
  if (value === null) return 'null';
  if (depth >= PLAIN_MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item = plainJson(value[i], quote, depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out += `${i ? ',' : ''}${item ?? 'null'}`;
    }
    return `${out}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in (value as object)) return NOT_PLAIN;
  let out = '{';
  let first = true;
  for (const key of Object.keys(value as object)) {
    const item = plainJson((value as Record<string, unknown>)[key], quote, depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${out}}`;
}
