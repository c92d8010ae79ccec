/**
 * Signed metadata (spec: analytics §3 "jwt and signingKeyName", §4 "if signed metadata is required and
 * invalid, the action is refused; if enabled but not used, unsigned metadata is used", §5 shape rules).
 * Only the shape is checked here; the signature is the server's to verify.
 */
import { MESSAGES } from '../messages';

/** Signed-metadata fields as sent with beacons and guide requests. */
export interface SignedMetadataAuth {
  jwt: string;
  signingKeyName: string;
}

/** Result of {@link checkSignedMetadata}: usable (with `auth` when both fields were given) or an error. */
export type SignedMetadataCheck = { ok: true; auth?: SignedMetadataAuth } | { ok: false; error: string };

/** How signed metadata is configured: required, enabled (used when valid) or off. */
export type SignedMetadataMode = 'required' | 'enabled' | 'off';

/** What to do with an action that carries metadata. */
export type MetadataUse =
  | { use: 'signed'; auth: SignedMetadataAuth }
  /** `error` says why signed metadata was not used when it was given but invalid. */
  | { use: 'unsigned'; error?: string }
  | { use: 'refuse'; error: string };

/**
 * One part of a compact JWS: base64url without padding (RFC 7515 §2, which forbids `=`), so a trailing
 * `=` is refused rather than guessed at. A length of 4n+1 decodes to no whole byte and is refused too.
 */
const BASE64URL_PART = /^[A-Za-z0-9_-]+$/;

function isBase64UrlPart(part: string): boolean {
  return BASE64URL_PART.test(part) && part.length % 4 !== 1;
}

/** Not given: `undefined`, `null` or `''`. Anything else was given and must then be valid. */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * Checks the shape of signed metadata (spec: analytics §5). Neither field given: ok without `auth`.
 * One without the other: `MESSAGES.jwtWithoutSigningKeyName` / `MESSAGES.signingKeyNameWithoutJwt`.
 * The jwt must be a string of three dot-separated, non-empty, URL-safe base64 parts (A-Z a-z 0-9 - _, no
 * padding, no spaces; an empty signature, as in an unsecured `alg: none` token, is refused), else
 * `MESSAGES.invalidJwt`. The signingKeyName must be a string that is not only whitespace, else
 * `MESSAGES.invalidSigningKeyName`. Values are not trimmed: they are passed to the server as given.
 */
export function checkSignedMetadata(input: { jwt?: unknown; signingKeyName?: unknown }): SignedMetadataCheck {
  const { jwt, signingKeyName } = input;
  const noJwt = isAbsent(jwt);
  const noKey = isAbsent(signingKeyName);
  if (noJwt && noKey) return { ok: true };
  // spec: analytics §5 — jwt without signingKeyName fails; signingKeyName without jwt fails.
  if (noKey) return { ok: false, error: MESSAGES.jwtWithoutSigningKeyName };
  if (noJwt) return { ok: false, error: MESSAGES.signingKeyNameWithoutJwt };
  // spec: analytics §5 — three dot-separated URL-safe base64 parts.
  if (typeof jwt !== 'string') return { ok: false, error: MESSAGES.invalidJwt };
  const parts = jwt.split('.');
  if (parts.length !== 3 || !parts.every(isBase64UrlPart)) return { ok: false, error: MESSAGES.invalidJwt };
  if (typeof signingKeyName !== 'string' || signingKeyName.trim() === '') {
    return { ok: false, error: MESSAGES.invalidSigningKeyName };
  }
  return { ok: true, auth: { jwt, signingKeyName } };
}

/**
 * Whether an action goes with signed metadata, unsigned metadata, or not at all (spec: analytics §4):
 * - valid signed metadata in mode `required` or `enabled` -> `signed`;
 * - `required` with invalid or missing signed metadata -> `refuse` (missing: `MESSAGES.signedMetadataRequired`);
 * - `enabled` with missing or invalid signed metadata -> `unsigned` (with the check's error when invalid);
 * - `off` -> `unsigned`, whatever was given.
 */
export function decideMetadataUse(mode: SignedMetadataMode, check: SignedMetadataCheck): MetadataUse {
  if (mode === 'off') return { use: 'unsigned' };
  if (check.ok && check.auth) return { use: 'signed', auth: check.auth };
  if (mode === 'required') return { use: 'refuse', error: check.ok ? MESSAGES.signedMetadataRequired : check.error };
  return check.ok ? { use: 'unsigned' } : { use: 'unsigned', error: check.error };
}
