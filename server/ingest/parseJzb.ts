/**
 * Decodes a jzb parameter for the collector, with a 4xx that says exactly what is wrong with it.
 * spec: wire-protocol.md "jzb" — base64url without padding, of a zlib stream (RFC 1950), of UTF-8 JSON.
 */
import { decodeJzb, fromBase64Url } from '../../shared/wire/jzb';
import { HttpError } from '../HttpError';
import { SERVER_LIMITS } from './SERVER_LIMITS';

/**
 * Returns the payload a jzb holds. Throws an `HttpError`: 400 when the jzb is missing, not base64url, not a
 * zlib stream, or not JSON; 413 when it is longer than the send silo.
 * @param value the raw query or body value (a repeated query parameter arrives as an array)
 * @param name the parameter's name, used in messages
 */
export function parseJzb(value: unknown, name = 'jzb'): unknown {
  if (value === undefined || value === null || value === '') {
    throw new HttpError(400, `${name} is missing: it must hold the base64url zlib-compressed JSON payload`);
  }
  if (typeof value !== 'string') throw new HttpError(400, `${name} must be one string`);
  if (value.length > SERVER_LIMITS.maxJzbLength) {
    throw new HttpError(413, `${name} is ${value.length} characters, over the limit of ${SERVER_LIMITS.maxJzbLength}`);
  }
  // The staged checks below only choose the message; decodeJzb (the agent's own codec) does the decoding,
  // so the collector accepts exactly what the agent produces.
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(value);
  } catch {
    throw new HttpError(400, `${name} is not base64url: only A-Z a-z 0-9 - _ are allowed, without = padding`);
  }
  if (!hasZlibHeader(bytes)) {
    // spec: wire-protocol.md "jzb" — raw deflate (and gzip) are not accepted.
    throw new HttpError(400, `${name} is not a zlib stream: it lacks the RFC 1950 header (raw deflate and gzip are not accepted)`);
  }
  try {
    return decodeJzb(value);
  } catch (err) {
    const message = (err as Error).message;
    if (message.includes('JSON')) throw new HttpError(400, `${name} is not JSON: the inflated bytes do not parse as JSON`);
    throw new HttpError(400, `${name} is not a zlib stream: ${message}`);
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
