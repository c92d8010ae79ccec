/**
 * Verifies fetched guide content against its expected hash before anything renders (spec: guides §5
 * "Guide content and resource hashes (domHash, domJsonpHash, contentHash, contentJsHash) must verify, by a
 * SHA digest in base64 or by integrity query parameters (sha256, sha384, sha512)"; §8 "Content hash
 * mismatch: 'Unable to verify content at ...'; the guide is marked failed").
 */
import { MESSAGES } from '../shared/messages';

/** The SHA digests content may be verified with. */
export type DigestAlgorithm = 'SHA-256' | 'SHA-384' | 'SHA-512';

/** Computes a digest; a port so tests and other runtimes can pass their own (see {@link defaultDigest}). */
export type Digest = (algorithm: DigestAlgorithm, data: Uint8Array) => Promise<ArrayBuffer>;

/** Result of {@link verifyContentHash}. */
export type ContentHashCheck = { ok: true } | { ok: false; message: string };

/** A bare digest names no algorithm: its decoded length does. */
const ALGORITHM_BY_LENGTH: Readonly<Record<number, DigestAlgorithm>> = { 32: 'SHA-256', 48: 'SHA-384', 64: 'SHA-512' };

/** SRI prefixes and URL integrity parameter names (spec: guides §5 "sha256, sha384, sha512"). */
const ALGORITHM_BY_NAME: Readonly<Record<string, DigestAlgorithm>> = { sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' };

const DIGEST_LENGTH: Readonly<Record<DigestAlgorithm, number>> = { 'SHA-256': 32, 'SHA-384': 48, 'SHA-512': 64 };

/** Standard or URL-safe base64 alphabet, padding optional. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** `sha256-<b64>`, as in Subresource Integrity metadata. */
const SRI = /^(sha256|sha384|sha512)-(.+)$/i;

interface ExpectedDigest {
  algorithm: DigestAlgorithm;
  bytes: Uint8Array;
}

/**
 * Checks `bytes` (the content as fetched from `url`) against every hash given for it (spec: guides §5):
 * - `expected`, one of: a SHA digest in base64 (standard or base64url, padding optional) whose decoded
 *   length (32, 48 or 64 bytes) says SHA-256, -384 or -512; or an SRI-style `sha256-<b64>`,
 *   `sha384-<b64>` or `sha512-<b64>`. `undefined`, or a blank string, means no expected hash;
 * - integrity query parameters on `url` itself: every `sha256=`, `sha384=` and `sha512=` present must match
 *   (values percent-decoded; a `+` stays a `+`, base64's own character).
 * All given hashes must match. None given: ok. A hash that cannot be read (not base64, the wrong length for
 * its algorithm, an empty parameter) or a digest that fails to compute cannot verify, and fails like a
 * mismatch, with exactly `MESSAGES.unableToVerifyContent(url)` (spec: guides §8).
 */
export async function verifyContentHash(bytes: Uint8Array, url: string, expected: string | undefined, digest: Digest): Promise<ContentHashCheck> {
  const failure: ContentHashCheck = { ok: false, message: MESSAGES.unableToVerifyContent(url) };
  const wanted: ExpectedDigest[] = [];
  const trimmed = expected?.trim() ?? '';
  if (trimmed !== '') {
    const parsed = parseExpectedHash(trimmed);
    if (!parsed) return failure;
    wanted.push(parsed);
  }
  const params = integrityParams(url);
  if (!params) return failure;
  for (const { algorithm, value } of params) {
    const bytesOf = decodeBase64(value);
    if (!bytesOf || bytesOf.length !== DIGEST_LENGTH[algorithm]) return failure;
    wanted.push({ algorithm, bytes: bytesOf });
  }
  if (wanted.length === 0) return { ok: true };

  // Each algorithm is computed once, however many hashes use it.
  const computed = new Map<DigestAlgorithm, Uint8Array>();
  try {
    for (const { algorithm, bytes: expectedBytes } of wanted) {
      let actual = computed.get(algorithm);
      if (!actual) {
        actual = new Uint8Array(await digest(algorithm, bytes));
        computed.set(algorithm, actual);
      }
      if (!equalBytes(actual, expectedBytes)) return failure;
    }
  } catch {
    // No digest (for example no crypto.subtle outside a secure context): the content cannot be verified.
    return failure;
  }
  return { ok: true };
}

/**
 * The platform digest, `crypto.subtle.digest`. Rejects where there is none: `crypto.subtle` exists only
 * in secure contexts (https or localhost), so content with a hash cannot verify on a plain-http page.
 */
export async function defaultDigest(algorithm: DigestAlgorithm, data: Uint8Array): Promise<ArrayBuffer> {
  if (typeof crypto === 'undefined' || !crypto.subtle) throw new Error('crypto.subtle is not available');
  // The lib types want an ArrayBuffer-backed view; fetched bytes are one (a SharedArrayBuffer view rejects).
  return crypto.subtle.digest(algorithm, data as Uint8Array<ArrayBuffer>);
}

/** A bare base64 digest or an SRI-style one, else null. */
function parseExpectedHash(text: string): ExpectedDigest | null {
  const sri = SRI.exec(text);
  if (sri) {
    const algorithm = ALGORITHM_BY_NAME[sri[1]!.toLowerCase()]!;
    const bytes = decodeBase64(sri[2]!);
    return bytes && bytes.length === DIGEST_LENGTH[algorithm] ? { algorithm, bytes } : null;
  }
  const bytes = decodeBase64(text);
  const algorithm = bytes ? ALGORITHM_BY_LENGTH[bytes.length] : undefined;
  return bytes && algorithm ? { algorithm, bytes } : null;
}

/**
 * The integrity parameters in the query of `url` (before any `#`), in order; null when one of them does
 * not percent-decode. Read by hand rather than with URLSearchParams, which would turn base64's `+` into
 * a space.
 */
function integrityParams(url: string): Array<{ algorithm: DigestAlgorithm; value: string }> | null {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const queryAt = beforeHash.indexOf('?');
  if (queryAt < 0) return [];
  const found: Array<{ algorithm: DigestAlgorithm; value: string }> = [];
  for (const pair of beforeHash.slice(queryAt + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq >= 0 ? pair.slice(0, eq) : pair;
    // Own keys only: a parameter named `constructor` must not find Object.prototype's.
    if (!Object.hasOwn(ALGORITHM_BY_NAME, name)) continue;
    const value = percentDecode(eq >= 0 ? pair.slice(eq + 1) : '');
    if (value === null) return null;
    found.push({ algorithm: ALGORITHM_BY_NAME[name]!, value });
  }
  return found;
}

function percentDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Standard or URL-safe base64, padding optional; null when it is not base64 or decodes to nothing. */
function decodeBase64(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const body = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  // 4n+1 characters hold no whole byte.
  if (body.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(body + '='.repeat((4 - (body.length % 4)) % 4));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Equal lengths and every byte equal, looking at every byte whatever the first difference. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * The Subresource Integrity metadata of an expected hash (`sha256-<standard base64>`), for content the page
 * loads itself (a step's script): the browser then refuses a script that does not match. Undefined for no
 * hash or one that cannot be read.
 */
export function sriOf(expected: string | undefined): string | undefined {
  if (!expected?.trim()) return undefined;
  const parsed = parseExpectedHash(expected.trim());
  if (!parsed) return undefined;
  let binary = '';
  for (const byte of parsed.bytes) binary += String.fromCharCode(byte);
  return `${parsed.algorithm.replace('SHA-', 'sha')}-${btoa(binary)}`;
}
