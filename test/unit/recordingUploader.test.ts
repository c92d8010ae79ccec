/**
 * issue #18 session recording, the worker's uploader: chunks cut every 5 s or 256 KB of JSON and at once on
 * flush, numbered per recordingId, kept in IndexedDB (fake-indexeddb) until a 2xx, retried with the agent's
 * back-off, and sent by the next page load when a page left them. Bodies are checked with node:zlib, an inflater
 * independent of the fflate / CompressionStream that wrote them.
 */
import 'fake-indexeddb/auto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RECORDING_CHUNK_CHARS, RECORDING_CHUNK_MS } from '../../shared/constants';
import { createRecordingUploader } from '../../worker/recording/createRecordingUploader';
import { createRecordingStore, type RecordingMeta, type RecordingStore } from '../../worker/recording/recordingStore';
import { createFakeClock, createFakeTransport } from './fakes';

/** A store on a fresh fake IndexedDB database per test (idb-keyval's database name is fixed, so wipe it). */
async function freshStore(alive: string[] = []): Promise<RecordingStore> {
  const store = createRecordingStore();
  for (const [key] of await store.entries()) await store.remove(key as string);
  return { ...store, held: async () => new Set(alive) };
}

const meta = (recordingId: string): RecordingMeta => ({
  recordingId,
  sessionId: 'S1',
  visitorId: 'v1',
  accountId: 'a1',
  tabId: 't1',
  frameId: 'f1',
  url: 'https://app.example/page',
});

function setup(store: RecordingStore | undefined, recordingId = 'rec-1', privacyFilters: RegExp[] = []) {
  const clock = createFakeClock(1_000_000);
  const transport = createFakeTransport();
  const logs: string[] = [];
  const uploader = createRecordingUploader({
    apiKey: 'key',
    dataHost: 'http://collector.test',
    meta: () => meta(recordingId),
    privacyFilters,
    ports: { transport, clock, recordings: store },
    log: (_l, m) => void logs.push(m),
  });
  return { clock, transport, logs, uploader };
}

/** The contract's JSON of a recorded request, inflated by node:zlib. */
function bodyOf(body: unknown): { chunk: number; recordingId: string; events: Array<{ type: number; data?: unknown }> } & Record<string, unknown> {
  return JSON.parse(inflateSync(body as Uint8Array).toString('utf8'));
}

const event = (n: number, text = 'x') => ({ type: 3, timestamp: 1_000 + n, data: { source: 0, n, text } });

async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('issue #18 recording uploader: chunks', () => {
  it('cuts a chunk 5 s after its first event, numbers chunks from 0, and posts the contract body (zlib, octet-stream)', async () => {
    const { clock, transport, uploader } = setup(undefined);
    uploader.push([event(1), event(2)]);
    await clock.advance(RECORDING_CHUNK_MS - 1);
    expect(transport.requests).toHaveLength(0);
    uploader.push([event(3)]);
    await clock.advance(1);
    expect(transport.requests).toHaveLength(1);
    const [req] = transport.requests;
    expect(req!.method).toBe('POST');
    expect(req!.contentType).toBe('application/octet-stream');
    const url = new URL(req!.url);
    expect(url.pathname).toBe('/data/recording/key');
    expect(url.searchParams.get('v')).toBeTruthy();
    expect(Number(url.searchParams.get('ct'))).toBe(1_000_000 + RECORDING_CHUNK_MS);
    expect(bodyOf(req!.bytes)).toEqual({ ...meta('rec-1'), chunk: 0, events: [event(1), event(2), event(3)] });

    uploader.push([event(4)]);
    await clock.advance(RECORDING_CHUNK_MS);
    expect(transport.requests).toHaveLength(2);
    expect(bodyOf(transport.requests[1]!.bytes)).toMatchObject({ recordingId: 'rec-1', chunk: 1, events: [event(4)] });
  });

  it('cuts at once when the chunk reaches 256 KB of JSON', async () => {
    const { transport, uploader } = setup(undefined);
    const big = event(1, 'y'.repeat(RECORDING_CHUNK_CHARS / 2));
    uploader.push([big]);
    await settle();
    expect(transport.requests).toHaveLength(0);
    uploader.push([event(2, 'y'.repeat(RECORDING_CHUNK_CHARS / 2))]);
    await settle();
    expect(transport.requests).toHaveLength(1);
    expect(bodyOf(transport.requests[0]!.bytes).events).toHaveLength(2);
  });

  it('flush cuts and sends at once; a page-hide hand-over (flush) too', async () => {
    const { transport, uploader } = setup(undefined);
    uploader.push([event(1)]);
    await uploader.flush();
    expect(transport.requests).toHaveLength(1);
    uploader.push([event(2)], true);
    await settle();
    expect(transport.requests).toHaveLength(2);
    expect(bodyOf(transport.requests[1]!.bytes)).toMatchObject({ chunk: 1, events: [event(2)] });
  });

  it('applies the privacy filter to every string of every event before it is kept or sent', async () => {
    const { transport, uploader } = setup(undefined, 'rec-1', [/\d{4}-\d{4}/g]);
    uploader.push([event(1, 'card 1234-5678 here')]);
    await uploader.flush();
    expect(JSON.stringify(bodyOf(transport.requests[0]!.bytes))).not.toContain('1234-5678');
    expect(bodyOf(transport.requests[0]!.bytes).events[0]!.data).toMatchObject({ text: 'card redacted here' });
  });
});

describe('issue #18 recording uploader: delivery', () => {
  it('retries with the agent back-off (1 s, 2 s, ...) and keeps the chunk in IndexedDB until a 2xx', async () => {
    const store = await freshStore();
    const { clock, transport, uploader } = setup(store);
    transport.statuses = [500, 502];
    uploader.push([event(1)]);
    await uploader.flush();
    await settle();
    expect(transport.requests).toHaveLength(1);
    expect((await store.entries()).filter(([k]) => String(k).startsWith('key|c|'))).toHaveLength(1);
    await clock.advance(999);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    await settle();
    expect(transport.requests).toHaveLength(2);
    await clock.advance(1999);
    expect(transport.requests).toHaveLength(2);
    await clock.advance(1);
    await settle();
    expect(transport.requests).toHaveLength(3);
    // The same chunk each time: exactly once is the collector's, on recordingId + chunk.
    expect(transport.requests.map((r) => bodyOf(r.bytes).chunk)).toEqual([0, 0, 0]);
    await settle();
    expect((await store.entries()).filter(([k]) => String(k).startsWith('key|c|'))).toHaveLength(0);
    expect(uploader.pending()).toBe(0);
  });

  it('waits out the pause a 429 asks for (the recording quota, issue #31), however many, and drops nothing', async () => {
    const store = await freshStore();
    const clock = createFakeClock(1_000_000);
    const transport = createFakeTransport();
    // A back-off that drops after 3 failures; 6 pauses in a row are no failure.
    const uploader = createRecordingUploader({
      apiKey: 'key',
      dataHost: 'http://collector.test',
      meta: () => meta('rec-quota'),
      privacyFilters: [],
      ports: { transport, clock, recordings: store },
      log: () => undefined,
      retryPolicy: { baseDelayMs: 1000, exponentCap: 5, maxFailures: 3 },
    });
    transport.statuses = Array(6).fill(429);
    transport.retryAfters = Array(6).fill('300');
    uploader.push([event(1)]);
    await uploader.flush();
    await settle();
    for (let i = 1; i <= 6; i++) {
      await clock.advance(299_999);
      expect(transport.requests).toHaveLength(i);
      await clock.advance(1);
      await settle();
    }
    expect(transport.requests).toHaveLength(7);
    expect(transport.requests.map((r) => bodyOf(r.bytes).chunk)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(uploader.pending()).toBe(0);
    expect((await store.entries()).filter(([k]) => String(k).startsWith('key|c|'))).toHaveLength(0);
  });

  it('a 503 without Retry-After pauses for the pause lock default (10 s), as beacons do', async () => {
    const { clock, transport, uploader } = setup(undefined, 'rec-503');
    transport.statuses = [503];
    uploader.push([event(1)]);
    await uploader.flush();
    await settle();
    await clock.advance(9_999);
    expect(transport.requests).toHaveLength(1);
    await clock.advance(1);
    await settle();
    expect(transport.requests).toHaveLength(2);
  });

  it('drops a chunk the collector refuses for good (400, 413), with an error log', async () => {
    const store = await freshStore();
    const { transport, uploader, logs } = setup(store);
    transport.statuses = [413];
    uploader.push([event(1)]);
    await uploader.flush();
    await settle();
    expect(transport.requests).toHaveLength(1);
    expect(logs.some((m) => m.includes('413'))).toBe(true);
    expect(uploader.pending()).toBe(0);
    expect((await store.entries()).filter(([k]) => String(k).startsWith('key|c|'))).toHaveLength(0);
  });

  it('after a reload, the next page sends what the earlier one left: cut chunks and its open chunk as it stood', async () => {
    const store = await freshStore();
    const first = setup(store, 'rec-old');
    first.transport.statuses = [500];
    first.uploader.push([event(1)]);
    await first.uploader.flush(); // chunk 0 cut, its send failed: waiting out a back-off when the page goes
    first.uploader.push([event(2), event(3)]); // chunk 1 still open when the page goes
    await settle();
    expect(first.transport.requests).toHaveLength(1);

    // The same IndexedDB database, opened again as a new page would.
    const reloaded: RecordingStore = { ...createRecordingStore(), held: async () => new Set<string>() };
    const second = setup(reloaded, 'rec-new');
    expect(await second.uploader.restore()).toBe(2);
    await settle();
    const bodies = second.transport.requests.map((r) => bodyOf(r.bytes));
    expect(bodies.map((b) => [b.recordingId, b.chunk, b.events.length])).toEqual([
      ['rec-old', 0, 1],
      ['rec-old', 1, 2],
    ]);
    expect((await reloaded.entries()).filter(([k]) => String(k).startsWith('key|c|'))).toHaveLength(0);
  });

  it('leaves the chunks of a page still alive (its Web Lock held) to that page', async () => {
    const store = await freshStore();
    const first = setup(store, 'rec-live');
    first.uploader.push([event(1)]);
    await settle();
    const second = setup({ ...store, held: async () => new Set(['rec-live']) }, 'rec-new');
    expect(await second.uploader.restore()).toBe(0);
    await settle();
    expect(second.transport.requests).toHaveLength(0);
  });
});
