/**
 * Who may call a route, declared with the route (issue #31, STYLE §9): `config: { access }` on its options. The
 * guard (registerAuth) reads it from the route the router matched, never from the request's URL text: the router
 * decodes `%61pi`, accepts absolute-form targets and answers HEAD with the GET route, and the guard sees exactly
 * the route it chose.
 *
 * - `open`: anyone (what agents send under /data, the static files, `GET /api/health`, `POST /api/login`);
 * - `admin`: the admin token or a console login; the default of every route under /api;
 * - `designer`: those too, and a designer session of the route's own app (auth/designerScope.ts).
 */
export type RouteAccess = 'open' | 'admin' | 'designer';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; routes under /api default to `admin`, others to `open`. */
    access?: RouteAccess;
  }
}

/** The route options that declare a route's access: `app.get(url, accessOf('designer'), handler)`. */
export const accessOf = (access: RouteAccess) => ({ config: { access } });

/** The access of a matched route: its declared one, else `admin` under /api and `open` elsewhere. */
export function routeAccess(pattern: string, declared: RouteAccess | undefined): RouteAccess {
  return declared ?? (pattern === '/api' || pattern.startsWith('/api/') ? 'admin' : 'open');
}
