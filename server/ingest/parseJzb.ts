/**
 * Decodes a jzb parameter for the collector, with a 4xx that says exactly what is wrong with it.
 * spec: wire-protocol.md "jzb" — base64url without padding, of a zlib stream (RFC 1950), of UTF-8 JSON.
 *
 * The server's own decoder (node:zlib), not the agent's codec in shared/wire/jzb.ts: it inflates with an output cap
 * (`SERVER_LIMITS.maxInflatedJzbBytes`) and stops there, chunk by chunk, so a small jzb that would inflate to
 * megabytes costs no more than the cap (issue #31). It also checks the stream's Adler-32, which both agents write.
 */
import { inflateSync } from 'node:zlib';
import { fromBase64Url } from '../../shared/wire/jzb';
import { HttpError } from '../HttpError';
import { SERVER_LIMITS } from './SERVER_LIMITS';

/** UTF-8 as the agent's codec reads it (a byte-order mark dropped, a broken sequence read as U+FFFD). */
const UTF8 = new TextDecoder();

/**
 * Returns the payload a jzb holds. Throws an `HttpError` naming `name` as its field: 400 when the jzb is missing,
 * not base64url, not a zlib stream, or not JSON; 413 when it is longer than the send silo or inflates to more than
 * `SERVER_LIMITS.maxInflatedJzbBytes`.
 * @param value the raw query or body value (a repeated query parameter arrives as an array)
 * @param name the parameter's name, used in messages
 */
export function parseJzb(value: unknown, name = 'jzb'): unknown {
  if (value === undefined || value === null || value === '') {
    throw new HttpError(400, `${name} is missing: it must hold the base64url zlib-compressed JSON payload`, name);
  }
  if (typeof value !== 'string') throw new HttpError(400, `${name} must be one string`, name);
  if (value.length > SERVER_LIMITS.maxJzbLength) {
    throw new HttpError(413, `${name} is ${value.length} characters, over the limit of ${SERVER_LIMITS.maxJzbLength}`, name);
  }
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(value);
  } catch {
    throw new HttpError(400, `${name} is not base64url: only A-Z a-z 0-9 - _ are allowed, without = padding`, name);
  }
  if (!hasZlibHeader(bytes)) {
    // spec: wire-protocol.md "jzb" — raw deflate (and gzip) are not accepted.
    throw new HttpError(400, `${name} is not a zlib stream: it lacks the RFC 1950 header (raw deflate and gzip are not accepted)`, name);
  }
  let inflated: Buffer;
  try {
    inflated = inflateSync(bytes, { maxOutputLength: SERVER_LIMITS.maxInflatedJzbBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(
        413,
        `${name} inflates to more than ${SERVER_LIMITS.maxInflatedJzbBytes} bytes (2 MB), the limit of one payload`,
        name,
      );
    }
    throw new HttpError(400, `${name} is not a zlib stream: ${(err as Error).message}`, name);
  }
  try {
    return JSON.parse(UTF8.decode(inflated));
  } catch {
    throw new HttpError(400, `${name} is not JSON: the inflated bytes do not parse as JSON`, name);
  }
}

/**
 * RFC 1950 §2.2: CM = 8 (deflate), CINFO <= 7, the 16-bit header a multiple of 31, and no preset dictionary
 * (a jzb never uses one, and an inflater could not decode it without the dictionary).
 */
function hasZlibHeader(bytes: Uint8Array): boolean {
  if (bytes.length < 2) return false;
  const [cmf, flg] = [bytes[0], bytes[1]];
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && (flg & 0x20) === 0;
}
