/**
 * Sign-in state every collector shares (issue #31): console sessions, designer sessions and failed login attempts
 * live in the database, so a login made on one collector is valid on every other behind the same load balancer, a
 * logout or revocation ends it everywhere at once, and a restart signs no one out. A session is stored by the
 * SHA-256 of its token, never the token: a copy of the database opens no console. Expired rows are deleted by
 * `purge` (hourly, and at each login). Plain SQL that PGlite and PostgreSQL both run.
 *
 * Since issue #33 a session may belong to a user (`user_id`, migration 14): it then acts with that user's role as
 * the users table holds it now, and reads no more once the user is removed; `closeUser` ends them all at once (a
 * role change, a removal, a new password). Failed logins are counted per account too (`account_login_failures`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../storage/Database';
import type { Role } from './roles';

/** The schema: migration 12 of server/storage/migrations/MIGRATIONS.ts. */
export const AUTH_SCHEMA = `
create table if not exists auth_sessions (
  token_hash text primary key,
  kind text not null,
  api_key text,
  created_at bigint not null,
  expires_at bigint not null
);
create index if not exists auth_sessions_by_expiry on auth_sessions (expires_at);
create table if not exists login_failures (
  address text not null,
  failed_at bigint not null
);
create index if not exists login_failures_by_address on login_failures (address, failed_at);
`;

/** A console login, or a designer's session of one app. */
export type SessionKind = 'console' | 'designer';

/** The user a session or a personal token acts for, as the users table holds them now. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/** A live session, as its token opens it. */
export interface Session {
  kind: SessionKind;
  /** The app a designer session is limited to; absent for a console login. */
  apiKey?: string;
  expiresAt: number;
  /** The user signed in; absent for a session opened with the admin token (which acts as an admin). */
  user?: SessionUser;
}

/** The sign-in tables. `now` is passed in, so tests pin expiry exactly. */
export interface AuthStore {
  /** Makes a session and answers its token (`prefix` + 43 base64url characters), shown once to its holder. */
  open(kind: SessionKind, ttlMs: number, now: number, options?: { apiKey?: string; prefix?: string; userId?: string }): Promise<{ token: string; expiresAt: number }>;
  /** The live session `token` opens, or undefined (unknown, ended, expired, or its user removed). */
  find(token: string, now: number): Promise<Session | undefined>;
  /** Ends the session `token` opens, on every collector at once. */
  close(token: string): Promise<void>;
  /** Ends every session (console and designer) of a user, but the one `except` opens. */
  closeUser(userId: string, except?: string): Promise<void>;
  /** Failed login attempts from `address` since `since`, and the earliest of them. */
  failures(address: string, since: number): Promise<{ count: number; first?: number }>;
  failed(address: string, now: number): Promise<void>;
  /** A good login forgets the address's failures. */
  succeeded(address: string): Promise<void>;
  /** Failed password attempts on an account (a lower-cased email, whether a user has it or not) since `since`. */
  accountFailures(account: string, since: number): Promise<{ count: number; first?: number }>;
  accountFailed(account: string, now: number): Promise<void>;
  /** A good password forgets the account's failures. */
  accountSucceeded(account: string): Promise<void>;
  /** Deletes expired sessions and failures older than `failuresBefore`. */
  purge(now: number, failuresBefore: number): Promise<void>;
}

/** How a token is stored: its SHA-256, base64url. */
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createAuthStore(db: Database): AuthStore {
  return {
    async open(kind, ttlMs, now, options = {}) {
      const token = (options.prefix ?? '') + randomBytes(32).toString('base64url');
      const expiresAt = now + ttlMs;
      await db.query('insert into auth_sessions (token_hash, kind, api_key, created_at, expires_at, user_id) values ($1, $2, $3, $4, $5, $6)', [
        hashToken(token),
        kind,
        options.apiKey ?? null,
        now,
        expiresAt,
        options.userId ?? null,
      ]);
      return { token, expiresAt };
    },
    async find(token, now) {
      // The user's role as it is now: a role changed or a user removed on another collector holds here at once.
      const { rows } = await db.query<SessionRow>(
        `select s.kind, s.api_key, s.expires_at, s.user_id, u.email, u.name, u.role
         from auth_sessions s left join users u on u.id = s.user_id and u.removed_at is null
         where s.token_hash = $1 and s.expires_at > $2`,
        [hashToken(token), now],
      );
      const row = rows[0];
      if (!row || (row.user_id !== null && row.role === null)) return undefined;
      return {
        kind: row.kind,
        ...(row.api_key !== null ? { apiKey: row.api_key } : {}),
        expiresAt: Number(row.expires_at),
        ...(row.user_id !== null ? { user: { id: row.user_id, email: row.email!, name: row.name!, role: row.role! } } : {}),
      };
    },
    async close(token) {
      await db.query('delete from auth_sessions where token_hash = $1', [hashToken(token)]);
    },
    async closeUser(userId, except) {
      await db.query('delete from auth_sessions where user_id = $1 and token_hash <> $2', [userId, except ? hashToken(except) : '']);
    },
    failures: (address, since) => countFailures(db, 'login_failures', 'address', address, since),
    async failed(address, now) {
      await db.query('insert into login_failures (address, failed_at) values ($1, $2)', [address, now]);
    },
    async succeeded(address) {
      await db.query('delete from login_failures where address = $1', [address]);
    },
    accountFailures: (account, since) => countFailures(db, 'account_login_failures', 'account', account, since),
    async accountFailed(account, now) {
      await db.query('insert into account_login_failures (account, failed_at) values ($1, $2)', [account, now]);
    },
    async accountSucceeded(account) {
      await db.query('delete from account_login_failures where account = $1', [account]);
    },
    async purge(now, failuresBefore) {
      await db.query('delete from auth_sessions where expires_at <= $1', [now]);
      await db.query('delete from login_failures where failed_at <= $1', [failuresBefore]);
      await db.query('delete from account_login_failures where failed_at <= $1', [failuresBefore]);
    },
  };
}

interface SessionRow {
  kind: SessionKind;
  api_key: string | null;
  expires_at: string | number;
  user_id: string | null;
  email: string | null;
  name: string | null;
  role: Role | null;
}

/** The failures of one key (an address, an account) since `since`: their count and the earliest. */
async function countFailures(db: Database, table: string, column: string, key: string, since: number): Promise<{ count: number; first?: number }> {
  const { rows } = await db.query<{ count: string | number; first: string | number | null }>(
    `select count(*) as count, min(failed_at) as first from ${table} where ${column} = $1 and failed_at > $2`,
    [key, since],
  );
  const first = rows[0]?.first;
  return { count: Number(rows[0]?.count ?? 0), ...(first !== null && first !== undefined ? { first: Number(first) } : {}) };
}
