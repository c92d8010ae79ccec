/**
 * Where a single sign-on lands (issue #33): a page of the console, as a path of this server, never an absolute URL
 * (an open redirect would let a link of ours send someone, signed in, to a page of anyone's choosing).
 */

/** Where a sign-in lands when the asked place is absent or not a console page. */
export const SSO_DEFAULT_RETURN = '/console/';
/** Longest return path kept. */
const MAX_RETURN_LENGTH = 2048;

/**
 * The console path a sign-in returns to: `asked` parsed against a placeholder origin and kept only when it stays
 * on that origin and under /console/ once dot segments are resolved (`/console/../..//evil.example` is
 * `//evil.example`, a protocol-relative URL) and is not the login page (a loop); else /console/.
 */
export function ssoReturnPath(asked: unknown): string {
  if (typeof asked !== 'string' || !asked.startsWith('/') || asked.length > MAX_RETURN_LENGTH) return SSO_DEFAULT_RETURN;
  // Browsers read a backslash as a slash in http URLs (`/\evil.example`); control characters end no good path.
  if (/[\\\p{Cc}]/u.test(asked)) return SSO_DEFAULT_RETURN;
  let url: URL;
  try {
    url = new URL(asked, 'http://console.invalid');
  } catch {
    return SSO_DEFAULT_RETURN;
  }
  if (url.origin !== 'http://console.invalid' || !url.pathname.startsWith('/console/') || url.pathname.startsWith('/console/login')) return SSO_DEFAULT_RETURN;
  return url.pathname + url.search + url.hash;
}
