/**
 * An ordered send queue for one beacon endpoint: serialized events go in, jzb beacons come out, one request
 * in flight at a time so the collector receives batches in order (spec: analytics §4, §7, §8, §9).
 * - Failures are retried with back-off, `rt` carrying the retry count; dropped after 100 failures.
 * - Each `enqueue` call is persisted (when a store is given) until all its events are done, so a later page
 *   load sends what this one could not; events older than 6 days are dropped then.
 * - `onDone` tells the owner which events are finished (delivered or dropped), so the shim can stop holding
 *   them for its page-hide beacon.
 */
import { AGENT_VERSION, SEND_SILO_LIMIT, UNSENT_EVENT_TTL_MS } from '../shared/constants';
import { beaconUrl } from '../shared/wire/beaconUrl';
import { ERROR_CODES, type AgentError } from '../shared/errors';
import { MESSAGES } from '../shared/messages';
import { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from '../shared/wire/nextRetryDelay';
import type { FlushReport, LogLevel } from '../shared/protocol';
import { shortenEvent } from '../shared/events/shortenEvent';
import { encodeBatches } from './encodeBatches';
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
  /** Items finished with: delivered, or dropped (failure cap, too large). */
  onDone?(items: QueueItem[]): void;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
}

interface Pending {
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
  let chunkCount = 0;
  /** Items of each persisted chunk not yet done with. */
  const remaining = new Map<string, number>();
  let storeFailureLogged = false;

  function storeFailed(err: unknown): void {
    if (storeFailureLogged) return;
    storeFailureLogged = true;
    log('warn', `unsent events cannot be kept across page loads: ${String(err)}`);
  }

  function done(items: QueueItem[]): void {
    if (!items.length) return;
    for (const item of items) {
      if (!item.chunk || !store) continue;
      const left = (remaining.get(item.chunk) ?? 1) - 1;
      if (left > 0) {
        remaining.set(item.chunk, left);
      } else {
        remaining.delete(item.chunk);
        store.remove(item.chunk).catch(storeFailed);
      }
    }
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
            const error = await send(head);
            if (!error) {
              batches.shift();
              sentSinceFlush += head.items.length;
              done(head.items);
              if (raw.length) await encodeRaw();
              continue;
            }
            errors.push(error);
            head.failures += 1;
            const delay = nextRetryDelay(head.failures, policy);
            if (delay === null) {
              batches.shift();
              log('error', `Dropped a beacon of ${head.items.length} events after ${head.failures} failures`);
              done(head.items);
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
    const auth = options.auth?.();
    const common = {
      v: AGENT_VERSION,
      ct: ports.clock.now(),
      s: batch.jzb.length,
      rt: batch.failures > 0 ? batch.failures : undefined,
      type: batch.track ? 'track' : undefined,
      ...options.params?.(),
    };
    const request =
      batch.method === 'GET'
        ? {
            method: 'GET' as const,
            url: beaconUrl(options.dataHost, options.endpoint, options.apiKey, {
              ...common,
              jzb: batch.jzb,
              jwt: auth?.jwt,
              signingKeyName: auth?.signingKeyName,
            }),
          }
        : {
            method: 'POST' as const,
            url: beaconUrl(options.dataHost, options.endpoint, options.apiKey, common),
            body: JSON.stringify(auth ? { events: batch.jzb, jwt: auth.jwt, signingKeyName: auth.signingKeyName } : { events: batch.jzb }),
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

  const queue: SendQueue = {
    enqueue(items) {
      if (!items.length) return;
      if (store) {
        const key = `${options.persistKey}|${chunkCount++}`;
        for (const item of items) item.chunk = key;
        remaining.set(key, items.length);
        store
          .put(key, { savedAt: ports.clock.now(), items: items.map(({ json, track }) => ({ json, track })) })
          .catch(storeFailed);
      }
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
      if (!store) return 0;
      const prefix = `${options.apiKey}|${options.endpoint}|`;
      let all: Array<[string, { savedAt: number; items: Array<{ json: string; track: boolean }> }]>;
      try {
        all = await store.entries();
      } catch (err) {
        storeFailed(err);
        return 0;
      }
      const restored: QueueItem[] = [];
      const now = ports.clock.now();
      for (const [key, chunk] of all.sort((a, b) => a[1].savedAt - b[1].savedAt)) {
        if (typeof key !== 'string' || !key.startsWith(prefix) || key.startsWith(`${options.persistKey}|`)) continue;
        // spec: analytics §9 — stored unsent events expire after 6 days.
        if (!chunk || !Array.isArray(chunk.items) || now - chunk.savedAt > UNSENT_EVENT_TTL_MS) {
          store.remove(key).catch(storeFailed);
          continue;
        }
        remaining.set(key, chunk.items.length);
        for (const { json, track } of chunk.items) restored.push({ json, track: track === true, chunk: key });
      }
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
