/**
 * Signing in and out (issues #14, #15, #31), on state every collector shares (auth/createAuthStore.ts):
 * - `POST /api/login` `{ token }` (open): a console login, the cookie HttpOnly, SameSite=Strict, `Secure` when the
 *   request came over https (behind a trusted proxy, its forwarded protocol), 12 hours. Wrong tokens are counted per
 *   client address (`request.ip`: behind a trusted proxy, the forwarded client) in the database: the 11th within a
 *   minute is 429 with Retry-After, whichever collector the attempts reach.
 * - `POST /api/logout`: ends the login on every collector.
 * - `GET /api/session` (designer): whether the credentials are good.
 * - `POST /api/designer-sessions` `{ apiKey }` (admin): a Bearer token for one app's guides and previews, 12 hours.
 * - `DELETE /api/designer-sessions/current` (designer): ends the designer session it carries.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DESIGNER_SESSION_TTL_MS } from '../../shared/authoring/designerLaunch';
import type { AuthStore } from './createAuthStore';
import { bearerOf, readCookie } from './requestCredentials';
import { accessOf } from './routeAccess';
import { tokenEquals } from './tokenEquals';

export const SESSION_COOKIE = 'waymark_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Every designer session token starts so: a 401 can say which kind of token failed. */
export const DESIGNER_TOKEN_PREFIX = 'wmd_';
/** Wrong tokens allowed from one address within LOGIN_WINDOW_MS before logins from it wait. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 60_000;

const fail = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });

/**
 * ms to wait before the next login attempt from an address, given its failures within the window (their count and
 * the oldest): once there are `max`, until the oldest leaves the window. Pure over `now`.
 */
export function loginWaitMs(failures: { count: number; first?: number }, now: number, max = LOGIN_MAX_FAILURES, windowMs = LOGIN_WINDOW_MS): number {
  if (failures.count < max || failures.first === undefined) return 0;
  return Math.max(0, windowMs - (now - failures.first));
}

export interface LoginRoutesOptions {
  adminToken: string;
  store: AuthStore;
  now: () => number;
  /** Deletes expired rows; called at each login, not awaited by it. */
  purge: () => Promise<void>;
}

export function registerLoginRoutes(app: FastifyInstance, { adminToken, store, now, purge }: LoginRoutesOptions): void {
  app.post('/api/login', accessOf('open'), async (request, reply) => {
    const address = request.ip;
    const wait = loginWaitMs(await store.failures(address, now() - LOGIN_WINDOW_MS), now());
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      return reply.code(429).header('retry-after', String(seconds)).send({ error: `too many attempts: try again in ${seconds} s` });
    }
    const token = (request.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return fail(reply, 400, 'token is required: { "token": "..." }');
    if (!tokenEquals(token, adminToken)) {
      await store.failed(address, now());
      return fail(reply, 401, 'wrong token');
    }
    await store.succeeded(address);
    void purge();
    const { token: id } = await store.open('console', SESSION_TTL_MS, now());
    const secure = request.protocol === 'https' ? '; Secure' : '';
    return reply
      .code(204)
      .header('set-cookie', `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}${secure}`)
      .send();
  });

  app.post('/api/logout', async (request, reply) => {
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (id) await store.close(id);
    const secure = request.protocol === 'https' ? '; Secure' : '';
    return reply.code(204).header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${secure}`).send();
  });

  app.get('/api/session', accessOf('designer'), async () => ({ authenticated: true }));

  app.post('/api/designer-sessions', async (request, reply) => {
    const apiKey = (request.body as { apiKey?: unknown } | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || !apiKey.trim()) return fail(reply, 400, 'apiKey is required: { "apiKey": "..." }');
    const app = apiKey.trim();
    const { token, expiresAt } = await store.open('designer', DESIGNER_SESSION_TTL_MS, now(), { apiKey: app, prefix: DESIGNER_TOKEN_PREFIX });
    return reply.code(201).send({ token, apiKey: app, expiresAt });
  });

  app.delete('/api/designer-sessions/current', accessOf('designer'), async (request, reply) => {
    const bearer = bearerOf(request);
    if (bearer?.startsWith(DESIGNER_TOKEN_PREFIX)) await store.close(bearer);
    return reply.code(204).send();
  });
}
