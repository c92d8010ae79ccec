/**
 * The designer's calls to the console's API (docs/console-api.md), as the logged-in admin: the console's
 * session cookie rides along (`credentials: 'include'`), and mutations carry `X-Waymark-Console: 1` as the
 * console's own pages do. Errors are the server's `{ error, field }`.
 */
import type { Guide } from '../../../shared/guides/guides';

export type GuideState = 'draft' | 'staged' | 'public' | 'disabled';

export interface GuideSummary {
  id: string;
  name: string;
  state: GuideState;
  stepCount: number;
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

export interface ConsoleApi {
  /** Whether the console session (or nothing) lets this page in. */
  signedIn(): Promise<boolean>;
  signIn(token: string): Promise<void>;
  guides(): Promise<GuideSummary[]>;
  guide(id: string): Promise<StoredGuide>;
  save(guide: Guide): Promise<StoredGuide>;
  setState(id: string, state: GuideState): Promise<StoredGuide>;
}

export function createConsoleApi(baseUrl: string, apiKey: string): ConsoleApi {
  const app = `/api/apps/${encodeURIComponent(apiKey)}/guides`;
  async function call<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(baseUrl + path, {
        method,
        credentials: 'include',
        headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), 'X-Waymark-Console': '1' },
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
  return {
    async signedIn() {
      try {
        await call('/api/session');
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return false;
        throw err;
      }
    },
    signIn: (token) => call('/api/login', 'POST', { token }),
    guides: () => call(app),
    guide: (id) => call(`${app}/${encodeURIComponent(id)}`),
    save: (guide) => call(`${app}/${encodeURIComponent(guide.id)}`, 'PUT', guide),
    setState: (id, state) => call(`${app}/${encodeURIComponent(id)}/state`, 'POST', { state }),
  };
}
