/**
 * Users' passwords (issue #33): their rule, and their hash with node:crypto's scrypt (RFC 7914), a random salt per
 * password and the parameters stored beside it, so a later release can raise the cost and still read older hashes.
 * Nothing here is cryptography of our own: scrypt derives, timingSafeEqual compares.
 *
 * Stored as `scrypt$N$r$p$salt$key` (salt and key base64url). N = 2^15, r = 8, p = 1: 32 MiB and about 0.1-0.2 s
 * of one core per hash, run on libuv's thread pool, never on the event loop. Passwords are bounded to 1024
 * characters before anything hashes them, and logins are limited per address and per account before a hash is
 * computed (registerLoginRoutes), so a client cannot buy much of the server's CPU or memory with them.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** At least this many characters (code points). */
export const PASSWORD_MIN_LENGTH = 12;
/** At most this many (UTF-16 units): scrypt's input is bounded, so is the work a request can ask for. */
export const PASSWORD_MAX_LENGTH = 1024;

/** scrypt's cost parameters (RFC 7914 §2): N (a power of 2), r, p. */
export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}

/** The cost of every new hash in production. */
export const PASSWORD_COST: PasswordCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** The most a stored hash may ask for (N ≤ 2^20, r ≤ 32, p ≤ 16): a damaged row cannot make a login take minutes. */
const MAX_COST = { N: 2 ** 20, r: 32, p: 16 };

/** The refusal of a password that breaks the rule (in words, for a 400), or undefined when it is good. */
export function passwordProblem(password: unknown, field = 'password'): string | undefined {
  if (typeof password !== 'string') return `${field} must be a string of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `${field} is too long: at most ${PASSWORD_MAX_LENGTH} characters`;
  // A lone surrogate has no UTF-8 encoding: it would be hashed as U+FFFD, so two passwords would be one.
  if (/\p{Cs}/u.test(password)) return `${field} holds a character that is not text (a lone UTF-16 surrogate)`;
  if ([...password].length < PASSWORD_MIN_LENGTH) return `${field} is too short: at least ${PASSWORD_MIN_LENGTH} characters`;
  return undefined;
}

const derive = (password: string, salt: Buffer, cost: PasswordCost, keyBytes = KEY_BYTES) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
    // NFC: the same password typed on two systems (é as one code point or as e + accent) is one password.
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/**
 * The stored form of a password that passed passwordProblem. `cost` other than the default is for tests only
 * (ServerOptions.passwordCost): the hash carries it, so it is verified as it was made.
 */
export async function hashPassword(password: string, cost: PasswordCost = PASSWORD_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. Without a stored hash (an
 * unknown email, an invitation not yet accepted) a hash is still computed, against a throw-away one, so the
 * answer takes as long whether the account exists or not (the throw-away hash at `cost`, that of the server's new
 * hashes); the answer is then false.
 */
export async function verifyPassword(password: string, stored: string | null | undefined, cost: PasswordCost = PASSWORD_COST): Promise<boolean> {
  const parsed = stored ? parseHash(stored) : undefined;
  const target = parsed ?? { ...cost, salt: randomBytes(SALT_BYTES), key: randomBytes(KEY_BYTES) };
  const key = await derive(password, target.salt, target, target.key.length);
  return timingSafeEqual(key, target.key) && parsed !== undefined;
}

/** The parts of a stored hash, or undefined when it is not one this code wrote (or asks for too much). */
function parseHash(stored: string): (PasswordCost & { salt: Buffer; key: Buffer }) | undefined {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const whole = (value: number, max: number) => Number.isSafeInteger(value) && value >= 1 && value <= max;
  if (!whole(cost.N, MAX_COST.N) || (cost.N & (cost.N - 1)) !== 0 || !whole(cost.r, MAX_COST.r) || !whole(cost.p, MAX_COST.p)) return undefined;
  const bytes = Buffer.from(key, 'base64url');
  if (bytes.length < 16 || bytes.length > 64) return undefined;
  return { ...cost, salt: Buffer.from(salt, 'base64url'), key: bytes };
}
