/**
 * Access to the admin API (issues #14, #31, #33). One `onRequest` guard reads the access the matched route
 * declares (auth/routeAccess.ts: `open`, or the role it needs, and whether a designer session may call it) and
 * answers 401 without credentials (auth/identifyCaller.ts: the admin token, a console login, a designer session, a
 * personal API token), 403 naming the role when the caller's falls short ("this needs the editor role; you are a
 * viewer"), 403 when a designer session leaves its app or its routes. What it decides on is the route the router
 * chose, never the URL's text, so `/%61pi/apps`, `http://host/api/apps` as the target, HEAD, `;` parameters and
 * the like meet the same guard. `/data/*` (what agents send) stays open. The caller is kept as `request.caller`.
 *
 * Sessions, users and tokens live in the database: every collector on it agrees, at once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthStore } from './createAuthStore';
import type { TokenStore } from './users/createTokenStore';
import type { UserStore } from './users/createUserStore';
import type { PasswordCost } from './users/passwords';
import { checkDesignerScope } from './designerScope';
import { createIdentifyCaller } from './identifyCaller';
import { registerLoginRoutes } from './registerLoginRoutes';
import { registerMeRoutes } from './users/registerMeRoutes';
import { registerTokenRoutes } from './users/registerTokenRoutes';
import { registerUserRoutes } from './users/registerUserRoutes';
import { hasRole, roleRefusal } from './roles';
import { isApiPattern, routeAccess, type RouteAccess } from './routeAccess';

export { SESSION_COOKIE } from './sessionCookie';
export { AUTHENTICATION_REQUIRED } from './identifyCaller';

/** How often expired sessions, old login failures and ended invitations are deleted (also at each login). */
const PURGE_INTERVAL_MS = 3_600_000;

/** A route as the guard sees it, for the tests that no route was left open or undeclared by mistake. */
export interface ListedRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** A designer session of the route's app may call it. */
  designer: boolean;
  /** Whether the route declared its access (an undeclared /api route is `admin`). */
  declared: boolean;
}

const routeLists = new WeakMap<FastifyInstance, ListedRoute[]>();

/** The routes `app` registered after registerAuth, HEAD and OPTIONS left out. */
export function listRoutes(app: FastifyInstance): ListedRoute[] {
  return [...(routeLists.get(app) ?? [])];
}

export interface AuthOptions {
  adminToken: string;
  store: AuthStore;
  users: UserStore;
  tokens: TokenStore;
  now?: () => number;
  /** The scrypt cost of new password hashes (ServerOptions.passwordCost, tests only). @default PASSWORD_COST */
  passwordCost?: PasswordCost;
  /** The apps whose admin lets viewers see recordings, for a viewer's `GET /api/me`. @default none */
  recordingApps?: () => Promise<string[]>;
}

/** What the rest of the server may ask of the guard. */
export interface AuthGuard {
  /** Whether the request carries credentials that identify a caller (for answers no route decides: a 404). */
  signedIn(request: FastifyRequest): Promise<boolean>;
}

/** Registers the guard and the sign-in, user, and own-account routes; closes the purge timer with the app. */
export function registerAuth(app: FastifyInstance, { adminToken, store, users, tokens, now = Date.now, passwordCost, recordingApps }: AuthOptions): AuthGuard {
  const routes: ListedRoute[] = [];
  routeLists.set(app, routes);
  app.addHook('onRoute', (route) => {
    const declared = route.config?.access;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url, access: routeAccess(route.url, declared), designer: route.config?.designer === true, declared: declared !== undefined });
    }
  });
  app.decorateRequest('caller', null);

  const purge = async () => {
    try {
      await store.purge(now(), now() - 24 * 3_600_000);
      await users.purge(now());
    } catch (err) {
      app.log.warn(`auth purge: ${(err as Error).message}`);
    }
  };
  const timer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
  timer.unref?.();
  app.addHook('onClose', async () => clearInterval(timer));

  const identify = createIdentifyCaller({ adminToken, sessions: store, tokens, now });

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return;
    // No route matched: nothing to decide here; the not-found answer asks `signedIn` (createServer).
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return;
    const config = request.routeOptions.config;
    const access = routeAccess(pattern, config.access);
    if (access === 'open') return;
    const caller = await identify(request);
    if ('status' in caller) return refuse(reply, caller.status, caller.error);
    if (caller.via === 'designer') {
      const problem = checkDesignerScope(caller.apiKey ?? '', config.designer === true, request);
      if (problem) return refuse(reply, 403, problem);
    }
    if (!hasRole(caller.role, access)) return refuse(reply, 403, roleRefusal(access, caller.role));
    request.caller = caller;
  });

  registerLoginRoutes(app, { adminToken, store, users, now, purge, passwordCost });
  registerUserRoutes(app, { users, sessions: store, tokens, now, passwordCost });
  registerMeRoutes(app, { users, sessions: store, now, passwordCost, recordingApps });
  registerTokenRoutes(app, { tokens, now });
  return { signedIn: async (request) => !('status' in (await identify(request))) };
}

const refuse = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });

/** Whether a listed route is under /api (where every route must declare its access). */
export const isApiRoute = (route: ListedRoute) => isApiPattern(route.url);
