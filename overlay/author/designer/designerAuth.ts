/**
 * How the designer and its preview prove whom they act for (issues #15, #33). A designer session (one app, 12 hours,
 * the role of the author who signed in: server/auth/registerLoginRoutes), kept in this tab's session storage under
 * `_wm_designer_auth.{apiKey}`, is sent as a Bearer token; on another origin than the console it is the only way,
 * as no cookie crosses. Without one, on the console's own origin, the console's login cookie does
 * (`credentials: 'include'`). Neither the password nor the admin token is ever stored.
 */
export const DESIGNER_AUTH_PREFIX = '_wm_designer_auth.';

export interface DesignerAuth {
  /** The console the session belongs to (an origin). */
  baseUrl: string;
  token: string;
  expiresAt: number;
}

/** Whether the console at `baseUrl` is this page's origin (its login cookie then rides along). */
export function isSameOrigin(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).origin === location.origin;
  } catch {
    return false;
  }
}

/** The live session of the console at `baseUrl` for `apiKey`, or null. */
export function readDesignerAuth(apiKey: string, baseUrl: string): DesignerAuth | null {
  try {
    const auth = JSON.parse(sessionStorage.getItem(DESIGNER_AUTH_PREFIX + apiKey) ?? 'null') as DesignerAuth | null;
    return auth && auth.baseUrl === baseUrl && typeof auth.token === 'string' && auth.expiresAt > Date.now() ? auth : null;
  } catch {
    return null;
  }
}

export function writeDesignerAuth(apiKey: string, auth: DesignerAuth | null): void {
  try {
    if (auth) sessionStorage.setItem(DESIGNER_AUTH_PREFIX + apiKey, JSON.stringify(auth));
    else sessionStorage.removeItem(DESIGNER_AUTH_PREFIX + apiKey);
  } catch {
    // Without session storage the session lasts this page.
  }
}

/** The fetch options that authenticate a call to the console at `baseUrl`. */
export function authOf(apiKey: string, baseUrl: string): { credentials: RequestCredentials; headers: Record<string, string> } {
  const auth = readDesignerAuth(apiKey, baseUrl);
  if (auth) return { credentials: 'omit', headers: { Authorization: `Bearer ${auth.token}` } };
  return isSameOrigin(baseUrl) ? { credentials: 'include', headers: {} } : { credentials: 'omit', headers: {} };
}
