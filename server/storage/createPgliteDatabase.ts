/**
 * The default storage: PGlite, PostgreSQL compiled to WebAssembly, so `npm start` needs no database server.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult } from './Database';
import { lockDataFolder } from './lockDataFolder';

/**
 * Opens PGlite on a data folder (created if missing, locked to this process: lockDataFolder), or in memory with
 * `'memory://'`, which may start from `memoryTemplate`, a data folder dumped by PGlite (`dumpDataDir`), instead of
 * an initdb of its own.
 * PGlite runs one statement at a time; concurrent callers queue inside it.
 */
export async function createPgliteDatabase(dataDir: string, memoryTemplate?: Blob): Promise<Database> {
  let unlock = () => undefined as void;
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataFolder(dataDir);
  }
  const inMemory = dataDir.startsWith('memory://');
  const pglite = new PGlite(dataDir, inMemory && memoryTemplate ? { loadDataDir: memoryTemplate } : {});
  try {
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  /** One process owns a PGlite folder: its exclusive sections only need to queue behind each other. */
  let turn: Promise<unknown> = Promise.resolve();
  const db: Database = {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await pglite.query<T>(sql, params);
      return { rows: result.rows };
    },
    async exec(sql: string): Promise<void> {
      await pglite.exec(sql);
    },
    exclusive(_key, fn) {
      const run = turn.then(() => fn(db));
      turn = run.catch(() => undefined);
      return run;
    },
    async close() {
      await pglite.close();
      unlock();
    },
  };
  return db;
}
