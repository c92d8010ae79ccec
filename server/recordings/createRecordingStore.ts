/**
 * The recordings' tables (issue #18, docs/recording.md "Storage"): a summary row per recording and its chunks.
 * A chunk is stored once on (api key, recording id, chunk): a primary key and `on conflict do nothing`, and the
 * summary row changes in the same statement only when the chunk was new, so replays to several collectors at
 * once count nothing twice. Plain SQL that PGlite and PostgreSQL both run.
 *
 * A chunk's body is kept as the agent sent it: the zlib-compressed JSON (bytea). rrweb's snapshots compress
 * 5-10x, the write path does no JSON work in the database, and jsonb would refuse a `\u0000` that a page's
 * text may hold. What the list needs (times, counts) is read out at arrival into columns.
 */
import { inflateSync } from 'node:zlib';
import type { Database } from '../storage/Database';
import type { RecordedEvent, RecordingSummary } from '../../shared/api';
import type { RecordingChunk } from './checkRecordingChunk';

/** The schema: migration 8 of server/storage/migrations/MIGRATIONS.ts. */
export const RECORDINGS_SCHEMA = `
create table if not exists recordings (
  api_key text not null,
  id text not null,
  visitor_id text not null,
  account_id text not null,
  session_id text not null,
  tab_id text not null,
  frame_id text not null,
  url text not null,
  url_chunk integer not null,
  start_time bigint,
  end_time bigint,
  event_count bigint not null,
  chunks integer not null,
  first_received bigint not null,
  last_received bigint not null,
  primary key (api_key, id)
);
create index if not exists recordings_by_start on recordings (api_key, start_time desc);
create index if not exists recordings_by_visitor on recordings (api_key, visitor_id, start_time desc);
create index if not exists recordings_by_last_received on recordings (last_received);
create table if not exists recording_chunks (
  api_key text not null,
  recording_id text not null,
  chunk integer not null,
  received_at bigint not null,
  event_count integer not null,
  start_time bigint,
  end_time bigint,
  body bytea not null,
  primary key (api_key, recording_id, chunk)
);
`;


/** The recordings tables. */
export interface RecordingStore {
  /** Stores a chunk once; answers 1 when it was new, 0 for a replay. `body` is the compressed body as received. */
  insertChunk(apiKey: string, chunk: RecordingChunk, body: Uint8Array, receivedAt: number): Promise<0 | 1>;
  /** The app's recordings, newest first, of one visitor when given. */
  list(apiKey: string, filter: { visitorId?: string; limit: number }): Promise<RecordingSummary[]>;
  /** One recording's summary, undefined when unknown. */
  get(apiKey: string, id: string): Promise<RecordingSummary | undefined>;
  /** Its events: chunks in order, each chunk's events as sent. */
  events(apiKey: string, id: string): Promise<RecordedEvent[]>;
  /** Deletes recordings whose last chunk arrived before `cutoff`, with their chunks; answers how many. */
  deleteReceivedBefore(cutoff: number): Promise<number>;
}

const INSERT_CHUNK = `
with chunk as (
  insert into recording_chunks (api_key, recording_id, chunk, received_at, event_count, start_time, end_time, body)
  values ($1, $2, $3, $4, $5, $6, $7, $8)
  on conflict do nothing
  returning chunk
), summary as (
  insert into recordings as r (api_key, id, visitor_id, account_id, session_id, tab_id, frame_id, url, url_chunk,
                               start_time, end_time, event_count, chunks, first_received, last_received)
  select $1, $2, $9, $10, $11, $12, $13, $14, $3, $6, $7, $5, 1, $4, $4 from chunk
  on conflict (api_key, id) do update set
    start_time = least(r.start_time, excluded.start_time),
    end_time = greatest(r.end_time, excluded.end_time),
    event_count = r.event_count + excluded.event_count,
    chunks = r.chunks + 1,
    last_received = greatest(r.last_received, excluded.last_received),
    url = case when excluded.url_chunk < r.url_chunk then excluded.url else r.url end,
    url_chunk = least(r.url_chunk, excluded.url_chunk)
  returning 1
)
select count(*)::int as stored from chunk`;

const COLUMNS = `id, visitor_id, account_id, session_id, tab_id, url, start_time, end_time, event_count, chunks, last_received`;

interface Row {
  id: string;
  visitor_id: string;
  account_id: string;
  session_id: string;
  tab_id: string;
  url: string;
  start_time: string | number | null;
  end_time: string | number | null;
  event_count: string | number;
  chunks: number;
  last_received: string | number;
}

const num = (value: string | number | null): number | null => (value === null ? null : Number(value));

function toSummary(row: Row): RecordingSummary {
  const start = num(row.start_time);
  const end = num(row.end_time);
  return {
    id: row.id,
    visitorId: row.visitor_id,
    accountId: row.account_id,
    sessionId: row.session_id,
    tabId: row.tab_id,
    url: row.url,
    start,
    end,
    duration: start !== null && end !== null ? end - start : 0,
    eventCount: Number(row.event_count),
    chunks: Number(row.chunks),
    lastReceived: Number(row.last_received),
  };
}

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createRecordingStore(db: Database): RecordingStore {
  return {
    async insertChunk(apiKey, c, body, receivedAt) {
      const result = await db.query<{ stored: number }>(INSERT_CHUNK, [
        apiKey, c.recordingId, c.chunk, receivedAt, c.events.length, c.start, c.end, body,
        c.visitorId, c.accountId, c.sessionId, c.tabId, c.frameId, c.url,
      ]);
      return Number(result.rows[0]?.stored ?? 0) > 0 ? 1 : 0;
    },
    async list(apiKey, { visitorId, limit }) {
      const params: unknown[] = [apiKey, limit];
      if (visitorId !== undefined) params.push(visitorId);
      const result = await db.query<Row>(
        `select ${COLUMNS} from recordings where api_key = $1 ${visitorId !== undefined ? 'and visitor_id = $3' : ''}
         order by coalesce(start_time, first_received) desc, id limit $2`,
        params,
      );
      return result.rows.map(toSummary);
    },
    async get(apiKey, id) {
      const result = await db.query<Row>(`select ${COLUMNS} from recordings where api_key = $1 and id = $2`, [apiKey, id]);
      return result.rows[0] ? toSummary(result.rows[0]) : undefined;
    },
    async events(apiKey, id) {
      const result = await db.query<{ body: Uint8Array }>(
        'select body from recording_chunks where api_key = $1 and recording_id = $2 order by chunk',
        [apiKey, id],
      );
      // Each body was checked at arrival (checkRecordingChunk): it inflates to { ..., events: [...] }.
      return result.rows.flatMap((row) => (JSON.parse(inflateSync(row.body).toString('utf8')) as { events: RecordedEvent[] }).events);
    },
    async deleteReceivedBefore(cutoff) {
      const result = await db.query(
        `with gone as (delete from recordings where last_received < $1 returning api_key, id),
              chunks as (delete from recording_chunks c using gone where c.api_key = gone.api_key and c.recording_id = gone.id returning 1)
         select api_key from gone`,
        [cutoff],
      );
      return result.rows.length;
    },
  };
}
