/**
 * Identity and per-tab facts that live in browser storage, which only the main thread can reach. The rules
 * themselves are pure (shared/identity/identityRules, shared/identity/sessionRules); this file reads and writes storage.
 */
import { VISITOR_COOKIE_DAYS } from '../shared/constants';
import { combineAccountId, normalizeId, randomAlphanumeric, resolveInitialVisitor } from '../shared/identity/identityRules';
import { MESSAGES } from '../shared/messages';
import type { Identity, LogLevel, SessionFacts } from '../shared/protocol';
import type { SessionRecord } from '../shared/identity/sessionRules';
import { readStored } from './pageStorage';

/** Uniform [0, 1) from the platform's CSPRNG, for the shared rules' `random` parameter. */
export const secureRandom = (): number => crypto.getRandomValues(new Uint32Array(1))[0]! / 4_294_967_296;

/** A tab or frame id: 16 alphanumerics from the CSPRNG. */
export const newTabId = (): string => randomAlphanumeric(16, secureRandom);

function write(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    // Storage unavailable: the value lives for this page only, which is the best that can be done.
  }
}

const local = () => localStorage;
const session = () => sessionStorage;

function readCookie(name: string): string | null {
  try {
    for (const part of document.cookie.split('; ')) {
      const eq = part.indexOf('=');
      if (part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
    }
  } catch {
    // Cookies disabled or a sandboxed document.
  }
  return null;
}

function writeCookie(name: string, value: string, days: number): void {
  try {
    document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${days * 86_400}; path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  } catch {
    // As above: nothing to do but carry on with local storage.
  }
}

export interface IdentityOptions {
  visitorId: unknown;
  accountId: unknown;
  parentAccountId?: unknown;
  /** Keep the anonymous visitor in local storage only, never in a cookie (analytics §9). @default false */
  localStorageOnly?: boolean;
  /** @default 100 */
  cookieDays?: number;
}

/** Where the anonymous visitor id of an api key is kept. */
export function visitorStore(apiKey: string, options: Pick<IdentityOptions, 'localStorageOnly' | 'cookieDays'>) {
  const key = `_wm_visitorId.${apiKey}`;
  return {
    read: () => (options.localStorageOnly ? null : readCookie(key)) ?? readStored(local, key),
    write(id: string) {
      write(local, key, id);
      if (!options.localStorageOnly) writeCookie(key, id, options.cookieDays ?? VISITOR_COOKIE_DAYS);
    },
  };
}

/**
 * The visitor and account of this page (analytics §5): the given visitor when valid, else the stored
 * anonymous visitor, else a new one ('Missing visitor id.'); an invalid account clears the account.
 */
export function loadIdentity(apiKey: string, options: IdentityOptions, log: (level: LogLevel, message: string) => void): Identity {
  const store = visitorStore(apiKey, options);
  // A valid given visitor wins over the stored one (analytics §5), which is then not read: the cookie and local
  // storage are first touches, synchronous IPCs to a browser busy loading the page (issue #16).
  const decision = resolveInitialVisitor(options.visitorId, normalizeId(options.visitorId) === null ? store.read() : null, secureRandom);
  // A site with anonymous visitors only meets 'Missing visitor id.' on every page: info, not a warning.
  for (const line of decision.logs) log(line === MESSAGES.missingVisitorId ? 'info' : 'warn', line);
  if (decision.generated) store.write(decision.visitorId);
  let accountId = '';
  if (options.accountId !== undefined && options.accountId !== null && options.accountId !== '') {
    const account = normalizeId(options.accountId);
    if (account === null) log('warn', MESSAGES.invalidAccountId(JSON.stringify(options.accountId) ?? String(options.accountId)));
    else accountId = combineAccountId(account, options.parentAccountId) ?? account;
  }
  return { visitorId: decision.visitorId, accountId };
}

/** The shared session record of an api key (local storage: every tab of the site shares one session). */
export function sessionStore(apiKey: string) {
  const key = `_wm_session.${apiKey}`;
  return {
    read(): SessionRecord | null {
      try {
        const value = JSON.parse(readStored(local, key) ?? 'null') as SessionRecord | null;
        return value && typeof value.sessionId === 'string' && typeof value.lastActivityAt === 'number' ? value : null;
      } catch {
        return null;
      }
    },
    write: (record: SessionRecord) => write(local, key, JSON.stringify(record)),
  };
}

/** Tab id kept for the tab's life in session storage, and a frame id new on every load. */
export function loadTabFacts(): Pick<SessionFacts, 'tabId' | 'frameId' | 'parentTabId'> {
  let tabId = readStored(session, '_wm_tabId');
  if (!tabId) {
    tabId = newTabId();
    write(session, '_wm_tabId', tabId);
  }
  return { tabId, frameId: newTabId(), parentTabId: '' };
}
