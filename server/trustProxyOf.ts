/**
 * WAYMARK_TRUST_PROXY (issue #31): whom the server believes about X-Forwarded-Proto, -Host and -For, read into
 * Fastify's `trustProxy` option. Trusted, they become `request.protocol`, `request.host` and `request.ip`: the
 * session cookie's Secure flag, the console's own origin and the login limiter's client address.
 */
import { isIP } from 'node:net';

/** Fastify's `trustProxy` forms this server uses: none, proxy addresses and ranges, or a test of each hop. */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * Trusts the peer the request came from (hop 0) and no one behind it: `request.ip` is then the address that peer
 * saw, the last one of X-Forwarded-For, which a client cannot choose by sending X-Forwarded-For itself.
 * Fastify's own `true` would trust every hop (the first address a client wrote), and its number form is refused
 * by Fastify 5 (it trusts nothing), hence a function.
 */
export function trustFirstHop(_address: string, hop: number): boolean {
  return hop === 0;
}

/** The range names @fastify/proxy-addr expands (loopback: 127.0.0.1/8 and ::1; linklocal; uniquelocal: RFC 1918, fc00::/7). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The `trustProxy` of a WAYMARK_TRUST_PROXY value: unset, empty, `0` or `false` trust no one (X-Forwarded-*
 * ignored); `1` or `true` the first hop (trustFirstHop); else a comma-separated list of proxy addresses, CIDR
 * ranges and range names, whose requests are believed hop by hop. Throws, naming the variable, on anything else.
 */
export function trustProxyOf(text: string | undefined): TrustProxy {
  const value = (text ?? '').trim();
  if (/^(?:|0|false)$/i.test(value)) return false;
  if (/^(?:1|true)$/i.test(value)) return trustFirstHop;
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isProxyRange(entry));
  if (bad !== undefined) {
    throw new Error(
      'WAYMARK_TRUST_PROXY must be 1 or true (trust the first hop), 0 or false (trust none), or a comma-separated list ' +
        `of proxy addresses or CIDR ranges such as 10.0.0.5,192.168.0.0/16; got '${text}' ('${bad}' is none of these)`,
    );
  }
  return entries;
}

/** An address, an address/prefix (1 to 32 or 128 bits: /0 would trust every client) or a range name. */
function isProxyRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const slash = entry.lastIndexOf('/');
  const version = isIP(slash === -1 ? entry : entry.slice(0, slash));
  if (version === 0) return false;
  if (slash === -1) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
}
