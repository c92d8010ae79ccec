/**
 * Reports the agent's own errors to the collector (spec: analytics §7 "Error log", §8): each distinct
 * error is sent once and its repeats counted; a failed error log falls back to the log beacon. One attempt
 * per request, each bounded by a timeout: reporting must never add load to a page that is already failing.
 */
import { beaconUrl } from '../shared/wire/beaconUrl';
import { hashError, truncateLogMessage } from '../shared/logRules';
import type { LogLevel } from '../shared/protocol';
import type { TransportRequest, WorkerPorts } from './ports';

/**
 * How long one report request may take before it counts as failed. Not in the spec: a request the
 * network never answers must not leave `report()` pending forever.
 */
export const ERROR_REPORT_TIMEOUT_MS = 10_000;

/** An error to report. */
export interface ErrorReport {
  message: string;
  stack?: string;
  /** Critical errors carry their stack when stacks are included (spec: analytics §8). @default false */
  critical?: boolean;
}

/** Configuration of {@link createErrorReporter}. */
export interface ErrorReporterOptions {
  apiKey: string;
  /** Origin of the collector, without a trailing slash. */
  dataHost: string;
  /** Sent as `version`. */
  agentVersion: string;
  /** The current visitor, read at each send (identify may change it). */
  getVisitorId: () => string;
  /** False when stack traces are disabled (spec: analytics §8). */
  includeStack: boolean;
  ports: WorkerPorts;
  /**
   * Where the reporter notes that a report could not be delivered (level 'debug'). Must not route back into
   * `report()`.
   */
  log(level: LogLevel, message: string): void;
}

/** The reporter. No method throws or rejects. */
export interface ErrorReporter {
  /** Sends the first occurrence of an error; later ones only increment its count. */
  report(error: ErrorReport): Promise<void>;
  /** Sends `GET {dataHost}/data/log.gif/{apiKey}?msg=&version=` with the message cut to its tail. */
  logBeacon(message: string): Promise<void>;
  /** Occurrences per error hash (hashError of the message and the first stack frame), the first included. */
  counts(): Record<string, number>;
}

/** Creates a reporter for one agent. */
export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const { apiKey, dataHost, agentVersion, includeStack, ports, log } = options;
  const counts = new Map<string, number>();

  /** One attempt; true on a 2xx answer. A refusal, a non-2xx status or the timeout is a failure. */
  const attempt = (req: TransportRequest): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      const timer = ports.clock.setTimeout(() => resolve(false), ERROR_REPORT_TIMEOUT_MS);
      const done = (ok: boolean) => {
        ports.clock.clearTimeout(timer);
        resolve(ok);
      };
      try {
        ports.transport.request(req).then(
          (res) => done(res.status >= 200 && res.status < 300),
          () => done(false),
        );
      } catch {
        done(false);
      }
    });

  const logBeacon = async (message: string): Promise<void> => {
    let ok = false;
    try {
      const msg = wellFormed(truncateLogMessage(String(message)));
      ok = await attempt({ method: 'GET', url: beaconUrl(dataHost, 'log.gif', apiKey, { msg, version: agentVersion }) });
    } catch {
      // Nothing left to try.
    }
    if (!ok) note('a log beacon was not delivered');
  };

  const note = (message: string) => {
    try {
      log('debug', message);
    } catch {
      // The logger is gone (the shim went away); nothing to do.
    }
  };

  return {
    async report(error) {
      try {
        const message = String(error.message);
        const stack = typeof error.stack === 'string' ? error.stack : '';
        // spec: analytics §8 — "de-duplicated by hash and counted". Counted before the send, so a repeat
        // arriving while the first is in flight is not sent twice.
        const hash = hashError(`${message}\n${firstFrame(stack)}`);
        const seen = counts.get(hash) ?? 0;
        counts.set(hash, seen + 1);
        if (seen > 0) return;

        // spec: analytics §8 — "critical errors include a stack unless stack traces are disabled".
        const text = error.critical && includeStack && stack ? `${message}\n${stack}` : message;
        let visitorId = '';
        try {
          visitorId = String(options.getVisitorId());
        } catch {
          // Sent without a visitor rather than not at all.
        }
        // spec: analytics §7 — POST {dataHost}/data/errorlog?apiKey=, body {error, version, visitorId}.
        const sent = await attempt({
          method: 'POST',
          url: `${dataHost}/data/errorlog?apiKey=${encodeURIComponent(apiKey)}`,
          body: JSON.stringify({ error: text, version: agentVersion, visitorId }),
          contentType: 'application/json',
        });
        // spec: analytics §7 — "failure falls back to the log beacon".
        if (!sent) await logBeacon(text);
      } catch {
        // Reporting never throws into the agent: a report that cannot even be built is dropped.
      }
    },
    logBeacon,
    counts: () => Object.fromEntries(counts),
  };
}

/**
 * The first stack line that names a code location: V8 writes `    at fn (url:line:col)`, Firefox and
 * Safari `fn@url:line:col`. V8's first line repeats the message, so it would not tell apart two errors
 * with the same message thrown from different places.
 */
function firstFrame(stack: string): string {
  const lines = stack.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => l.startsWith('at ') || l.includes('@')) ?? lines[0] ?? '';
}

/** Replaces lone surrogates with U+FFFD: encodeURIComponent throws on them. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
