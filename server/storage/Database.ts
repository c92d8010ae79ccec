/**
 * The storage port of the reference server: the three calls the event store needs, so the same SQL runs on
 * the embedded PGlite (default, no install) and on a real PostgreSQL through `pg` (DATABASE_URL).
 */

/** The result of one statement. */
export interface QueryResult<T> {
  rows: T[];
}

/** A PostgreSQL-speaking database. Implementations: `createPgliteDatabase`, `createPgDatabase`. */
export interface Database {
  /** Runs one statement with `$1`-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs one or more statements without parameters (schema set-up). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` on one connection while holding the advisory lock `key`, so that collectors started together on
   * one database take turns (schema migrations). Released when `fn` settles.
   */
  exclusive<T>(key: number, fn: (db: Database) => Promise<T>): Promise<T>;
  /** Releases the database; no call may follow. */
  close(): Promise<void>;
}
