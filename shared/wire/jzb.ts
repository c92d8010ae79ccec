/**
 * `jzb`: base64url (no padding) of the zlib stream (RFC 1950) of the UTF-8 JSON of a payload
 * (wire-protocol.md "jzb"). Raw deflate is not accepted by collectors built for the original agent.
 */
import { strFromU8, strToU8, unzlibSync, zlibSync } from 'fflate';

/** Base64url of bytes, without `=` padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so String.fromCharCode never gets more arguments than the engine allows.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of a base64url string; throws on characters outside the alphabet. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('jzb has characters outside the base64url alphabet');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Encodes already-serialized JSON as jzb. */
export function encodeJsonAsJzb(json: string): string {
  return toBase64Url(zlibSync(strToU8(json), { level: 6 }));
}

/** Encodes a payload as jzb. */
export function encodeJzb(payload: unknown): string {
  return encodeJsonAsJzb(JSON.stringify(payload));
}

/** Decodes jzb back to its payload; throws with a clear message on anything malformed. */
export function decodeJzb(jzb: string): unknown {
  let inflated: Uint8Array;
  try {
    inflated = unzlibSync(fromBase64Url(jzb));
  } catch (err) {
    throw new Error(`jzb is not a base64url zlib stream: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(strFromU8(inflated));
  } catch {
    throw new Error('jzb does not hold JSON');
  }
}
