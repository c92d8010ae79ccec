/**
 * Identity rules (spec: analytics §3 Identity, §4 identity change, §5 id validity): which visitor and
 * account ids are valid, what an anonymous visitor id looks like, how a parent account is combined with an
 * account, and what an identify or initialize call decides. Pure: randomness comes in as `random`, so
 * tests pin exact ids; logs come back as strings for the caller's logger.
 */
import { ANONYMOUS_ID_RANDOM_LENGTH, ANONYMOUS_VISITOR_PREFIX } from '../constants';
import { MESSAGES } from '../messages';

/**
 * Joins a parent account id and an account id (spec: analytics §3 "combined with a parent account id using
 * a separator"). It is why a single id may not contain it (§5).
 */
export const ID_SEPARATOR = '::';

/**
 * The placeholder visitor id of the classic install snippet, left in place by a host that has no id to give.
 * It is a valid id (events are still attributed to it), but never the target of a remap (spec: analytics §4
 * "not the default"): merging every anonymous visitor into one placeholder would fuse unrelated people.
 */
export const DEFAULT_VISITOR_ID = 'VISITOR-UNIQUE-ID';

/** Letters and digits, in the order `shim/randomId.ts` uses. */

/** A visitor and an account id; `''` means no account. */
export interface IdentityIds {
  visitorId: string;
  accountId: string;
}

/** What an identify call decides (spec: analytics §4). */
export interface IdentifyDecision extends IdentityIds {
  /** Visitor or account id differ from the current ones: an identify event fires. */
  changed: boolean;
  /** The anonymous visitor becomes a known one: the server merges the old id's history into the new. */
  remap: boolean;
  /** The account is now a valid id different from the old one (clearing the account is not an account change). */
  accountChanged: boolean;
  /** Lines for the agent's log, in order. */
  logs: string[];
}

/** What initialize decides about the visitor (spec: analytics §5 "Missing visitor id."). */
export interface InitialVisitorDecision {
  visitorId: string;
  /** A new anonymous id was made: the caller stores it (visitor cookie). */
  generated: boolean;
  logs: string[];
}

/**
 * `length` alphanumerics, one per call of `random` (a `Math.random`-like source in [0, 1)): character
 * `floor(r * 62)` of A-Z a-z 0-9. Values outside [0, 1) are clamped and a non-finite value counts as 0,
 * so a faulty source still yields an id of the right shape.
 */
export function randomAlphanumeric(length: number, random: () => number): string {
  let id = '';
  for (let i = 0; i < length; i++) {
    const r = random();
    const index = Math.min(61, Math.max(0, Number.isFinite(r) ? Math.floor(r * 62) : 0));
    // A-Z (65...), a-z (97...), 0-9 (48...) by character code: the shim carries no 62-letter alphabet.
    id += String.fromCharCode(index < 26 ? index + 65 : index < 52 ? index + 71 : index - 4);
  }
  return id;
}

/**
 * True for a usable visitor or account id (spec: analytics §5): a string that is non-empty, not only
 * whitespace and without `::`, or a finite number (hosts often key visitors by numeric database ids;
 * it becomes its decimal string). NaN and ±Infinity are refused: their strings name no one. Booleans,
 * objects, arrays, null, undefined, bigints, symbols and functions are refused.
 */
export function isValidId(value: unknown): boolean {
  return normalizeId(value) !== null;
}

/**
 * The id as the agent stores and sends it, or null when {@link isValidId} refuses it. Strings are kept as
 * given, surrounding spaces included: they are the host's keys and trimming could merge two of them.
 */
export function normalizeId(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  // spec: analytics §5 — non-empty, not only whitespace, no double-colon separator.
  if (value.trim() === '' || value.includes(ID_SEPARATOR)) return null;
  return value;
}

/**
 * True for an id the agent generated for an anonymous visitor: it starts with the fixed prefix (spec:
 * analytics §3). Only the prefix is checked, so an id a host shaped the same way also counts as anonymous.
 */
export function isAnonymousVisitorId(id: string): boolean {
  return id.startsWith(ANONYMOUS_VISITOR_PREFIX);
}

/**
 * Whether `to` is the same person as `from` (spec: analytics §4 remap): the same id, or an anonymous visitor who
 * signed in as a valid, known, non-default one. Any other change is another person on this browser.
 */
export function continuesVisitor(from: string, to: string): boolean {
  return from === to || (isAnonymousVisitorId(from) && !isAnonymousVisitorId(to) && to !== DEFAULT_VISITOR_ID);
}

/** A new anonymous visitor id: the fixed prefix and 11 alphanumerics drawn from `random` (spec: analytics §3). */
export function createAnonymousVisitorId(random: () => number): string {
  return ANONYMOUS_VISITOR_PREFIX + randomAlphanumeric(ANONYMOUS_ID_RANDOM_LENGTH, random);
}

/**
 * The account id to send: `'parent::account'` when both are valid, parent first as in a path from the
 * general to the specific; the account alone when the parent is missing or invalid; null when the account
 * is invalid, since a parent alone does not say which account this is (spec: analytics §3).
 */
export function combineAccountId(accountId: unknown, parentAccountId?: unknown): string | null {
  const account = normalizeId(accountId);
  if (account === null) return null;
  const parent = normalizeId(parentAccountId);
  return parent === null ? account : parent + ID_SEPARATOR + account;
}

/** A value as a log line shows it: strings quoted, so `''` and `'  '` are visible; objects by kind only. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') return typeof value;
  return String(value);
}

/**
 * Decides an identify call (spec: analytics §4, §5). A field that is `undefined` was not given and keeps
 * its current value silently; any other value is validated:
 * - an invalid visitor id is ignored (the current visitor stays) and logged;
 * - an invalid account id clears the account (`''`) and is logged;
 * - an invalid parent account id is logged and the account id is used alone; a parent id only applies
 *   together with an account id in the same call.
 * `remap` is true only when the old visitor is anonymous and the new one is valid, non-anonymous and not
 * {@link DEFAULT_VISITOR_ID}. `accountChanged` is true only when the new account is valid and differs.
 * `_random` is unused today (identify never mints an id); it is taken so the signature matches the other
 * decisions and a rule that mints ids would not change callers.
 */
export function resolveIdentify(
  current: IdentityIds,
  requested: { visitorId?: unknown; accountId?: unknown; parentAccountId?: unknown },
  _random: () => number,
): IdentifyDecision {
  const logs: string[] = [];

  let visitorId = current.visitorId;
  if (requested.visitorId !== undefined) {
    const next = normalizeId(requested.visitorId);
    if (next === null) logs.push(MESSAGES.invalidVisitorId(show(requested.visitorId)));
    else visitorId = next;
  }

  let accountId = current.accountId;
  let accountChanged = false;
  if (requested.accountId !== undefined) {
    const account = normalizeId(requested.accountId);
    if (account === null) {
      // spec: analytics §5 — an invalid account id clears the account.
      logs.push(MESSAGES.invalidAccountId(show(requested.accountId)));
      accountId = '';
    } else {
      const parentGiven = requested.parentAccountId !== undefined;
      if (parentGiven && !isValidId(requested.parentAccountId)) {
        logs.push(MESSAGES.invalidParentAccountId(show(requested.parentAccountId)));
      }
      accountId = combineAccountId(account, requested.parentAccountId) ?? account;
      accountChanged = accountId !== current.accountId;
    }
  }

  const visitorChanged = visitorId !== current.visitorId;
  // spec: analytics §4 — remap only from an anonymous visitor to a valid, known, non-default one.
  const remap = visitorChanged && continuesVisitor(current.visitorId, visitorId);

  return {
    visitorId,
    accountId,
    changed: visitorChanged || accountId !== current.accountId,
    remap,
    accountChanged,
    logs,
  };
}

/**
 * The visitor at initialize (spec: analytics §5): the given id when valid; else the stored anonymous id
 * (the visitor cookie) when it is a valid anonymous id; else a new anonymous id (`generated`). A given
 * value that is `undefined`, `null` or `''` logs 'Missing visitor id.'; any other invalid value logs the
 * invalid-id line first, then 'Missing visitor id.'. A stored id that is not anonymous is not reused:
 * only anonymous ids are stored, and a known id must come from the host.
 */
export function resolveInitialVisitor(
  value: unknown,
  stored: string | null | undefined,
  random: () => number,
): InitialVisitorDecision {
  const given = normalizeId(value);
  if (given !== null) return { visitorId: given, generated: false, logs: [] };

  const logs: string[] = [];
  if (value !== undefined && value !== null && value !== '') logs.push(MESSAGES.invalidVisitorId(show(value)));
  logs.push(MESSAGES.missingVisitorId);

  if (typeof stored === 'string' && isValidId(stored) && isAnonymousVisitorId(stored)) {
    return { visitorId: stored, generated: false, logs };
  }
  return { visitorId: createAnonymousVisitorId(random), generated: true, logs };
}

/** Clearing identity (spec: analytics §4): a new anonymous visitor and no account. */
export function clearIdentity(random: () => number): IdentityIds {
  return { visitorId: createAnonymousVisitorId(random), accountId: '' };
}
