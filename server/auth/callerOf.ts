/**
 * The caller of a guarded route, as the guard (registerAuth) left it on the request, for the handlers that act on
 * the signed-in user (issue #33).
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../HttpError';
import type { SessionUser } from './createAuthStore';
import type { Caller } from './identifyCaller';

/** The caller of a guarded route (set by the guard before any handler runs). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new HttpError(401, 'authentication required');
  return request.caller;
}

/** The user behind the caller, or a 403 for the admin token, which is no one's account. */
export function userOf(request: FastifyRequest): SessionUser {
  const { user } = callerOf(request);
  if (!user) throw new HttpError(403, "the admin token has no account of its own: sign in with a user's email and password for this");
  return user;
}
