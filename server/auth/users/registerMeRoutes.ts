/**
 * The signed-in person's own account (issue #33, docs/users-and-roles.md), for any role:
 * - `GET /api/me` (designer sessions too): who is signed in, how, and with which role, so the console and the
 *   designer can hide what the role cannot do: `{ role, via, user, apiKey?, token? }` (`user` null for the admin
 *   token and the sessions opened with it); for a viewer also `recordingApps`, the apps whose recordings the admin
 *   lets viewers see, so the console offers Recordings only there.
 * - `PATCH /api/me` `{ name?, password?, currentPassword? }`: a new password needs the current one (wrong: 403,
 *   limited per account as logins are); it ends the user's other sessions, keeping the one that asked.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../HttpError';
import type { AuthStore } from '../createAuthStore';
import type { UserStore } from './createUserStore';
import { accountRefusal } from './checkPasswordLogin';
import { emailKey } from './createUserStore';
import { readBody, readName, readPassword } from './checkUserFields';
import { callerOf, userOf } from '../callerOf';
import { hashPassword, PASSWORD_MAX_LENGTH, verifyPassword, type PasswordCost } from './passwords';
import { accessOf } from '../routeAccess';

export interface MeRoutesOptions {
  users: UserStore;
  sessions: AuthStore;
  now: () => number;
  /** The apps whose admin lets viewers see recordings (settings `recording.viewersSeeRecordings`). @default none */
  recordingApps?: () => Promise<string[]>;
  /** The scrypt cost of new password hashes (ServerOptions.passwordCost, tests only). @default PASSWORD_COST */
  passwordCost?: PasswordCost;
}

export function registerMeRoutes(app: FastifyInstance, { users, sessions, now, passwordCost, recordingApps }: MeRoutesOptions): void {
  app.get('/api/me', accessOf('viewer', { designer: true }), async (request) => {
    const caller = callerOf(request);
    const user = caller.user ? ((await users.get(caller.user.id)) ?? null) : null;
    return {
      role: caller.role,
      via: caller.via,
      user,
      ...(caller.apiKey !== undefined ? { apiKey: caller.apiKey } : {}),
      ...(caller.token ? { token: caller.token } : {}),
      // Editors and admins see every app's recordings: only a viewer needs the list.
      ...(caller.role === 'viewer' ? { recordingApps: recordingApps ? await recordingApps() : [] } : {}),
    };
  });

  app.patch('/api/me', accessOf('viewer'), async (request) => {
    const { id, email } = userOf(request);
    const body = readBody(request.body, ['name', 'password', 'currentPassword'], '{ "name": "...", "password": "...", "currentPassword": "..." }');
    const name = body.name === undefined ? undefined : readName(body.name);
    if (body.password !== undefined) {
      const password = readPassword(body.password);
      const current = body.currentPassword;
      if (typeof current !== 'string' || !current || current.length > PASSWORD_MAX_LENGTH) {
        throw new HttpError(400, 'currentPassword is required to set a new password', 'currentPassword');
      }
      const limited = await accountRefusal(sessions, email, now());
      if (limited) throw Object.assign(new HttpError(429, limited.error), { headers: { 'retry-after': String(limited.retryAfter) } });
      if (!(await verifyPassword(current, await users.passwordHash(id), passwordCost))) {
        await sessions.accountFailed(emailKey(email), now());
        throw new HttpError(403, 'the current password is wrong', 'currentPassword');
      }
      await users.setPassword(id, await hashPassword(password, passwordCost));
      await sessions.closeUser(id, callerOf(request).sessionToken);
    } else if (body.currentPassword !== undefined) {
      throw new HttpError(400, 'currentPassword goes with a new password', 'currentPassword');
    }
    const before = await users.get(id);
    if (name !== undefined) await users.update(id, { name });
    const after = await users.get(id);
    // Never the password: that it changed.
    await app.audit(request, { action: 'me.updated', target: email, before, after: { ...after, ...(body.password !== undefined ? { passwordChanged: true } : {}) } });
    return after;
  });
}
