/**
 * Issue #18 session recording, the collector's side (docs/recording.md): the agent's config, chunks stored once
 * (replays and concurrent replays), refusals naming the field, size limits, recording off, the console's list and
 * replay answers (a full snapshot first, the session's clicks as marks), the /api guard, and retention.
 * Chunks are compressed with Node's own zlib, independent of anything the server uses to build them.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../server/storage/createRetention';
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import { openDatabase } from '../../server/storage/openDatabase';
import { readChunk } from '../../server/recordings/checkRecordingChunk';
import { createRecordingStore } from '../../server/recordings/createRecordingStore';
import { fullSnapshotFirst } from '../../server/recordings/fullSnapshotFirst';
import { ADMIN_HEADERS, freshPostgresDatabase, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

const T0 = 1_790_000_000_000;
const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const api = (method: 'GET' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
  server.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

const turnOn = async (apiKey: string, enabled = true, sampleRate = 1) => {
  const response = await api('PUT', `/api/apps/${apiKey}/settings`, { recording: { enabled, sampleRate } });
  expect(response.statusCode).toBe(200);
};

/** rrweb events: Meta, FullSnapshot, then incremental ones (type 3), at T0 + offset. */
const meta = (t: number) => ({ type: 4, data: { href: 'http://127.0.0.1/app', width: 1280, height: 800 }, timestamp: T0 + t });
const full = (t: number) => ({ type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { left: 0, top: 0 } }, timestamp: T0 + t });
const incr = (t: number) => ({ type: 3, data: { source: 2, type: 2, id: 5, x: 10, y: 20 }, timestamp: T0 + t });

const chunkBody = (fields: Record<string, unknown> = {}) => ({
  recordingId: 'rec-1',
  sessionId: 'abcdefghijklmnop',
  visitorId: 'visitor-1',
  accountId: 'acme',
  tabId: 'tab-1',
  frameId: 'frame-1',
  url: 'http://127.0.0.1/app',
  chunk: 0,
  events: [meta(0), full(1), incr(100)],
  ...fields,
});

const post = (apiKey: string, payload: unknown, raw?: Buffer, contentType = 'application/octet-stream') =>
  server.app.inject({
    method: 'POST',
    url: `/data/recording/${apiKey}?v=1.0.0&ct=${T0}`,
    headers: { 'content-type': contentType },
    payload: raw ?? deflateSync(Buffer.from(JSON.stringify(payload), 'utf8')),
  });

describe('issue #18 recording config for the agent', () => {
  it('answers off and 1 by default, the app\'s settings once set, with CORS, and needs no token', async () => {
    const off = await server.app.inject({ method: 'GET', url: '/data/recording.json/cfg-app' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false, sampleRate: 1 });
    expect(off.headers['access-control-allow-origin']).toBe('*');
    // Kept by the browser a minute: a session's later pages do not ask the network each time.
    expect(off.headers['cache-control']).toBe('max-age=60');
    await turnOn('cfg-app', true, 0.25);
    expect((await server.app.inject({ method: 'GET', url: '/data/recording.json/cfg-app' })).json()).toEqual({ enabled: true, sampleRate: 0.25 });
  });
});

describe('issue #18 recording chunks: stored once', () => {
  it('stores a new chunk (1), a replay of it not (0), and concurrent replays of another chunk once', async () => {
    await turnOn('once-app');
    expect((await post('once-app', chunkBody())).json()).toEqual({ stored: 1 });
    expect((await post('once-app', chunkBody())).json()).toEqual({ stored: 0 });
    const second = chunkBody({ chunk: 1, events: [incr(200), incr(300)] });
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('once-app', second)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.map((a) => a.json().stored).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    const list = (await api('GET', '/api/apps/once-app/recordings')).json().recordings;
    expect(list).toEqual([
      {
        id: 'rec-1', visitorId: 'visitor-1', accountId: 'acme', sessionId: 'abcdefghijklmnop', tabId: 'tab-1', url: 'http://127.0.0.1/app',
        start: T0, end: T0 + 300, duration: 300, eventCount: 5, chunks: 2, lastReceived: expect.any(Number),
      },
    ]);
  });

  it('accepts a body sent without a content type or as text/plain (sendBeacon\'s Blob)', async () => {
    await turnOn('types-app');
    expect((await post('types-app', chunkBody(), undefined, 'text/plain')).json()).toEqual({ stored: 1 });
    expect((await post('types-app', chunkBody({ chunk: 1 }), undefined, 'application/json')).json()).toEqual({ stored: 1 });
  });

  it('accepts but does not store while the app\'s recording is off', async () => {
    const response = await post('off-app', chunkBody());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ stored: 0, off: true });
    await turnOn('off-app', false);
    expect((await post('off-app', chunkBody())).json()).toEqual({ stored: 0, off: true });
    expect((await api('GET', '/api/apps/off-app/recordings')).json()).toEqual({ recordings: [] });
  });
});

describe('issue #18 recording chunks: refusals', () => {
  it('answers 400 naming the field', async () => {
    await turnOn('bad-app');
    const deflate = (text: string) => deflateSync(Buffer.from(text, 'utf8'));
    const raw: Array<[Buffer, string, RegExp]> = [
      [Buffer.from('not zlib at all'), 'body', /does not inflate/],
      [deflate('{"recordingId": '), 'body', /not JSON/],
      [deflate('[1, 2]'), 'body', /JSON object/],
      [Buffer.alloc(0), 'body', /missing/],
    ];
    for (const [body, field, message] of raw) {
      const response = await post('bad-app', undefined, body);
      expect(response.statusCode, body.toString()).toBe(400);
      expect(response.json()).toEqual({ error: expect.stringMatching(message), field });
    }
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ recordingId: '' }, 'recordingId'],
      [{ recordingId: 7 }, 'recordingId'],
      [{ sessionId: undefined }, 'sessionId'],
      [{ visitorId: null }, 'visitorId'],
      [{ accountId: 3 }, 'accountId'],
      [{ tabId: undefined }, 'tabId'],
      [{ frameId: {} }, 'frameId'],
      [{ url: 5 }, 'url'],
      [{ chunk: -1 }, 'chunk'],
      [{ chunk: 1.5 }, 'chunk'],
      [{ chunk: '0' }, 'chunk'],
      [{ events: {} }, 'events'],
      [{ events: [meta(0), 'x'] }, 'events[1]'],
      [{ events: [meta(0), { type: 'full', data: {}, timestamp: T0 }] }, 'events[1].type'],
      [{ events: [{ type: 2, data: null, timestamp: T0 }] }, 'events[0].data'],
      [{ events: [meta(0), full(1), { type: 3, data: {}, timestamp: 'now' }] }, 'events[2].timestamp'],
      [{ recordingId: 'r'.repeat(300) }, 'recordingId'],
    ];
    for (const [fields, field] of cases) {
      const response = await post('bad-app', chunkBody(fields));
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String), field });
    }
    expect((await api('GET', '/api/apps/bad-app/recordings')).json()).toEqual({ recordings: [] });
  });

  it('answers 413 over 5 MB compressed and over 20 MB inflated', async () => {
    await turnOn('big-app');
    // Random bytes do not compress: over 5 MB on the wire.
    const noise = Buffer.alloc(5 * 1024 * 1024 + 10);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const tooLong = await post('big-app', undefined, noise);
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json().error).toMatch(/5 MB/);
    // 21 MB of text compresses to a few KB: refused when inflated.
    const bomb = chunkBody({ url: 'x'.repeat(21 * 1024 * 1024) });
    const inflated = await post('big-app', bomb);
    expect(inflated.statusCode).toBe(413);
    expect(inflated.json().error).toMatch(/20 MB/);
    expect((await api('GET', '/api/apps/big-app/recordings')).json()).toEqual({ recordings: [] });
    // Over the server's 1 MB body limit of other routes, under this one's 5 MB: stored.
    const text = Array.from({ length: 3 * 1024 * 1024 / 8 }, (_, i) => ((i * 2654435761) >>> 0).toString(36).padStart(8, '0')).join('');
    const large = deflateSync(Buffer.from(JSON.stringify(chunkBody({ events: [meta(0), full(1), { type: 5, data: { tag: 'noise', payload: text }, timestamp: T0 + 2 }] })), 'utf8'));
    expect(large.length).toBeGreaterThan(1024 * 1024);
    const stored = await post('big-app', undefined, large);
    expect(stored.json()).toEqual({ stored: 1 });
  }, SERVER_TIMEOUT);
});

describe('issue #18 recordings in the console API', () => {
  it('lists newest first, filters by visitor and answers 401 without the token', async () => {
    await turnOn('list-app');
    await post('list-app', chunkBody({ recordingId: 'old', visitorId: 'ann', events: [meta(0), full(1)] }));
    await post('list-app', chunkBody({ recordingId: 'new', visitorId: 'bob', events: [meta(5000), full(5001), incr(6000)] }));
    const all = (await api('GET', '/api/apps/list-app/recordings')).json().recordings;
    expect(all.map((r: { id: string }) => r.id)).toEqual(['new', 'old']);
    const bob = (await api('GET', '/api/apps/list-app/recordings?visitorId=bob&limit=5')).json().recordings;
    expect(bob.map((r: { id: string }) => r.id)).toEqual(['new']);
    expect((await api('GET', '/api/apps/list-app/recordings?limit=0')).json().field).toBe('limit');
    expect((await api('GET', '/api/apps/list-app/recordings', undefined, {})).statusCode).toBe(401);
    expect((await api('GET', '/api/apps/list-app/recordings/new', undefined, {})).statusCode).toBe(401);
    const missing = await api('GET', '/api/apps/list-app/recordings/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Recording not found' });
  });

  it('answers the events chunk by chunk in order, from the first full snapshot on', async () => {
    await turnOn('replay-app');
    // Chunks arrive out of order; chunk 0 starts with incremental events a replay cannot use.
    await post('replay-app', chunkBody({ recordingId: 'r', chunk: 2, events: [incr(400), incr(500)] }));
    await post('replay-app', chunkBody({ recordingId: 'r', chunk: 0, events: [incr(1), { type: 5, data: { tag: 'x', payload: {} }, timestamp: T0 + 2 }, meta(10), full(11), incr(12)] }));
    await post('replay-app', chunkBody({ recordingId: 'r', chunk: 1, events: [incr(300), incr(200)] }));
    const recording = (await api('GET', '/api/apps/replay-app/recordings/r')).json();
    expect(recording).toMatchObject({ id: 'r', visitorId: 'visitor-1', sessionId: 'abcdefghijklmnop', start: T0 + 1, end: T0 + 500, eventCount: 9, chunks: 3 });
    expect(recording.events.map((e: { timestamp: number }) => e.timestamp - T0)).toEqual([10, 11, 12, 300, 200, 400, 500]);
    expect(recording.events[0]).toEqual(meta(10));
    expect(recording.events[1].type).toBe(2);
  });

  it('marks the session\'s clicks during the recording, rage, dead and error clicks as such', async () => {
    await turnOn('marks-app');
    await post('marks-app', chunkBody({ recordingId: 'm', events: [meta(0), full(1), incr(10_000)] }));
    const click = (t: number, text: string, frustrationTypes?: string[], fields: Record<string, unknown> = {}) =>
      wireEvent({ browser_time: T0 + t, props: { target: { tag: 'BUTTON', id: 'b', txt: text }, ...(frustrationTypes ? { frustrationTypes } : {}) }, ...fields });
    const events = [
      click(1000, 'Save'),
      click(2000, 'Broken', ['rageClick']),
      click(3000, 'Nothing', ['deadClick']),
      click(4000, 'Throws', ['errorClick']),
      click(20_000, 'After the recording'),
      click(5000, 'Another session', undefined, { sessionId: 'qrstuvwxyzabcdef' }),
      click(6000, 'Another visitor', undefined, { visitor_id: 'visitor-2' }),
      wireEvent({ type: 'load', browser_time: T0 + 500 }),
    ];
    const stored = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/marks-app?jzb=${nodeJzb(events)}` });
    expect(stored.statusCode).toBe(200);
    const recording = (await api('GET', '/api/apps/marks-app/recordings/m')).json();
    expect(recording.marks).toEqual([
      { t: T0 + 1000, kind: 'click', label: 'Save' },
      { t: T0 + 2000, kind: 'rage', label: 'Broken' },
      { t: T0 + 3000, kind: 'dead', label: 'Nothing' },
      { t: T0 + 4000, kind: 'error', label: 'Throws' },
    ]);
  });
});

describe('issue #18 recordings: the full-snapshot-first rule', () => {
  it('starts at the Meta of the first full snapshot, else at the snapshot, and answers nothing without one', () => {
    const e = (type: number, t: number) => ({ type, t });
    expect(fullSnapshotFirst([e(3, 0), e(4, 1), e(2, 2), e(3, 3)]).map((x) => x.t)).toEqual([1, 2, 3]);
    expect(fullSnapshotFirst([e(4, 0), e(3, 1), e(2, 2), e(3, 3)]).map((x) => x.t)).toEqual([2, 3]);
    expect(fullSnapshotFirst([e(4, 0), e(5, 1), e(2, 2)]).map((x) => x.t)).toEqual([0, 1, 2]);
    expect(fullSnapshotFirst([e(3, 0), e(4, 1), e(3, 2)])).toEqual([]);
  });
});

describe('issue #18 recordings: retention', () => {
  it('deletes recordings whose last chunk was received before the cutoff, with their chunks, and keeps the others', async () => {
    const databaseUrl = await freshPostgresDatabase();
    const db = await openDatabase({ dataDir: 'memory://', ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }) });
    try {
      await migrateSchema(db);
      const store = createRecordingStore(db);
      const now = Date.UTC(2026, 10, 25);
      const chunk = (recordingId: string, n: number) => readChunk(chunkBody({ recordingId, chunk: n }));
      const body = new Uint8Array(deflateSync('{}'));
      await store.insertChunk('ret', chunk('old', 0), body, now - 40 * DAY);
      // A recording whose first chunk is old but whose last one is recent stays whole.
      await store.insertChunk('ret', chunk('ongoing', 0), body, now - 40 * DAY);
      await store.insertChunk('ret', chunk('ongoing', 1), body, now - DAY);
      await store.insertChunk('ret', chunk('recent', 0), body, now - DAY);
      await applyRetention(db, 30, now);
      expect((await store.list('ret', { limit: 10 })).map((r) => r.id).sort()).toEqual(['ongoing', 'recent']);
      const chunks = await db.query<{ recording_id: string; chunk: number }>("select recording_id, chunk from recording_chunks where api_key = 'ret' order by 1, 2");
      expect(chunks.rows).toEqual([
        { recording_id: 'ongoing', chunk: 0 },
        { recording_id: 'ongoing', chunk: 1 },
        { recording_id: 'recent', chunk: 0 },
      ]);
    } finally {
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
