/**
 * The answer of `GET /api/apps/{apiKey}/health` (docs/console-api.md "Agent health"), apart from its query so the
 * console reads the same type without the server's Node code.
 */
import type { MonitorCounts } from '../../shared/wire/monitorReport';

/** The counts charted over time: what goes wrong beside what goes through. */
export type HealthSeriesCounts = Pick<MonitorCounts, 'eventsSent' | 'beaconsFailed' | 'eventsDropped' | 'guideLoadFailures' | 'errors'>;

/** What the agents of one app reported over a range, and the errors they logged. Times are epoch ms. */
export interface AgentHealth {
  /** The span counted: `[from, to)` widened to whole UTC buckets (queries/parseRange). */
  range: { from: number; to: number; bucket: 'hour' | 'day' };
  /** Each count summed over the reports received in the range, with how many reports, sessions and visitors sent them. */
  totals: MonitorCounts & { reports: number; sessions: number; visitors: number };
  /** Per agent version, the most recently heard first. */
  versions: Array<MonitorCounts & { version: string; reports: number; sessions: number; lastReport: number }>;
  /** Per bucket (by received time) that holds a report, in time order. */
  series: Array<HealthSeriesCounts & { t: number }>;
  /** The error log's messages (POST /data/errorlog) in the range, the latest first, at most 50. */
  errors: Array<{ message: string; count: number; lastSeen: number; version: string | null }>;
}
