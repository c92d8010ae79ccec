/**
 * Session recording's durable upload (issue #18): rrweb events come in from the page in batches; they are
 * redacted (the app's privacy filter) and serialized here, gathered into a chunk that is cut every
 * RECORDING_CHUNK_MS or RECORDING_CHUNK_CHARS of JSON (and at once on flush or page hide), numbered from 0 per
 * recordingId, kept in IndexedDB from its first event until the collector answers 2xx (the open chunk too, so a
 * page closed mid-chunk loses nothing), and sent one at a time in order with the agent's back-off. A later page
 * of this browser sends what pages no longer alive left (their open chunk as it stood). Each push answers the open
 * chunk's number and size, so the page can send the same chunk itself at page hide (issue #32).
 */
import { RECORDING_CHUNK_CHARS, RECORDING_CHUNK_MS, UNSENT_EVENT_TTL_MS } from '../../shared/constants';
import { redact } from '../../shared/privacy/privacyFilter';
import type { LogLevel } from '../../shared/protocol';
import { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from '../../shared/wire/nextRetryDelay';
import type { WorkerPorts } from '../ports';
import type { RecordingMeta, StoredRecordingChunk } from './recordingStore';
import { sendRecordingChunk } from './sendRecordingChunk';

export interface RecordingUploaderOptions {
  apiKey: string;
  dataHost: string;
  /** The body's fields as they stand now (read when a chunk opens and when it is cut). */
  meta(): RecordingMeta;
  /** The app's compiled privacy filter: every string of every event has its matches replaced (analytics §5). */
  privacyFilters: readonly RegExp[];
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
  /** @default DEFAULT_RETRY_POLICY */
  retryPolicy?: RetryPolicy;
  /**
   * Cut the open chunk this long after it opened; null: the page times the cuts (a `push` with `flush`), so that
   * it always knows which events the open chunk holds (issue #32).
   * @default RECORDING_CHUNK_MS
   */
  cutAfterMs?: number | null;
}

/** The open chunk after a push: its number (the next chunk's when none is open) and how many events it holds. */
export interface OpenChunkState {
  chunk: number;
  held: number;
}

export interface RecordingUploader {
  /** rrweb events in emit order; `flush`: cut the chunk and send now (page hide). */
  push(events: unknown[], flush?: boolean): OpenChunkState;
  /** Cuts the open chunk and sends every chunk now; resolves when none is left or a send failed. */
  flush(): Promise<void>;
  /** Queues the chunks pages no longer alive left; answers how many. */
  restore(): Promise<number>;
  /** Chunks cut and not yet committed. */
  pending(): number;
}

export function createRecordingUploader(options: RecordingUploaderOptions): RecordingUploader {
  const { ports, log } = options;
  const store = ports.recordings;
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const cutAfterMs = options.cutAfterMs === undefined ? RECORDING_CHUNK_MS : options.cutAfterMs;
  const prefix = `${options.apiKey}|c|`;
  const keyOf = (c: StoredRecordingChunk) => `${prefix}${c.meta.recordingId}|${c.chunk}`;
  let next = 0;
  let open: StoredRecordingChunk | null = null;
  let chars = 0;
  let cutTimer: unknown = null;
  let retryTimer: unknown = null;
  let failures = 0;
  let sending: Promise<void> | null = null;
  const queue: StoredRecordingChunk[] = [];
  let storeFailed = false;
  const keep = (key: string, c: StoredRecordingChunk | null): void =>
    void (c ? store?.put(key, c) : store?.remove(key))?.catch((err: unknown) => {
      if (!storeFailed) log('warn', `recording chunks cannot be kept across page loads: ${String(err)}`);
      storeFailed = true;
    });

  function cut(): void {
    if (cutTimer !== null) ports.clock.clearTimeout(cutTimer);
    cutTimer = null;
    if (!open) return;
    const chunk: StoredRecordingChunk = { ...open, meta: options.meta(), sealed: true, savedAt: ports.clock.now() };
    open = null;
    chars = 0;
    keep(keyOf(chunk), chunk);
    queue.push(chunk);
    void drain();
  }

  function drain(): Promise<void> {
    if (!sending && queue.length && retryTimer === null) {
      sending = (async () => {
        try {
          while (queue.length && retryTimer === null) {
            const head = queue[0]!;
            const result = await sendRecordingChunk(head, options, ports, log);
            if (typeof result === 'object' || result === 'retry') {
              // A pause the collector asked for is waited out whatever its count; only failures lead to a drop.
              const delay = typeof result === 'object' ? result.pauseMs : nextRetryDelay(++failures, policy);
              if (delay !== null) {
                retryTimer = ports.clock.setTimeout(() => {
                  retryTimer = null;
                  void drain();
                }, delay);
                return;
              }
              log('error', `a recording chunk was dropped after ${failures} failures`);
            }
            failures = 0;
            // By identity: restored chunks may have been put in front while this one was in flight.
            queue.splice(queue.indexOf(head), 1);
            keep(keyOf(head), null);
          }
        } finally {
          sending = null;
        }
      })();
    }
    return sending ?? Promise.resolve();
  }

  return {
    push(events, flush) {
      if (events.length) {
        const now = ports.clock.now();
        open ??= { savedAt: now, sealed: false, meta: options.meta(), chunk: next++, events: [] };
        for (const event of events) {
          const json = JSON.stringify(redact(event, options.privacyFilters));
          open.events.push(json);
          chars += json.length;
        }
        open.savedAt = now;
        if (chars >= RECORDING_CHUNK_CHARS) flush = true;
        else {
          keep(keyOf(open), open);
          if (cutAfterMs !== null) cutTimer ??= ports.clock.setTimeout(cut, cutAfterMs);
        }
      }
      if (flush) cut();
      const current = open as StoredRecordingChunk | null;
      return current ? { chunk: current.chunk, held: current.events.length } : { chunk: next, held: 0 };
    },

    async flush() {
      cut();
      if (retryTimer !== null) ports.clock.clearTimeout(retryTimer);
      retryTimer = null;
      while (queue.length && retryTimer === null) await drain();
    },

    async restore() {
      if (!store) return 0;
      const mine = options.meta().recordingId;
      let found: StoredRecordingChunk[] = [];
      try {
        const [all, alive] = await Promise.all([store.entries(), store.held()]);
        const now = ports.clock.now();
        for (const [key, value] of all) {
          if (typeof key !== 'string' || !key.startsWith(`${options.apiKey}|`)) continue;
          // spec: analytics §9 — what is kept unsent expires after 6 days (sampling decisions too).
          if (!value || !(now - value.savedAt <= UNSENT_EVENT_TTL_MS)) {
            void store.remove(key).catch(() => undefined);
            continue;
          }
          const c = value as StoredRecordingChunk;
          if (!key.startsWith(prefix) || !Array.isArray(c.events) || !c.meta) continue;
          const id = c.meta.recordingId;
          if (id === mine || alive.has(id)) continue;
          found.push(c);
        }
      } catch {
        found = [];
      }
      found.sort((a, b) => a.savedAt - b.savedAt || a.chunk - b.chunk);
      queue.unshift(...found);
      void drain();
      return found.length;
    },

    pending: () => queue.length,
  };
}
