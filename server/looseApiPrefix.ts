/**
 * How loosely a request's URL text may be read, and what for (issue #31): only to refuse more. Access is decided
 * on the matched route (server/auth); this reading serves the answers that have no route to read: the static
 * catch-all never serves the demo page for what reads as /api or /data, the not-found answer says 401 rather than
 * 404 for an /api path without credentials, and CORS headers go on those answers.
 */

/**
 * The path a raw request target names once it is read as loosely as any router or proxy might: absolute-form
 * scheme and host dropped, percent-escapes decoded, `;` parameters and repeated slashes removed, lower case.
 * Used only to refuse more (a path that looks like /api or /data never falls through to the static files or the
 * demo page), never to let a request in.
 */
export function looseApiPrefix(url: string): '/api' | '/data' | undefined {
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0] ?? '';
  for (let i = 0; i < 3 && path.includes('%'); i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      path = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  }
  path = path.replace(/\\/g, '/').replace(/;[^/]*/g, '').replace(/\/{2,}/g, '/').toLowerCase();
  const match = /^\/(api|data)(?:\/|$)/.exec(path);
  return match ? (`/${match[1]}` as '/api' | '/data') : undefined;
}
