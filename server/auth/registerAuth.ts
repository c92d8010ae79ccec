/**
 * Access to the admin API (issues #14, #31). One `onRequest` guard reads the access the matched route declares
 * (auth/routeAccess.ts: every route under /api is `admin` unless it says otherwise) and answers 401 unless the
 * request carries `Authorization: Bearer <admin token>`, a console login's cookie, or, on a `designer` route of
 * its own app, a designer session. What it decides on is the route the router chose, never the URL's text, so
 * `/%61pi/apps`, `http://host/api/apps` as the target, HEAD, `;` parameters and the like meet the same guard.
 *
 * Cookie-authenticated mutations must also carry `X-Waymark-Console: 1` (a cross-site page cannot send a custom
 * header without a preflight, which the server never grants it) and, when the browser sends an Origin, come from
 * the server's own origin (`request.protocol` and `request.host`: behind a proxy trusted with WAYMARK_TRUST_PROXY,
 * the forwarded ones); else 403. `/data/*` (what agents send) stays open.
 *
 * Sessions live in the database (auth/createAuthStore.ts): every collector on it agrees, at once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthStore, Session } from './createAuthStore';
import { checkDesignerScope } from './designerScope';
import { DESIGNER_TOKEN_PREFIX, registerLoginRoutes, SESSION_COOKIE } from './registerLoginRoutes';
import { bearerOf, readCookie } from './requestCredentials';
import { routeAccess } from './routeAccess';
import { tokenEquals } from './tokenEquals';

export { SESSION_COOKIE } from './registerLoginRoutes';

/** The 401 of a request without credentials (the not-found answer of an /api path uses it too). */
export const AUTHENTICATION_REQUIRED = 'authentication required: Authorization: Bearer <admin token>, or log in at /console/';
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How often expired sessions and old login failures are deleted (also at each login). */
const PURGE_INTERVAL_MS = 3_600_000;

/** Who a request comes from, or the refusal to answer. */
type Caller = { kind: 'admin' } | { kind: 'session'; session: Session } | { status: number; error: string };

/** Every route of `app` (method, URL pattern, access), for the tests that no route was left open by mistake. */
const routeLists = new WeakMap<FastifyInstance, Array<{ method: string; url: string; access: string }>>();

/** The routes `app` registered after registerAuth, HEAD and OPTIONS left out. */
export function listRoutes(app: FastifyInstance): Array<{ method: string; url: string; access: string }> {
  return [...(routeLists.get(app) ?? [])];
}

export interface AuthOptions {
  adminToken: string;
  store: AuthStore;
  now?: () => number;
}

/** What the rest of the server may ask of the guard. */
export interface AuthGuard {
  /** Whether the request's credentials would pass an `admin` route (for answers no route decides: a 404). */
  signedIn(request: FastifyRequest): Promise<boolean>;
}

/** Registers the guard and the sign-in routes; closes the purge timer with the app. */
export function registerAuth(app: FastifyInstance, { adminToken, store, now = Date.now }: AuthOptions): AuthGuard {
  const routes: Array<{ method: string; url: string; access: string }> = [];
  routeLists.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url, access: routeAccess(route.url, route.config?.access) });
    }
  });

  const purge = () => store.purge(now(), now() - 24 * 3_600_000).catch((err: unknown) => app.log.warn(`auth purge: ${(err as Error).message}`));
  const timer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
  timer.unref?.();
  app.addHook('onClose', async () => clearInterval(timer));

  const callerOf = async (request: FastifyRequest): Promise<Caller> => {
    const bearer = bearerOf(request);
    if (bearer !== undefined) {
      if (tokenEquals(bearer, adminToken)) return { kind: 'admin' };
      const session = bearer.startsWith(DESIGNER_TOKEN_PREFIX) ? await store.find(bearer, now()) : undefined;
      if (session?.kind === 'designer') return { kind: 'session', session };
      return {
        status: 401,
        error: bearer.startsWith(DESIGNER_TOKEN_PREFIX) ? 'the designer session is not valid (it may have expired): sign in again' : 'the admin token is not valid',
      };
    }
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = id ? await store.find(id, now()) : undefined;
    if (session?.kind !== 'console') return { status: 401, error: AUTHENTICATION_REQUIRED };
    if (MUTATIONS.has(request.method)) {
      const origin = request.headers.origin;
      const own = `${request.protocol}://${request.host}`;
      if (request.headers['x-waymark-console'] !== '1' || (origin !== undefined && origin !== own)) {
        return { status: 403, error: "cross-site request refused: console changes need the X-Waymark-Console header and the console's own origin" };
      }
    }
    return { kind: 'session', session };
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return;
    // No route matched: nothing to decide here; the not-found answer asks `signedIn` (createServer).
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return;
    const access = routeAccess(pattern, request.routeOptions.config.access);
    if (access === 'open') return;
    const caller = await callerOf(request);
    if ('status' in caller) return refuse(reply, caller.status, caller.error);
    if (caller.kind === 'session' && caller.session.kind === 'designer') {
      const problem = checkDesignerScope(caller.session.apiKey ?? '', access, request);
      if (problem) return refuse(reply, 403, problem);
    }
  });

  registerLoginRoutes(app, { adminToken, store, now, purge });
  return { signedIn: async (request) => !('status' in (await callerOf(request))) };
}

const refuse = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });
