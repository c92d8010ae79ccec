/**
 * Chooses the storage: a real PostgreSQL when a database URL is given, else PGlite.
 */
import { createPgDatabase } from './createPgDatabase';
import { createPgliteDatabase } from './createPgliteDatabase';
import type { Database } from './Database';

/** Where the events live. */
export interface OpenDatabaseOptions {
  /** PostgreSQL connection URL; when set, `dataDir` is not used. */
  databaseUrl?: string;
  /** PGlite data folder, or `'memory://'`. */
  dataDir: string;
  /** With `'memory://'`: a dumped data folder to start from instead of an empty database's initdb (tests). */
  memoryTemplate?: Blob;
}

/** Opens the database the options name. */
export function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl ? createPgDatabase(options.databaseUrl) : createPgliteDatabase(options.dataDir, options.memoryTemplate);
}
