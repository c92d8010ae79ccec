/**
 * The agent's health report (spec: analytics §9 "monitoring flush 300000 ms"): what one page's agent did since
 * its last report, counted in the worker and sent to `POST {dataHost}/data/monitor?apiKey=` as JSON. The spec
 * gives the interval only; the report is Waymark's, so a product team can see in the console whether its
 * installs deliver (events sent against beacons failed and events given up), load guides and log errors.
 */

/** spec: analytics §9 — "monitoring flush 300000 ms". */
export const MONITOR_FLUSH_MS = 300_000;

/** The counters of one report. Each is a whole number of occurrences since the previous report of the page. */
export interface MonitorCounts {
  /** Events the collector accepted (a 2xx for their beacon). */
  eventsSent: number;
  /** Beacon attempts that failed: a non-2xx answer or the network's refusal (each retry counts). */
  beaconsFailed: number;
  /** Events given up: after the failure cap, or too large to send. */
  eventsDropped: number;
  /** guide.json loads answered with a list. */
  guideLoads: number;
  /** guide.json loads that failed: the network, a non-2xx status, an answer that is not JSON, the guide timeout. */
  guideLoadFailures: number;
  /** Messages the agent logged as errors. */
  errors: number;
  /** Messages the agent logged as warnings. */
  warnings: number;
}

/** The names of {@link MonitorCounts}, in the order the console shows them. */
export const MONITOR_COUNT_NAMES = ['eventsSent', 'beaconsFailed', 'eventsDropped', 'guideLoads', 'guideLoadFailures', 'errors', 'warnings'] as const satisfies ReadonlyArray<keyof MonitorCounts>;

/** The body of `POST /data/monitor?apiKey=`. */
export interface MonitorReport {
  /** The agent's version (shared/constants AGENT_VERSION). */
  version: string;
  visitorId: string;
  sessionId: string;
  /** Epoch ms: the start of the counted period (the page's start, or the previous report). */
  from: number;
  /** Epoch ms: when the report was made. */
  to: number;
  counts: MonitorCounts;
}
