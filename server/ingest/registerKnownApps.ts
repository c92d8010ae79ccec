/**
 * WAYMARK_APPS=known (issue #31): a collector that accepts data only for apps an admin made (a settings row:
 * createSettingsStore), so an anonymous client cannot invent api keys and fill the database under them.
 *
 * One guard per /data route that names an app, added to the route as it is registered (onRoute) and run on the
 * route the router matched (STYLE §9): the app is the route's `:apiKey` parameter as the router decoded it, or,
 * for a route without one (POST /data/errorlog, POST /data/monitor), its `apiKey` query parameter. It runs at
 * onRequest, before the body is read: an unknown app gets 404 `{ error }` saying how to create it, and nothing
 * is stored for it (no event, log, report, recording, summary or app row). A request that names no app is left
 * to its route (its 400 says what is missing, or it needs none: guide assets); preflights (OPTIONS) are not guarded.
 *
 * Each process remembers the apps it found known (apps are never deleted); an app not found is looked up again
 * on its next request, so an app just created is accepted at once by every collector on the database.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

/** How the guard learns whether an app exists. */
export interface KnownAppsOptions {
  /** Whether the app is known: the settings store's `has`. */
  has(apiKey: string): Promise<boolean>;
}

/** Apps remembered as known by one process, at most; past it the memory starts again (a lookup each, no harm). */
const MAX_REMEMBERED = 10_000;

/** Where a guarded route takes its app from. */
export type AppKeyIn = 'path' | 'query';

/** The /data routes of each server and where each takes its app (undefined: not guarded), for the tests. */
const dataRoutes = new WeakMap<FastifyInstance, Array<{ method: string; url: string; apiKeyIn: AppKeyIn | undefined }>>();

/** Every /data route registered after registerKnownApps, and where its guard reads the app (undefined: none). */
export function listDataRoutes(app: FastifyInstance): Array<{ method: string; url: string; apiKeyIn: AppKeyIn | undefined }> {
  return [...(dataRoutes.get(app) ?? [])];
}

/** The message of an unknown app's 404. */
export function unknownAppMessage(apiKey: string): string {
  return `unknown app "${apiKey}": create it in the console (Apps) or PUT /api/apps/${encodeURIComponent(apiKey)}/settings`;
}

/** Guards every /data route registered after it (call before the routes). */
export function registerKnownApps(app: FastifyInstance, { has }: KnownAppsOptions): void {
  const routes: Array<{ method: string; url: string; apiKeyIn: AppKeyIn | undefined }> = [];
  dataRoutes.set(app, routes);
  const known = new Set<string>();
  const isKnown = async (apiKey: string) => {
    if (known.has(apiKey)) return true;
    if (!(await has(apiKey))) return false;
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.add(apiKey);
    return true;
  };

  app.addHook('onRoute', (route) => {
    if (route.url !== '/data' && !route.url.startsWith('/data/')) return;
    const methods = [route.method].flat().filter((m) => m !== 'OPTIONS');
    if (!methods.length) return;
    // A route of one app names it in its path; the others may name it in the query (errorlog, monitor).
    const apiKeyIn: AppKeyIn = /\/:apiKey\??(?:\/|$)/.test(route.url) ? 'path' : 'query';
    const appOf = (request: FastifyRequest) =>
      apiKeyIn === 'path' ? (request.params as { apiKey?: unknown }).apiKey : (request.query as { apiKey?: unknown } | undefined)?.apiKey;
    const guard: onRequestAsyncHookHandler = async (request, reply) => {
      const apiKey = appOf(request);
      // None, or given twice: the route's own 400 says so.
      if (typeof apiKey !== 'string' || apiKey === '') return;
      if (!(await isKnown(apiKey))) return reply.code(404).send({ error: unknownAppMessage(apiKey) });
    };
    route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), guard];
    for (const method of methods) routes.push({ method, url: route.url, apiKeyIn });
  });
}
