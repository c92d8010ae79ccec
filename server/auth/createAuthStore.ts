/**
 * Sign-in state every collector shares (issue #31): console sessions, designer sessions and failed login attempts
 * live in the database, so a login made on one collector is valid on every other behind the same load balancer, a
 * logout or revocation ends it everywhere at once, and a restart signs no one out. A session is stored by the
 * SHA-256 of its token, never the token: a copy of the database opens no console. Expired rows are deleted by
 * `purge` (hourly, and at each login). Plain SQL that PGlite and PostgreSQL both run.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../storage/Database';

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

/** A live session, as its token opens it. */
export interface Session {
  kind: SessionKind;
  /** The app a designer session is limited to; absent for a console login. */
  apiKey?: string;
  expiresAt: number;
}

/** The sign-in tables. `now` is passed in, so tests pin expiry exactly. */
export interface AuthStore {
  /** Makes a session and answers its token (`prefix` + 43 base64url characters), shown once to its holder. */
  open(kind: SessionKind, ttlMs: number, now: number, options?: { apiKey?: string; prefix?: string }): Promise<{ token: string; expiresAt: number }>;
  /** The live session `token` opens, or undefined (unknown, ended, or expired). */
  find(token: string, now: number): Promise<Session | undefined>;
  /** Ends the session `token` opens, on every collector at once. */
  close(token: string): Promise<void>;
  /** Failed login attempts from `address` since `since`, and the earliest of them. */
  failures(address: string, since: number): Promise<{ count: number; first?: number }>;
  failed(address: string, now: number): Promise<void>;
  /** A good login forgets the address's failures. */
  succeeded(address: string): Promise<void>;
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
      await db.query('insert into auth_sessions (token_hash, kind, api_key, created_at, expires_at) values ($1, $2, $3, $4, $5)', [
        hashToken(token),
        kind,
        options.apiKey ?? null,
        now,
        expiresAt,
      ]);
      return { token, expiresAt };
    },
    async find(token, now) {
      const { rows } = await db.query<{ kind: SessionKind; api_key: string | null; expires_at: string | number }>(
        'select kind, api_key, expires_at from auth_sessions where token_hash = $1 and expires_at > $2',
        [hashToken(token), now],
      );
      const row = rows[0];
      if (!row) return undefined;
      return { kind: row.kind, ...(row.api_key !== null ? { apiKey: row.api_key } : {}), expiresAt: Number(row.expires_at) };
    },
    async close(token) {
      await db.query('delete from auth_sessions where token_hash = $1', [hashToken(token)]);
    },
    async failures(address, since) {
      const { rows } = await db.query<{ count: string | number; first: string | number | null }>(
        'select count(*) as count, min(failed_at) as first from login_failures where address = $1 and failed_at > $2',
        [address, since],
      );
      const first = rows[0]?.first;
      return { count: Number(rows[0]?.count ?? 0), ...(first !== null && first !== undefined ? { first: Number(first) } : {}) };
    },
    async failed(address, now) {
      await db.query('insert into login_failures (address, failed_at) values ($1, $2)', [address, now]);
    },
    async succeeded(address) {
      await db.query('delete from login_failures where address = $1', [address]);
    },
    async purge(now, failuresBefore) {
      await db.query('delete from auth_sessions where expires_at <= $1', [now]);
      await db.query('delete from login_failures where failed_at <= $1', [failuresBefore]);
    },
  };
}
