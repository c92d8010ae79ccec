/**
 * Issue #19: versioned schema migrations (server/storage/migrations), on PGlite here; test/server/postgres runs three
 * collectors at once on one PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '../../server/storage/createPgliteDatabase';
import { MIGRATIONS, migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { runMigrations } from '../../server/storage/migrations/runMigrations';
import { SERVER_TIMEOUT } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

describe('issue #19 schema migrations', () => {
  it('applies each migration once, in order, and records it; a second start applies nothing', async () => {
    const db = await createPgliteDatabase('memory://', await pgliteTemplate());
    try {
      expect(await migrateSchema(db)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrateSchema(db)).toEqual([]);
      const rows = (await db.query<{ version: number; name: string }>('select version, name from schema_migrations order by version')).rows;
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      const tables = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows.map((r) => r.t);
      expect(tables).toEqual(expect.arrayContaining(['events', 'logs', 'guides', 'app_settings', 'console_state', 'schema_migrations']));
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);

  it('a later migration runs on a database that has the earlier ones; one that fails stops the start with its name and is not recorded', async () => {
    const db = await createPgliteDatabase('memory://', await pgliteTemplate());
    try {
      const first = [{ version: 1, name: 'a', up: 'create table a (x int)' }];
      expect(await runMigrations(db, first)).toEqual([1]);
      const more = [...first, { version: 2, name: 'b', up: 'alter table a add column y int' }, { version: 3, name: 'broken', up: 'alter table nowhere add column z int' }];
      await expect(runMigrations(db, more)).rejects.toThrow(/^schema migration 3 \(broken\) failed: relation "nowhere" does not exist/);
      expect((await db.query('select version from schema_migrations order by version')).rows).toEqual([{ version: 1 }, { version: 2 }]);
      expect((await db.query("select column_name from information_schema.columns where table_name = 'a' order by 1")).rows).toEqual([{ column_name: 'x' }, { column_name: 'y' }]);
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);

  it('refuses migrations that are not numbered 1, 2, 3...', async () => {
    const db = await createPgliteDatabase('memory://', await pgliteTemplate());
    try {
      await expect(runMigrations(db, [{ version: 2, name: 'b', up: 'select 1' }])).rejects.toThrow('schema migrations must be numbered 1, 2, 3...: b is 2 at place 1');
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);

  it('exclusive sections of one database take turns', async () => {
    const db = await createPgliteDatabase('memory://', await pgliteTemplate());
    try {
      const order: string[] = [];
      const section = (name: string) =>
        db.exclusive(1, async () => {
          order.push(`${name} in`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(`${name} out`);
        });
      await Promise.all([section('a'), section('b')]);
      expect(order).toEqual(['a in', 'a out', 'b in', 'b out']);
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);

  it('10 (pages without query): summaries kept by address before it are merged into pages, events summed, visitors\' hours joined', async () => {
    const db = await createPgliteDatabase('memory://', await pgliteTemplate());
    try {
      await runMigrations(db, MIGRATIONS.slice(0, 9));
      const hour = (h: number) => `int8range(${h * 3_600_000}, ${(h + 1) * 3_600_000})`;
      await db.exec(`
        insert into console_pages (api_key, grain, t, url, events) values
          ('app', 'hour', 0, 'https://a.example/reports?id=7', 3),
          ('app', 'hour', 0, 'https://a.example/reports#top', 2),
          ('app', 'hour', 0, 'https://a.example/reports', 1),
          ('app', 'hour', 3600000, 'https://a.example/reports?id=8', 4),
          ('app', 'day', 0, 'https://a.example/settings', 5);
        insert into console_page_visitors (api_key, url, visitor_id, active) values
          ('app', 'https://a.example/reports?id=7', 'v1', int8multirange(${hour(0)})),
          ('app', 'https://a.example/reports', 'v1', int8multirange(${hour(1)}, ${hour(5)})),
          ('app', 'https://a.example/reports#top', 'v2', int8multirange(${hour(2)})),
          ('app', 'https://a.example/settings', 'v1', int8multirange(${hour(0)}));
      `);
      expect(await runMigrations(db, MIGRATIONS.slice(0, 10))).toEqual([10]);
      const pages = await db.query('select grain, t::int as t, url, events::int as events from console_pages order by grain, t, url');
      expect(pages.rows).toEqual([
        { grain: 'day', t: 0, url: 'https://a.example/settings', events: 5 },
        { grain: 'hour', t: 0, url: 'https://a.example/reports', events: 6 },
        { grain: 'hour', t: 3600000, url: 'https://a.example/reports', events: 4 },
      ]);
      const visitors = await db.query('select url, visitor_id, active::text as active from console_page_visitors order by url, visitor_id');
      expect(visitors.rows).toEqual([
        { url: 'https://a.example/reports', visitor_id: 'v1', active: '{[0,7200000),[18000000,21600000)}' },
        { url: 'https://a.example/reports', visitor_id: 'v2', active: '{[7200000,10800000)}' },
        { url: 'https://a.example/settings', visitor_id: 'v1', active: '{[0,3600000)}' },
      ]);
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
