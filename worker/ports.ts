/**
 * The worker's I/O behind small ports, so unit tests pass fakes (STYLE §1, §3) and the pipeline code
 * never touches `fetch` or timers directly.
 */
import { createStore, del, entries, set } from 'idb-keyval';
import type { LogLevel } from '../shared/protocol';
import type { Tally } from './createMonitor';
import type { StepPainter } from './guides/createStepPainter';
import { createRecordingStore, type RecordingStore } from './recording/recordingStore';

export interface TransportRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  /** A binary body instead of `body` (a recording chunk's zlib stream, issue #18). */
  bytes?: Uint8Array<ArrayBuffer>;
  contentType?: string;
}

export interface TransportResponse {
  status: number;
  statusText: string;
  /** The Retry-After header (the collector's pause, shared/wire/collectorPause.ts), when given and readable. */
  retryAfter?: string | null;
  text(): Promise<string>;
}

/** Sends one HTTP request; rejects only when the network refused it. */
export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
}

/** Time and timers. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface WorkerPorts {
  transport: Transport;
  clock: Clock;
  /** @default none: nothing survives the page */
  store?: QueueStore;
  /** zlib compression for jzb. @default fflate (see encodeBatches) */
  deflate?: (data: Uint8Array) => Promise<Uint8Array>;
  /** SHA digests for content hashes (guides §5). @default crypto.subtle.digest */
  digest?: (algorithm: 'SHA-256' | 'SHA-384' | 'SHA-512', data: Uint8Array) => Promise<ArrayBuffer>;
  /** Session recording's chunks and sampling decisions (issue #18). @default none: nothing survives the page */
  recordings?: RecordingStore;
  /** For sampling decisions. @default Math.random */
  random?: () => number;
  /** Where the worker's parts count for the health report (worker/createMonitor.ts). @default none */
  tally?: Tally;
  /**
   * Issue #34: paints steps with the render chunk at `url`, which it loads with importScripts: given by the dedicated
   * worker's entry only (worker/main.ts), so the in-page bundle carries none of it. @default none: the main-thread
   * mode (worker/inPage.ts) loads no render chunk, and the page draws steps with React
   */
  stepPainter?: (url: string, log: (level: LogLevel, message: string) => void) => StepPainter;
}

/**
 * The platform's zlib stream (CompressionStream 'deflate' is RFC 1950, the jzb format), or undefined where
 * there is none. Native code: ~2x fflate's speed here on beacon-sized batches (99 against 56 MB/s of click JSON).
 */
export function nativeDeflate(): ((data: Uint8Array) => Promise<Uint8Array>) | undefined {
  if (typeof CompressionStream !== 'function') return undefined;
  return async (data) => {
    // Written straight into the stream: going through a Blob's stream instead measured ~40% slower in
    // Chromium here (60 against 99 MB/s of the bench's click JSON), the Blob's bytes being copied out in pieces.
    const stream = new CompressionStream('deflate');
    const writer = stream.writable.getWriter();
    void writer.write(data as Uint8Array<ArrayBuffer>).catch(() => undefined);
    void writer.close().catch(() => undefined);
    return new Uint8Array(await new Response(stream.readable).arrayBuffer());
  };
}

/**
 * fetch with keepalive first, then XHR (spec: analytics §7, transports in order; a worker has no sendBeacon, the
 * shim uses it at page hide). Keepalive bodies share a 64 KiB in-flight quota in browsers: a fetch refused over
 * it, or a fetch the page has broken (in-page mode runs beside the host's wrappers), goes again by XHR at once
 * rather than waiting out a retry. Credentials are never sent: the collector identifies visitors by the payload,
 * not by cookies.
 */
export const fetchTransport: Transport = {
  async request(req) {
    if (typeof fetch !== 'function') return xhrRequest(req);
    const { method, url, contentType } = req;
    const body = req.bytes ?? req.body;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        body,
        headers: contentType ? { 'Content-Type': contentType } : undefined,
        // Browsers refuse keepalive requests whose bodies exceed their 64 KiB in-flight quota.
        keepalive: (body?.length ?? 0) <= KEEPALIVE_BODY_LIMIT,
        credentials: 'omit',
        mode: 'cors',
      });
    } catch (err) {
      // Both refused: the network's answer is fetch's (the one a reader of the log knows).
      return xhrRequest(req).catch(() => Promise.reject(err));
    }
    return { status: response.status, statusText: response.statusText, retryAfter: response.headers.get('retry-after'), text: () => response.text() };
  },
};

/** Room left under the keepalive quota for other in-flight beacons. */
const KEEPALIVE_BODY_LIMIT = 60_000;

/** spec: analytics §7 — XHR, the last transport. */
function xhrRequest({ method, url, body, bytes, contentType }: TransportRequest): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (contentType) xhr.setRequestHeader('Content-Type', contentType);
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, retryAfter: xhr.getResponseHeader('retry-after'), text: async () => xhr.responseText });
    xhr.onerror = () => reject(new TypeError('XHR network error'));
    xhr.send(bytes ?? body ?? null);
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One persisted piece of a send queue: the events of one `enqueue` call. */
export interface StoredChunk {
  savedAt: number;
  items: Array<{ json: string; track: boolean }>;
}

/**
 * Where unsent events wait across page loads (analytics §9: expire after 6 days). Keys are
 * `{apiKey}|{endpoint}|{frameId}|{n}`, so each page load owns its keys and a later load finds the rest.
 */
export interface QueueStore {
  put(key: string, chunk: StoredChunk): Promise<void>;
  remove(key: string): Promise<void>;
  entries(): Promise<Array<[string, StoredChunk]>>;
}

/** The QueueStore on IndexedDB through idb-keyval, in a database of Waymark's own. */
export function createIdbQueueStore(): QueueStore {
  const store = createStore('waymark', 'unsent-events');
  return {
    put: (key, chunk) => set(key, chunk, store),
    remove: (key) => del(key, store),
    entries: () => entries<string, StoredChunk>(store),
  };
}

/** A QueueStore that keeps nothing across loads: for tests, and where IndexedDB is unavailable. */
export function createMemoryQueueStore(): QueueStore & { data: Map<string, StoredChunk> } {
  const data = new Map<string, StoredChunk>();
  return {
    data,
    put: async (key, chunk) => void data.set(key, chunk),
    remove: async (key) => void data.delete(key),
    entries: async () => [...data.entries()],
  };
}

/** The real ports: fetch, timers, IndexedDB (where there is one: else events live as long as the page), native zlib. */
export function createPorts(): WorkerPorts {
  return {
    transport: fetchTransport,
    clock: systemClock,
    store: withIndexedDb(createIdbQueueStore),
    deflate: nativeDeflate(),
    recordings: withIndexedDb(createRecordingStore),
  };
}

/**
 * `make()` where IndexedDB can be used, else undefined. Where a browser refuses it (an opaque origin, storage
 * blocked) the very access to `indexedDB`, or its first `open`, throws: the worker then failed to start at all.
 */
function withIndexedDb<T>(make: () => T): T | undefined {
  try {
    return typeof indexedDB === 'undefined' ? undefined : make();
  } catch {
    return undefined;
  }
}
