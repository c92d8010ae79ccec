/**
 * Schema migration 7 (issue #19): the events table becomes partitioned by month, and exactly-once moves to a
 * table of its own. PostgreSQL's unique indexes on a partitioned table must include the partition key, and an
 * event's identity (api key, kind, tab, frame, sequence) does not hold its received time: a replay received a
 * day later must still be refused. So `event_keys` holds each identified event's key (its primary key), and an
 * insert stores an event only when its key is new (server/ingest/createEventStore.ts).
 *
 * In one transaction: a partitioned copy of the table (same columns, defaults and checks; primary key (id,
 * received_at)), the months the old rows need plus this one and the next, a default partition, the rows and their
 * keys copied, the id sequence handed over, the old table dropped, the new one renamed, then the indexes the
 * console's queries and retention need. On a large database this copies every row once: plan the start.
 */
import type { Database } from '../Database';
import { createPartitionSql, monthOf } from './eventPartitions';

/** The indexes of events (as migrations 1, 5 and 6 made them), on the partitioned table. */
export const EVENT_INDEXES = `
create index if not exists events_by_visitor on events (api_key, kind, visitor_id);
create index if not exists events_by_received_at on events (received_at);
create index if not exists events_by_app on events (api_key, id);
create index if not exists events_by_app_type on events (api_key, type, id);
create index if not exists events_by_app_visitor on events (api_key, visitor_id, id);
create index if not exists events_by_guide on events (api_key, guide_id, time) where guide_id is not null;
`;

export const EVENT_KEYS_SCHEMA = `
create table if not exists event_keys (
  api_key text not null,
  kind text not null,
  tab_id text not null,
  frame_id text not null,
  sequence int not null,
  received_at bigint not null,
  primary key (api_key, kind, tab_id, frame_id, sequence)
);
create index if not exists event_keys_by_received_at on event_keys (received_at);
`;

export async function migrateToPartitions(db: Database, now: number = Date.now()): Promise<void> {
  await db.query('begin');
  try {
    await db.exec(`
      create table events_partitioned (like events including defaults including constraints) partition by range (received_at);
      alter table events_partitioned add primary key (id, received_at);
      create table events_default partition of events_partitioned default;
    `);
    const span = await db.query<{ lo: unknown; hi: unknown }>('select min(received_at) as lo, max(received_at) as hi from events');
    const lo = span.rows[0]?.lo === null || span.rows[0]?.lo === undefined ? now : Number(span.rows[0].lo);
    const hi = Math.max(now, span.rows[0]?.hi === null || span.rows[0]?.hi === undefined ? now : Number(span.rows[0].hi));
    for (let month = monthOf(lo).start; month <= monthOf(hi).end; month = monthOf(month).end) {
      await db.exec(createPartitionSql(month, 'events_partitioned'));
    }
    await db.exec(`
      ${EVENT_KEYS_SCHEMA}
      insert into event_keys (api_key, kind, tab_id, frame_id, sequence, received_at)
        select api_key, kind, tab_id, frame_id, sequence, min(received_at) from events
        where tab_id is not null and sequence is not null
        group by api_key, kind, tab_id, frame_id, sequence;
      insert into events_partitioned select * from events;
      alter sequence events_id_seq owned by events_partitioned.id;
      drop table events;
      alter table events_partitioned rename to events;
      ${EVENT_INDEXES}
    `);
    await db.query('commit');
  } catch (err) {
    await db.query('rollback');
    throw err;
  }
}
