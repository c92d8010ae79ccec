/**
 * The guides of each app in the database (issue #14): one row per guide, the guide object as guide.json
 * serves it (building blocks included) and its state. An app is "owned" by the database once a guide was
 * saved or seeded for it: from then on its guide.json lists the database's public guides only, even when it
 * has none left; an app never owned still reads the guide folder (createGuideSource).
 * Plain SQL that PGlite and PostgreSQL both run.
 */
import type { Database } from '../storage/Database';
import { rethrowAsClientDataError } from '../HttpError';
import type { Guide } from '../../shared/guides/guides';
import type { GuideState } from '../../shared/api';

export type { GuideState };

/** Every state, in the order the console offers them. */
export const GUIDE_STATES: readonly GuideState[] = ['draft', 'staged', 'public', 'disabled'];

/** One stored guide. */
export interface StoredGuide {
  guide: Guide;
  state: GuideState;
  /** Epoch ms of the last save or state change. */
  updatedAt: number;
  createdAt: number;
}

/** The guides table. */
export interface GuideStore {
  /** The app's guides, ordered by id. */
  list(apiKey: string): Promise<StoredGuide[]>;
  get(apiKey: string, guideId: string): Promise<StoredGuide | undefined>;
  /** Stores the guide (checked by the caller); `created` tells a new guide from a replaced one. */
  put(apiKey: string, guide: Guide, state: GuideState, now: number): Promise<{ created: boolean; stored: StoredGuide }>;
  /** Sets the state; undefined when there is no such guide. */
  setState(apiKey: string, guideId: string, state: GuideState, now: number): Promise<StoredGuide | undefined>;
  /** Removes the guide; false when there was none. */
  remove(apiKey: string, guideId: string): Promise<boolean>;
  /** The app's public guides, as guide.json serves them; undefined when the database does not own the app. */
  published(apiKey: string): Promise<Guide[] | undefined>;
  /** Guides per app, every app the database owns (0 when all were deleted). */
  countsByApp(): Promise<Record<string, number>>;
  /**
   * Stores `guides` for an app the database does not own yet, and owns it: the seed of the demo app. Returns
   * how many were stored (0 when the app was already owned).
   */
  seed(apiKey: string, guides: Array<{ guide: Guide; state: GuideState }>, now: number): Promise<number>;
}

/** The table's schema: a migration of server/storage/migrations/MIGRATIONS.ts. */
export const GUIDES_SCHEMA = `
create table if not exists guides (
  api_key text not null,
  guide_id text not null,
  state text not null check (state in ('draft', 'staged', 'public', 'disabled')),
  body jsonb not null,
  created_at bigint not null,
  updated_at bigint not null,
  primary key (api_key, guide_id)
);
create table if not exists guide_apps (
  api_key text primary key,
  owned_at bigint not null
);
`;

type Row = { body: Guide; state: GuideState; created_at: number | string; updated_at: number | string };

// pg returns bigint columns as strings, PGlite as numbers.
const toStored = (row: Row): StoredGuide => ({
  guide: row.body,
  state: row.state,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const OWN = `insert into guide_apps (api_key, owned_at) values ($1, $2) on conflict do nothing`;

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createGuideStore(db: Database): GuideStore {
  return {

    async list(apiKey) {
      const result = await db.query<Row>(
        'select body, state, created_at, updated_at from guides where api_key = $1 order by guide_id',
        [apiKey],
      );
      return result.rows.map(toStored);
    },

    async get(apiKey, guideId) {
      const result = await db.query<Row>(
        'select body, state, created_at, updated_at from guides where api_key = $1 and guide_id = $2',
        [apiKey, guideId],
      );
      return result.rows[0] && toStored(result.rows[0]);
    },

    async put(apiKey, guide, state, now) {
      try {
        await db.query(OWN, [apiKey, now]);
        // xmax = 0 only on a row this statement inserted: tells 201 from 200 in one round trip.
        const result = await db.query<Row & { inserted: boolean }>(
          `insert into guides (api_key, guide_id, state, body, created_at, updated_at) values ($1, $2, $3, $4::jsonb, $5, $5)
           on conflict (api_key, guide_id) do update set state = excluded.state, updated_at = excluded.updated_at,
             -- guides §3 publishedAt is the server's: a saved body without it keeps the stored one.
             body = case when excluded.body ? 'publishedAt' or not (guides.body ? 'publishedAt') then excluded.body
                         else excluded.body || jsonb_build_object('publishedAt', guides.body->'publishedAt') end
           returning body, state, created_at, updated_at, (xmax = 0) as inserted`,
          [apiKey, guide.id, state, JSON.stringify(guide), now],
        );
        const row = result.rows[0];
        return { created: row.inserted === true, stored: toStored(row) };
      } catch (err) {
        rethrowAsClientDataError(err, 'the guide');
      }
    },

    async setState(apiKey, guideId, state, now) {
      const result = await db.query<Row>(
        // guides §3 publishedAt: when the guide last went public.
        `update guides set state = $3, updated_at = $4,
           body = case when $3 = 'public' and state <> 'public' then body || jsonb_build_object('publishedAt', $4::bigint) else body end
         where api_key = $1 and guide_id = $2
         returning body, state, created_at, updated_at`,
        [apiKey, guideId, state, now],
      );
      return result.rows[0] && toStored(result.rows[0]);
    },

    async remove(apiKey, guideId) {
      const result = await db.query('delete from guides where api_key = $1 and guide_id = $2 returning guide_id', [apiKey, guideId]);
      return result.rows.length > 0;
    },

    async published(apiKey) {
      const result = await db.query<{ body: Guide | null; updated_at: number | string | null }>(
        `select g.body, g.updated_at from guide_apps a left join guides g on g.api_key = a.api_key and g.state = 'public'
         where a.api_key = $1 order by g.guide_id`,
        [apiKey],
      );
      if (result.rows.length === 0) return undefined;
      // lastUpdatedAt is when the guide was last saved here (the agent reports it on guideSeen).
      return result.rows.flatMap((row) => (row.body ? [{ ...row.body, state: 'public', lastUpdatedAt: Number(row.updated_at) }] : []));
    },

    async countsByApp() {
      const result = await db.query<{ api_key: string; guides: number | string }>(
        `select a.api_key, count(g.guide_id) as guides from guide_apps a left join guides g on g.api_key = a.api_key
         group by a.api_key`,
      );
      return Object.fromEntries(result.rows.map((row) => [row.api_key, Number(row.guides)]));
    },

    async seed(apiKey, guides, now) {
      const owned = await db.query(`${OWN} returning api_key`, [apiKey, now]);
      if (owned.rows.length === 0) return 0;
      for (const { guide, state } of guides) {
        await db.query(
          `insert into guides (api_key, guide_id, state, body, created_at, updated_at) values ($1, $2, $3, $4::jsonb, $5, $5)
           on conflict do nothing`,
          [apiKey, guide.id, state, JSON.stringify(guide), now],
        );
      }
      return guides.length;
    },
  };
}
