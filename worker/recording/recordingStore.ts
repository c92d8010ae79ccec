/**
 * Where session recording keeps what outlives a page (issue #18): each chunk not yet committed by the collector,
 * and each session's sampling decision, in an IndexedDB database of its own (idb-keyval). A Web Lock per
 * recording says its page is alive, so a later page sends only what dead pages left.
 */
import { createStore, del, entries, get, set } from 'idb-keyval';
import type { RecordingChunkMeta } from '../../shared/wire/recordingChunk';

/** A chunk as kept until a 2xx: the contract's body without its events, and the events as JSON. */
export interface StoredRecordingChunk {
  savedAt: number;
  /** False while the chunk is still growing (its page may add to it); a dead page's open chunk is sent as is. */
  sealed: boolean;
  meta: RecordingMeta;
  chunk: number;
  events: string[];
}

/** The contract's body fields beside `chunk` and `events`. */
export type RecordingMeta = RecordingChunkMeta;

/** A session's sampling decision. */
export interface StoredDecision {
  savedAt: number;
  record: boolean;
}

/**
 * Keys: `{apiKey}|c|{recordingId}|{chunk}` for chunks, `{apiKey}|s|{sessionId}` for decisions.
 */
export interface RecordingStore {
  get(key: string): Promise<StoredRecordingChunk | StoredDecision | undefined>;
  put(key: string, value: StoredRecordingChunk | StoredDecision): Promise<void>;
  remove(key: string): Promise<void>;
  entries(): Promise<Array<[IDBValidKey, StoredRecordingChunk | StoredDecision]>>;
  /** Marks the recording as alive for as long as this worker lives. */
  hold(recordingId: string): void;
  /** The recordings whose pages are alive now (empty where there are no Web Locks). */
  held(): Promise<Set<string>>;
}

const LOCK_PREFIX = 'waymark-recording:';

export function createRecordingStore(): RecordingStore {
  const store = createStore('waymark-recording', 'chunks');
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return {
    get: (key) => get(key, store),
    put: (key, value) => set(key, value, store),
    remove: (key) => del(key, store),
    entries: () => entries(store),
    hold(recordingId) {
      // Never released: the lock goes with the worker, that is, with the page.
      void locks?.request(LOCK_PREFIX + recordingId, () => new Promise(() => undefined)).catch(() => undefined);
    },
    async held() {
      const state = await locks?.query().catch(() => undefined);
      return new Set((state?.held ?? []).map((l) => l.name?.slice(LOCK_PREFIX.length) ?? ''));
    },
  };
}
