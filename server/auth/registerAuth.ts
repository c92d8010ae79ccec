/**
 * Access to `/api/*` (issue #14, security first): every route there but `GET /api/health` and `POST /api/login`
 * answers 401 unless the request carries `Authorization: Bearer <admin token>` or the console's session cookie.
 * Cookie-authenticated mutations must also carry `X-Waymark-Console: 1` (a cross-site page cannot send a custom
 * header without a preflight, which the server never grants it) and, when the browser sends an Origin, come
 * from the server's own origin; else 403. `/data/*` (what agents send) stays open.
 *
 * POST /api/login `{ token }` starts a session (HttpOnly, SameSite=Strict, Secure over https; 12 hours, kept in
 * memory); wrong tokens are rate-limited per address (429 with Retry-After). POST /api/logout ends it.
 * POST /api/designer-sessions `{ apiKey }` (admin only) answers a Bearer token limited to that app's guides and
 * previews for 12 hours, for a designer running on another origin (createDesignerSessions).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createDesignerSessions, DESIGNER_TOKEN_PREFIX } from './createDesignerSessions';
import { createLoginLimiter } from './createLoginLimiter';
import { tokenEquals } from './tokenEquals';

export const SESSION_COOKIE = 'waymark_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Routes under /api that answer without authentication. */
export const OPEN_API_ROUTES: ReadonlyArray<readonly [string, string]> = [['GET', '/api/health'], ['POST', '/api/login']];

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The value of one cookie of a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const fail = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });

/** The /api routes each server registered after its guard (method, path): what the guard must cover. */
const apiRoutes = new WeakMap<FastifyInstance, Array<[string, string]>>();

/** Every /api route of `app` registered after registerAuth, for the test that none was left open by mistake. */
export function listApiRoutes(app: FastifyInstance): Array<[string, string]> {
  return [...(apiRoutes.get(app) ?? [])];
}

export function registerAuth(app: FastifyInstance, adminToken: string, now: () => number = Date.now): void {
  const routes: Array<[string, string]> = [];
  apiRoutes.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push([method, route.url]);
  });
  const sessions = new Map<string, number>();
  const designerSessions = createDesignerSessions(now);
  const limiter = createLoginLimiter();
  const isOpen = (request: FastifyRequest) => {
    const path = request.url.split('?')[0];
    return OPEN_API_ROUTES.some(([method, route]) => method === request.method && route === path);
  };
  const sessionOf = (request: FastifyRequest) => {
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (!id) return undefined;
    const until = sessions.get(id);
    if (until === undefined) return undefined;
    if (until <= now()) {
      sessions.delete(id);
      return undefined;
    }
    return id;
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!/^\/api(?:[/?#]|$)/.test(request.url) || request.method === 'OPTIONS' || isOpen(request)) return;
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    if (bearer !== undefined) {
      if (tokenEquals(bearer, adminToken)) return;
      const verdict = designerSessions.check(bearer, request.method, request.url.split('?')[0]!);
      if (verdict === 'ok') return;
      if (verdict === 'out of scope') return fail(reply, 403, 'a designer session may only read and save its own app\'s guides and previews');
      return fail(reply, 401, bearer.startsWith(DESIGNER_TOKEN_PREFIX) ? 'the designer session is not valid (it may have expired): sign in again' : 'the admin token is not valid');
    }
    if (!sessionOf(request)) return fail(reply, 401, 'authentication required: Authorization: Bearer <admin token>, or log in at /console/');
    if (MUTATIONS.has(request.method)) {
      const origin = request.headers.origin;
      const own = `${request.protocol}://${request.headers.host}`;
      if (request.headers['x-waymark-console'] !== '1' || (origin !== undefined && origin !== own)) {
        return fail(reply, 403, 'cross-site request refused: console changes need the X-Waymark-Console header and the console\'s own origin');
      }
    }
  });

  app.post('/api/login', async (request, reply) => {
    const address = request.ip;
    const wait = limiter.retryAfterMs(address, now());
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      return reply.code(429).header('retry-after', String(seconds)).send({ error: `too many attempts: try again in ${seconds} s` });
    }
    const token = (request.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return fail(reply, 400, 'token is required: { "token": "..." }');
    if (!tokenEquals(token, adminToken)) {
      limiter.failed(address, now());
      return fail(reply, 401, 'wrong token');
    }
    limiter.succeeded(address);
    const id = randomBytes(32).toString('base64url');
    sessions.set(id, now() + SESSION_TTL_MS);
    const secure = request.protocol === 'https' ? '; Secure' : '';
    return reply
      .code(204)
      .header('set-cookie', `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}${secure}`)
      .send();
  });

  app.post('/api/logout', async (request, reply) => {
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (id) sessions.delete(id);
    return reply.code(204).header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`).send();
  });

  app.get('/api/session', async () => ({ authenticated: true }));

  // A designer on another origin trades the admin's credentials for a session of one app (createDesignerSessions).
  app.post('/api/designer-sessions', async (request, reply) => {
    const apiKey = (request.body as { apiKey?: unknown } | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || !apiKey.trim()) return fail(reply, 400, 'apiKey is required: { "apiKey": "..." }');
    return reply.code(201).send(designerSessions.issue(apiKey.trim()));
  });
  app.delete('/api/designer-sessions/current', async (request, reply) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    if (bearer) designerSessions.revoke(bearer);
    return reply.code(204).send();
  });
}
