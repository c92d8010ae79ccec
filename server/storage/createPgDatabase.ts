/**
 * Storage on a real PostgreSQL (DATABASE_URL) through the `pg` package (node-postgres), a development dependency
 * like the rest of the server's: imported at run time only when a DATABASE_URL is given, so a server without it
 * installed still runs on PGlite and says what to install when asked for PostgreSQL. The server tests run on a
 * real PostgreSQL too (vitest.postgres.config.ts).
 */
import type { Database, QueryResult } from './Database';

/** The part of `pg.Pool` used here, typed locally because `pg` (and its types) may not be installed. */
interface PgClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

interface PgPool extends PgClient {
  connect(): Promise<PgClient & { release(err?: Error | boolean): void }>;
  on(event: 'error', listener: (err: Error) => void): void;
  end(): Promise<void>;
}

interface PgModule {
  Pool: new (config: { connectionString: string; max?: number }) => PgPool;
}

/**
 * Connects a `pg` pool to `databaseUrl`. Throws a clear Error when `pg` is not installed, and when the
 * database cannot be reached (checked with one `select 1` so a wrong URL fails at start, not at the first beacon).
 */
export async function createPgDatabase(databaseUrl: string): Promise<Database> {
  let pg: PgModule;
  try {
    // A variable specifier keeps TypeScript and bundlers from resolving 'pg' at build time.
    const specifier = 'pg';
    const loaded = (await import(specifier)) as PgModule & { default?: PgModule };
    pg = loaded.default ?? loaded;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(
        "DATABASE_URL is set but the 'pg' package is not installed. Run `npm install pg`, or unset DATABASE_URL to use the embedded PGlite database.",
      );
    }
    throw err;
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle connection dropped by the server (a restart) is an event of the pool: the pool replaces it at the
  // next query, and the queries meanwhile fail as unavailable (503). Unheard, the event would end the process.
  pool.on('error', (err) => console.warn(`waymark: a PostgreSQL connection closed: ${err.message}`));
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`cannot connect to the PostgreSQL database of DATABASE_URL: ${(err as Error).message}`);
  }
  return {
    ...on(pool),
    async exclusive(key, fn) {
      // A session lock lives on its connection, so every statement of `fn` runs on that one too.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          const notAgain = () => Promise.reject(new Error('exclusive sections do not nest'));
          return await fn({ ...on(client), exclusive: notAgain, close: async () => undefined });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** query and exec on the pool, or on one of its connections. */
function on(client: PgClient): Pick<Database, 'query' | 'exec'> {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[] };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple query protocol, which accepts several statements at once.
      await client.query(sql);
    },
  };
}
