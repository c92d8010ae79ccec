/**
 * The users of the console (issue #33, docs/users-and-roles.md), all admin:
 * - `POST /api/users` `{ email, role, name?, password? }` -> 201 the user; without a password, with a one-use
 *   `invitationUrl` (`/console/invitation/<token>`, 7 days) where the person sets theirs;
 * - `GET /api/users`, `GET /api/users/{id}`;
 * - `PATCH /api/users/{id}` `{ name?, role? }`: a role change ends the user's sessions (console and designer) at once;
 * - `DELETE /api/users/{id}`: 204; their sessions, tokens and invitations end at once;
 * - `POST /api/users/{id}/invitation` -> 201 a new invitation link (the earlier one ends): a lost link, a password
 *   reset.
 * The last admin can be neither demoted nor removed: 409 (the admin token, the owner's key, stays an admin anyway).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../HttpError';
import type { AuthStore } from '../createAuthStore';
import type { TokenStore } from './createTokenStore';
import type { UserStore } from './createUserStore';
import { readBody, readEmail, readName, readPassword, readRole } from './checkUserFields';
import { hashPassword, type PasswordCost } from './passwords';
import { accessOf } from '../routeAccess';

export interface UserRoutesOptions {
  users: UserStore;
  sessions: AuthStore;
  tokens: TokenStore;
  now: () => number;
  /** The scrypt cost of new password hashes (ServerOptions.passwordCost, tests only). @default PASSWORD_COST */
  passwordCost?: PasswordCost;
}

/** The console page where an invitation's token sets a password. */
export const INVITATION_PATH = '/console/invitation/';
/** Users' ids are UUIDs: anything else is no user, before any lookup. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type UserRequest = FastifyRequest<{ Params: { id: string }; Body: unknown }>;

const noSuchUser = () => new HttpError(404, 'no such user');
const lastAdmin = (what: string) => new HttpError(409, `this is the last admin: ${what} would leave no admin; make another user admin first`);

export function registerUserRoutes(app: FastifyInstance, { users, sessions, tokens, now, passwordCost }: UserRoutesOptions): void {
  const admin = accessOf('admin');
  const idOf = (request: UserRequest) => {
    if (!USER_ID.test(request.params.id)) throw noSuchUser();
    return request.params.id;
  };
  const invitationUrl = (request: FastifyRequest, token: string) => `${request.protocol}://${request.host}${INVITATION_PATH}${token}`;

  app.post('/api/users', admin, async (request, reply) => {
    const body = readBody(request.body, ['email', 'role', 'name', 'password'], '{ "email": "...", "role": "editor", "name": "...", "password": "..." }');
    const email = readEmail(body.email);
    const role = readRole(body.role);
    const name = body.name === undefined ? '' : readName(body.name);
    const passwordHash = body.password === undefined ? null : await hashPassword(readPassword(body.password), passwordCost);
    const user = await users.create({ email, name, role, passwordHash }, now());
    if (user === 'taken') throw new HttpError(409, `a user with the email ${JSON.stringify(email)} exists already`, 'email');
    await app.audit(request, { action: 'user.created', target: user.email, after: user });
    if (passwordHash) return reply.code(201).send(user);
    const invitation = await users.invite(user.id, now());
    // Never the invitation's token: who was invited and until when.
    await app.audit(request, { action: 'user.invited', target: user.email, after: { userId: user.id, expiresAt: invitation.expiresAt } });
    return reply.code(201).send({ ...user, invitationUrl: invitationUrl(request, invitation.token), invitationExpiresAt: invitation.expiresAt });
  });

  app.get('/api/users', admin, async () => ({ users: await users.list() }));

  app.get('/api/users/:id', admin, async (request: UserRequest) => {
    const user = await users.get(idOf(request));
    if (!user) throw noSuchUser();
    return user;
  });

  app.patch('/api/users/:id', admin, async (request: UserRequest) => {
    const id = idOf(request);
    const body = readBody(request.body, ['name', 'role'], '{ "name": "...", "role": "viewer" }');
    const name = body.name === undefined ? undefined : readName(body.name);
    const role = body.role === undefined ? undefined : readRole(body.role);
    const before = await users.get(id);
    if (!before) throw noSuchUser();
    const after = await users.update(id, { ...(name !== undefined ? { name } : {}), ...(role !== undefined ? { role } : {}) });
    if (after === 'last admin') throw lastAdmin('taking away their admin role');
    if (!after) throw noSuchUser();
    // A new role starts from a new sign-in: no session goes on with what the old role opened.
    if (after.role !== before.role) await sessions.closeUser(id);
    const action = after.role !== before.role ? 'user.roleChanged' : 'user.updated';
    await app.audit(request, { action, target: after.email, before, after });
    return after;
  });

  app.delete('/api/users/:id', admin, async (request: UserRequest, reply) => {
    const id = idOf(request);
    const before = await users.get(id);
    const removed = await users.remove(id, now());
    if (removed === 'last admin') throw lastAdmin('removing them');
    if (!removed) throw noSuchUser();
    await sessions.closeUser(id);
    await tokens.revokeAll(id);
    await app.audit(request, { action: 'user.removed', target: before?.email ?? id, before });
    return reply.code(204).send();
  });

  app.post('/api/users/:id/invitation', admin, async (request: UserRequest, reply) => {
    const id = idOf(request);
    const user = await users.get(id);
    if (!user) throw noSuchUser();
    const invitation = await users.invite(id, now());
    await app.audit(request, { action: 'user.invited', target: user.email, after: { userId: id, expiresAt: invitation.expiresAt } });
    return reply.code(201).send({ invitationUrl: invitationUrl(request, invitation.token), expiresAt: invitation.expiresAt });
  });
}
