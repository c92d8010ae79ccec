/**
 * The agent's health report (spec: analytics §9 "monitoring flush 300000 ms"; shared/wire/monitorReport.ts):
 * the worker's parts count what they do (events sent, beacons failed, events given up, guide loads, errors and
 * warnings logged) and the counts go to `POST {dataHost}/data/monitor?apiKey=` every 300,000 ms and at each
 * flush (page hide, flushNow), when there is something to report. One attempt each: a report that does not
 * arrive (the network, a 5xx or 429) is added to the next; one the collector refuses (another 4xx) is dropped,
 * as sending it again would not change the answer; a collector without the endpoint (404, 405: one made for the
 * original agent) is not asked again by this page.
 */
import { MONITOR_FLUSH_MS, type MonitorCounts, type MonitorReport } from '../shared/wire/monitorReport';
import type { WorkerPorts } from './ports';
import { raceTimeout, TIMED_OUT } from './raceTimeout';
import { ERROR_REPORT_TIMEOUT_MS } from './createErrorReporter';

/** Where the worker's parts count (ports.tally). */
export interface Tally {
  add(name: keyof MonitorCounts, n?: number): void;
}

export interface Monitor extends Tally {
  /** Sends what was counted since the last report, if anything; never rejects. */
  flush(): Promise<void>;
}

export interface MonitorOptions {
  apiKey: string;
  dataHost: string;
  agentVersion: string;
  /** The visitor and session of the page, read at each report (identify and a new session change them). */
  current(): { visitorId: string; sessionId: string };
  /**
   * False while the agent writes nothing for this visitor (analytics §1 lock, a 451, refused signed metadata): a
   * report names the visitor, so it waits, counts kept, until writing resumes. @default always
   */
  mayReport?(): boolean;
  ports: WorkerPorts;
}

const zero = (): MonitorCounts => ({ eventsSent: 0, beaconsFailed: 0, eventsDropped: 0, guideLoads: 0, guideLoadFailures: 0, errors: 0, warnings: 0 });

export function createMonitor({ apiKey, dataHost, agentVersion, current, mayReport = () => true, ports }: MonitorOptions): Monitor {
  const { clock } = ports;
  let counts = zero();
  let from = clock.now();
  let sending: Promise<void> | null = null;
  /** The collector has no such endpoint: nothing more is counted or sent. */
  let stopped = false;

  const send = async (): Promise<void> => {
    const taken = counts;
    // A clock set back since the period began must not make a report whose end comes before its start.
    const report: MonitorReport = { version: agentVersion, ...current(), from, to: Math.max(from, clock.now()), counts: taken };
    counts = zero();
    from = report.to;
    let status = 0;
    try {
      const request = ports.transport.request({
        method: 'POST',
        url: `${dataHost}/data/monitor?apiKey=${encodeURIComponent(apiKey)}`,
        body: JSON.stringify(report),
        contentType: 'application/json',
      });
      // A collector that never answers must not hold every later report of the page (the error log's limit).
      const answer = await raceTimeout(clock, request, ERROR_REPORT_TIMEOUT_MS);
      if (answer !== TIMED_OUT) status = answer.status;
    } catch {
      // The network refused it: counted again below.
    }
    if (status === 404 || status === 405) stopped = true;
    else if (status === 0 || status === 429 || status >= 500) {
      // Not delivered: the next report carries these counts over the longer period.
      for (const name of Object.keys(taken) as Array<keyof MonitorCounts>) counts[name] += taken[name];
      from = report.from;
    }
  };

  const monitor: Monitor = {
    add(name, n = 1) {
      if (!stopped && n > 0) counts[name] += n;
    },
    flush() {
      if (stopped || !mayReport() || !Object.values(counts).some(Boolean)) return sending ?? Promise.resolve();
      return (sending ??= send().finally(() => (sending = null)));
    },
  };
  const tick = () => {
    void monitor.flush();
    if (!stopped) clock.setTimeout(tick, MONITOR_FLUSH_MS);
  };
  clock.setTimeout(tick, MONITOR_FLUSH_MS);
  return monitor;
}
