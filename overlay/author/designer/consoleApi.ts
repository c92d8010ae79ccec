/**
 * The designer's calls to the console's API (docs/console-api.md), as the signed-in author (issue #33): a designer
 * session as a Bearer token when the designer holds one (designerAuth.ts), else on the console's origin its
 * session cookie; calls carry `X-Waymark-Console: 1` as the console's own pages do. Errors are the server's
 * `{ error, field }`.
 */
import type { GuideTheme } from '../../../shared/surfaces/guideTheme';
import type { Guide } from '../../../shared/guides/guides';
import type { FeaturePreview, FeatureRule, Page } from '../../../shared/api/rules';
import { authOf, isSameOrigin, readDesignerAuth, writeDesignerAuth } from './designerAuth';

export type GuideState = 'draft' | 'staged' | 'public' | 'disabled';

export interface GuideSummary {
  id: string;
  name: string;
  state: GuideState;
  stepCount: number;
  /** A resource center's top-level guide, one of its modules, or a guide. */
  kind?: 'guide' | 'resourceCenter' | 'module';
  updatedAt: number;
}

export interface StoredGuide {
  guide: Guide;
  state: GuideState;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The console's roles (docs/users-and-roles.md). */
export type AuthorRole = 'viewer' | 'editor' | 'admin';

/** Who the designer acts for: `GET /api/me` (`user` null for the admin token). */
export interface Author {
  role: AuthorRole;
  via: string;
  user: { email: string; name?: string | null } | null;
}

/** An author's email and password, or the owner's admin token. */
export type SignInCredentials = { email: string; password: string } | { token: string };

export interface ConsoleApi {
  /** Who the designer's session (or, on the console's origin, its login) signs in, or null. */
  signedIn(): Promise<Author | null>;
  /**
   * Signs in. An email and password open a designer session of this app (`POST /api/designer-login`, on either
   * origin: the console's own login would let a viewer in, the designer's refuses one with a 403 naming the role).
   * The admin token: the console's login on its origin, else a designer session of this app.
   */
  signIn(credentials: SignInCredentials): Promise<void>;
  /** Ends this page's designer session; on the console's origin, its login stays. */
  signOut(): Promise<void>;
  /** Whether the console is on another origin (the designer then holds a session of its own). */
  readonly crossOrigin: boolean;
  guides(): Promise<GuideSummary[]>;
  guide(id: string): Promise<StoredGuide>;
  save(guide: Guide): Promise<StoredGuide>;
  setState(id: string, state: GuideState): Promise<StoredGuide>;
  /** The app's guide theme (docs/guide-theme.md): the live step is drawn in it. */
  theme(): Promise<GuideTheme>;
  /** The app's pages (issue #35): "Tag this feature" reuses the one of this page's rule. */
  pages(): Promise<Page[]>;
  /** Makes a page; answers its id. */
  createPage(name: string, url: string): Promise<{ id: string }>;
  /** Makes a feature; answers its id. */
  createFeature(name: string, rule: FeatureRule): Promise<{ id: string }>;
  /** The last 30 days' clicks a feature of `selector` (on pages of the URL rule `url`) would count. */
  previewFeature(selector: string, url?: string): Promise<FeaturePreview>;
}

export function createConsoleApi(baseUrl: string, apiKey: string): ConsoleApi {
  const appPath = `/api/apps/${encodeURIComponent(apiKey)}`;
  const app = `${appPath}/guides`;
  const crossOrigin = !isSameOrigin(baseUrl);
  async function call<T>(path: string, method = 'GET', body?: unknown, bearer?: string): Promise<T> {
    let response: Response;
    const auth = authOf(apiKey, baseUrl);
    if (bearer) auth.headers.Authorization = `Bearer ${bearer}`;
    try {
      response = await fetch(baseUrl + path, {
        method,
        credentials: auth.credentials,
        headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), 'X-Waymark-Console': '1', ...auth.headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError(0, `the console at ${baseUrl} did not answer (${String(err)})`);
    }
    if (response.status === 204) return undefined as T;
    const json = (await response.json().catch(() => null)) as { error?: string; field?: string } | null;
    if (!response.ok) throw new ApiError(response.status, json?.error ?? `${response.status} ${response.statusText}`, json?.field);
    return json as T;
  }
  const api: ConsoleApi = {
    crossOrigin,
    async signedIn() {
      const held = readDesignerAuth(apiKey, baseUrl) !== null;
      // Without a session of its own, a designer on another origin is not signed in: no call (and no 401) needed.
      if (crossOrigin && !held) return null;
      try {
        return await call<Author>('/api/me');
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 401)) throw err;
        if (!held) return null;
        // An ended or expired designer session is forgotten; on the console's origin its login may still hold.
        writeDesignerAuth(apiKey, null);
        return crossOrigin ? null : api.signedIn();
      }
    },
    async signIn(credentials) {
      writeDesignerAuth(apiKey, null);
      if ('token' in credentials && !crossOrigin) return call('/api/login', 'POST', { token: credentials.token });
      const session =
        'token' in credentials
          ? await call<{ token: string; expiresAt: number }>('/api/designer-sessions', 'POST', { apiKey }, credentials.token)
          : await call<{ token: string; expiresAt: number }>('/api/designer-login', 'POST', { apiKey, email: credentials.email, password: credentials.password });
      // The session only: the password and the admin token are never kept.
      writeDesignerAuth(apiKey, { baseUrl, token: session.token, expiresAt: session.expiresAt });
    },
    async signOut() {
      if (!readDesignerAuth(apiKey, baseUrl)) return;
      await call('/api/designer-sessions/current', 'DELETE').catch(() => undefined);
      writeDesignerAuth(apiKey, null);
    },
    guides: () => call(app),
    guide: (id) => call(`${app}/${encodeURIComponent(id)}`),
    save: (guide) => call(`${app}/${encodeURIComponent(guide.id)}`, 'PUT', guide),
    setState: (id, state) => call(`${app}/${encodeURIComponent(id)}/state`, 'POST', { state }),
    theme: () => call(`/api/apps/${encodeURIComponent(apiKey)}/settings/theme`),
    pages: () => call(`${appPath}/pages`),
    createPage: (name, url) => call(`${appPath}/pages`, 'POST', { name, rule: { url } }),
    createFeature: (name, rule) => call(`${appPath}/features`, 'POST', { name, rule }),
    previewFeature: (selector, url) => call(`${appPath}/designer/feature-preview`, 'POST', { selector, ...(url === undefined ? {} : { url }) }),
  };
  return api;
}
