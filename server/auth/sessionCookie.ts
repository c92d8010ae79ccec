/**
 * The console login's cookie and the session tokens' names (issues #14, #31, #33): one place for what the guard
 * reads and the sign-in routes (the token login, the email login, an invitation's acceptance) write.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthStore } from './createAuthStore';

export const SESSION_COOKIE = 'waymark_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Every designer session token starts so: a 401 can say which kind of token failed. */
export const DESIGNER_TOKEN_PREFIX = 'wmd_';

/**
 * Opens a console session (of `userId`, or of the admin token when absent) and answers 204 with its cookie:
 * HttpOnly, SameSite=Strict, `Secure` when the request came over https (behind a trusted proxy, its forwarded
 * protocol), 12 hours.
 */
export async function signIn(request: FastifyRequest, reply: FastifyReply, store: AuthStore, now: number, userId?: string): Promise<FastifyReply> {
  const { token } = await store.open('console', SESSION_TTL_MS, now, userId ? { userId } : {});
  return reply.code(204).header('set-cookie', sessionCookie(request, token, SESSION_TTL_MS / 1000)).send();
}

/** The Set-Cookie value of a session token (an empty one with max-age 0 signs out). */
export function sessionCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure}`;
}
