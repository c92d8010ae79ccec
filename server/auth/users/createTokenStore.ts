/**
 * Personal API tokens (issue #33, docs/users-and-roles.md): a signed-in user makes named tokens for scripts, sent as
 * `Authorization: Bearer wmu_...`, acting with that user's role as the users table holds it at each request. A token
 * is shown once, stored by its SHA-256 (a copy of the database opens nothing), and revoked by deleting its row:
 * the next request that carries it is a 401 on every collector. Each use stamps `last_used_at` (at most once a
 * minute per token, so a busy script does not write a row per request).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../storage/Database';
import { hashToken, type SessionUser } from '../createAuthStore';
import type { PersonalToken as TokenInfo } from '../../../shared/api';

/** The personal tokens table; with USERS_SCHEMA, migration 14. */
export const TOKENS_SCHEMA = `
create table if not exists user_tokens (
  id text primary key,
  user_id text not null,
  name text not null,
  token_hash text not null unique,
  created_at bigint not null,
  last_used_at bigint
);
create index if not exists user_tokens_by_user on user_tokens (user_id);
`;

/** Every personal token starts so: a 401 can say which kind of token failed. */
export const USER_TOKEN_PREFIX = 'wmu_';
/** Tokens one user may hold at once. */
export const MAX_TOKENS_PER_USER = 50;
/** How stale `last_used_at` may be before a use writes it again. */
const LAST_USED_STEP_MS = 60_000;

export interface TokenStore {
  /** A new token of `userId`, with the token itself (shown once); `too many` past MAX_TOKENS_PER_USER. */
  create(userId: string, name: string, now: number): Promise<(TokenInfo & { token: string }) | 'too many'>;
  /** The user's tokens, newest first. */
  list(userId: string): Promise<TokenInfo[]>;
  /** The token `token` is and its (live) user, stamping its use; undefined when revoked, unknown or its user removed. */
  use(token: string, now: number): Promise<{ id: string; name: string; user: SessionUser } | undefined>;
  /** Revokes one of the user's tokens; false when they hold none of that id. */
  revoke(userId: string, id: string): Promise<boolean>;
  /** Revokes all of a user's tokens (their removal). */
  revokeAll(userId: string): Promise<void>;
}

interface TokenRow {
  id: string;
  name: string;
  created_at: string | number;
  last_used_at: string | number | null;
}

const infoOf = (row: TokenRow): TokenInfo => ({
  id: row.id,
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
});

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createTokenStore(db: Database): TokenStore {
  return {
    async create(userId, name, now) {
      const token = USER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
      // One statement, so the count bounds what it inserts (two racing may pass it together: off by one at most).
      const { rows } = await db.query<TokenRow>(
        `insert into user_tokens (id, user_id, name, token_hash, created_at)
         select $1, $2, $3, $4, $5 where (select count(*) from user_tokens where user_id = $2) < $6
         returning id, name, created_at, last_used_at`,
        [randomUUID(), userId, name, hashToken(token), now, MAX_TOKENS_PER_USER],
      );
      return rows[0] ? { ...infoOf(rows[0]), token } : 'too many';
    },
    async list(userId) {
      const { rows } = await db.query<TokenRow>('select id, name, created_at, last_used_at from user_tokens where user_id = $1 order by created_at desc, id', [userId]);
      return rows.map(infoOf);
    },
    async use(token, now) {
      const { rows } = await db.query<TokenRow & { user_id: string; email: string; user_name: string; role: SessionUser['role'] }>(
        `select t.id, t.name, t.created_at, t.last_used_at, u.id as user_id, u.email, u.name as user_name, u.role
         from user_tokens t join users u on u.id = t.user_id and u.removed_at is null where t.token_hash = $1`,
        [hashToken(token)],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_STEP_MS) {
        await db.query('update user_tokens set last_used_at = $2 where id = $1', [row.id, now]);
      }
      return { id: row.id, name: row.name, user: { id: row.user_id, email: row.email, name: row.user_name, role: row.role } };
    },
    async revoke(userId, id) {
      return (await db.query('delete from user_tokens where user_id = $1 and id = $2 returning id', [userId, id])).rows.length > 0;
    },
    async revokeAll(userId) {
      await db.query('delete from user_tokens where user_id = $1', [userId]);
    },
  };
}
