/**
 * An ordered send queue for one beacon endpoint: serialized events go in, jzb beacons come out, one
 * request in flight at a time so the collector receives batches in order. Failures are retried with
 * back-off and `rt` set to the retry count (spec: analytics §4, §7, §8, §9).
 */
import { AGENT_VERSION, SEND_SILO_LIMIT } from '../shared/constants';
import { beaconUrl } from '../shared/beaconUrl';
import { ERROR_CODES, type AgentError } from '../shared/errors';
import { MESSAGES } from '../shared/messages';
import { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from '../shared/nextRetryDelay';
import type { FlushReport, LogLevel } from '../shared/protocol';
import { encodeBatches } from './encodeBatches';
import type { WorkerPorts } from './ports';

export interface SendQueueOptions {
  apiKey: string;
  dataHost: string;
  /** Beacon name under /data, e.g. 'ptm.gif' or 'guide.gif'. */
  endpoint: string;
  /** 'get-only' for the guide beacon; 'post-only' when sendEventsWithPostOnly is set. */
  mode: 'get-or-post' | 'get-only' | 'post-only';
  /** How long after the first (or, with `debounce`, the last) queued event a beacon goes out. */
  delayMs: number;
  /** Restart the delay on every event (guides §7: flushed 500 ms after the last event). @default false */
  debounce?: boolean;
  /** @default DEFAULT_RETRY_POLICY */
  retryPolicy?: RetryPolicy;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
}

interface Pending {
  method: 'GET' | 'POST';
  jzb: string;
  count: number;
  track: boolean;
  failures: number;
}

export interface SendQueue {
  /** Queues one serialized event; `track` events travel in beacons of their own (`type=track`). */
  enqueue(json: string, track?: boolean): void;
  /** Sends everything queued now, retry waits included; resolves when the queue is empty or a send failed. */
  flush(): Promise<FlushReport>;
  /** Events queued or in flight. */
  pendingCount(): number;
}

export function createSendQueue(options: SendQueueOptions): SendQueue {
  const { ports, log } = options;
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  let raw: Array<{ json: string; track: boolean }> = [];
  const batches: Pending[] = [];
  let timer: unknown = null;
  /** A retry is waiting out its back-off: new events must not cut the wait short. */
  let backingOff = false;
  let draining: Promise<void> | null = null;
  let sentSinceFlush = 0;
  let errors: AgentError[] = [];

  function schedule(delay: number): void {
    if (timer !== null) {
      if (!options.debounce) return;
      ports.clock.clearTimeout(timer);
    }
    timer = ports.clock.setTimeout(() => {
      timer = null;
      backingOff = false;
      void drain();
    }, delay);
  }

  /** Encodes raw events into batches, cutting where track-ness changes so order is kept. */
  function encodeRaw(): void {
    let start = 0;
    for (let i = 1; i <= raw.length; i++) {
      if (i < raw.length && raw[i]!.track === raw[start]!.track) continue;
      const run = raw.slice(start, i);
      const { batches: encoded, oversize } = encodeBatches(
        run.map((r) => r.json),
        options.mode,
      );
      for (const o of oversize) {
        // spec: analytics §8 — a single event over the send silo after compression is dropped with a log.
        log('error', `Dropped an event of ${o.length} characters after compression: over the ${SEND_SILO_LIMIT} limit`);
      }
      for (const b of encoded) batches.push({ ...b, track: run[0]!.track, failures: 0 });
      start = i;
    }
    raw = [];
  }

  function drain(): Promise<void> {
    if (!draining) {
      draining = (async () => {
        try {
          encodeRaw();
          while (batches.length) {
            const head = batches[0]!;
            const error = await send(head);
            if (!error) {
              batches.shift();
              sentSinceFlush += head.count;
              if (raw.length) encodeRaw();
              continue;
            }
            errors.push(error);
            head.failures += 1;
            const delay = nextRetryDelay(head.failures, policy);
            if (delay === null) {
              batches.shift();
              log('error', `Dropped a beacon of ${head.count} events after ${head.failures} failures`);
              continue;
            }
            if (timer !== null) ports.clock.clearTimeout(timer);
            timer = null;
            backingOff = true;
            schedule(delay);
            return;
          }
        } finally {
          draining = null;
        }
      })();
    }
    return draining;
  }

  async function send(batch: Pending): Promise<AgentError | null> {
    const common = {
      v: AGENT_VERSION,
      ct: ports.clock.now(),
      rt: batch.failures > 0 ? batch.failures : undefined,
      type: batch.track ? 'track' : undefined,
    };
    const request =
      batch.method === 'GET'
        ? { method: 'GET' as const, url: beaconUrl(options.dataHost, options.endpoint, options.apiKey, { ...common, jzb: batch.jzb }) }
        : {
            method: 'POST' as const,
            url: beaconUrl(options.dataHost, options.endpoint, options.apiKey, { ...common, s: batch.jzb.length }),
            body: JSON.stringify({ events: batch.jzb }),
            contentType: 'application/json',
          };
    try {
      const response = await ports.transport.request(request);
      if (response.status >= 200 && response.status < 300) return null;
      const text = (await response.text().catch(() => '')).slice(0, 200) || response.statusText;
      const message = MESSAGES.badStatus(response.status, text);
      log('warn', message);
      return { code: ERROR_CODES.badStatus, message };
    } catch (err) {
      const message = `beacon to ${options.endpoint} failed: ${(err as Error)?.message ?? String(err)}`;
      log('warn', message);
      return { code: ERROR_CODES.network, message };
    }
  }

  return {
    enqueue(json, track = false) {
      raw.push({ json, track });
      if (!draining && !backingOff) schedule(options.delayMs);
    },
    async flush() {
      if (timer !== null) {
        ports.clock.clearTimeout(timer);
        timer = null;
      }
      backingOff = false;
      sentSinceFlush = 0;
      errors = [];
      // A drain already running may have started before the latest events; run until nothing is left
      // or a send fails.
      let before = -1;
      while (this.pendingCount() > 0 && errors.length === 0 && before !== this.pendingCount()) {
        before = this.pendingCount();
        if (draining) await draining;
        else await drain();
      }
      const report: FlushReport = { sent: sentSinceFlush, pending: this.pendingCount(), errors };
      sentSinceFlush = 0;
      errors = [];
      return report;
    },
    pendingCount() {
      return raw.length + batches.reduce((n, b) => n + b.count, 0);
    },
  };
}
