/**
 * Signing in and out (issues #14, #15, #31, #33), on state every collector shares (auth/createAuthStore.ts):
 * - `POST /api/login` (open) `{ token }` (the admin token: a login that acts as an admin) or `{ email, password }`
 *   (a user, with their role): 204 and the console's session cookie (auth/sessionCookie.ts), 12 hours. Attempts are
 *   limited per client address and, for passwords, per account (auth/checkPasswordLogin.ts): 429 with Retry-After.
 * - `GET /api/invitations/{token}` (open): what the link is for, before the invited person types anything:
 *   `{ email, name, role, expiresAt }`, or the same 404 and 410 (with its words) the acceptance would answer.
 * - `POST /api/invitations/{token}` (open) `{ password, name? }`: accepts an invitation (auth/createUserStore.ts):
 *   sets the password, ends the user's earlier sessions, and signs them in as the login does. Once: a second use is
 *   410, as is an expired link.
 * - `POST /api/logout` (any role): ends the login on every collector.
 * - `GET /api/session` (any role, designer sessions too): whether the credentials are good.
 * - `POST /api/designer-sessions` `{ apiKey }` (editor): a Bearer token for one app's guides and previews, 12 hours,
 *   acting with the role of the user who asked (an admin for the admin token).
 * - `POST /api/designer-login` (open) `{ apiKey, email, password }`: the same designer session for a designer on
 *   another origin that signs in as its author (no cookie crosses origins), limited as the login is; a viewer's
 *   password is a 403 naming the role.
 * - `DELETE /api/designer-sessions/current` (designer): ends the designer session it carries.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InvitationInfo } from '../../shared/api/users';
import { DESIGNER_SESSION_TTL_MS } from '../../shared/authoring/designerLaunch';
import type { AuthStore } from './createAuthStore';
import type { UserStore } from './users/createUserStore';
import { addressRefusal, checkPasswordLogin, type LoginRefusal } from './users/checkPasswordLogin';
import { readApiKey, readBody, readEmail, readLoginPassword, readName, readPassword } from './users/checkUserFields';
import { hashPassword, type PasswordCost } from './users/passwords';
import { bearerOf, readCookie } from './requestCredentials';
import { hasRole, roleRefusal } from './roles';
import { accessOf } from './routeAccess';
import { DESIGNER_TOKEN_PREFIX, SESSION_COOKIE, sessionCookie, signIn } from './sessionCookie';
import { tokenEquals } from './tokenEquals';

export { DESIGNER_TOKEN_PREFIX, SESSION_COOKIE, SESSION_TTL_MS } from './sessionCookie';
export { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, loginWaitMs } from './users/checkPasswordLogin';

const USED = 'this invitation was already used: sign in with its password, or ask an admin for a new one';

/** An invitation's token as the link carries it: 43 base64url characters (checked before any lookup). */
const INVITATION_TOKEN = /^[\w-]{43}$/;

export interface LoginRoutesOptions {
  adminToken: string;
  store: AuthStore;
  users: UserStore;
  now: () => number;
  /** Deletes expired rows; called at each login, not awaited by it. */
  purge: () => Promise<void>;
  /** The scrypt cost of new password hashes (ServerOptions.passwordCost, tests only). @default PASSWORD_COST */
  passwordCost?: PasswordCost;
}

const fail = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });
const refuse = (reply: FastifyReply, { status, error, retryAfter }: LoginRefusal) =>
  (retryAfter ? reply.header('retry-after', String(retryAfter)) : reply).code(status).send({ error });

export function registerLoginRoutes(app: FastifyInstance, { adminToken, store, users, now, purge, passwordCost }: LoginRoutesOptions): void {
  // Sign-ins and refused sign-ins go to the audit trail (issue #33): who tried, never the password or token.
  const asUser = (user: { id: string; email: string }) => ({ kind: 'user' as const, userId: user.id, email: user.email });
  const refused = async (request: FastifyRequest, target: string, error: string, apiKey?: string) =>
    app.audit(request, { action: 'login.refused', target, ...(apiKey ? { apiKey } : {}), after: { error } }, { kind: 'anonymous' });

  app.post('/api/login', accessOf('open'), async (request, reply) => {
    const address = request.ip;
    const limited = await addressRefusal(store, address, now());
    if (limited) {
      await refused(request, address, limited.error);
      return refuse(reply, limited);
    }
    const body = request.body as Record<string, unknown> | undefined;
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && ('email' in body || 'password' in body)) {
      const { email, password } = readBody(body, ['email', 'password'], '{ "email": "...", "password": "..." }');
      const account = readEmail(email);
      const user = await checkPasswordLogin({ store, users, passwordCost }, { address, email: account, password: readLoginPassword(password), now: now() });
      if ('error' in user) {
        await refused(request, account, user.error);
        return refuse(reply, user);
      }
      void purge();
      await app.audit(request, { action: 'login.succeeded', target: user.email }, asUser(user));
      return signIn(request, reply, store, now(), user.id);
    }
    const token = (body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return fail(reply, 400, 'token is required: { "token": "..." }, or { "email": "...", "password": "..." }');
    if (!tokenEquals(token, adminToken)) {
      await store.failed(address, now());
      await refused(request, 'admin token', 'wrong token');
      return fail(reply, 401, 'wrong token');
    }
    await store.succeeded(address);
    void purge();
    await app.audit(request, { action: 'login.succeeded', target: 'admin token' }, { kind: 'admin token' });
    return signIn(request, reply, store, now());
  });

  /** The invitation a link names, or the refusal its link gets (404 unknown, 410 used or expired). */
  const invitationOf = async (token: string) => {
    const found = INVITATION_TOKEN.test(token) ? await users.findInvitation(token, now()) : undefined;
    if (!found) return { status: 404, error: 'no such invitation: the link may be mistyped, replaced by a newer one, or its user removed' } as const;
    if (found.state === 'used') return { status: 410, error: USED } as const;
    if (found.state === 'expired') return { status: 410, error: 'this invitation has expired (invitations last 7 days): ask an admin for a new one' } as const;
    return found;
  };

  app.get('/api/invitations/:token', accessOf('open'), async (request, reply) => {
    const found = await invitationOf((request.params as { token: string }).token);
    if ('error' in found) return fail(reply, found.status, found.error);
    const user = await users.get(found.userId);
    if (!user) return fail(reply, 404, 'no such invitation: the link may be mistyped, replaced by a newer one, or its user removed');
    const answer: InvitationInfo = { email: user.email, name: user.name, role: user.role, expiresAt: found.expiresAt };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  app.post('/api/invitations/:token', accessOf('open'), async (request, reply) => {
    const { token } = request.params as { token: string };
    const { password, name } = readBody(request.body, ['password', 'name'], '{ "password": "...", "name": "..." }');
    const newName = name === undefined ? undefined : readName(name);
    const found = await invitationOf(token);
    if ('error' in found) return fail(reply, found.status, found.error);
    const hash = await hashPassword(readPassword(password), passwordCost);
    // Used once, whatever collectors race: only the acceptance that marks it goes on.
    const userId = await users.useInvitation(token, now());
    if (userId !== found.userId) return fail(reply, 410, USED);
    await users.setPassword(userId, hash);
    if (newName !== undefined) await users.update(userId, { name: newName });
    await users.signedIn(userId, now());
    await store.closeUser(userId);
    const user = await users.get(userId);
    if (user) await app.audit(request, { action: 'invitation.accepted', target: user.email }, asUser(user));
    return signIn(request, reply, store, now(), userId);
  });

  app.post('/api/logout', accessOf('viewer'), async (request, reply) => {
    const id = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (id) await store.close(id);
    return reply.code(204).header('set-cookie', sessionCookie(request, '', 0)).send();
  });

  app.get('/api/session', accessOf('viewer', { designer: true }), async () => ({ authenticated: true }));

  // `signedIn`: the user of a designer-login (an open route, without a caller); else the caller opened it.
  const openDesignerSession = async (request: FastifyRequest, reply: FastifyReply, apiKey: string, userId: string | undefined, signedIn?: { id: string; email: string }) => {
    const { token, expiresAt } = await store.open('designer', DESIGNER_SESSION_TTL_MS, now(), { apiKey, prefix: DESIGNER_TOKEN_PREFIX, ...(userId ? { userId } : {}) });
    await app.audit(request, { action: 'designerSession.opened', apiKey, after: { expiresAt } }, signedIn ? asUser(signedIn) : undefined);
    return reply.code(201).send({ token, apiKey, expiresAt });
  };

  app.post('/api/designer-sessions', accessOf('editor'), async (request, reply) => {
    const apiKey = readApiKey((request.body as { apiKey?: unknown } | undefined)?.apiKey);
    return openDesignerSession(request, reply, apiKey, request.caller?.user?.id);
  });

  app.post('/api/designer-login', accessOf('open'), async (request, reply) => {
    const limited = await addressRefusal(store, request.ip, now());
    if (limited) {
      await refused(request, request.ip, limited.error);
      return refuse(reply, limited);
    }
    const body = readBody(request.body, ['apiKey', 'email', 'password'], '{ "apiKey": "...", "email": "...", "password": "..." }');
    const apiKey = readApiKey(body.apiKey);
    const email = readEmail(body.email);
    const password = readLoginPassword(body.password);
    const user = await checkPasswordLogin({ store, users, passwordCost }, { address: request.ip, email, password, now: now() });
    if ('error' in user) {
      await refused(request, email, user.error, apiKey);
      return refuse(reply, user);
    }
    if (!hasRole(user.role, 'editor')) {
      await refused(request, email, roleRefusal('editor', user.role), apiKey);
      return fail(reply, 403, roleRefusal('editor', user.role));
    }
    return openDesignerSession(request, reply, apiKey, user.id, user);
  });

  app.delete('/api/designer-sessions/current', accessOf('viewer', { designer: true }), async (request, reply) => {
    const bearer = bearerOf(request);
    if (bearer?.startsWith(DESIGNER_TOKEN_PREFIX)) {
      await store.close(bearer);
      await app.audit(request, { action: 'designerSession.ended', ...(request.caller?.apiKey ? { apiKey: request.caller.apiKey } : {}) });
    }
    return reply.code(204).send();
  });
}
