/**
 * The collector's `logs` table: what the agent sent on the log beacon and the error log (analytics §7),
 * kept in arrival order for tests and the demo to read back. Plain SQL that PGlite and PostgreSQL both run.
 */
import type { Database } from '../storage/Database';
import { rethrowAsClientDataError } from '../HttpError';

/** Which call a row came in on: `log` for GET /data/log.gif, `error` for POST /data/errorlog. */
export type LogKind = 'log' | 'error';

/** A received log line or error, as stored. */
export interface StoredLog {
  kind: LogKind;
  message: string;
  /** Agent version the request carried, null when it had none. */
  version: string | null;
  /** Visitor of an error log, null for log beacons and when absent. */
  visitorId: string | null;
  /** Epoch ms when the server stored it. */
  receivedAt: number;
}

/** Filters of `listLogs`; each given field must match. */
export interface LogFilter {
  apiKey: string;
  kind?: LogKind;
  /** Most rows returned, oldest first. */
  limit: number;
}

/** Storage of received logs. */
export interface LogStore {
  /** Stores one row. Text PostgreSQL refuses (a NUL character) is a 400. */
  insert(apiKey: string, log: Omit<StoredLog, 'receivedAt'>, receivedAt: number): Promise<void>;
  /** Rows in arrival order. */
  listLogs(filter: LogFilter): Promise<StoredLog[]>;
}

/** The table's schema: a migration of server/storage/migrations/MIGRATIONS.ts. */
export const LOGS_SCHEMA = `
create table if not exists logs (
  id bigserial primary key,
  api_key text not null,
  kind text not null check (kind in ('log', 'error')),
  message text not null,
  version text,
  visitor_id text,
  received_at bigint not null
);
create index if not exists logs_by_key on logs (api_key, kind, id);
`;

const INSERT = `insert into logs (api_key, kind, message, version, visitor_id, received_at) values ($1, $2, $3, $4, $5, $6)`;

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createLogStore(db: Database): LogStore {
  return {

    async insert(apiKey, log, receivedAt) {
      try {
        await db.query(INSERT, [apiKey, log.kind, log.message, log.version, log.visitorId, receivedAt]);
      } catch (err) {
        rethrowAsClientDataError(err, 'log');
      }
    },

    async listLogs(filter) {
      const params: unknown[] = [filter.apiKey];
      let where = 'api_key = $1';
      if (filter.kind !== undefined) {
        params.push(filter.kind);
        where += ` and kind = $${params.length}`;
      }
      params.push(filter.limit);
      const sql = `select kind, message, version, visitor_id, received_at from logs where ${where} order by id limit $${params.length}`;
      const result = await db.query<{
        kind: LogKind;
        message: string;
        version: string | null;
        visitor_id: string | null;
        received_at: string | number;
      }>(sql, params);
      return result.rows.map((row) => ({
        kind: row.kind,
        message: row.message,
        version: row.version,
        visitorId: row.visitor_id,
        // pg returns bigint columns as strings, PGlite as numbers.
        receivedAt: Number(row.received_at),
      }));
    },
  };
}
