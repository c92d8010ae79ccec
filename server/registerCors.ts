/**
 * CORS for the collector and the API: the agent may run on another origin than the data host (a host page
 * on app.example.com beaconing to a collector elsewhere), and the designer on the host page may save to a console
 * elsewhere with a Bearer designer session (auth/designerScope.ts), so /data and /api answer any origin.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { looseApiPrefix } from './looseApiPrefix';

/** True for a route pattern under /data or /api, the cross-origin endpoints. */
const isCrossOriginRoute = (pattern: string) => /^\/(?:data|api)(?:\/|$)/.test(pattern);

/**
 * Adds `Access-Control-Allow-Origin: *` to every /data and /api answer (errors and 404s included, so a
 * browser shows the reason instead of a CORS failure) and answers their OPTIONS preflights.
 * No credentials are involved: beacons carry the api key in the path, and a cross-origin designer a Bearer token
 * it was given, never a cookie (the console's login cookie is SameSite=Strict and `*` never allows credentials).
 */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    // Retry-After is no CORS-safelisted header: exposed, so an agent on another origin can read the pause a 429 or
    // 503 asks for (shared/wire/collectorPause.ts).
    // Decided on the matched route (issue #31). A path that reads as /api or /data but matched none of their routes
    // (nothing, or the static catch-all, which answers it 401 or 404) gets the headers too, so a browser shows that
    // answer instead of a CORS failure: only error answers go out so.
    const pattern = request.routeOptions.url;
    if ((pattern !== undefined && isCrossOriginRoute(pattern)) || looseApiPrefix(request.url)) reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'retry-after');
  });
  const preflight = async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
      .header('access-control-allow-headers', 'authorization, content-type, x-waymark-console')
      .header('access-control-max-age', '86400')
      .send();
  app.options('/data/*', preflight);
  app.options('/api/*', preflight);
}
