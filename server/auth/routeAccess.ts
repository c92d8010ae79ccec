/**
 * Who may call a route, declared with the route (issues #31, #33, STYLE §9): `config: { access, designer }` on its
 * options, written `accessOf('editor', { designer: true })`. The guard (registerAuth) reads it from the route the
 * router matched, never from the request's URL text: the router decodes `%61pi`, accepts absolute-form targets and
 * answers HEAD with the GET route, and the guard sees exactly the route it chose.
 *
 * - `open`: anyone (what agents send under /data, the static files, `GET /api/health`, `POST /api/login`, an
 *   invitation's acceptance);
 * - `viewer`, `editor`, `admin`: a caller with at least that role (auth/roles.ts): the admin token (an admin), a
 *   console login, a user's personal API token;
 * - `designer: true`: a designer session of the route's own app may call it too, within its role
 *   (auth/designerScope.ts).
 *
 * Every route under /api declares its access; one that does not is `admin` (fail closed) and listed undeclared by
 * listRoutes, which a test reads so that a new route without a rule fails it.
 */
import type { Role } from './roles';

/** What a route asks of its caller: nothing, or a role. */
export type RouteAccess = 'open' | Role;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; undeclared, routes under /api are `admin` and others `open`. */
    access?: RouteAccess;
    /** Whether a designer session of the route's own app may call it (within its role). @default false */
    designer?: boolean;
  }
}

/** What a route declares besides its access. */
export interface AccessOptions {
  /** A designer session of the route's own app may call it. @default false */
  designer?: boolean;
}

/** The route options that declare a route's access: `app.get(url, accessOf('viewer', { designer: true }), handler)`. */
export const accessOf = (access: RouteAccess, { designer = false }: AccessOptions = {}) => ({
  config: { access, ...(designer ? { designer: true } : {}) },
});

/** Whether a URL pattern is under /api (where an undeclared route is `admin`). */
export const isApiPattern = (pattern: string) => pattern === '/api' || pattern.startsWith('/api/');

/** The access of a matched route: its declared one, else `admin` under /api and `open` elsewhere. */
export function routeAccess(pattern: string, declared: RouteAccess | undefined): RouteAccess {
  return declared ?? (isApiPattern(pattern) ? 'admin' : 'open');
}
