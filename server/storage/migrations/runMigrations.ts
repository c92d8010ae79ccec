/**
 * Versioned schema migrations, run at start (issue #19): each migration runs once per database, in order, and is
 * recorded in `schema_migrations`. Collectors started together on one PostgreSQL take turns under an advisory
 * lock, so the second finds the first's work done instead of racing it (two `create table if not exists` at
 * once can fail on PostgreSQL's catalog). The same runner and the same SQL serve PGlite and PostgreSQL.
 */
import type { Database } from '../Database';

export interface Migration {
  version: number;
  name: string;
  /** SQL statements, or a procedure for what SQL alone cannot say (a bounded backfill). */
  up: string | ((db: Database) => Promise<void>);
}

/** The advisory lock of schema migrations (an arbitrary constant: "waymark" in ASCII, in 31 bits). */
export const MIGRATION_LOCK_KEY = 0x77_61_79_6d;

/**
 * Applies the migrations not yet recorded, in version order; answers the versions applied now. A migration that
 * throws stops the start with its name; what it did in a statement that failed is not recorded.
 */
export async function runMigrations(db: Database, migrations: readonly Migration[], now = Date.now()): Promise<number[]> {
  checkOrder(migrations);
  return db.exclusive(MIGRATION_LOCK_KEY, async (conn) => {
    await conn.exec(`create table if not exists schema_migrations (
      version int primary key,
      name text not null,
      applied_at bigint not null
    )`);
    const done = new Set((await conn.query<{ version: number }>('select version from schema_migrations')).rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      try {
        if (typeof migration.up === 'string') await conn.exec(migration.up);
        else await migration.up(conn);
      } catch (err) {
        throw new Error(`schema migration ${migration.version} (${migration.name}) failed: ${(err as Error).message}`);
      }
      await conn.query('insert into schema_migrations (version, name, applied_at) values ($1, $2, $3)', [migration.version, migration.name, now]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/**
 * Versions start at 1 and increase. A gap is let through: two branches reserve numbers before either merges
 * (issue #35's rollups are 19 while 18 is another change's), and a version is recorded by number, so 18 merged
 * later still runs on a database that took 19 first.
 */
function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    const least = i === 0 ? 1 : migrations[i - 1].version + 1;
    if (i === 0 ? m.version !== 1 : m.version < least) {
      throw new Error(`schema migrations must be numbered 1, 2, 3...: ${m.name} is ${m.version} at place ${i + 1}`);
    }
  });
}
