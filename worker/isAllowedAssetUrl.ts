/**
 * The origin check of guide script and style URLs (spec: guides §5 "Script and style URLs must come from
 * allowed origins"; §8 "Unparseable URL: 'unable to parse ...'").
 *
 * In worker/, not shared/: shared/ compiles without `URL`, and an origin check must parse a URL exactly as
 * the browser that loads it will (backslashes, `@` in the authority, tabs and newlines, IDNA, default
 * ports). A hand-written parser that disagrees with WHATWG `URL` in one corner is a way around the check.
 * The worker holds the allowed origins (`GuideSettings.allowedOrigins`) and decides; the side that loads
 * the asset loads the `href` returned here, never the string it started from.
 */
import { MESSAGES } from '../shared/messages';

/** Result of {@link isAllowedAssetUrl}: the resolved URL to load, or why not. */
export type AssetUrlCheck = { ok: true; href: string } | { ok: false; message: string };

/**
 * Resolves `url` against `base` and allows it only when it is http or https and its origin equals the
 * origin of one of `allowedOrigins` (spec: guides §5). Allowed entries are compared as origins: scheme and
 * host lower-cased, a default port dropped, any path or trailing slash ignored
 * (`'https://cdn.example:443/x/'` allows `https://cdn.example`); an entry that is not an http(s) URL
 * allows nothing. The caller adds the content host, which the protocol says is always allowed.
 * Fails with `MESSAGES.unableToParse(url)` for a blank or unparseable URL (or a relative one against an
 * unparseable base), and otherwise with a message naming the offending scheme or origin and the allowed list.
 */
export function isAllowedAssetUrl(url: string, base: string, allowedOrigins: readonly string[]): AssetUrlCheck {
  // '' would resolve to the base itself: a missing URL, not a reference to the base.
  const resolved = url.trim() === '' ? null : parseUrl(url, base);
  if (!resolved) return { ok: false, message: MESSAGES.unableToParse(url) };
  if (!isHttp(resolved)) {
    return { ok: false, message: `Asset URL ${url} is not http or https: scripts and styles load only from allowed origins` };
  }
  const allowed = allowedOriginsOf(allowedOrigins);
  if (!allowed.includes(resolved.origin)) {
    const list = allowed.length ? allowed.join(', ') : 'none';
    return { ok: false, message: `Asset origin ${resolved.origin} of ${resolved.href} is not allowed; allowed origins: ${list}` };
  }
  return { ok: true, href: resolved.href };
}

/** The distinct origins of the http(s) entries, in the order given. */
function allowedOriginsOf(entries: readonly string[]): string[] {
  const origins: string[] = [];
  for (const entry of entries) {
    const parsed = parseUrl(entry);
    if (parsed && isHttp(parsed) && !origins.includes(parsed.origin)) origins.push(parsed.origin);
  }
  return origins;
}

/**
 * `url` against `base` exactly as a document with that base resolves it (so `https:x` against an https
 * base is a path, as the browser reads it); against no base, or an unparseable one, only an absolute URL parses.
 */
function parseUrl(url: string, base?: string): URL | null {
  if (base !== undefined) {
    try {
      return new URL(url, base);
    } catch {
      // The base did not parse, or neither did the URL against it: try the URL alone.
    }
  }
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}
