/**
 * The URL check (analytics §1 console tools, "URL check"): what the agent sends as the page's address and what
 * in it deserves a URL transform or a page rule written with care. The words are ours. Pure.
 */
import type { Finding } from '../../shared/validation/finding';

/** Query keys that usually carry a secret or a person. */
const SENSITIVE_KEY = /^(?:.*(?:token|secret|password|passwd|pwd|auth|session|apikey|api_key|signature|sig)|key|code|email|e-mail|phone|ssn)$/i;
const EMAIL = /[^\s@/?#&=]+@[^\s@/?#&=]+\.[a-z]{2,}/i;
/** Path segments that are ids: numbers, UUIDs, long hex. */
const ID_SEGMENT = /^(?:\d{2,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i;
/** Beyond this an address crowds the beacon (wire-protocol.md: a GET's jzb stays within 1900 characters). */
export const LONG_URL = 1000;

/** `sent`: the address as the agent reports it (custom URL source and host transforms applied). */
export function urlFindings(sent: string, options: { hasUrlTransforms: boolean }): Finding[] {
  const out: Finding[] = [{ level: 'info', message: `the agent sends: ${sent}` }];
  let url: URL;
  try {
    url = new URL(sent);
  } catch {
    out.push({ level: 'error', message: 'it is not an absolute URL', advice: 'A custom URL source (initialize url) must answer an absolute http(s) address.' });
    return out;
  }
  if (!/^https?:$/.test(url.protocol)) {
    out.push({ level: 'warn', message: `it is a ${url.protocol} address`, advice: 'Page rules and guide.json expect http(s) pages: serve the app over http(s).' });
  }
  const sensitive = [...url.searchParams.keys()].filter((k) => SENSITIVE_KEY.test(k));
  if (sensitive.length) {
    out.push({
      level: 'warn',
      message: `its query has ${sensitive.map((k) => `"${k}"`).join(', ')}, which usually carr${sensitive.length > 1 ? 'y' : 'ies'} a secret or a person`,
      advice: options.hasUrlTransforms
        ? 'Check that your urlTransforms remove them: the worker applies them before anything is sent.'
        : `Remove them before they are sent: initialize({ urlTransforms: [{ attr: 'search', action: 'ExcludeKeys', data: [${sensitive.map((k) => `'${k}'`).join(', ')}] }] }).`,
    });
  }
  if (EMAIL.test(decodeURIComponentSafe(url.pathname + url.search + url.hash))) {
    out.push({ level: 'warn', message: 'it holds an email address', advice: 'Keep people out of addresses, or remove it with urlTransforms or a privacy filter.' });
  }
  const ids = url.pathname.split('/').filter((s) => ID_SEGMENT.test(s));
  if (ids.length) {
    out.push({ level: 'info', message: `its path has ids (${ids.join(', ')})`, advice: 'Page rules of guides should match any id here, e.g. /projects/[^/]+/settings, not this one.' });
  }
  if (/^#!?\//.test(url.hash)) {
    out.push({ level: 'info', message: 'the app routes by its hash', advice: 'The hash is part of the address the agent sends: page rules can and must include it.' });
  }
  if (sent.length > LONG_URL) {
    out.push({ level: 'warn', message: `it is ${sent.length} characters long`, advice: "Long addresses crowd every event: drop parameters the console does not need (urlTransforms, action 'ExcludeKeys' or 'AllowOnlyKeys')." });
  }
  return out;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
