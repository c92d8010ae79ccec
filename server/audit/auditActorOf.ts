/**
 * Who the audit trail names for a request (issue #33), from the caller the guard left on it (auth/identifyCaller).
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from './createAuditLog';

/** The actor of a request: its user (and token's name), a designer session, the admin token, or no one. */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const caller = request.caller;
  if (!caller) return { kind: 'anonymous' };
  const user = caller.user ? { userId: caller.user.id, email: caller.user.email } : {};
  if (caller.via === 'api token') return { kind: 'api token', ...user, ...(caller.token ? { tokenName: caller.token.name } : {}) };
  if (caller.via === 'designer') return { kind: 'designer', ...user };
  if (caller.user) return { kind: 'user', ...user };
  return { kind: 'admin token' };
}
