/**
 * The collector's `health_reports` table: one row per agent health report (`POST /data/monitor`,
 * shared/wire/monitorReport.ts), read by the console's Health view (queries/queryHealth.ts). Plain SQL that
 * PGlite and PostgreSQL both run.
 *
 * `WAYMARK_RETENTION_DAYS` deletes reports received before its cutoff, with the raw events (createRetention).
 */
import type { MonitorCounts, MonitorReport } from '../../shared/wire/monitorReport';
import type { Database } from '../storage/Database';
import { rethrowAsClientDataError } from '../HttpError';

/**
 * The schema: migration 11 of server/storage/migrations/MIGRATIONS.ts. A count is at most 1e9 (checkMonitorReport), so
 * `integer` holds it; the view's sums are bigint (PostgreSQL's sum of integer).
 */
export const HEALTH_REPORTS_SCHEMA = `
create table if not exists health_reports (
  id bigserial primary key,
  api_key text not null,
  received_at bigint not null,
  version text not null,
  visitor_id text not null,
  session_id text not null,
  period_from bigint not null,
  period_to bigint not null,
  events_sent integer not null default 0,
  beacons_failed integer not null default 0,
  events_dropped integer not null default 0,
  guide_loads integer not null default 0,
  guide_load_failures integer not null default 0,
  errors integer not null default 0,
  warnings integer not null default 0
);
create index if not exists health_reports_by_received on health_reports (api_key, received_at);
`;

/** The column of each count. */
export const HEALTH_COUNT_COLUMNS: Readonly<Record<keyof MonitorCounts, string>> = {
  eventsSent: 'events_sent',
  beaconsFailed: 'beacons_failed',
  eventsDropped: 'events_dropped',
  guideLoads: 'guide_loads',
  guideLoadFailures: 'guide_load_failures',
  errors: 'errors',
  warnings: 'warnings',
};

const INSERT = `
insert into health_reports (api_key, received_at, version, visitor_id, session_id, period_from, period_to,
  events_sent, beacons_failed, events_dropped, guide_loads, guide_load_failures, errors, warnings)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`;

/** Storage of health reports. */
export interface MonitorStore {
  /** Stores one checked report; resolves once it is committed. */
  insert(apiKey: string, report: MonitorReport, receivedAt: number): Promise<void>;
}

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createMonitorStore(db: Database): MonitorStore {
  return {
    async insert(apiKey, report, receivedAt) {
      const { counts } = report;
      try {
        await db.query(INSERT, [
          apiKey, receivedAt, report.version, report.visitorId, report.sessionId, report.from, report.to,
          counts.eventsSent, counts.beaconsFailed, counts.eventsDropped, counts.guideLoads, counts.guideLoadFailures,
          counts.errors, counts.warnings,
        ]);
      } catch (err) {
        // checkMonitorReport refuses a NUL in the report's fields; one in the api key is refused here, a 400 too.
        rethrowAsClientDataError(err, 'health report');
      }
    },
  };
}
