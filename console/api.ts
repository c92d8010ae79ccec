/**
 * The console's one way to the server's admin API (docs/console-api.md): same-origin fetch with the session
 * cookie, JSON in and out. Mutations carry `X-Waymark-Console: 1`, which the server requires of cookie
 * requests (its cross-site protection). A 401 sends the visitor to the login page, back here after, unless it
 * answered a save: that page keeps its edits and says to log in again.
 */

/** An error answer of the API: its status, message and, for bad input, the field at fault. */
export class ApiError extends Error {
  readonly status: number;
  readonly field?: string;

  constructor(status: number, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    if (field !== undefined) this.field = field;
  }
}

/** The login page's path, with where to come back to. */
export function loginPath(next: string = location.pathname + location.search): string {
  return `/console/login?next=${encodeURIComponent(next)}`;
}

/** Calls the API; resolves with the JSON answer (undefined for 204), rejects with an ApiError. */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-waymark-console'] = '1';
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (err) {
    throw new ApiError(0, `the server cannot be reached: ${(err as Error).message}`);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(response.status, `the server answered ${response.status} with something that is not JSON`);
  }
  if (!response.ok) {
    const { error, field } = (json ?? {}) as { error?: string; field?: string };
    if (response.status === 401 && path !== '/api/login' && !location.pathname.startsWith('/console/login')) {
      // A page being read goes to the login page; a save stays, so the edits it carries are not lost.
      if (method === 'GET') location.assign(loginPath());
      else throw new ApiError(401, 'your session has ended: log in again in another tab (/console/login), then save again; your changes are kept here');
    }
    throw new ApiError(response.status, error ?? `the server answered ${response.status}`, field);
  }
  return json as T;
}

/** `/api/apps/{apiKey}` + rest, the api key escaped. */
export function appPath(apiKey: string, rest = ''): string {
  return `/api/apps/${encodeURIComponent(apiKey)}${rest}`;
}
