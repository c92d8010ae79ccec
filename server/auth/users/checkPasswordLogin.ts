/**
 * Whether an email and password sign someone in (issue #33), limited before any hash is computed: per client
 * address (LOGIN_MAX_FAILURES a minute, shared with the token login) and per account (ACCOUNT_MAX_FAILURES in 15
 * minutes, from any address, counted on the lower-cased email whether a user has it or not), both in the database
 * so every collector counts the same attempts. The refusals never tell whether an email has an account: an unknown
 * email, a removed user, an invitation not yet accepted and a wrong password all answer "wrong email or password"
 * after the same scrypt work, and are limited alike.
 */
import type { AuthStore } from '../createAuthStore';
import { emailKey, type User, type UserStore } from './createUserStore';
import { verifyPassword, type PasswordCost } from './passwords';

/** Wrong tokens or passwords allowed from one address within LOGIN_WINDOW_MS before logins from it wait. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 60_000;
/** Wrong passwords allowed on one account within ACCOUNT_WINDOW_MS, from any address, before it waits. */
export const ACCOUNT_MAX_FAILURES = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60_000;

/** A refusal: its status, words, and for a 429 the seconds to wait. */
export interface LoginRefusal {
  status: 401 | 429;
  error: string;
  retryAfter?: number;
}

/**
 * ms to wait before the next login attempt from an address, given its failures within the window (their count and
 * the oldest): once there are `max`, until the oldest leaves the window. Pure over `now`.
 */
export function loginWaitMs(failures: { count: number; first?: number }, now: number, max = LOGIN_MAX_FAILURES, windowMs = LOGIN_WINDOW_MS): number {
  if (failures.count < max || failures.first === undefined) return 0;
  return Math.max(0, windowMs - (now - failures.first));
}

const tooMany = (wait: number, what: string): LoginRefusal => {
  const seconds = Math.ceil(wait / 1000);
  return { status: 429, error: `too many attempts${what}: try again in ${seconds} s`, retryAfter: seconds };
};

/** The 429 for an address past its limit, or undefined. */
export async function addressRefusal(store: AuthStore, address: string, now: number): Promise<LoginRefusal | undefined> {
  const wait = loginWaitMs(await store.failures(address, now - LOGIN_WINDOW_MS), now);
  return wait > 0 ? tooMany(wait, '') : undefined;
}

/** The 429 for an account past its limit, or undefined. */
export async function accountRefusal(store: AuthStore, email: string, now: number): Promise<LoginRefusal | undefined> {
  const wait = loginWaitMs(await store.accountFailures(emailKey(email), now - ACCOUNT_WINDOW_MS), now, ACCOUNT_MAX_FAILURES, ACCOUNT_WINDOW_MS);
  return wait > 0 ? tooMany(wait, ' for this email') : undefined;
}

/**
 * The user an email and password sign in, or the refusal. The address is checked first, then the account; a wrong
 * password counts against both, a good one forgets both and stamps the user's last sign-in.
 */
export async function checkPasswordLogin(
  { store, users, passwordCost }: { store: AuthStore; users: UserStore; passwordCost?: PasswordCost },
  { address, email, password, now }: { address: string; email: string; password: string; now: number },
): Promise<User | LoginRefusal> {
  const refused = (await addressRefusal(store, address, now)) ?? (await accountRefusal(store, email, now));
  if (refused) return refused;
  const found = await users.byEmail(email);
  if (!(await verifyPassword(password, found?.passwordHash, passwordCost)) || !found) {
    await store.failed(address, now);
    await store.accountFailed(emailKey(email), now);
    return { status: 401, error: 'wrong email or password' };
  }
  await store.succeeded(address);
  await store.accountSucceeded(emailKey(email));
  await users.signedIn(found.user.id, now);
  return found.user;
}
