/**
 * The collector's event table and the three questions asked of it: store a batch, list events, and the
 * latest guide state per step of a visitor. Plain SQL that PGlite and PostgreSQL both run.
 */
import { ANONYMOUS_VISITOR_PREFIX } from '../../shared/constants';
import { isAnonymousVisitorId } from '../../shared/identity/identityRules';
import type { Database } from '../storage/Database';
import type { ReceivedEvent } from './checkEventBatch';
import { HttpError, rethrowAsClientDataError } from '../HttpError';
import { EXTRACTED_COLUMN_NAMES, extractedColumns } from '../summaries/extractedColumns';

/** Which beacon an event came in on: ptm.gif (analytics) or guide.gif (guide). */
export type EventKind = 'analytics' | 'guide';

/** Filters of `listEvents`; each given field must match. */
export interface EventFilter {
  apiKey: string;
  kind?: EventKind;
  type?: string;
  visitorId?: string;
  /** The `source` query parameter of the beacon that stored the event (analytics §7): `worker`, `pagehide`. */
  source?: string;
  /** Most events returned, oldest first. */
  limit: number;
}

/** The guide event types that set a step's seenState (guides §4 "Step seenState"). */
export const STATE_EVENT_TYPES = ['guideSeen', 'guideAdvanced', 'guideDismissed', 'guideSnoozed', 'control', 'guideTimeout'] as const;

/** The latest state-setting guide event of one step for one visitor. */
export interface StepStateEvent {
  /** Row id, the tie-break when two events share a time. */
  id: number;
  type: (typeof STATE_EVENT_TYPES)[number];
  guideId: string;
  guideStepId: string;
  /** The event's browser_time (its received time when the event had none), epoch ms. */
  time: number;
  /** `seen_reason` of advance/dismiss events, else `reason` of guideSeen. */
  seenReason?: string;
  destinationStepId?: string;
  /** `snooze_duration` of a guideSnoozed event, ms. */
  snoozeDuration?: number;
  /** guides §3 Step dismissCount: the visitor's guideDismissed events of this step, all time. */
  dismissCount: number;
}

/** Storage of received events. */
export interface EventStore {
  /**
   * Stores a batch in one statement and returns how many rows are new. An event whose
   * (api key, kind, tabId, frameId, sequence) is already stored is skipped: a retried batch is stored once.
   * `source` is the beacon's `source` parameter: which sender's copy arrived first. The new rows are queued for
   * the console's summaries in the same statement (the summarizer adds them later: createSummarizer.ts).
   */
  insertBatch(apiKey: string, kind: EventKind, events: ReceivedEvent[], receivedAt: number, source?: string): Promise<number>;
  /** Event bodies as received, in arrival order. */
  listEvents(filter: EventFilter): Promise<unknown[]>;
  /**
   * For each (guide, step) the visitor has events for, the latest state-setting guide event. The events of the
   * anonymous visitors it was identified from count as its own (its identify events name them, and `fromVisitors`
   * those the agent names before its identify is stored): a welcome dismissed before signing in stays dismissed
   * after. A known visitor's history never passes to another known visitor (two people on one computer).
   */
  latestStepStates(apiKey: string, visitorId: string, fromVisitors?: readonly string[]): Promise<StepStateEvent[]>;
}

// (tabId, frameId, sequence) names an event. Events without tabId or sequence cannot be told apart from a re-send, so they are always stored.
/**
 * The table's first schema: migration 1 of server/storage/migrations/MIGRATIONS.ts. Migration 7 partitions it by month and
 * moves exactly-once to `event_keys` (server/storage/partitions/migrateToPartitions.ts).
 */
export const EVENTS_SCHEMA = `
create table if not exists events (
  id bigserial primary key,
  api_key text not null,
  kind text not null check (kind in ('analytics', 'guide')),
  type text not null,
  visitor_id text,
  account_id text,
  browser_time bigint,
  received_at bigint not null,
  tab_id text,
  frame_id text not null default '',
  sequence int,
  body jsonb not null
);
alter table events add column if not exists source text;
create unique index if not exists events_once_per_page
  on events (api_key, kind, tab_id, frame_id, sequence) where tab_id is not null and sequence is not null;
create index if not exists events_by_visitor on events (api_key, kind, visitor_id);
`;

// One statement per batch whatever its size: the rows travel as one JSON parameter, so there is no limit on
// bound parameters, and `with ordinality` keeps the batch's order in the bigserial ids (arrival order).
// Exactly-once: an identified event is stored only when its key goes into event_keys now (`on conflict do
// nothing`: a key already there, from any collector, any day, stores nothing; a collector inserting the same key
// at the same moment waits for the first to commit, then skips). A key twice in one batch counts once (`copy`).
// The same statement queues the rows it actually stored for the console's summaries (one summary_queue row naming
// their ids; server/summaries/drainSummaryQueue.ts), so a replayed batch is counted once there too. The summaries
// themselves are upserted by the summarizer, off the beacon's path (issue #19): a 2xx says the events are
// committed; the console's counts follow within about a second, or at once for a read (it flushes first).
const INSERT = `
with input as (
  select r.e, r.ord, r.e->>'tabId' as tab_id, coalesce(r.e->>'frameId', '') as frame_id, (r.e->>'sequence')::int as seq,
         row_number() over (partition by r.e->>'tabId', coalesce(r.e->>'frameId', ''), (r.e->>'sequence')::int order by r.ord) as copy
  from jsonb_array_elements($4::jsonb) with ordinality as r(e, ord)
),
keyed as (
  insert into event_keys (api_key, kind, tab_id, frame_id, sequence, received_at)
  select $1, $2, tab_id, frame_id, seq, $3 from input where tab_id is not null and seq is not null and copy = 1
  on conflict do nothing
  returning tab_id, frame_id, sequence
),
stored as (
  insert into events (api_key, kind, type, visitor_id, account_id, browser_time, received_at, tab_id, frame_id, sequence, source, body,
                      ${EXTRACTED_COLUMN_NAMES.join(', ')})
  select $1, $2, i.e->>'type', i.e->>'visitorId', i.e->>'accountId', (i.e->>'browserTime')::bigint, $3,
         i.tab_id, i.frame_id, i.seq, $5, i.e->'body',
         ${extractedColumns("i.e->'body'", '$2', "(i.e->>'browserTime')::bigint", '$3::bigint').join(',\n         ')}
  from input i
  where i.tab_id is null or i.seq is null
     or exists (select 1 from keyed k where k.tab_id = i.tab_id and k.frame_id = i.frame_id and k.sequence = i.seq and i.copy = 1)
  order by i.ord
  returning id
),
queued as (
  insert into summary_queue (received_at, event_ids)
  select $3, array_agg(id order by id) from stored having count(*) > 0
)
select count(*) as stored from stored`;

const LATEST_STEP_STATES = `
select distinct on (guide_id, guide_step_id)
       id, type, guide_id, guide_step_id, time, seen_reason, reason, destination_step_id, snooze_duration,
       count(*) filter (where type = 'guideDismissed') over (partition by guide_id, guide_step_id) as dismiss_count
from (
  select id, type,
         body->'props'->>'guide_id' as guide_id,
         body->'props'->>'guide_step_id' as guide_step_id,
         coalesce(browser_time, received_at) as time,
         body->'props'->>'seen_reason' as seen_reason,
         body->'props'->>'reason' as reason,
         body->'props'->>'destination_step_id' as destination_step_id,
         body->'props'->>'snooze_duration' as snooze_duration
  from events
  where api_key = $1 and kind = 'guide' and type = any($3::text[])
    and visitor_id = any(array[$2::text] || $4::text[] || array(
      -- The anonymous visitors this one was identified from (its identify events' old_visitor_id).
      -- Only into a known visitor: an anonymous one after a sign-out (clearSession) is another person.
      select body->'props'->>'old_visitor_id' from events
      where api_key = $1 and kind = 'analytics' and type = 'identify' and visitor_id = $2
        and starts_with(body->'props'->>'old_visitor_id', $5::text) and not starts_with($2::text, $5::text)))
) e
where guide_id is not null and guide_step_id is not null
order by guide_id, guide_step_id, time desc, id desc`;

const INT32_MAX = 2 ** 31 - 1;

/** What the event store tells its owner. */
export interface EventStoreOptions {
  /** Called after a batch's events were stored and queued for the summaries (the summarizer's burst count). */
  onQueued?: (events: number) => void;
}

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createEventStore(db: Database, { onQueued }: EventStoreOptions = {}): EventStore {
  return {

    async insertBatch(apiKey, kind, events, receivedAt, source) {
      if (events.length === 0) return 0;
      const rows = events.map((event) => ({
        type: event.type,
        visitorId: idOrNull(event.visitor_id),
        accountId: idOrNull(event.account_id),
        browserTime: typeof event.browser_time === 'number' && Number.isFinite(event.browser_time)
          ? Math.trunc(event.browser_time)
          : null,
        tabId: typeof event.tabId === 'string' && event.tabId !== '' ? event.tabId : null,
        // A tab's sequence starts again on every page load; frameId is new per load, so together they name
        // one event of one page.
        frameId: typeof event.frameId === 'string' ? event.frameId : '',
        // A sequence the int column cannot hold is kept in the body only; the event is then not deduplicated.
        sequence: Number.isInteger(event.sequence) && Math.abs(event.sequence as number) <= INT32_MAX
          ? event.sequence
          : null,
        body: event,
      }));
      let json: string;
      try {
        json = JSON.stringify(rows);
      } catch (err) {
        throw new HttpError(400, `events cannot be serialized: ${(err as Error).message}`);
      }
      try {
        const result = await db.query<{ stored: unknown }>(INSERT, [apiKey, kind, receivedAt, json, source ?? null]);
        // pg returns bigint as a string, PGlite as a number.
        const stored = Number(result.rows[0]?.stored ?? 0);
        if (stored > 0) onQueued?.(stored);
        return stored;
      } catch (err) {
        rethrowAsClientDataError(err, 'events');
      }
    },

    async listEvents(filter) {
      const where = ['api_key = $1'];
      const params: unknown[] = [filter.apiKey];
      const add = (column: string, value: string | undefined) => {
        if (value === undefined) return;
        params.push(value);
        where.push(`${column} = $${params.length}`);
      };
      add('kind', filter.kind);
      add('type', filter.type);
      add('visitor_id', filter.visitorId);
      add('source', filter.source);
      params.push(filter.limit);
      const sql = `select body from events where ${where.join(' and ')} order by id limit $${params.length}`;
      const result = await db.query<{ body: unknown }>(sql, params);
      return result.rows.map((row) => row.body);
    },

    async latestStepStates(apiKey, visitorId, fromVisitors = []) {
      const result = await db.query<Record<string, string | number | null>>(LATEST_STEP_STATES, [
        apiKey,
        visitorId,
        STATE_EVENT_TYPES,
        // An anonymous visitor carries no one's history (identityRules continuesVisitor): after a sign-out the next
        // person's agent names the one before as its old visitor, and must not be held to their dismissals.
        isAnonymousVisitorId(visitorId) ? [] : fromVisitors.filter(isAnonymousVisitorId),
        ANONYMOUS_VISITOR_PREFIX,
      ]);
      return result.rows.map((row) => {
        const seenReason = row.seen_reason ?? row.reason;
        const duration = row.snooze_duration === null ? NaN : Number(row.snooze_duration);
        return {
          // pg returns bigint columns as strings, PGlite as numbers.
          id: Number(row.id),
          type: row.type as StepStateEvent['type'],
          guideId: String(row.guide_id),
          guideStepId: String(row.guide_step_id),
          time: Number(row.time),
          ...(seenReason !== null ? { seenReason: String(seenReason) } : {}),
          ...(row.destination_step_id !== null ? { destinationStepId: String(row.destination_step_id) } : {}),
          ...(Number.isFinite(duration) ? { snoozeDuration: duration } : {}),
          dismissCount: Number(row.dismiss_count ?? 0),
        };
      });
    },
  };
}

/** Visitor and account ids are strings on the wire; a number is kept as its text, anything else as null. */
function idOrNull(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}
