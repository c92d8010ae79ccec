/**
 * The spec's rules for the agent's own logging (analytics §8, §9): history and message limits, which
 * environments log by default, and the hash that de-duplicates reported errors. Pure: no DOM, no worker
 * globals, no Node, so the shim's logger, the worker's error reporter and the tests share one definition.
 */

/** spec: analytics §9 — the log history keeps the last 100 entries. */
export const LOG_HISTORY_LIMIT = 100;

/** spec: analytics §9 — a log message over 1000 characters is truncated to its tail. */
export const LOG_MESSAGE_LIMIT = 1000;

/** spec: analytics §9 — production-like environments, where logging is off by default. */
export const PRODUCTION_ENVIRONMENTS: readonly string[] = [
  'prod',
  'prod-eu',
  'prod-us1',
  'prod-jp',
  'prod-hsbc',
  'prod-au',
  'prod-gov',
  'rc',
];

/**
 * A message cut to its last {@link LOG_MESSAGE_LIMIT} characters when it is longer (spec: analytics §9
 * "truncated to the tail"). The tail is kept because the end of a message usually carries the specific
 * value (the failing URL, the status text, the offending id) while the start is the generic wording.
 * A cut that would start on the second half of a surrogate pair drops that half, so the result is never
 * a broken character (encodeURIComponent throws on one); it is then 999 characters long.
 */
export function truncateLogMessage(msg: string): string {
  if (msg.length <= LOG_MESSAGE_LIMIT) return msg;
  const tail = msg.slice(msg.length - LOG_MESSAGE_LIMIT);
  const first = tail.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? tail.slice(1) : tail;
}

/**
 * True when console logging starts on for this environment: on everywhere except the production-like
 * environments (spec: analytics §9). The name is compared trimmed and lower-cased, so `'PROD'` counts as
 * production: logging wrongly off costs a developer a call to enableLogging, wrongly on costs the host.
 * @param environment the environment name the host configured; none means not production.
 */
export function isLoggingOnByDefault(environment?: string): boolean {
  if (typeof environment !== 'string') return true;
  return !PRODUCTION_ENVIRONMENTS.includes(environment.trim().toLowerCase());
}

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a, 32 bits, over the UTF-8 bytes of `text`, as 8 lower-case hex digits: the key that
 * de-duplicates reported errors (spec: analytics §8 "de-duplicated by hash and counted"). Small and fast,
 * not cryptographic: it only has to tell a page's distinct errors apart. A lone surrogate hashes as
 * U+FFFD, the character a UTF-8 encoder substitutes for it.
 */
export function hashError(text: string): string {
  let hash = FNV_OFFSET_BASIS;
  const byte = (b: number) => {
    hash ^= b;
    hash = Math.imul(hash, FNV_PRIME);
  };
  for (let i = 0; i < text.length; i++) {
    let cp = text.codePointAt(i) as number;
    if (cp > 0xffff) i++; // the second half of the pair is part of this code point
    else if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) {
      byte(cp);
    } else if (cp < 0x800) {
      byte(0xc0 | (cp >> 6));
      byte(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      byte(0xe0 | (cp >> 12));
      byte(0x80 | ((cp >> 6) & 0x3f));
      byte(0x80 | (cp & 0x3f));
    } else {
      byte(0xf0 | (cp >> 18));
      byte(0x80 | ((cp >> 12) & 0x3f));
      byte(0x80 | ((cp >> 6) & 0x3f));
      byte(0x80 | (cp & 0x3f));
    }
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
