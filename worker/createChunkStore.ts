/**
 * The send queue's persistence (spec: analytics §4 durable delivery, §9 "unsent events expire after 6 days"):
 * each hand-over of events is kept as one chunk in the worker's store until every event of it is done with
 * (delivered or dropped), so a later page load of this origin sends what this one could not.
 */
import { UNSENT_EVENT_TTL_MS } from '../shared/constants';
import type { LogLevel } from '../shared/protocol';
import type { QueueItem } from './createSendQueue';
import type { QueueStore, StoredChunk, WorkerPorts } from './ports';

export interface ChunkStoreOptions {
  store: QueueStore;
  /** This page's chunk key prefix, `{apiKey}|{endpoint}|{frameId}`. */
  persistKey: string;
  /** What chunks of earlier pages of this endpoint start with, `{apiKey}|{endpoint}|`. */
  restorePrefix: string;
  clock: WorkerPorts['clock'];
  log(level: LogLevel, message: string): void;
}

/** The chunks of one send queue. */
export interface ChunkStore {
  /** Keeps a hand-over's items as one chunk and marks each item with the chunk's key. */
  save(items: QueueItem[]): void;
  /** These items are done with: a chunk whose items are all done is removed. */
  release(items: QueueItem[]): void;
  /** The items earlier page loads left, oldest chunk first; expired or broken chunks are removed. */
  restore(): Promise<QueueItem[]>;
}

/** Said once per worker, not once per queue (events, guide events and poll answers each have a store). */
let storeFailureLogged = false;

export function createChunkStore(options: ChunkStoreOptions): ChunkStore {
  const { store, clock, log } = options;
  let chunkCount = 0;
  /** Items of each persisted chunk not yet done with. */
  const remaining = new Map<string, number>();

  function storeFailed(err: unknown): void {
    if (storeFailureLogged) return;
    storeFailureLogged = true;
    log('warn', `unsent events cannot be kept across page loads: ${String(err)}`);
  }

  return {
    save(items) {
      const key = `${options.persistKey}|${chunkCount++}`;
      for (const item of items) item.chunk = key;
      remaining.set(key, items.length);
      const chunk: StoredChunk = { savedAt: clock.now(), items: items.map(({ json, track }) => ({ json, track })) };
      store.put(key, chunk).catch(storeFailed);
    },

    release(items) {
      for (const item of items) {
        if (!item.chunk) continue;
        const left = (remaining.get(item.chunk) ?? 1) - 1;
        if (left > 0) {
          remaining.set(item.chunk, left);
        } else {
          remaining.delete(item.chunk);
          store.remove(item.chunk).catch(storeFailed);
        }
      }
    },

    async restore() {
      let all: Array<[string, StoredChunk]>;
      try {
        all = await store.entries();
      } catch (err) {
        storeFailed(err);
        return [];
      }
      const restored: QueueItem[] = [];
      const now = clock.now();
      for (const [key, chunk] of all.sort((a, b) => a[1].savedAt - b[1].savedAt)) {
        if (typeof key !== 'string' || !key.startsWith(options.restorePrefix) || key.startsWith(`${options.persistKey}|`)) continue;
        // spec: analytics §9 — stored unsent events expire after 6 days.
        if (!chunk || !Array.isArray(chunk.items) || now - chunk.savedAt > UNSENT_EVENT_TTL_MS) {
          store.remove(key).catch(storeFailed);
          continue;
        }
        remaining.set(key, chunk.items.length);
        for (const { json, track } of chunk.items) restored.push({ json, track: track === true, chunk: key });
      }
      return restored;
    },
  };
}
