/**
 * Issue #31 "Bounded ingest": what the collector refuses before anything is stored, and what it still accepts.
 * - every decoder stops at its output cap (a 64 KB jzb that inflates to 40 MB, a recording chunk that would inflate
 *   to gigabytes) and a single event has a size cap: 413 naming the limit;
 * Payloads are compressed with Node's own zlib.
 */
import { deflateRawSync, deflateSync, constants as zlib } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../server/ingest/SERVER_LIMITS';
import { ADMIN_HEADERS, base64Url, nodeJzb, readEvents, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const T0 = 1_790_000_000_000;

/** jzb of JSON text as given (so a test can write what JSON.stringify never would, such as 1e400). */
const jzbOfText = (json: string, level = 6) => base64Url(deflateSync(Buffer.from(json, 'utf8'), { level }));

const getBeacon = (apiKey: string, jzb: string, endpoint = 'ptm.gif') =>
  server.app.inject({ method: 'GET', url: `/data/${endpoint}/${apiKey}?v=0.1.0&ct=${T0}&jzb=${jzb}` });

const postBeacon = (apiKey: string, body: unknown, contentType = 'application/json') =>
  server.app.inject({
    method: 'POST',
    url: `/data/ptm.gif/${apiKey}?v=0.1.0&ct=${T0}`,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

/**
 * A zlib stream of `copies` × 1 MB of zero bytes, made of one sync-flushed deflate block repeated (each copy
 * refers only to the zeros before it), so a few KB of input stand for gigabytes without compressing them.
 */
function zeroBomb(copies: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlib.Z_SYNC_FLUSH });
  // zlib header 78 9c, the blocks, a final empty fixed block (03 00), and an Adler-32 never reached.
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array.from({ length: copies }, () => block), Buffer.from([0x03, 0x00, 0, 0, 0, 1])]);
}

describe('issue #31 decoder output caps: 413 before anything is stored', () => {
  it('refuses a 64 KB jzb that inflates to 40 MB, by GET and by POST, and stores nothing', async () => {
    const json = `[{"type":"click","visitor_id":"v","props":{"pad":"${'a'.repeat(40 * 1024 * 1024)}"}}]`;
    const jzb = jzbOfText(json, 9);
    expect(jzb.length).toBeLessThanOrEqual(SERVER_LIMITS.maxJzbLength);
    const started = Date.now();
    const get = await getBeacon('bomb-app', jzb);
    expect(get.statusCode).toBe(413);
    expect(get.json()).toEqual({ error: 'jzb inflates to more than 2097152 bytes (2 MB), the limit of one payload', field: 'jzb' });
    const post = await postBeacon('bomb-app', { events: jzb });
    expect(post.statusCode).toBe(413);
    expect(post.json()).toEqual({ error: 'events inflates to more than 2097152 bytes (2 MB), the limit of one payload', field: 'events' });
    // Both stopped at the cap rather than inflating 40 MB and parsing it (seconds before the cap).
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await readEvents(server.app, { apiKey: 'bomb-app' })).toEqual([]);
  });

  it('stops a sendBeacon text/plain body over 1 MB', async () => {
    const response = await postBeacon('bomb-app', JSON.stringify({ events: [wireEvent({ props: { pad: 'x'.repeat(1024 * 1024) } })] }), 'text/plain');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'request body is over 1048576 bytes (1 MB)' });
  });

  it('applies the cap to the guide list and segment flag payloads', async () => {
    const jzb = jzbOfText(`{"visitorId":"v","url":"${'u'.repeat(3 * 1024 * 1024)}"}`, 9);
    for (const url of [`/data/guide.json/bomb-app?id=1&jzb=${jzb}`, `/data/segmentflag.json/bomb-app?id=1&jzb=${jzb}`]) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(413);
      expect(response.json().field, url).toBe('jzb');
    }
  });

  it('refuses one event over 256 KB with a 413 naming it, and stores none of its batch', async () => {
    const big = wireEvent({ props: { pad: 'x'.repeat(300 * 1024) } });
    const response = await getBeacon('big-event-app', nodeJzb([wireEvent(), big]));
    expect(response.statusCode).toBe(413);
    expect(response.json().field).toBe('events[1]');
    expect(response.json().error).toMatch(/^event 1 is \d+ bytes of JSON, over the limit of 262144 bytes \(256 KB\) for one event$/);
    expect(await readEvents(server.app, { apiKey: 'big-event-app' })).toEqual([]);
  });

  it('accepts the largest batch an agent sends: a silo of 327,680 characters, even of three-byte UTF-8', async () => {
    // analytics §9: 65536 characters at the optimistic ratio 5; each event's props in CJK text.
    const events: Array<Record<string, unknown>> = [];
    let length = 2;
    for (let i = 0; length < 65536 * 5 - 2000; i++) {
      const event = wireEvent({ props: { note: '漢字テキスト'.repeat(600) } });
      events.push(event);
      length += JSON.stringify(event).length + 1;
    }
    const json = JSON.stringify(events);
    expect(Buffer.byteLength(json)).toBeGreaterThan(900_000);
    const jzb = nodeJzb(events);
    expect(jzb.length).toBeLessThanOrEqual(SERVER_LIMITS.maxJzbLength);
    const response = await postBeacon('silo-app', { events: jzb });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ stored: events.length });
  });

  it('stops inflating a recording chunk at 20 MB: a 5 MB body standing for 4 GB is a quick 413', async () => {
    const put = await server.app.inject({ method: 'PUT', url: '/api/apps/bomb-app/settings', headers: ADMIN_HEADERS, payload: { recording: { enabled: true, sampleRate: 1 } } });
    expect(put.statusCode).toBe(200);
    const body = zeroBomb(4096);
    expect(body.length).toBeLessThan(5 * 1024 * 1024);
    const started = Date.now();
    const response = await server.app.inject({
      method: 'POST',
      url: `/data/recording/bomb-app?v=1.0.0&ct=${T0}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: body,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('recording chunk inflates to over 20971520 bytes (20 MB)');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
