/**
 * Each app's settings (issue #14): one JSON object per api key, checked by checkSettings before it is stored.
 * An app with a row here is a known app (issue #31): the only ones a collector started with WAYMARK_APPS=known
 * accepts data for. A row is made by a PUT of its settings (`{}` included), by `create` (the console's Add an app,
 * `POST /api/apps`) and for the seed app at start. Plain SQL that PGlite and PostgreSQL both run.
 */
import type { Database } from '../storage/Database';
import { rethrowAsClientDataError } from '../HttpError';
import type { StoredSettings } from './checkSettings';

/** The settings table. */
export interface SettingsStore {
  /** The app's stored settings; `{}` when none were saved. */
  get(apiKey: string): Promise<StoredSettings>;
  /** Replaces the app's settings. */
  put(apiKey: string, settings: StoredSettings, now: number): Promise<StoredSettings>;
  /** Makes the app known with no settings of its own, unless it is already; answers whether it was made now. */
  create(apiKey: string, now: number): Promise<boolean>;
  /** Whether the app is known (has a settings row). */
  has(apiKey: string): Promise<boolean>;
  /** The apps whose admin lets viewers see recordings (`recording.viewersSeeRecordings`, issue #33), by api key. */
  viewersSeeRecordings(): Promise<string[]>;
}

/** The table's schema: a migration of server/storage/migrations/MIGRATIONS.ts. */
export const SETTINGS_SCHEMA = `
create table if not exists app_settings (
  api_key text primary key,
  body jsonb not null,
  updated_at bigint not null
);
`;

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createSettingsStore(db: Database): SettingsStore {
  return {
    async get(apiKey) {
      const result = await db.query<{ body: StoredSettings }>('select body from app_settings where api_key = $1', [apiKey]);
      return result.rows[0]?.body ?? {};
    },
    async put(apiKey, settings, now) {
      try {
        const result = await db.query<{ body: StoredSettings }>(
          `insert into app_settings (api_key, body, updated_at) values ($1, $2::jsonb, $3)
           on conflict (api_key) do update set body = excluded.body, updated_at = excluded.updated_at
           returning body`,
          [apiKey, JSON.stringify(settings), now],
        );
        return result.rows[0].body;
      } catch (err) {
        // jsonb refuses U+0000 and lone surrogates in any of the settings' texts (issue #31 fuzzing: it was a 500).
        rethrowAsClientDataError(err, 'the settings');
      }
    },
    async create(apiKey, now) {
      const result = await db.query(
        `insert into app_settings (api_key, body, updated_at) values ($1, '{}'::jsonb, $2) on conflict (api_key) do nothing returning 1`,
        [apiKey, now],
      );
      return result.rows.length > 0;
    },
    async has(apiKey) {
      return (await db.query('select 1 from app_settings where api_key = $1', [apiKey])).rows.length > 0;
    },
    async viewersSeeRecordings() {
      const result = await db.query<{ api_key: string }>(
        "select api_key from app_settings where body->'recording'->'viewersSeeRecordings' = 'true'::jsonb order by api_key",
      );
      return result.rows.map((row) => row.api_key);
    },
  };
}
