/**
 * The segments of each app (issue #35 "Segments"; table in SEGMENTS_SCHEMA, migration 18): a row per segment keyed by
 * (app, id), so an id of another app is simply not found. Definitions are checked by the routes before they get
 * here (segmentBody). That no guide's audience names a segment being deleted is decided in the deleting statement,
 * so a guide saved at the same moment cannot be left naming a deleted segment unnoticed by both.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../storage/Database';
import { rethrowAsClientDataError } from '../../HttpError';
import type { Segment, SegmentDefinition, SegmentGuide } from '../../../shared/api/segments';

/** Segments one app may have (issue #35: a bound on what a caller can make the server keep and judge). */
export const MAX_SEGMENTS_PER_APP = 1000;

/** The segments table. */
export interface SegmentStore {
  /** The app's segments, oldest first. */
  list(apiKey: string): Promise<Segment[]>;
  get(apiKey: string, id: string): Promise<Segment | undefined>;
  /** 'too many' when the app has MAX_SEGMENTS_PER_APP already. */
  create(apiKey: string, name: string, definition: SegmentDefinition, now: number): Promise<Segment | 'too many'>;
  /** undefined when the app has no such segment. */
  update(apiKey: string, id: string, change: { name?: string; definition?: SegmentDefinition }, now: number): Promise<Segment | undefined>;
  /** False when the app has no such segment; the guides whose audience names it when it is in use (not deleted). */
  remove(apiKey: string, id: string): Promise<boolean | { usedBy: SegmentGuide[] }>;
  /** The app's guides whose audience names the segment, by id (at most 100). */
  guidesUsing(apiKey: string, id: string): Promise<SegmentGuide[]>;
}

interface Row {
  id: string;
  name: string;
  definition: SegmentDefinition | string;
  created_at: string | number;
  updated_at: string | number;
}

const COLUMNS = 'id, name, definition, created_at, updated_at';

// pg answers bigint as text, PGlite as a number; jsonb as an object in both (a string only if a driver says so).
const segmentOf = (row: Row): Segment => ({
  id: row.id,
  name: row.name,
  definition: typeof row.definition === 'string' ? (JSON.parse(row.definition) as SegmentDefinition) : row.definition,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** The guides of an app whose audience names segment $2 (the guides table of createGuideStore). */
const USING = `select guide_id as id, coalesce(body->>'name', guide_id) as name from guides
  where api_key = $1 and body->'audience'->>'segment' = $2 order by guide_id limit 100`;

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createSegmentStore(db: Database): SegmentStore {
  const guidesUsing = async (apiKey: string, id: string) => (await db.query<SegmentGuide>(USING, [apiKey, id])).rows;
  return {
    async list(apiKey) {
      const { rows } = await db.query<Row>(`select ${COLUMNS} from analytics_segments where api_key = $1 order by created_at, id`, [apiKey]);
      return rows.map(segmentOf);
    },
    async get(apiKey, id) {
      const { rows } = await db.query<Row>(`select ${COLUMNS} from analytics_segments where api_key = $1 and id = $2`, [apiKey, id]);
      return rows[0] && segmentOf(rows[0]);
    },
    async create(apiKey, name, definition, now) {
      try {
        // One statement, so the count bounds what it inserts (two racing may pass it together: off by one at most).
        const { rows } = await db.query<Row>(
          `insert into analytics_segments (api_key, id, name, definition, created_at, updated_at)
           select $1, $2, $3, $4::jsonb, $5, $5 where (select count(*) from analytics_segments where api_key = $1) < $6
           returning ${COLUMNS}`,
          [apiKey, randomUUID(), name, JSON.stringify(definition), now, MAX_SEGMENTS_PER_APP],
        );
        return rows[0] ? segmentOf(rows[0]) : 'too many';
      } catch (err) {
        return rethrowAsClientDataError(err, 'the segment');
      }
    },
    async update(apiKey, id, change, now) {
      try {
        const { rows } = await db.query<Row>(
          `update analytics_segments set name = coalesce($3, name), definition = coalesce($4::jsonb, definition), updated_at = $5
           where api_key = $1 and id = $2 returning ${COLUMNS}`,
          [apiKey, id, change.name ?? null, change.definition ? JSON.stringify(change.definition) : null, now],
        );
        return rows[0] && segmentOf(rows[0]);
      } catch (err) {
        return rethrowAsClientDataError(err, 'the segment');
      }
    },
    async remove(apiKey, id) {
      const { rows } = await db.query(
        `delete from analytics_segments where api_key = $1 and id = $2
           and not exists (select 1 from guides where api_key = $1 and body->'audience'->>'segment' = $2)
         returning id`,
        [apiKey, id],
      );
      if (rows.length) return true;
      const usedBy = await guidesUsing(apiKey, id);
      return usedBy.length ? { usedBy } : false;
    },
    guidesUsing,
  };
}
