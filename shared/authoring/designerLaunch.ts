/**
 * A designer launch and its token (guides §2 Designer, URL triggers; §5 validation; §6 Author). Pure: the page's
 * facts come in as arguments, the logs go out as lines, so the rules are tested without a browser.
 *
 * The token is the designer URL parameter's value (and what an opener's set-token message carries): base64url
 * of a JSON object naming the designer's host, bucket and target, the console's base URL, and flags. Invalid
 * host, bucket or target fall back, each with a log line; a token that is not base64url JSON is refused.
 */

/** spec: guides §5 — the designer buckets; anything else falls back to the first. */
export const DESIGNER_BUCKETS = ['in-app-designer', 'da-designer', 'adopt-studio'] as const;
/** spec: guides §5 — the named designer targets (or a semantic version). */
export const DESIGNER_TARGETS = ['latest', 'strict', 'beta', 'via', 'mobile'] as const;
/** At most this many designer plugins load into one designer (a token is a link: it may not make a page load hundreds). */
export const MAX_DESIGNER_PLUGINS = 10;
/** The designer URL parameter (guides §2 URL triggers: "its name is not spelled here"; ours). */
export const DESIGNER_PARAMETER = 'waymark-designer';

/** How the launch started (guides §2 Designer: Shift+Alt+7 the launch flow, Shift+Alt+8 the modal flow). */
export type LaunchFlow = 'launch' | 'modal';

export interface DesignerToken {
  /** The console (guide API) the designer saves to: an origin. */
  baseUrl: string;
  /** Where the designer comes from: a host name with an optional port. */
  host: string;
  bucket: (typeof DESIGNER_BUCKETS)[number];
  /** latest, strict, beta, via, mobile, or a semantic version such as 2.14.1 or 2.14.1-rc.2. */
  target: string;
  /** spec: guides §6 — "flags for designer type, native designer and sidebar designer". */
  designerType?: string;
  native?: boolean;
  sidebar?: boolean;
  /** spec: guides §5 — a launch in a child frame goes ahead with either. */
  allowChildFrame?: boolean;
  selectionOnly?: boolean;
  /** The guide to open (the console's "Edit in designer"); absent: a new guide. */
  guideId?: string;
  /**
   * A designer session of the console (`wmd_...`, POST /api/designer-sessions) for a console on another origin:
   * the console hands it over in its set-token message, never in the page's address.
   */
  session?: string;
  /**
   * Designer plugins to load besides the server's own (shared/authoring/designerPlugins.ts): the designer loads
   * only those on the agent's server's allow-listed path, whoever made the link.
   */
  plugins?: string[];
}

/** A launch the guides chunk has checked, handed to the authoring chunk. */
export interface DesignerLaunch {
  flow: LaunchFlow;
  via: 'shortcut' | 'url' | 'api' | 'resume' | 'opener';
  token: DesignerToken | null;
}

/** The page's facts the token is checked against. */
export interface TokenDefaults {
  /** The agent's own server origin (content host): the default base URL and host. */
  serverUrl: string;
  /** `crossOriginIsolated` of the page: strict is then the default target. */
  crossOriginIsolated: boolean;
}

const HOST = /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/i;
const SEMVER = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;
/** spec: guides §5 — "Designer token is letters, digits and hyphens, base64 JSON" (base64url also has `_`). */
const TOKEN = /^[A-Za-z0-9_-]+$/;

/** Encodes a token as the designer URL parameter carries it (the console's "Open designer" link). */
export function encodeDesignerToken(token: Partial<DesignerToken>): string {
  // UTF-8 bytes as a binary string (shared/ has no TextEncoder; the URI codec does the same).
  return btoa(unescape(encodeURIComponent(JSON.stringify(token)))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Reads a designer token: null (with a log line) when it is not base64url JSON; otherwise the token with
 * host, bucket and target checked, each invalid one replaced by its default with a log line.
 */
export function readDesignerToken(raw: string, defaults: TokenDefaults): { token: DesignerToken | null; logs: string[] } {
  const logs: string[] = [];
  let given: Record<string, unknown> | null = null;
  if (TOKEN.test(raw)) {
    try {
      const json = decodeURIComponent(escape(atob(raw.replace(/-/g, '+').replace(/_/g, '/'))));
      const value = JSON.parse(json) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) given = value as Record<string, unknown>;
    } catch {
      given = null;
    }
  }
  if (!given) {
    logs.push('invalid designer token: letters, digits and hyphens of a base64 JSON object expected');
    return { token: null, logs };
  }
  const baseUrl = httpOrigin(defaults.serverUrl) ?? defaults.serverUrl;
  const token: DesignerToken = {
    baseUrl,
    host: baseUrl.replace(/^https?:\/\//, ''),
    bucket: DESIGNER_BUCKETS[0],
    target: defaults.crossOriginIsolated ? 'strict' : 'latest',
  };
  if (given.host !== undefined) {
    if (typeof given.host === 'string' && HOST.test(given.host)) token.host = given.host;
    else logs.push(`invalid designer host ${JSON.stringify(given.host)}, using ${token.host}`);
  }
  if (given.bucket !== undefined) {
    if ((DESIGNER_BUCKETS as readonly unknown[]).includes(given.bucket)) token.bucket = given.bucket as DesignerToken['bucket'];
    else logs.push(`invalid designer bucket ${JSON.stringify(given.bucket)}, using ${token.bucket}`);
  }
  if (given.target !== undefined) {
    const t = given.target;
    if (typeof t === 'string' && ((DESIGNER_TARGETS as readonly string[]).includes(t) || SEMVER.test(t))) token.target = t;
    else logs.push(`invalid designer target ${JSON.stringify(t)}, using ${token.target}`);
  }
  if (given.baseUrl !== undefined) {
    const origin = httpOrigin(given.baseUrl);
    if (origin) token.baseUrl = origin;
    else logs.push(`invalid designer base URL ${JSON.stringify(given.baseUrl)}, using ${token.baseUrl}`);
  }
  if (typeof given.designerType === 'string') token.designerType = given.designerType;
  for (const flag of ['native', 'sidebar', 'allowChildFrame', 'selectionOnly'] as const) {
    if (given[flag] === true) token[flag] = true;
  }
  if (typeof given.guideId === 'string' && given.guideId) token.guideId = given.guideId;
  if (given.plugins !== undefined) {
    if (Array.isArray(given.plugins) && given.plugins.every((p) => typeof p === 'string')) token.plugins = given.plugins.slice(0, MAX_DESIGNER_PLUGINS) as string[];
    else logs.push('invalid designer plugins in the token: a list of module paths expected');
  }
  if (given.session !== undefined) {
    if (typeof given.session === 'string' && /^wmd_[A-Za-z0-9_-]{20,}$/.test(given.session)) token.session = given.session;
    else logs.push('invalid designer session in the token: sign in from the designer instead');
  }
  return { token, logs };
}

/** The origin of an absolute http(s) URL (scheme and host lower-cased, userinfo refused), or null. */
export function httpOrigin(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(https?):\/\/([^/?#@\s]+)(?:[/?#]|$)/i.exec(value.trim());
  if (!match || !HOST.test(match[2]!)) return null;
  return `${match[1]!.toLowerCase()}://${match[2]!.toLowerCase()}`;
}

/**
 * spec: guides §2 Designer shortcuts, matched on the physical keys (`event.code`), since the `key` a layout
 * gives for Shift+Alt+7 differs by keyboard: Digit7 is the launch flow, Digit8 the modal flow.
 */
export function shortcutFlow(event: { code: string; shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }): LaunchFlow | null {
  if (!event.shiftKey || !event.altKey || event.ctrlKey || event.metaKey) return null;
  return event.code === 'Digit7' ? 'launch' : event.code === 'Digit8' ? 'modal' : null;
}

/** Session storage (per tab) of an open designer, per api key: a page load in that tab opens it again. */
export const DESIGNER_SESSION_PREFIX = '_wm_designer.';

/** How long a designer session of the console lasts (server/auth/registerLoginRoutes). */
export const DESIGNER_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
