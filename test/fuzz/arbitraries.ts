/**
 * Generators of what a collector or an agent may be sent (issue #31): strings with NUL, lone surrogates, control
 * characters and odd names; numbers PostgreSQL or JSON cannot hold; JSON text with number literals no JS value
 * prints (1e400, 30-digit integers); jzb of all that; valid bodies mutated one field at a time.
 */
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';

/** A lone surrogate (UTF-16 half, which UTF-8 cannot encode): `JSON.stringify` escapes it, jsonb refuses it. */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/**
 * A long string of pseudo-random characters (1 to 20,000 of them), cheap to make at any length: mostly of two and
 * three bytes in UTF-8, one in eight of four (an emoji's), so that an id or a type that long, incompressible, does
 * not fit a btree index row (2704 bytes) however its characters are counted.
 */
export const longString = fc.tuple(fc.integer(), fc.integer({ min: 1, max: 20_000 })).map(([seed, length]) => {
  let x = seed | 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    // xorshift32: the same seed always makes the same string, so a failure replays.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const n = x >>> 0;
    out.push((n & 7) === 0 ? String.fromCodePoint(0x1f300 + (n % 0x300)) : String.fromCharCode(0x20 + (n % 0x2fe0)));
  }
  return out.join('');
});

/** Strings a collector must refuse or keep, never choke on. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii' }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 3 }), loneSurrogate, fc.constant('\u0000')), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: longString },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'a\ud800b', '\ufeff', '\u2028', '%00', '%ED%A0%80', '../', '..%2f',
      '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'null', 'undefined', 'NaN', '1e400', '-0',
      '{}', '[]', '"', '\\', '\'', '<script>', 'x'.repeat(300), '\u{1F600}', 'é', 'ß'.repeat(70),
    ),
  },
);

/** Numbers a JS value can be: huge, negative, fractional, -0, unsafe integers; NaN and ±Infinity print as null. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 1e21, 1e308, -1e308, 5e-324, Number.NaN),
);

/**
 * Number literals as JSON text: what the agent's JSON.stringify never writes, another client may (and JSON.parse
 * reads 1e400 as Infinity, 1e-400 as 0, a 30-digit integer rounded).
 */
export const numberLiteral: fc.Arbitrary<string> = fc.oneof(
  nastyNumber.filter(Number.isFinite).map((n) => JSON.stringify(n)),
  fc.constantFrom('1e400', '-1e400', '1e-400', '-0', '-0.0', '123456789012345678901234567890', '9007199254740993', '1E2', '0.1e1', '-9223372036854775809'),
);

/** A JSON text token that stands for itself when a tree is written out (a number literal). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Keys of objects: ordinary, odd, and the names that bite (`__proto__` as an own key of parsed JSON). */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.constantFrom('type', 'props', 'id', 'visitor_id', 'account_id', 'browser_time', 'sequence', 'tabId', 'frameId', 'url', 'events', 'steps', 'guide_id', 'guide_step_id', 'target', '__proto__', 'constructor') },
);

/** A leaf of a JSON tree: a nasty string or number literal, a boolean, null. */
const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: numberLiteral.map((text) => new RawJson(text)) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** A JSON tree (objects, arrays, leaves) a few levels deep; numbers as RawJson literals. */
export const jsonTree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  tree: fc.oneof({ maxDepth: 4, depthIdentifier: 'json' }, jsonLeaf, tie('array'), tie('object')),
  array: fc.array(tie('tree'), { maxLength: 6, depthIdentifier: 'json' }),
  object: fc.dictionary(nastyKey, tie('tree'), { maxKeys: 6, depthIdentifier: 'json' }),
})).tree;

/** JSON text of a tree: strings escaped as JSON.stringify does (lone surrogates as \ud800), numbers as their literal. */
export function jsonText(tree: unknown): string {
  if (tree instanceof RawJson) return tree.text;
  if (Array.isArray(tree)) return `[${tree.map(jsonText).join(',')}]`;
  if (tree !== null && typeof tree === 'object') {
    return `{${Object.entries(tree).map(([key, value]) => `${JSON.stringify(key)}:${jsonText(value)}`).join(',')}}`;
  }
  return JSON.stringify(tree) ?? 'null';
}

/** A value for any field of an event: what the agent sends there, or anything else. */
export const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: numberLiteral.map((text) => new RawJson(text)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 2, arbitrary: jsonTree },
);

/** Text the agent would send: printable, no NUL, short. */
const saneString = fc.string({ maxLength: 12 });

/**
 * A wire event as the agent sends it (wire-protocol.md "Events"; test/server/testServer wireEvent), with sane random
 * values: the base each fuzzed event starts from, so a batch gets past the first check and on to the store.
 */
const saneEvent = fc.record({
  type: fc.constantFrom('click', 'load', 'identify', 'track', 'guideSeen', 'guideAdvanced', 'guideDismissed', 'guideSnoozed', 'pollResponse', 'meta'),
  browser_time: fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
  visitor_id: saneString,
  account_id: saneString,
  url: saneString.map((path) => `http://127.0.0.1/${path}`),
  props: fc.record({
    target: fc.record({ tag: saneString, id: saneString, txt: saneString }),
    guide_id: saneString,
    guide_step_id: saneString,
    seen_reason: saneString,
    destination_step_id: saneString,
    snooze_duration: fc.nat(),
    old_visitor_id: saneString,
    poll_id: saneString,
    poll_response: fc.oneof(saneString, fc.integer({ min: 0, max: 10 })),
    poll_type: fc.constantFrom('NPSRating', 'FreeForm', 'PickList'),
    frustrationTypes: fc.subarray(['rageClick', 'deadClick', 'errorClick', 'uTurn']),
  }, { requiredKeys: ['target'] }),
  sequence: fc.nat({ max: 1000 }),
  sessionId: saneString,
  tabId: saneString,
  frameId: saneString,
  utm: fc.record({ channel: saneString }),
}, { requiredKeys: ['type'] });

/** The paths of an event a change may set (some the collector reads into columns, some it keeps as they came). */
const EVENT_PATHS = [
  'type', 'browser_time', 'visitor_id', 'account_id', 'url', 'props', 'props.target', 'props.target.tag', 'props.target.id',
  'props.target.txt', 'props.guide_id', 'props.guide_step_id', 'props.seen_reason', 'props.reason', 'props.destination_step_id',
  'props.snooze_duration', 'props.old_visitor_id', 'props.poll_id', 'props.poll_response', 'props.poll_type', 'props.frustrationTypes',
  'props.visitor', 'props.account', 'sequence', 'sessionId', 'tabId', 'frameId', 'utm', 'utm.channel',
  'track_event_name', 'bytes', 'parentTabId', 'oldVisitorId',
];

/** One event: a sane one with a few fields changed to random values (now and then none), or anything at all. */
export const wireEventTree: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: saneEvent },
  { weight: 6, arbitrary: saneEvent.chain((event) => mutated(event, EVENT_PATHS, 2)) },
  { weight: 1, arbitrary: jsonTree },
);

/** A batch: an array of events (usually short; the same event twice tests the exactly-once keys). */
export const batchTree: fc.Arbitrary<unknown[]> = fc.oneof(
  { weight: 6, arbitrary: fc.array(wireEventTree, { maxLength: 6 }) },
  { weight: 1, arbitrary: wireEventTree.map((event) => [event, event]) },
);

/**
 * Percent-encoding of any JS string as UTF-8, lone surrogates included (as the three bytes a careless encoder
 * writes for them, %ED%A0%80: not UTF-8), which encodeURIComponent refuses to do.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** Base64url without padding. */
export const base64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** jzb of JSON text, compressed with node:zlib (an independent compressor from the agent's fflate). */
export const jzbOfText = (text: string): string => base64Url(deflateSync(Buffer.from(text, 'utf8')));

/**
 * A jzb parameter: arbitrary text, base64url of random bytes, zlib of random JSON, zlib of batches of events, a
 * highly compressible payload (what a 64 KB jzb can inflate to), a truncated stream.
 */
export const jzbParam: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map(base64Url) },
  { weight: 2, arbitrary: jsonTree.map((tree) => jzbOfText(jsonText(tree))) },
  { weight: 6, arbitrary: batchTree.map((batch) => jzbOfText(jsonText(batch))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => base64Url(deflateSync(bytes))) },
  { weight: 1, arbitrary: batchTree.map((batch) => { const bytes = deflateSync(Buffer.from(jsonText(batch))); return base64Url(bytes.subarray(0, Math.max(2, bytes.length >> 1))); }) },
  { weight: 1, arbitrary: bombJzb() },
);

/**
 * A jzb well under the 64 KB silo that inflates to megabytes: one event whose field is a long run of one
 * character, or many small events. The collector must cap what it inflates, not hold it all.
 */
export function bombJzb(): fc.Arbitrary<string> {
  // 40 MB of one character deflates to about 40 KB: its jzb (about 54,000 characters) is inside the silo.
  return fc.oneof(
    fc.constantFrom(1, 4, 16, 40).map((mb) => bomb(`long${mb}`, () => `[{"type":"click","url":"${'a'.repeat(mb * 1024 * 1024)}"}]`)),
    fc.constantFrom(10_000, 10_001, 200_000).map((n) => bomb(`many${n}`, () => `[${'{"type":"a"},'.repeat(n - 1)}{"type":"a"}]`)),
  );
}

/** Bombs made once per run: deflating 40 MB takes a while. */
const bombs = new Map<string, string>();
const bomb = (name: string, text: () => string): string => {
  let jzb = bombs.get(name);
  if (jzb === undefined) bombs.set(name, (jzb = jzbOfText(text())));
  return jzb;
};

/**
 * A valid body with a few changes: each sets a path (a known field, or a made-up key on a known object) to a
 * random value, or deletes it.
 */
export function mutated(base: unknown, paths: readonly string[], maxChanges = 3): fc.Arbitrary<unknown> {
  const change = fc.record({
    path: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...paths) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', ...paths), nastyKey).map(([at, key]) => (at ? `${at}.${key}` : key)) },
    ),
    value: fc.oneof({ weight: 5, arbitrary: fieldValue }, { weight: 1, arbitrary: fc.constant(DELETE) }),
  });
  return fc.array(change, { minLength: 1, maxLength: maxChanges }).map((changes) => {
    let tree = JSON.parse(JSON.stringify(base)) as unknown;
    for (const { path, value } of changes) tree = setPath(tree, path.split('.'), value);
    return tree;
  });
}

const DELETE = Symbol('delete');

/** `tree` with `path` set to `value` (or deleted), objects made on the way where the path leads through a leaf. */
function setPath(tree: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value === DELETE ? undefined : value;
  const [head, ...rest] = path;
  // A name that is no index turns an array into an object: JSON gives arrays no named members (and an array
  // with an own `constructor` breaks fast-check's printing of the counterexample).
  const asArray = Array.isArray(tree) && /^\d+$/.test(head!);
  const node: Record<string, unknown> | unknown[] = asArray ? [...(tree as unknown[])] : tree !== null && typeof tree === 'object' ? { ...(tree as object) } : {};
  const next = setPath((node as Record<string, unknown>)[head!], rest, value);
  if (next === undefined && value === DELETE && rest.length === 0) {
    if (Array.isArray(node)) node.splice(Number(head), 1);
    else delete node[head!];
  } else {
    // defineProperty: `__proto__` as a path key becomes an own key, as JSON.parse makes it.
    Object.defineProperty(node, head!, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return node;
}
