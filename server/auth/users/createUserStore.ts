/**
 * The people who use the console (issue #33, docs/users-and-roles.md), in the database so every collector agrees:
 * users (email unique among live users whatever its case, name, role, scrypt hash of the password) and their
 * invitations (one-use links that set a password, stored by the SHA-256 of their token, 7 days). A removed user's
 * row stays (removed_at), so what they did keeps a name; their email is free for a new user at once.
 *
 * Changes that could leave no admin (a demotion, a removal) run one at a time across collectors (an advisory lock,
 * Database.exclusive): two admins demoting each other at the same moment leave one admin, not none.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../storage/Database';
import { hashToken } from '../createAuthStore';
import type { ConsoleUser } from '../../../shared/api/users';
import type { Role } from '../roles';

/** The schema of users, invitations and per-account login failures; with TOKENS_SCHEMA, migration 14. */
export const USERS_SCHEMA = `
create table if not exists users (
  id text primary key,
  email text not null,
  email_key text not null,
  name text not null default '',
  role text not null check (role in ('admin', 'editor', 'viewer')),
  password_hash text,
  created_at bigint not null,
  last_sign_in_at bigint,
  removed_at bigint
);
create unique index if not exists users_by_email on users (email_key) where removed_at is null;
create table if not exists user_invitations (
  token_hash text primary key,
  user_id text not null,
  created_at bigint not null,
  expires_at bigint not null,
  used_at bigint
);
create index if not exists user_invitations_by_user on user_invitations (user_id);
create table if not exists account_login_failures (
  account text not null,
  failed_at bigint not null
);
create index if not exists account_login_failures_by_account on account_login_failures (account, failed_at);
alter table auth_sessions add column if not exists user_id text;
create index if not exists auth_sessions_by_user on auth_sessions (user_id);
`;

/** How long an invitation link opens: 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/** Used and expired invitations are kept this long past their end, so their link says why it no longer opens. */
const INVITATION_KEPT_MS = 30 * 24 * 3_600_000;
/** The advisory lock of changes to who is an admin ("wmus" in ASCII, in 31 bits). */
const USERS_LOCK_KEY = 0x77_6d_75_73;

/** A user as the API answers it (shared/api/users.ts: the console reads the same type). */
export type User = ConsoleUser;

/** What an invitation link is now. */
export type InvitationState = 'valid' | 'used' | 'expired';

/** The users and invitations tables. `now` is passed in, so tests pin expiry exactly. */
export interface UserStore {
  /** A new user, or `taken` when a live user has this email (any case). */
  create(fields: { email: string; name: string; role: Role; passwordHash: string | null }, now: number): Promise<User | 'taken'>;
  /** Live users, oldest first. */
  list(): Promise<User[]>;
  get(id: string): Promise<User | undefined>;
  /** The live user of an email (any case) and their password hash, for a login. */
  byEmail(email: string): Promise<{ user: User; passwordHash: string | null } | undefined>;
  passwordHash(id: string): Promise<string | null | undefined>;
  /** Changes a name or a role; `last admin` when the change would leave no admin. */
  update(id: string, fields: { name?: string; role?: Role }): Promise<User | 'last admin' | undefined>;
  setPassword(id: string, passwordHash: string): Promise<void>;
  signedIn(id: string, now: number): Promise<void>;
  /** Removes a user (their invitations with them); `last admin` when they are the only admin left. */
  remove(id: string, now: number): Promise<'removed' | 'last admin' | undefined>;
  /** A new invitation of a live user (their earlier ones end), and its token, shown once. */
  invite(userId: string, now: number): Promise<{ token: string; expiresAt: number }>;
  /** The invitation `token` opens and its user, or undefined (unknown, purged, or its user removed). */
  findInvitation(token: string, now: number): Promise<{ userId: string; state: InvitationState; expiresAt: number } | undefined>;
  /** Marks a valid invitation used, once whatever collectors race: answers its user, or undefined. */
  useInvitation(token: string, now: number): Promise<string | undefined>;
  /** Deletes invitations ended more than 30 days ago. */
  purge(now: number): Promise<void>;
}

/** How an email is compared: trimmed, lower case. */
export const emailKey = (email: string) => email.trim().toLowerCase();

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  created_at: string | number;
  last_sign_in_at: string | number | null;
}

const COLUMNS = 'id, email, name, role, password_hash, created_at, last_sign_in_at';

const userOf = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.password_hash === null && row.last_sign_in_at === null ? 'invited' : 'active',
  createdAt: Number(row.created_at),
  lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
});

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createUserStore(db: Database): UserStore {
  const one = async (sql: string, params: unknown[]) => (await db.query<UserRow>(sql, params)).rows[0];
  /** Whether a live admin other than `id` remains; run inside the users lock. */
  const otherAdmin = async (conn: Database, id: string) =>
    (await conn.query("select 1 from users where role = 'admin' and removed_at is null and id <> $1 limit 1", [id])).rows.length > 0;

  return {
    async create({ email, name, role, passwordHash }, now) {
      try {
        const row = await one(
          `insert into users (id, email, email_key, name, role, password_hash, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
          [randomUUID(), email.trim(), emailKey(email), name, role, passwordHash, now],
        );
        return userOf(row!);
      } catch (err) {
        // 23505: the unique index of live emails (two creations racing included).
        if ((err as { code?: string }).code === '23505') return 'taken';
        throw err;
      }
    },
    async list() {
      return (await db.query<UserRow>(`select ${COLUMNS} from users where removed_at is null order by created_at, id`)).rows.map(userOf);
    },
    async get(id) {
      const row = await one(`select ${COLUMNS} from users where id = $1 and removed_at is null`, [id]);
      return row && userOf(row);
    },
    async byEmail(email) {
      const row = await one(`select ${COLUMNS} from users where email_key = $1 and removed_at is null`, [emailKey(email)]);
      return row && { user: userOf(row), passwordHash: row.password_hash };
    },
    async passwordHash(id) {
      return (await one(`select ${COLUMNS} from users where id = $1 and removed_at is null`, [id]))?.password_hash;
    },
    update(id, { name, role }) {
      return db.exclusive(USERS_LOCK_KEY, async (conn) => {
        const current = (await conn.query<UserRow>(`select ${COLUMNS} from users where id = $1 and removed_at is null`, [id])).rows[0];
        if (!current) return undefined;
        if (current.role === 'admin' && role !== undefined && role !== 'admin' && !(await otherAdmin(conn, id))) return 'last admin';
        const row = (
          await conn.query<UserRow>(`update users set name = coalesce($2, name), role = coalesce($3, role) where id = $1 and removed_at is null returning ${COLUMNS}`, [
            id,
            name ?? null,
            role ?? null,
          ])
        ).rows[0];
        return row && userOf(row);
      });
    },
    async setPassword(id, passwordHash) {
      await db.query('update users set password_hash = $2 where id = $1 and removed_at is null', [id, passwordHash]);
    },
    async signedIn(id, now) {
      await db.query('update users set last_sign_in_at = $2 where id = $1', [id, now]);
    },
    remove(id, now) {
      return db.exclusive(USERS_LOCK_KEY, async (conn) => {
        const current = (await conn.query<UserRow>(`select ${COLUMNS} from users where id = $1 and removed_at is null`, [id])).rows[0];
        if (!current) return undefined;
        if (current.role === 'admin' && !(await otherAdmin(conn, id))) return 'last admin';
        await conn.query('update users set removed_at = $2 where id = $1', [id, now]);
        await conn.query('delete from user_invitations where user_id = $1', [id]);
        return 'removed';
      });
    },
    async invite(userId, now) {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = now + INVITATION_TTL_MS;
      await db.query('delete from user_invitations where user_id = $1 and used_at is null', [userId]);
      await db.query('insert into user_invitations (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)', [hashToken(token), userId, now, expiresAt]);
      return { token, expiresAt };
    },
    async findInvitation(token, now) {
      const { rows } = await db.query<{ user_id: string; expires_at: string | number; used_at: string | number | null }>(
        `select i.user_id, i.expires_at, i.used_at from user_invitations i join users u on u.id = i.user_id and u.removed_at is null
         where i.token_hash = $1`,
        [hashToken(token)],
      );
      const row = rows[0];
      if (!row) return undefined;
      const expiresAt = Number(row.expires_at);
      return { userId: row.user_id, state: row.used_at !== null ? 'used' : expiresAt <= now ? 'expired' : 'valid', expiresAt };
    },
    async useInvitation(token, now) {
      // One statement: of two acceptances racing on two collectors, one updates the row and the other finds it used.
      const { rows } = await db.query<{ user_id: string }>(
        'update user_invitations set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id',
        [hashToken(token), now],
      );
      return rows[0]?.user_id;
    },
    async purge(now) {
      await db.query('delete from user_invitations where expires_at <= $1 or used_at <= $1', [now - INVITATION_KEPT_MS]);
    },
  };
}
