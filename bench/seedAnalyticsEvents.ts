/**
 * Seeds one app's events for `npm run bench:analytics` (bench/analytics.ts, issue #35 "Fast at real volumes"):
 * N events over 90 days from 30,000 visitors (a few heavy, a long tail) in 1,000 accounts, in sessions of 40
 * events on 20 pages (addresses with one of 50 query strings on a third of them), a mix of 15% page loads, 50% clicks on
 * 200 element kinds, 10% track events (3 names), 20% focus and 5% hidden events.
 *
 * Written by the database itself, as a COPY would (an insert-select over generate_series, deterministic: every value
 * is a hash of the event's number), into `events` with the columns the ingest statement fills (extractedColumns),
 * then queued for the summarizer as the ingest statement queues them (summary_queue rows of up to 1,000 ids sharing
 * a received_at), so the real drain (createSummarizer) builds the console's summaries and the analytics rollups.
 * Left out: `event_keys` (exactly-once keys of ingest; no read here uses them). Received times are the end of the
 * hour of the event's time.
 */
import type { Database } from '../server/storage/Database';
import { EXTRACTED_COLUMN_NAMES, extractedColumns } from '../server/summaries/extractedColumns';
import { ensurePartitions, monthOf } from '../server/storage/partitions/eventPartitions';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Events per insert statement: bounds each statement's memory and lets the bench report progress. */
const CHUNK = 250_000;
/** The seed's format: raise it when what the seed writes changes, so that kept seeded databases are made again. */
export const SEED_VERSION = 1;
export const SEED_VISITORS = 30_000;
export const SEED_ELEMENT_KINDS = 200;
export const SEED_PAGES = 20;
export const SEED_TRACKS = ['report_created', 'export_done', 'invite_sent'];

/** A hash of `x` (SQL bigint) in [0, n). */
const h = (x: string, n: number) => `(abs(hashint8(${x})::bigint) % ${n})`;

/** Inserts events $2 .. $3 - 1 of the seed ($1 api key, $4 total, $5 end of the 90 days). */
export function insertSql(): string {
  const columns = ['api_key', 'kind', 'type', 'visitor_id', 'account_id', 'browser_time', 'received_at', 'tab_id', 'frame_id', 'sequence', 'body', ...EXTRACTED_COLUMN_NAMES];
  return `
insert into events (${columns.join(', ')})
select $1, 'analytics', type, visitor_id, account_id, time, received_at, tab_id, 'frame', seq, body,
       ${extractedColumns('body', "'analytics'", 'time', 'received_at').join(', ')}
from (
  select *, time - (time % ${HOUR}) + ${HOUR - 1} as received_at,
         -- (\`offset 0\`: each level computed once, not copied into every expression that reads it)
         jsonb_build_object('type', type, 'browser_time', time, 'visitor_id', visitor_id, 'account_id', account_id, 'url', url,
           'sessionId', 'session-' || s, 'tabId', tab_id, 'frameId', 'frame', 'sequence', seq, 'props', props,
           'track_event_name', case when type = 'track' then ${arrayPick(SEED_TRACKS, h('i * 11', SEED_TRACKS.length))} end) as body
  from (
    select i, s, seq, 'tab-' || s as tab_id, time, visitor_id, 'account-' || (v % 1000) as account_id,
           'https://app.example.com/page-' || ${h('s * 7 + seq / 8', SEED_PAGES)}
             || case when ${h('s * 13 + seq / 8', 3)} = 0 then '?q=' || ${h('s * 17 + seq / 8', 50)} else '' end as url,
           case when seq % 8 = 0 then 'load' when k < 59 then 'click' when k < 71 then 'track' when k < 94 then 'focus' else 'hidden' end as type,
           case when seq % 8 = 0 then jsonb_build_object('load_time', 800)
                when k < 59 then jsonb_build_object('flags', jsonb_build_array('left'), 'target', jsonb_build_object(
                  'tag', case when el % 4 = 3 then 'A' else 'BUTTON' end, 'id', 'el-' || el, 'cls', 'btn kind-' || (el % 10),
                  'title', null, 'attrs', '{}'::jsonb, 'myIndex', 0, 'childIndex', el % 5, 'txt', 'Action ' || el,
                  'parentElem', jsonb_build_object('tag', 'DIV', 'id', '', 'cls', 'toolbar', 'title', null, 'attrs', '{}'::jsonb, 'myIndex', 0, 'childIndex', 0)))
                else '{}'::jsonb end as props
    from (
      select i, s, seq, 'visitor-' || v as visitor_id, v,
             $5::bigint - ${90 * DAY} + s * (${90 * DAY - 2 * HOUR}::bigint / greatest(1, $4::bigint / 40)) + seq * 30000 as time,
             ${h('i * 3', 100)} as k, ${h('i * 5', SEED_ELEMENT_KINDS)} as el
      from (
        select i, i / 40 as s, (i % 40)::int as seq,
               floor(${SEED_VISITORS} * power(${h('(i / 40) * 31', 1_000_000)} / 1000000.0, 1.6))::int as v
        from generate_series($2::bigint, $3::bigint - 1) i
      ) a offset 0
    ) b offset 0
  ) c offset 0
) d
order by time, i`;
}

const arrayPick = (list: readonly string[], index: string) => `(array[${list.map((x) => `'${x}'`).join(', ')}])[${index} + 1]`;

/** Queues every stored event of the app for the summarizer: batches of up to 1,000 ids sharing a received_at. */
const QUEUE_SQL = `
insert into summary_queue (received_at, event_ids)
select received_at, array_agg(id order by id) from (
  select id, received_at, (row_number() over (partition by received_at order by id) - 1) / 1000 as part from events where api_key = $1
) q group by received_at, part order by received_at, part`;

/** Seeds `events` events of `apiKey` over the 90 days before `end`; `progress` after each chunk. */
export async function seedAnalyticsEvents(db: Database, apiKey: string, events: number, end: number, progress: (done: number) => void): Promise<void> {
  for (let month = monthOf(end - 90 * DAY).start; month <= end; month = monthOf(month).end) await ensurePartitions(db, month);
  const sql = insertSql();
  for (let from = 0; from < events; from += CHUNK) {
    await db.query(sql, [apiKey, from, Math.min(events, from + CHUNK), events, end]);
    progress(Math.min(events, from + CHUNK));
  }
  await db.query(QUEUE_SQL, [apiKey]);
}
