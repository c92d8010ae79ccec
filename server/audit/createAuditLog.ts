/**
 * The audit trail (issue #33): every change made through the API, append-only, in the database shared by every
 * collector. Who (a user, a personal token and its user, a designer session, the admin token, or the address of a
 * refused sign-in), when, from which address, which app, what, and the before and after of what changed.
 * Rows are only ever inserted: no statement here or anywhere updates or deletes one, and the table's trigger
 * refuses it (kept forever; a deployment that must trim it does so with its own SQL, dropping the trigger first).
 * Plain SQL that PGlite and PostgreSQL both run.
 */
import type { AuditActor, AuditEntry } from '../../shared/api/audit';
import type { Database } from '../storage/Database';

// The entry's shape is the API's answer too (GET /api/audit): one description, in shared/api/audit.ts.
export type { AuditActor, AuditChange, AuditEntry } from '../../shared/api/audit';

/** Filters of a read; every field optional. */
export interface AuditFilter {
  apiKey?: string;
  /** A user id, an email, a token name, or `admin token`. */
  actor?: string;
  /** An action, or its prefix ending with `.` (`guide.`). */
  action?: string;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
  /** Entries older than this id (the previous page's `next`). */
  before?: number;
  limit: number;
}

/** The audit table. */
export interface AuditLog {
  /** Appends one entry. */
  append(entry: Omit<AuditEntry, 'id'>): Promise<void>;
  /** Entries newest first, at most `limit`. */
  list(filter: AuditFilter): Promise<AuditEntry[]>;
}

/** The table's schema: a migration of server/storage/migrations/MIGRATIONS.ts. */
export const AUDIT_SCHEMA = `
create table audit_log (
  id bigserial primary key,
  at bigint not null,
  actor_kind text not null,
  actor_user_id text,
  actor_email text,
  actor_token text,
  address text not null,
  api_key text,
  action text not null,
  target text,
  before jsonb,
  after jsonb
);
create index audit_log_by_time on audit_log (at desc, id desc);
create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the audit log is append-only';
end;
$$;
create trigger audit_log_append_only before update or delete on audit_log
  for each row execute function audit_log_append_only();
`;

type Row = {
  id: number | string; at: number | string; actor_kind: AuditActor['kind']; actor_user_id: string | null; actor_email: string | null;
  actor_token: string | null; address: string; api_key: string | null; action: string; target: string | null; before: unknown; after: unknown;
};

const toEntry = (row: Row): AuditEntry => ({
  id: Number(row.id),
  at: Number(row.at),
  actor: {
    kind: row.actor_kind,
    ...(row.actor_user_id !== null ? { userId: row.actor_user_id } : {}),
    ...(row.actor_email !== null ? { email: row.actor_email } : {}),
    ...(row.actor_token !== null ? { tokenName: row.actor_token } : {}),
  },
  address: row.address,
  action: row.action,
  ...(row.api_key !== null ? { apiKey: row.api_key } : {}),
  ...(row.target !== null ? { target: row.target } : {}),
  ...(row.before !== null ? { before: row.before } : {}),
  ...(row.after !== null ? { after: row.after } : {}),
});

// undefined is not JSON: an absent before/after is SQL null.
const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createAuditLog(db: Database): AuditLog {
  return {
    async append({ at, actor, address, action, apiKey, target, before, after }) {
      await db.query(
        `insert into audit_log (at, actor_kind, actor_user_id, actor_email, actor_token, address, api_key, action, target, before, after)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb)`,
        [at, actor.kind, actor.userId ?? null, actor.email ?? null, actor.tokenName ?? null, address, apiKey ?? null, action, target ?? null, json(before), json(after)],
      );
    },

    async list({ apiKey, actor, action, from, to, before, limit }) {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      if (apiKey !== undefined) where.push(`api_key = ${param(apiKey)}`);
      if (actor !== undefined) {
        const p = param(actor);
        where.push(`(actor_user_id = ${p} or lower(actor_email) = lower(${p}) or actor_token = ${p} or actor_kind = ${p})`);
      }
      if (action !== undefined) {
        where.push(action.endsWith('.') ? `starts_with(action, ${param(action)})` : `action = ${param(action)}`);
      }
      if (from !== undefined) where.push(`at >= ${param(from)}`);
      if (to !== undefined) where.push(`at < ${param(to)}`);
      if (before !== undefined) where.push(`id < ${param(before)}`);
      const result = await db.query<Row>(
        `select * from audit_log ${where.length ? `where ${where.join(' and ')}` : ''} order by id desc limit ${param(limit)}`,
        params,
      );
      return result.rows.map(toEntry);
    },
  };
}
