/**
 * Who a request comes from (issues #14, #31, #33), read from its credentials, for the guard (registerAuth) and for
 * the routes that act on the signed-in user (`request.caller`):
 * - `Authorization: Bearer <admin token>`: the owner's key, an admin;
 * - `Bearer wmd_...`: a designer session of one app, with the role of the user who opened it (admin when the admin
 *   token did);
 * - `Bearer wmu_...`: a user's personal API token, with that user's role;
 * - the console's session cookie: a login with the admin token (an admin) or with a user's email and password
 *   (that user's role). Cookie-authenticated changes must carry `X-Waymark-Console: 1` and, when the browser sends
 *   an Origin, come from the server's own origin (a cross-site page cannot send a custom header without a
 *   preflight, which the server never grants it); else 403.
 * Roles are read from the users table at each request: a change holds on every collector at once.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthStore, SessionUser } from './createAuthStore';
import { USER_TOKEN_PREFIX, type TokenStore } from './users/createTokenStore';
import { DESIGNER_TOKEN_PREFIX, SESSION_COOKIE } from './sessionCookie';
import { bearerOf, readCookie } from './requestCredentials';
import type { Role } from './roles';
import { tokenEquals } from './tokenEquals';

/** A request's proven identity. */
export interface Caller {
  role: Role;
  /** How it proved it: the admin token, a console login's cookie, a designer session, a personal API token. */
  via: 'admin token' | 'console' | 'designer' | 'api token';
  /** The user it acts for; absent for the admin token and the sessions opened with it. */
  user?: SessionUser;
  /** A designer session's app. */
  apiKey?: string;
  /** A personal token's id and name. */
  token?: { id: string; name: string };
  /** The console or designer session's own token (to end it, or keep it when a password changes). Never answered. */
  sessionToken?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the request, set by the guard on every route that is not `open`; null on open routes. */
    caller: Caller | null;
  }
}

/** A refusal to identify: its status (401 or 403) and words. */
export interface CallerRefusal {
  status: number;
  error: string;
}

/** The 401 of a request without credentials (the not-found answer of an /api path uses it too). */
export const AUTHENTICATION_REQUIRED = 'authentication required: Authorization: Bearer <admin token or API token>, or log in at /console/';
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface CallerSources {
  adminToken: string;
  sessions: AuthStore;
  tokens: TokenStore;
  now: () => number;
}

/** Reads a request's credentials into a Caller, or the refusal to answer it. */
export function createIdentifyCaller({ adminToken, sessions, tokens, now }: CallerSources): (request: FastifyRequest) => Promise<Caller | CallerRefusal> {
  return async (request) => {
    const bearer = bearerOf(request);
    if (bearer !== undefined) {
      if (tokenEquals(bearer, adminToken)) return { role: 'admin', via: 'admin token' };
      if (bearer.startsWith(DESIGNER_TOKEN_PREFIX)) {
        const session = await sessions.find(bearer, now());
        if (session?.kind !== 'designer') return { status: 401, error: 'the designer session is not valid (it may have expired): sign in again' };
        return { role: session.user?.role ?? 'admin', via: 'designer', apiKey: session.apiKey ?? '', sessionToken: bearer, ...(session.user ? { user: session.user } : {}) };
      }
      if (bearer.startsWith(USER_TOKEN_PREFIX)) {
        const found = await tokens.use(bearer, now());
        if (!found) return { status: 401, error: 'the API token is not valid (it may have been revoked)' };
        return { role: found.user.role, via: 'api token', user: found.user, token: { id: found.id, name: found.name } };
      }
      return { status: 401, error: 'the admin token is not valid' };
    }
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = id ? await sessions.find(id, now()) : undefined;
    if (!id || session?.kind !== 'console') return { status: 401, error: AUTHENTICATION_REQUIRED };
    if (MUTATIONS.has(request.method)) {
      const origin = request.headers.origin;
      const own = `${request.protocol}://${request.host}`;
      if (request.headers['x-waymark-console'] !== '1' || (origin !== undefined && origin !== own)) {
        return { status: 403, error: "cross-site request refused: console changes need the X-Waymark-Console header and the console's own origin" };
      }
    }
    return { role: session.user?.role ?? 'admin', via: 'console', sessionToken: id, ...(session.user ? { user: session.user } : {}) };
  };
}
