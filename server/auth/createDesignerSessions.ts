/**
 * Designer sessions (issue #15, a designer on the host app's origin saving to a console on another): the admin
 * trades the admin token (or the console's login) for a random token that is good for 12 hours and for one app
 * only: its guides (`/api/apps/{apiKey}/guides...`), its previews (`/api/s/{apiKey}/.../preview`), and
 * `/api/session`. The designer keeps that token in the tab's session storage and sends it as a Bearer token, so
 * the host page never holds the admin token and no cookie has to cross sites. Kept in memory, like logins.
 */
import { randomBytes } from 'node:crypto';
import { DESIGNER_SESSION_TTL_MS } from '../../shared/authoring/designerLaunch';

/** Every designer session token starts so: a 401 can say which kind of token failed. */
export const DESIGNER_TOKEN_PREFIX = 'wmd_';

export type DesignerSessionVerdict = 'ok' | 'unknown' | 'out of scope';

export interface DesignerSessions {
  issue(apiKey: string): { token: string; apiKey: string; expiresAt: number };
  /** Whether `token` may make this request (`path` without its query). */
  check(token: string, method: string, path: string): DesignerSessionVerdict;
  revoke(token: string): void;
}

export function createDesignerSessions(now: () => number): DesignerSessions {
  const sessions = new Map<string, { apiKey: string; until: number }>();
  return {
    issue(apiKey) {
      const token = DESIGNER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const expiresAt = now() + DESIGNER_SESSION_TTL_MS;
      sessions.set(token, { apiKey, until: expiresAt });
      return { token, apiKey, expiresAt };
    },
    check(token, method, path) {
      const session = sessions.get(token);
      if (!session) return 'unknown';
      if (session.until <= now()) {
        sessions.delete(token);
        return 'unknown';
      }
      return inScope(session.apiKey, method, path) ? 'ok' : 'out of scope';
    },
    revoke: (token) => void sessions.delete(token),
  };
}

/** The routes a designer session of `apiKey` may call. */
function inScope(apiKey: string, method: string, path: string): boolean {
  if (path === '/api/session') return method === 'GET';
  if (path === '/api/designer-sessions/current') return method === 'DELETE';
  const parts = path.split('/').slice(1).map(decodeSegment);
  // api, apps, {apiKey}, guides, ...
  if (parts[1] === 'apps' && parts[2] === apiKey && parts[3] === 'guides') return true;
  // api, apps, {apiKey}, settings, theme: the look its live step is drawn in
  if (method === 'GET' && parts[1] === 'apps' && parts[2] === apiKey && parts[3] === 'settings' && parts[4] === 'theme' && parts.length === 5) return true;
  // api, s, {apiKey}, guide | resourcecenter, {guideId}, preview
  return method === 'GET' && parts[1] === 's' && parts[2] === apiKey && (parts[3] === 'guide' || parts[3] === 'resourcecenter') && parts[5] === 'preview' && parts.length === 6;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
