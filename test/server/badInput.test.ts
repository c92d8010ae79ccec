import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64Url, nodeJzb, readEvents, startTestServer, wireEvent, SERVER_TIMEOUT, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

async function getBeacon(jzb: string, endpoint = 'ptm.gif', apiKey = 'bad-input') {
  return server.app.inject({ method: 'GET', url: `/data/${endpoint}/${apiKey}?v=0.1.0&ct=1&jzb=${jzb}` });
}

describe('wire-protocol "jzb": malformed jzb is a 400 that says what is wrong', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['characters outside base64url', 'eJy+/w==', /^jzb is not base64url/],
    ['a base64url length no bytes can have', 'eJyLj', /^jzb is not base64url/],
    ['raw deflate (no zlib header)', base64Url(deflateRawSync(json([wireEvent()]))), /^jzb is not a zlib stream: it lacks the RFC 1950 header/],
    ['gzip', base64Url(gzipSync(json([wireEvent()]))), /^jzb is not a zlib stream/],
    ['a truncated zlib stream', base64Url(deflateSync(json([wireEvent(), wireEvent()])).subarray(0, 30)), /^jzb is not a zlib stream/],
    ['zlib of text that is not JSON', base64Url(deflateSync(Buffer.from('type=click&x=1'))), /^jzb is not JSON/],
    ['zlib of JSON that is not an array', nodeJzb({ type: 'click' }), /^payload is not an array of events \(got an object\)/],
    ['an event that is not an object', nodeJzb([wireEvent(), 'click']), /^event 1 is not an object \(got a string\)/],
    ['an event that is null', nodeJzb([null]), /^event 0 is not an object \(got null\)/],
    ['an event without type', nodeJzb([wireEvent(), wireEvent({ type: undefined })]), /^event 1 has no type/],
    ['an event whose type is not a string', nodeJzb([wireEvent({ type: 3 })]), /^event 0 has no type/],
  ];
  for (const [what, jzb, message] of cases) {
    it(`rejects ${what}`, async () => {
      const response = await getBeacon(encodeURIComponent(jzb));
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().error).toMatch(message);
    });
  }

  it('applies the same checks to guide.gif and to a POSTed events string', async () => {
    const raw = base64Url(deflateRawSync(json([])));
    const guide = await getBeacon(raw, 'guide.gif');
    const post = await server.app.inject({ method: 'POST', url: '/data/ptm.gif/bad-input', payload: { events: raw } });
    expect(guide.statusCode).toBe(400);
    expect(guide.json().error).toMatch(/^jzb is not a zlib stream/);
    expect(post.statusCode).toBe(400);
    expect(post.json().error).toMatch(/^events is not a zlib stream/);
  });

  it('stores nothing of a batch with one bad event', async () => {
    await getBeacon(nodeJzb([wireEvent(), 42]), 'ptm.gif', 'all-or-nothing');
    expect(await readEvents(server.app, { apiKey: 'all-or-nothing' })).toEqual([]);
  });

  it('answers 400, not 500, for an event PostgreSQL jsonb cannot hold (\\u0000), naming the field (issue #31)', async () => {
    const response = await getBeacon(nodeJzb([wireEvent({ url: 'a\u0000b' })]), 'ptm.gif', 'nul');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'event 0: url holds U+0000 (NUL), which cannot be stored', field: 'events[0].url' });
  });
});

describe('missing parameters', () => {
  it('rejects a source over 32 characters, and a source given twice', async () => {
    const jzb = nodeJzb([wireEvent()]);
    const long = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/bad-source?source=${'x'.repeat(33)}&jzb=${jzb}` });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('source is longer than 32 characters');
    const twice = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/bad-source?source=a&source=b&jzb=${jzb}` });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe('source must be given once');
    expect(await readEvents(server.app, { apiKey: 'bad-source' })).toEqual([]);
  });

  it('rejects a beacon without jzb', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/data/ptm.gif/k?v=0.1.0&ct=1' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^jzb is missing/);
  });

  it('rejects every data endpoint without an api key', async () => {
    const jzb = nodeJzb([]);
    for (const [method, url] of [
      ['GET', `/data/ptm.gif?jzb=${jzb}`],
      ['GET', `/data/ptm.gif/?jzb=${jzb}`],
      ['POST', '/data/ptm.gif/'],
      ['GET', `/data/guide.gif/?jzb=${jzb}`],
      ['GET', `/data/guide.json/?id=1&jzb=${jzb}`],
    ] as const) {
      const response = await server.app.inject({ method, url, payload: method === 'POST' ? { events: [] } : undefined });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toMatch(/^apiKey is missing/);
    }
  });
});

describe('analytics §9 send silo: oversize input is a 413', () => {
  it('rejects a GET jzb over 65536 characters', async () => {
    const response = await getBeacon('A'.repeat(65537));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('jzb is 65537 characters, over the limit of 65536');
  });

  it('rejects a POSTed events string over 65536 characters', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/ptm.gif/k',
      payload: { events: 'A'.repeat(70_000) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatch(/^events is 70000 characters/);
  });

  it('rejects a body over 1 MB', async () => {
    const events = Array.from({ length: 4000 }, () => wireEvent({ props: { pad: 'x'.repeat(300) } }));
    const payload = JSON.stringify({ events });
    expect(payload.length).toBeGreaterThan(1024 * 1024);
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/ptm.gif/k',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'request body is over 1048576 bytes (1 MB)' });
  });

  it('rejects a batch of more than 10000 events', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/ptm.gif/k',
      payload: { events: Array.from({ length: 10_001 }, () => ({ type: 'click' })) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatch(/^batch has 10001 events/);
  });
});

describe('the server keeps serving after bad input', () => {
  it('still stores a good beacon', async () => {
    const event = wireEvent();
    expect((await getBeacon(nodeJzb([event]), 'ptm.gif', 'after-bad')).statusCode).toBe(200);
    expect(await readEvents(server.app, { apiKey: 'after-bad' })).toEqual([event]);
  });
});
