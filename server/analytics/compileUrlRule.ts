/**
 * A page's URL rule (issue #35 "Features and pages, retroactive"), compiled once into a test of stored addresses.
 * The syntax is the original agent's page rules (wildcards, "ignore after", path parameters, query parameters), in
 * the subset below; nothing in shared/ or server/ matched URLs by such rules before (guides carry a regexUrlRule,
 * a plain regular expression), so this is the one matcher.
 *
 * - `https://app.example.com/reports`: that scheme and host (host without case, as URLs have it; the port included
 *   when the address has one); `//app.example.com/reports`: any scheme; `/reports`: that path on any host; a `*` in
 *   the host is any run of characters (`//*` then a path: any host, the original agent's default).
 * - `*` in a path is any run of characters within one segment (never `/`); `**` any run, `/` included; a path
 *   ending in `/**` is that path and everything under it ("ignore after": `/users/**` counts `/users` too).
 * - `:name`, a whole segment, is a path parameter: one non-empty segment (`/accounts/:id/settings`). Its name is
 *   kept for a later breakdown by value; it matches as a one-segment wildcard.
 * - A trailing `/` is optional on both sides: `/reports` is `/reports/`.
 * - `?a&b=c`: the address has a parameter `a` (any value) and `b` equal to `c` (`*` within a value is a wildcard),
 *   in any order, other parameters allowed. A rule without `?` ignores the query.
 * - `#frag`: the address's fragment matches `frag` (read like a path: `#/reports/:id`). A rule without `#` ignores
 *   the fragment.
 * - `\` before a character makes it literal: `/files/\*` is the path `/files/*`, `/wiki/\:Main` the segment `:Main`.
 *   (A URL's path never holds a `\`: the URL parser reads it as `/`. The designer writes a page's own path so.)
 *
 * Addresses are read by the WHATWG URL parser (the browser's own reading: host lower case, path percent-encoded);
 * the rule's literal path text is percent-encoded the same way, so `/café` matches `/caf%C3%A9`. An address that
 * does not parse as an absolute URL matches no rule. Hosts are compared as written in the rule (an internationalized
 * host must be written in its ASCII form, `xn--...`).
 */

/** The longest rule, in characters. */
export const MAX_URL_RULE_LENGTH = 2000;

/** A compiled rule: `matches(url)` for a stored address. */
export interface UrlRule {
  matches(url: string): boolean;
}

/** Characters the URL parser percent-encodes in a path (WHATWG "path percent-encode set", and above U+007E). */
const PATH_ENCODED = /[\u{0}-\u{20}"<>`{}\u{7f}-\u{10ffff}]/gu;
/** The same for a fragment ("fragment percent-encode set"). */
const FRAGMENT_ENCODED = /[\u{0}-\u{20}"<>`\u{7f}-\u{10ffff}]/gu;
const SCHEME = /^([a-z][a-z0-9+.-]*):(?=\/\/)/i;
const PARAMETER = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * One piece of a pattern: literal text, `*` (any run without `/`), `**` (any run), or a path parameter (a run of
 * one character or more without `/`).
 */
type Piece = { text: string } | 'STAR' | 'GLOBSTAR' | 'PARAM';
const SLASH: Piece = { text: '/' };

/**
 * `text`'s pieces onto `pieces`: `\c` the character c itself, `**` GLOBSTAR, `*` `star`, the rest literal (as
 * `encode` writes it).
 */
function wildcardPieces(text: string, star: Piece, encode: (literal: string) => string, pieces: Piece[]): void {
  let literal = '';
  const flush = () => {
    if (literal) pieces.push({ text: encode(literal) });
    literal = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) literal += text[++i];
    else if (c !== '*') literal += c;
    else {
      flush();
      const double = text[i + 1] === '*';
      if (double) i++;
      pieces.push(double ? 'GLOBSTAR' : star);
    }
  }
  flush();
}

/**
 * A path-like pattern (a path or a fragment) in pieces: `**` anything, `*` within a segment, `:name` one non-empty
 * segment, `\c` a literal c, the rest literal (percent-encoded as the URL parser would).
 */
function pathPieces(pattern: string, encoded: RegExp): Piece[] {
  const pieces: Piece[] = [];
  const encode = (literal: string) => literal.replace(encoded, (c) => encodeURIComponent(c));
  pattern.split('/').forEach((segment, i) => {
    if (i > 0) pieces.push(SLASH);
    if (PARAMETER.test(segment)) pieces.push('PARAM');
    else wildcardPieces(segment, 'STAR', encode, pieces);
  });
  return pieces;
}

/** Text with `*` as any run of characters and `\c` a literal c (a host, a query value). */
function anyPieces(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  wildcardPieces(pattern, 'GLOBSTAR', (literal) => literal, pieces);
  return pieces;
}

/**
 * Whether `text` is matched by `pieces` as a whole. The positions reachable after each piece are kept as a set
 * (an NFA walked breadth first): time is pieces × length whatever the rule, where a regular expression with many
 * wildcards backtracks exponentially on a long address that almost matches.
 */
function matchPieces(pieces: readonly Piece[], text: string): boolean {
  let reach = new Uint8Array(text.length + 1);
  reach[0] = 1;
  for (const piece of pieces) {
    const next = new Uint8Array(text.length + 1);
    let any = false;
    if (typeof piece === 'object') {
      const literal = piece.text;
      for (let p = 0; p + literal.length <= text.length; p++) {
        if (reach[p] && text.startsWith(literal, p)) {
          next[p + literal.length] = 1;
          any = true;
        }
      }
    } else {
      // Spread each reachable position forward: up to a `/` (STAR, PARAM) or the end (GLOBSTAR). `open` is the
      // earliest reachable position of the run under way, so a PARAM's one character counts from it.
      let open = -1;
      for (let p = 0; p <= text.length; p++) {
        if (reach[p] && open < 0) open = p;
        if (open < 0) continue;
        if (piece !== 'PARAM' || p > open) next[p] = 1;
        if (next[p]) any = true;
        if (piece !== 'GLOBSTAR' && text[p] === '/') open = -1;
      }
    }
    if (!any) return false;
    reach = next;
  }
  return reach[text.length] === 1;
}

/** Decodes a query's name or value as URLSearchParams does (`+` is a space); undefined when an escape is broken. */
function decodeQueryText(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** A path without its trailing `/` (`/` itself stays): `/reports/` is `/reports`. */
const withoutTrailingSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** Compiles `rule`, or answers what is wrong with it in words (for a 400 naming `rule.url`). */
export function compileUrlRule(rule: string): UrlRule | { problem: string } {
  if (rule.length === 0 || rule.length > MAX_URL_RULE_LENGTH) return { problem: `must be 1 to ${MAX_URL_RULE_LENGTH} characters` };
  if (/[\p{Cc}\p{Cs}\s]/u.test(rule)) return { problem: 'must not hold spaces or control characters' };

  let rest = rule;
  let scheme: string | undefined;
  let host: Piece[] | undefined;
  const schemeMatch = SCHEME.exec(rest);
  if (schemeMatch) {
    scheme = `${schemeMatch[1]!.toLowerCase()}:`;
    rest = rest.slice(schemeMatch[0].length);
  }
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    const hostText = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
    if (!hostText) return { problem: 'names no host after //: write //*/path for any host, or /path' };
    host = anyPieces(hostText.toLowerCase());
    rest = end < 0 ? '' : rest.slice(2 + end);
  } else if (!rest.startsWith('/')) {
    return { problem: 'must start with /, // or a scheme such as https://, e.g. //*/reports/:id' };
  }

  // The rule's own fragment first (it may hold `?`), then its query.
  const hashAt = rest.indexOf('#');
  const fragmentText = hashAt < 0 ? undefined : rest.slice(hashAt + 1);
  if (hashAt >= 0) rest = rest.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const queryText = queryAt < 0 ? undefined : rest.slice(queryAt + 1);
  const pathText = withoutTrailingSlash((queryAt < 0 ? rest : rest.slice(0, queryAt)) || '/');

  // "Ignore after": `/users/**` is `/users` and anything under it.
  const ignoreAfter = pathText.endsWith('/**');
  const path = pathPieces(ignoreAfter ? pathText.slice(0, -3) : pathText, PATH_ENCODED);
  const under: Piece[] = [...path, SLASH, 'GLOBSTAR'];
  const fragment = fragmentText === undefined ? undefined : pathPieces(fragmentText, FRAGMENT_ENCODED);

  const params: Array<{ name: string; value?: Piece[] }> = [];
  for (const pair of (queryText ?? '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeQueryText(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? undefined : decodeQueryText(pair.slice(eq + 1));
    if (name === undefined || (eq >= 0 && value === undefined)) return { problem: `has a query parameter whose percent-escapes do not decode: ${pair.slice(0, 60)}` };
    params.push({ name, ...(value === undefined ? {} : { value: anyPieces(value) }) });
  }

  return {
    matches(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (scheme && parsed.protocol !== scheme) return false;
      if (host && !matchPieces(host, parsed.host)) return false;
      const pathname = withoutTrailingSlash(parsed.pathname);
      if (!matchPieces(path, pathname) && !(ignoreAfter && matchPieces(under, pathname))) return false;
      if (fragment && !matchPieces(fragment, parsed.hash.slice(1))) return false;
      const search = parsed.searchParams;
      for (const { name, value } of params) {
        if (!search.has(name)) return false;
        if (value && !search.getAll(name).some((v) => matchPieces(value, v))) return false;
      }
      return true;
    },
  };
}
