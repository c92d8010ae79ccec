/**
 * Single sign-on's state in the database (issue #33, migration 16), so that any collector finishes a sign-in another
 * started:
 * - `sso_states`: a sign-in under way, from its start to the provider's answer: the PKCE verifier, the nonce, the
 *   redirect URI sent, where to land, the browser's binding (the SHA-256 of a cookie's value). Stored by the SHA-256
 *   of its `state`, valid 10 minutes, taken once: one `delete ... returning` decides between two collectors racing.
 * - `sso_identities`: the provider account (issuer, subject) a user first signed in with; a later sign-in with the
 *   same email from another account of that provider is refused (an email recycled or re-assigned at the provider).
 * Plain SQL that PGlite and PostgreSQL both run.
 */
import type { Database } from '../../storage/Database';
import { hashToken } from '../createAuthStore';
import { emailKey } from '../users/createUserStore';

/** The schema: migration 16 of server/storage/migrations/MIGRATIONS.ts. */
export const SSO_SCHEMA = `
create table sso_states (
  state_hash text primary key,
  browser_hash text not null,
  code_verifier text not null,
  nonce text not null,
  redirect_uri text not null,
  return_path text not null,
  address text not null,
  created_at bigint not null,
  expires_at bigint not null
);
create index sso_states_by_expiry on sso_states (expires_at);
create index sso_states_by_address on sso_states (address, created_at);
create table sso_identities (
  user_id text not null,
  issuer text not null,
  subject text not null,
  created_at bigint not null,
  primary key (user_id, issuer)
);
`;

/** How long a sign-in may take between its start and the provider's answer. */
export const SSO_STATE_TTL_MS = 10 * 60_000;

/** A sign-in under way, as its start stored it. */
export interface SsoState {
  /** SHA-256 of the browser cookie's value set at the start. */
  browserHash: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  returnPath: string;
  expiresAt: number;
}

export interface SsoStore {
  /** Stores a sign-in under way, by its `state`. */
  put(state: string, value: Omit<SsoState, 'expiresAt'>, address: string, now: number): Promise<void>;
  /** Takes the sign-in of `state` (it opens nothing afterwards, expired or not), or undefined (unknown or taken). */
  take(state: string): Promise<SsoState | undefined>;
  /** Sign-ins started from `address` since `since` (a bound per address). */
  startedFrom(address: string, since: number): Promise<number>;
  /** Whether a user of this email (any case) was removed. */
  wasRemoved(email: string): Promise<boolean>;
  /** The provider subject a user is bound to at `issuer`, or undefined. */
  subjectOf(userId: string, issuer: string): Promise<string | undefined>;
  /** Binds a user to a provider subject (the first binding stays). */
  bind(userId: string, issuer: string, subject: string, now: number): Promise<void>;
  /** Ends a user's invitations not yet used (a sign-in by SSO accepted it). */
  endInvitations(userId: string, now: number): Promise<void>;
  /** Deletes sign-ins past their time. */
  purge(now: number): Promise<void>;
}

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createSsoStore(db: Database): SsoStore {
  return {
    async put(state, value, address, now) {
      await db.query(
        `insert into sso_states (state_hash, browser_hash, code_verifier, nonce, redirect_uri, return_path, address, created_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [hashToken(state), value.browserHash, value.codeVerifier, value.nonce, value.redirectUri, value.returnPath, address, now, now + SSO_STATE_TTL_MS],
      );
    },
    async take(state) {
      const { rows } = await db.query<{ browser_hash: string; code_verifier: string; nonce: string; redirect_uri: string; return_path: string; expires_at: string | number }>(
        'delete from sso_states where state_hash = $1 returning browser_hash, code_verifier, nonce, redirect_uri, return_path, expires_at',
        [hashToken(state)],
      );
      const row = rows[0];
      return row && {
        browserHash: row.browser_hash,
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        redirectUri: row.redirect_uri,
        returnPath: row.return_path,
        expiresAt: Number(row.expires_at),
      };
    },
    async startedFrom(address, since) {
      const { rows } = await db.query<{ count: string | number }>('select count(*) as count from sso_states where address = $1 and created_at > $2', [address, since]);
      return Number(rows[0]?.count ?? 0);
    },
    async wasRemoved(email) {
      return (await db.query('select 1 from users where email_key = $1 and removed_at is not null limit 1', [emailKey(email)])).rows.length > 0;
    },
    async subjectOf(userId, issuer) {
      return (await db.query<{ subject: string }>('select subject from sso_identities where user_id = $1 and issuer = $2', [userId, issuer])).rows[0]?.subject;
    },
    async bind(userId, issuer, subject, now) {
      await db.query('insert into sso_identities (user_id, issuer, subject, created_at) values ($1, $2, $3, $4) on conflict do nothing', [userId, issuer, subject, now]);
    },
    async endInvitations(userId, now) {
      await db.query('update user_invitations set used_at = $2 where user_id = $1 and used_at is null', [userId, now]);
    },
    async purge(now) {
      await db.query('delete from sso_states where expires_at <= $1', [now]);
    },
  };
}
