/**
 * An ordered send queue for one beacon endpoint: serialized events go in, jzb beacons come out, one request
 * in flight at a time so the collector receives batches in order (spec: analytics §4, §7, §8, §9).
 * - Failures are retried with back-off, `rt` carrying the retry count; dropped after 100 failures.
 * - Each `enqueue` call is persisted (when a store is given) until all its events are done, so a later page
 *   load sends what this one could not; events older than 6 days are dropped then.
 * - `onDone` tells the owner which events are finished (delivered or dropped), so the shim can stop holding
 *   them for its page-hide beacon.
 */
import { SEND_SILO_LIMIT } from '../shared/constants';
import type { AgentError } from '../shared/errors';
import { MESSAGES } from '../shared/messages';
import { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from '../shared/wire/nextRetryDelay';
import type { FlushReport, LogLevel } from '../shared/protocol';
import { shortenEvent } from '../shared/events/shortenEvent';
import { createChunkStore } from './createChunkStore';
import { encodeBatches } from './encodeBatches';
import { sendBeacon } from './sendBeacon';
import type { CollectorPause } from './createCollectorPause';
import type { WorkerPorts } from './ports';

/** One serialized event in the queue. */
export interface QueueItem {
  json: string;
  /** Track events travel in beacons of their own (`type=track`). */
  track: boolean;
  /** The event's per-page sequence, for acknowledgements; absent on events restored from earlier loads. */
  sequence?: number;
  /** Key of the persisted chunk holding this item. */
  chunk?: string;
}

/** Signed-metadata fields sent with every beacon (analytics §7: jwt and signingKeyName). */
export interface BeaconAuth {
  jwt: string;
  signingKeyName: string;
}

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
  /** Query parameters added to every beacon, read at send time (e.g. `acc`). */
  params?: () => Record<string, string | undefined>;
  /** Signed-metadata fields, read at send time. */
  auth?: () => BeaconAuth | undefined;
  /** Prefix of this page's persisted chunks, `{apiKey}|{endpoint}|{frameId}`; needs `ports.store`. */
  persistKey?: string;
  /** The pause lock of this collector, shared by the agent's queues (a 429 or 503 holds them all). */
  pause?: CollectorPause;
  /** Items finished with: delivered, or dropped (failure cap, too large). */
  onDone?(items: QueueItem[]): void;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
}

/** One encoded beacon waiting to go out, with the items it carries. */
export interface Pending {
  method: 'GET' | 'POST';
  jzb: string;
  items: QueueItem[];
  track: boolean;
  failures: number;
}

export interface SendQueue {
  /** Queues the events of one hand-over, in order, and persists them as one chunk. */
  enqueue(items: QueueItem[]): void;
  /** Sends everything queued now, retry waits included; resolves when the queue is empty or a send failed. */
  flush(): Promise<FlushReport>;
  /** Events queued or in flight. */
  pendingCount(): number;
  /** Puts what earlier page loads left unsent in front of the queue; answers how many events. */
  restore(): Promise<number>;
}

export function createSendQueue(options: SendQueueOptions): SendQueue {
  const { ports, log } = options;
  const store = options.persistKey ? ports.store : undefined;
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  let raw: QueueItem[] = [];
  const batches: Pending[] = [];
  let timer: unknown = null;
  /** A retry is waiting out its back-off: new events must not cut the wait short. */
  let backingOff = false;
  let draining: Promise<void> | null = null;
  /** Events taken from `raw` and being compressed: still pending. */
  let encoding = 0;
  let sentSinceFlush = 0;
  let errors: AgentError[] = [];
  const chunks = store && options.persistKey
    ? createChunkStore({ store, persistKey: options.persistKey, restorePrefix: `${options.apiKey}|${options.endpoint}|`, clock: ports.clock, log })
    : undefined;

  function done(items: QueueItem[]): void {
    if (!items.length) return;
    chunks?.release(items);
    options.onDone?.(items);
  }

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

  /** How long the collector's pause lock still holds this queue, ms (0: not paused). */
  const pausedFor = () => options.pause?.left(ports.clock.now()) ?? 0;

  /** Waits out a back-off or a pause: new events do not cut it short. */
  function wait(delay: number): void {
    if (timer !== null) ports.clock.clearTimeout(timer);
    timer = null;
    backingOff = true;
    schedule(delay);
  }

  /** Encodes queued items into batches, cutting where track-ness changes so order is kept. */
  async function encodeRaw(): Promise<void> {
    // Taken whole first: events enqueued while this one compresses wait for the next round.
    const taken = raw;
    raw = [];
    encoding = taken.length;
    try {
      let start = 0;
      for (let i = 1; i <= taken.length; i++) {
        if (i < taken.length && taken[i]!.track === taken[start]!.track) continue;
        await encodeRun(taken.slice(start, i));
        start = i;
      }
    } finally {
      encoding = 0;
    }
  }

  async function encodeRun(run: QueueItem[]): Promise<void> {
    const shortened = new Set<QueueItem>();
    for (;;) {
      const { batches: encoded, oversize } = await encodeBatches(
        run.map((r) => r.json),
        options.mode,
        ports.deflate,
      );
      if (!oversize.length) {
        for (const b of encoded) {
          batches.push({ method: b.method, jzb: b.jzb, items: run.slice(b.start, b.start + b.count), track: run[0]!.track, failures: 0 });
        }
        return;
      }
      // spec: analytics §8 — shorten the long fields of an event too large alone and try again; an event
      // still too large after that is dropped with a log.
      const dropped: QueueItem[] = [];
      for (const { index, length } of oversize) {
        const item = run[index]!;
        const shorter = shortenedJson(item);
        if (!shortened.has(item) && shorter) {
          log('warn', `${MESSAGES.maxLengthExceeded}: ${length} characters after compression; shortening its long fields`);
          item.json = shorter;
          shortened.add(item);
        } else {
          log('error', `Dropped an event of ${length} characters after compression: over the ${SEND_SILO_LIMIT} limit`);
          dropped.push(item);
          ports.tally?.add('eventsDropped');
        }
      }
      if (dropped.length) {
        run = run.filter((item) => !dropped.includes(item));
        done(dropped);
        if (!run.length) return;
      }
    }
  }

  function drain(): Promise<void> {
    if (!draining) {
      draining = (async () => {
        try {
          await encodeRaw();
          while (batches.length) {
            const head = batches[0]!;
            // The collector asked every queue to wait (429/503): nothing goes out before then, flushNow included.
            const paused = pausedFor();
            if (paused > 0) {
              wait(paused);
              return;
            }
            const error = await sendBeacon(head, options);
            if (!error) {
              batches.shift();
              sentSinceFlush += head.items.length;
              ports.tally?.add('eventsSent', head.items.length);
              done(head.items);
              if (raw.length) await encodeRaw();
              continue;
            }
            errors.push(error);
            head.failures += 1;
            ports.tally?.add('beaconsFailed');
            const delay = nextRetryDelay(head.failures, policy);
            if (delay === null) {
              batches.shift();
              log('error', `Dropped a beacon of ${head.items.length} events after ${head.failures} failures`);
              ports.tally?.add('eventsDropped', head.items.length);
              done(head.items);
              continue;
            }
            wait(Math.max(delay, pausedFor()));
            return;
          }
        } finally {
          draining = null;
        }
      })();
    }
    return draining;
  }

  const queue: SendQueue = {
    enqueue(items) {
      if (!items.length) return;
      chunks?.save(items);
      for (const item of items) raw.push(item);
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
      while (queue.pendingCount() > 0 && errors.length === 0 && before !== queue.pendingCount()) {
        before = queue.pendingCount();
        if (draining) await draining;
        else await drain();
      }
      const report: FlushReport = { sent: sentSinceFlush, pending: queue.pendingCount(), errors };
      sentSinceFlush = 0;
      errors = [];
      return report;
    },

    pendingCount() {
      return raw.length + encoding + batches.reduce((n, b) => n + b.items.length, 0);
    },

    async restore() {
      const restored = chunks ? await chunks.restore() : [];
      if (restored.length) {
        raw = restored.concat(raw);
        if (!draining && !backingOff) schedule(0);
      }
      return restored.length;
    },
  };
  return queue;
}

function shortenedJson(item: QueueItem): string | null {
  try {
    return shortenEvent(item.json);
  } catch {
    return null;
  }
}
