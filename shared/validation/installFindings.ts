/**
 * Install validation (analytics §1 console tools, §5 "Install validation warns about: missing api key (error),
 * anonymous visitor, example visitor id, no account, example account id, disabled cookies, missing metadata,
 * duplicate keys after lowercasing, and object or array-of-object metadata values (ignored)"). The spec names what
 * is found; the words and what to do about each are ours. Pure: the tools chunk gathers the facts.
 */
import type { Finding } from './finding';
import { isAnonymousVisitorId } from '../identity/identityRules';
import { apiKeyMissing } from '../messageTexts';

/** What install validation looks at. */
export interface InstallFacts {
  /** Whether initialize was called at all, and whether the agent runs. */
  initializeCalled: boolean;
  running: boolean;
  apiKey: unknown;
  /** The ids the agent runs with ('' for no account), or the given ones before it runs. */
  visitorId: string | null;
  accountId: string | null;
  /** The metadata given to initialize, by entity. */
  metadata: { visitor?: unknown; account?: unknown; parentAccount?: unknown };
  cookiesEnabled: boolean;
  localStorageOnly: boolean;
}

/** Ids that were copied from an example and never replaced, or a missing value turned into text. */
const EXAMPLE_ID = /^(?:visitor-unique-id|account-unique-id|your[-_ ].*|.*example.*|undefined|null|nan|\[object object\])$/i;

export function isExampleId(id: string): boolean {
  return EXAMPLE_ID.test(id.trim());
}

/** The findings, errors first as they come; the first three lines always say what the agent runs with. */
export function installFindings(facts: InstallFacts): Finding[] {
  const out: Finding[] = [];
  const apiKey = typeof facts.apiKey === 'string' ? facts.apiKey.trim() : '';
  out.push({ level: 'info', message: `api key: ${apiKey || '(none)'}` });
  out.push({ level: 'info', message: `visitor id: ${facts.visitorId ?? '(none)'}` });
  out.push({ level: 'info', message: `account id: ${facts.accountId || '(none)'}` });
  if (!facts.initializeCalled) {
    out.push({ level: 'error', message: 'waymark.initialize() has not been called on this page', advice: "Call waymark.initialize({ apiKey: '...', visitor: { id } }) once the user is known (the snippet does it)." });
    return out;
  }
  if (!apiKey) {
    out.push({ level: 'error', message: apiKeyMissing, advice: "Pass your app's api key: waymark.initialize({ apiKey: '...' }); the console lists it under Apps." });
  } else if (!facts.running) {
    out.push({ level: 'warn', message: 'the agent is not running yet', advice: 'initialize waits for the page to load (initializeImmediately: true starts it at once); run the check again after load.' });
  }
  const visitorId = facts.visitorId ?? '';
  if (visitorId && isAnonymousVisitorId(visitorId)) {
    out.push({ level: 'warn', message: `the visitor is anonymous (${visitorId})`, advice: 'Pass the signed-in user as visitor: { id } to initialize (or identify() after sign-in) so events, guides and audiences follow the person across browsers.' });
  } else if (visitorId && isExampleId(visitorId)) {
    out.push({ level: 'warn', message: `the visitor id "${visitorId}" is an example or a missing value`, advice: "Pass your user's real, stable id (a database id), not the documentation's example." });
  }
  if (!facts.accountId) {
    out.push({ level: 'warn', message: 'no account is set', advice: 'Pass account: { id } (the customer the user belongs to) to see usage by account; ignore this if your app has no accounts.' });
  } else if (isExampleId(facts.accountId)) {
    out.push({ level: 'warn', message: `the account id "${facts.accountId}" is an example or a missing value`, advice: "Pass the customer's real, stable id." });
  }
  if (!facts.cookiesEnabled && !facts.localStorageOnly) {
    out.push({ level: 'warn', message: 'cookies are disabled in this browser', advice: 'An anonymous visitor is kept in local storage only: the same person on another subdomain counts as another visitor. Identify visitors, or set localStorageOnly: true to say this is intended.' });
  }
  const visitor = asRecord(facts.metadata.visitor);
  if (!visitor || Object.keys(visitor).every((k) => k === 'id')) {
    out.push({ level: 'warn', message: 'the visitor has no metadata besides its id', advice: 'Add what you segment and target by, e.g. visitor: { id, email, role, plan }: guide audiences and the console read it.' });
  }
  for (const entity of ['visitor', 'account', 'parentAccount'] as const) {
    const fields = asRecord(facts.metadata[entity]);
    if (!fields) continue;
    const byLower = new Map<string, string[]>();
    for (const key of Object.keys(fields)) byLower.set(key.toLowerCase(), [...(byLower.get(key.toLowerCase()) ?? []), key]);
    for (const keys of byLower.values()) {
      if (keys.length > 1) {
        out.push({ level: 'warn', message: `${entity} metadata has keys that differ only in case: ${keys.join(', ')}`, advice: 'Keep one of them: metadata keys are matched without regard to case, so one value hides the others.' });
      }
    }
    for (const [key, value] of Object.entries(fields)) {
      const shape = Array.isArray(value) ? (value.some(isPlainObject) ? 'an array of objects' : null) : isPlainObject(value) ? 'an object' : null;
      if (shape) out.push({ level: 'warn', message: `${entity}.${key} is ${shape}: ignored`, advice: `Send strings, numbers, booleans or a list of them: flatten it (${key}_name: ...) or pick the field you segment by.` });
    }
  }
  if (!out.some((f) => f.level === 'error' || f.level === 'warn')) out.push({ level: 'ok', message: 'the install looks right' });
  return out;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return isPlainObject(value) ? (value as Record<string, unknown>) : null;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
