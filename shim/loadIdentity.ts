/**
 * Identity and per-tab facts that live in browser storage, which only the main thread can reach.
 * First cut of analytics §3-§5: issue #4 adds cookies, validation rules, remap and session expiry.
 */
import { ANONYMOUS_ID_RANDOM_LENGTH, ANONYMOUS_VISITOR_PREFIX, SESSION_ID_LENGTH } from '../shared/constants';
import type { Identity, SessionFacts } from '../shared/protocol';
import { randomId } from './randomId';

/** Reads a storage key, tolerating storage that throws (disabled cookies, sandboxed frames). */
function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    // Storage unavailable: the id lives for this page only, which is the best that can be done.
  }
}

const local = () => localStorage;
const session = () => sessionStorage;

/** A new anonymous visitor id: the fixed prefix and 11 random alphanumerics (analytics §3). */
export function createAnonymousVisitorId(): string {
  return ANONYMOUS_VISITOR_PREFIX + randomId(ANONYMOUS_ID_RANDOM_LENGTH);
}

export function isAnonymousVisitorId(id: string): boolean {
  return id.startsWith(ANONYMOUS_VISITOR_PREFIX);
}

/** The visitor and account of this page: the ones given, else the stored anonymous visitor. */
export function loadIdentity(apiKey: string, visitorId: unknown, accountId: unknown): Identity {
  const key = `_wm_visitorId.${apiKey}`;
  let visitor = typeof visitorId === 'string' || typeof visitorId === 'number' ? String(visitorId) : '';
  if (!visitor.trim()) {
    visitor = read(local, key) ?? '';
    if (!visitor) {
      visitor = createAnonymousVisitorId();
      write(local, key, visitor);
    }
  }
  const account = typeof accountId === 'string' || typeof accountId === 'number' ? String(accountId) : '';
  return { visitorId: visitor, accountId: account };
}

/** Tab id kept for the tab's life in session storage; a session id; a frame id new on every load. */
export function loadSessionFacts(): SessionFacts {
  let tabId = read(session, '_wm_tabId');
  if (!tabId) {
    tabId = randomId(16);
    write(session, '_wm_tabId', tabId);
  }
  let sessionId = read(session, '_wm_sessionId');
  if (!sessionId) {
    sessionId = randomId(SESSION_ID_LENGTH);
    write(session, '_wm_sessionId', sessionId);
  }
  return { sessionId, tabId, frameId: randomId(16), parentTabId: '' };
}
