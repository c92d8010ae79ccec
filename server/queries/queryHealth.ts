/**
 * GET /api/apps/{apiKey}/health: what an app's agents reported about themselves over a range (their health
 * reports, createMonitorStore) and the errors they logged (the error log, createLogStore). Both count in the range
 * by the time the collector received them, not by the agent's clock (which may be off); the reports' table is
 * indexed on it. Read from the tables themselves: a report is one row per page every 5 minutes, not per event.
 */
import { MONITOR_COUNT_NAMES, type MonitorCounts } from '../../shared/wire/monitorReport';
import type { Database } from '../storage/Database';
import { HEALTH_COUNT_COLUMNS } from '../ingest/createMonitorStore';
import type { AgentHealth, ConsoleRange, HealthSeriesCounts } from '../../shared/api';
import { bucketMs } from './parseRange';

/** Most error messages answered. */
export const HEALTH_ERRORS_MAX = 50;

const SERIES_COUNTS = ['eventsSent', 'beaconsFailed', 'eventsDropped', 'guideLoadFailures', 'errors'] as const satisfies ReadonlyArray<keyof HealthSeriesCounts>;

/** SQL of each named count summed over the rows, as its column's name (read back with `countsOf`). */
export const sums = (names: ReadonlyArray<keyof MonitorCounts>) =>
  names.map((name) => `coalesce(sum(${HEALTH_COUNT_COLUMNS[name]}), 0) as ${HEALTH_COUNT_COLUMNS[name]}`).join(', ');

// $1 api key, $2 from, $3 to.
const IN_RANGE = 'from health_reports where api_key = $1 and received_at >= $2 and received_at < $3';

const TOTALS = `
select count(*) as reports, count(distinct session_id) as sessions, count(distinct visitor_id) as visitors,
  ${sums(MONITOR_COUNT_NAMES)}
${IN_RANGE}`;

const VERSIONS = `
select version, count(*) as reports, count(distinct session_id) as sessions, max(received_at) as last_report,
  ${sums(MONITOR_COUNT_NAMES)}
${IN_RANGE}
group by version order by last_report desc, version`;

// $4 the bucket's length in ms: buckets start at multiples of it (UTC, as the summaries' are).
const SERIES = `
select received_at - received_at % $4 as t, ${sums(SERIES_COUNTS)}
${IN_RANGE}
group by 1 order by 1`;

// The version an error was last logged with: of its newest row.
const ERRORS = `
select message, count(*) as count, max(received_at) as last_seen, (array_agg(version order by id desc))[1] as version
from logs where api_key = $1 and kind = 'error' and received_at >= $2 and received_at < $3
group by message order by last_seen desc, message limit ${HEALTH_ERRORS_MAX}`;

type Row = Record<string, unknown>;

/** Reads an app's agent health; an app that never reported answers zeros and empty lists. */
export async function queryHealth(db: Database, apiKey: string, range: ConsoleRange): Promise<AgentHealth> {
  const params = [apiKey, range.from, range.to];
  // PGlite runs one statement at a time; on PostgreSQL these run side by side on the pool.
  const [totals, versions, series, errors] = await Promise.all([
    db.query<Row>(TOTALS, params),
    db.query<Row>(VERSIONS, params),
    db.query<Row>(SERIES, [...params, bucketMs(range.bucket)]),
    db.query<Row>(ERRORS, params),
  ]);
  const total = totals.rows[0] ?? {};
  return {
    range,
    totals: { reports: Number(total.reports ?? 0), sessions: Number(total.sessions ?? 0), visitors: Number(total.visitors ?? 0), ...countsOf(total, MONITOR_COUNT_NAMES) },
    versions: versions.rows.map((row) => ({
      version: String(row.version),
      reports: Number(row.reports),
      sessions: Number(row.sessions),
      // pg returns bigint columns as strings, PGlite as numbers.
      lastReport: Number(row.last_report),
      ...countsOf(row, MONITOR_COUNT_NAMES),
    })),
    series: series.rows.map((row) => ({ t: Number(row.t), ...countsOf(row, SERIES_COUNTS) })),
    errors: errors.rows.map((row) => ({
      message: String(row.message),
      count: Number(row.count),
      lastSeen: Number(row.last_seen),
      version: row.version === null || row.version === undefined ? null : String(row.version),
    })),
  };
}

/** The named counts of a row of sums, as numbers. */
export function countsOf<N extends keyof MonitorCounts>(row: Row, names: readonly N[]): Pick<MonitorCounts, N> {
  const counts = {} as Pick<MonitorCounts, N>;
  for (const name of names) counts[name] = Number(row[HEALTH_COUNT_COLUMNS[name]] ?? 0);
  return counts;
}
