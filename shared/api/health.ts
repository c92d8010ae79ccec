/**
 * The answers of the admin API about the agents' own health (docs/console-api.md "Agent health"): the reports
 * of shared/wire/monitorReport.ts summed per app. Types only. Times are epoch ms.
 */
import type { MonitorCounts } from '../wire/monitorReport';
import type { ConsoleRange } from './range';

/** The counts charted over time: what goes wrong beside what goes through. */
export type HealthSeriesCounts = Pick<MonitorCounts, 'eventsSent' | 'beaconsFailed' | 'eventsDropped' | 'guideLoadFailures' | 'errors'>;

/**
 * An app's agents' health at a glance, `health24h` of each app of `GET /api/apps`: the reports received in the last
 * 24 hours and their counts that mean trouble (all zeros: no report).
 */
export type AppHealthGlance = { reports: number } & Pick<MonitorCounts, 'beaconsFailed' | 'eventsDropped' | 'guideLoadFailures' | 'errors'>;

/** `GET /api/apps/{apiKey}/health?from&to&bucket`: what the agents of one app reported over a range, and the errors they logged. */
export interface AgentHealth {
  /** The span counted (by the time the collector received each report). */
  range: ConsoleRange;
  /** Each count summed over the reports received in the range, with how many reports, sessions and visitors sent them. */
  totals: MonitorCounts & { reports: number; sessions: number; visitors: number };
  /** Per agent version, the most recently heard first. */
  versions: Array<MonitorCounts & { version: string; reports: number; sessions: number; lastReport: number }>;
  /** Per bucket (by received time) that holds a report, in time order. */
  series: Array<HealthSeriesCounts & { t: number }>;
  /** The error log's messages (POST /data/errorlog) in the range, the latest first, at most 50; `version` of the latest. */
  errors: Array<{ message: string; count: number; lastSeen: number; version: string | null }>;
}
