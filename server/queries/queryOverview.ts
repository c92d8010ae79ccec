/**
 * GET /api/apps/{apiKey}/overview: totals, series, top pages and features, frustration, channels and sessions
 * of one app over a range, read from the summary tables (never the events), so 90 days cost what 7 do.
 */
import type { Database } from '../storage/Database';
import type { ConsoleRange, Overview } from '../../shared/api';

/** Rows of the top lists. */
const TOP = 10;

// $1 api key, $2 grain, $3 from, $4 to.
const SERIES = `
select t, events, visitors, rage_clicks, dead_clicks, error_clicks, u_turns
from console_buckets where api_key = $1 and grain = $2 and t >= $3 and t < $4 order by t`;

// Visitors and accounts with an active hour in the range: one row each, not one per event.
const DISTINCT = `
select (select count(*) from console_visitors where api_key = $1 and active && int8range($2, $3)) as visitors,
       (select count(*) from console_accounts where api_key = $1 and active && int8range($2, $3)) as accounts`;

// The summaries keep pages (an address without query and fragment: summaries/pagesWithoutQuery).
const TOP_PAGES = `
with top as (
  select url, sum(events) as events from console_pages
  where api_key = $1 and grain = $2 and t >= $3 and t < $4
  group by url order by events desc, url limit ${TOP}
),
seen as (
  select url, count(distinct visitor_id) as visitors from console_page_visitors
  where api_key = $1 and active && int8range($3, $4) and url in (select url from top)
  group by url
)
select top.url, top.events, coalesce(seen.visitors, 0) as visitors
from top left join seen on seen.url = top.url order by top.events desc, top.url`;

const TOP_FEATURES = `
select tag, el_id, el_text, sum(clicks) as clicks from console_features
where api_key = $1 and grain = $2 and t >= $3 and t < $4
group by tag, el_id, el_text order by clicks desc, tag, el_id, el_text limit ${TOP}`;

// Sessions that started in the range.
const SESSIONS = `
select count(*) as count,
       coalesce(percentile_cont(0.5) within group (order by end_time - start_time), 0) as median,
       coalesce(avg(events), 0) as mean_events,
       coalesce((select json_agg(json_build_object('channel', channel, 'sessions', n) order by n desc, channel)
                 from (select coalesce(channel, 'Other') as channel, count(*) as n from console_sessions
                       where api_key = $1 and start_time >= $2 and start_time < $3 group by 1) c), '[]') as channels
from console_sessions where api_key = $1 and start_time >= $2 and start_time < $3`;

/** Reads the overview; an unknown app answers zeros. */
export async function queryOverview(db: Database, apiKey: string, range: ConsoleRange): Promise<Overview> {
  const bucketed = [apiKey, range.bucket, range.from, range.to];
  const spanned = [apiKey, range.from, range.to];
  // PGlite runs one statement at a time; on PostgreSQL these run side by side on the pool.
  const [series, distinct, pages, features, sessions] = await Promise.all([
    db.query<Record<string, unknown>>(SERIES, bucketed),
    db.query<Record<string, unknown>>(DISTINCT, spanned),
    db.query<Record<string, unknown>>(TOP_PAGES, bucketed),
    db.query<Record<string, unknown>>(TOP_FEATURES, bucketed),
    db.query<Record<string, unknown>>(SESSIONS, spanned),
  ]);
  const sum = (column: string) => series.rows.reduce((total, row) => total + Number(row[column]), 0);
  const s = sessions.rows[0] ?? {};
  const channels = typeof s.channels === 'string' ? JSON.parse(s.channels) : s.channels;
  return {
    range,
    totals: {
      events: sum('events'),
      visitors: Number(distinct.rows[0]?.visitors ?? 0),
      accounts: Number(distinct.rows[0]?.accounts ?? 0),
      sessions: Number(s.count ?? 0),
    },
    series: series.rows.map((row) => ({ t: Number(row.t), events: Number(row.events), visitors: Number(row.visitors) })),
    topPages: pages.rows.map((row) => ({ url: String(row.url), events: Number(row.events), visitors: Number(row.visitors) })),
    topFeatures: features.rows.map((row) => {
      const tag = String(row.tag);
      const id = String(row.el_id);
      const text = String(row.el_text);
      return { label: featureLabel(tag, id, text), tag, id, text, clicks: Number(row.clicks) };
    }),
    frustration: {
      rageClicks: sum('rage_clicks'),
      deadClicks: sum('dead_clicks'),
      errorClicks: sum('error_clicks'),
      uTurns: sum('u_turns'),
    },
    channels: (channels as Array<{ channel: string; sessions: unknown }>).map((c) => ({ channel: c.channel, sessions: Number(c.sessions) })),
    sessions: {
      count: Number(s.count ?? 0),
      medianDurationMs: Math.round(Number(s.median ?? 0)),
      meanEvents: Math.round(Number(s.mean_events ?? 0) * 100) / 100,
    },
  };
}

/** How the console names a clicked element: its text, else `tag#id`, else the tag (lower case). */
export function featureLabel(tag: string, id: string, text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed) return trimmed.length > 60 ? `${trimmed.slice(0, 59)}…` : trimmed;
  return id ? `${tag.toLowerCase()}#${id}` : tag.toLowerCase();
}
