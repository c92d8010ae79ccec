/**
 * Guide history (issue #33): each save of a guide (and each state change, copy and restore) keeps a version, its
 * number counted per guide from 1, who made it, when, the state and the whole guide. Versions outlive the guide's
 * deletion (a deleted guide can be restored). Plain SQL that PGlite and PostgreSQL both run.
 */
import type { Database } from '../../storage/Database';
import type { Guide } from '../../../shared/guides/guides';
import type { AuditActor } from '../../../shared/api/audit';
import type { GuideVersion } from '../../../shared/api/guideHistory';
import type { GuideState } from '../createGuideStore';

// A version is the API's answer too (GET .../versions/{n}): one description, in shared/api/guideHistory.ts.
export type { GuideVersion } from '../../../shared/api/guideHistory';

/** The versions table. */
export interface GuideVersions {
  /** Keeps a version; answers its number. */
  append(apiKey: string, change: Omit<GuideVersion, 'version'>): Promise<number>;
  /** The guide's versions, newest first, without their guides. */
  list(apiKey: string, guideId: string): Promise<Array<Omit<GuideVersion, 'guide'>>>;
  get(apiKey: string, guideId: string, version: number): Promise<GuideVersion | undefined>;
}

/** The table's schema: a migration of server/storage/migrations/MIGRATIONS.ts. */
export const GUIDE_VERSIONS_SCHEMA = `
create table guide_versions (
  api_key text not null,
  guide_id text not null,
  version integer not null,
  at bigint not null,
  actor jsonb not null,
  state text not null,
  body jsonb not null,
  primary key (api_key, guide_id, version)
);
`;

type Row = { version: number; at: number | string; actor: AuditActor; state: GuideState; body?: Guide };

const ATTEMPTS = 5;

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createGuideVersions(db: Database): GuideVersions {
  return {
    async append(apiKey, { at, actor, state, guide }) {
      // Two collectors saving one guide at once both read the same last number: the primary key refuses the
      // second insert (nothing inserted), which takes the next number.
      for (let attempt = 1; ; attempt++) {
        const result = await db.query<{ version: number }>(
          `insert into guide_versions (api_key, guide_id, version, at, actor, state, body)
           select $1, $2, coalesce(max(version), 0) + 1, $3, $4::jsonb, $5, $6::jsonb from guide_versions where api_key = $1 and guide_id = $2
           on conflict do nothing returning version`,
          [apiKey, guide.id, at, JSON.stringify(actor), state, JSON.stringify(guide)],
        );
        if (result.rows[0]) return Number(result.rows[0].version);
        if (attempt >= ATTEMPTS) throw new Error(`guide '${guide.id}': no version number after ${ATTEMPTS} attempts`);
      }
    },

    async list(apiKey, guideId) {
      const result = await db.query<Row>(
        'select version, at, actor, state from guide_versions where api_key = $1 and guide_id = $2 order by version desc',
        [apiKey, guideId],
      );
      return result.rows.map((row) => ({ version: Number(row.version), at: Number(row.at), actor: row.actor, state: row.state }));
    },

    async get(apiKey, guideId, version) {
      const result = await db.query<Row>(
        'select version, at, actor, state, body from guide_versions where api_key = $1 and guide_id = $2 and version = $3',
        [apiKey, guideId, version],
      );
      const row = result.rows[0];
      return row && { version: Number(row.version), at: Number(row.at), actor: row.actor, state: row.state, guide: row.body! };
    },
  };
}
