import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeJzb, readEvents, startTestServer, wireEvent, SERVER_TIMEOUT, type TestServer, ADMIN_HEADERS } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

describe('wire-protocol "Endpoints": GET /data/ptm.gif', () => {
  it('stores every event of a beacon and reads them back in arrival order', async () => {
    const first = [wireEvent({ type: 'identify' }), wireEvent({ type: 'meta' }), wireEvent({ type: 'load' })];
    const second = [wireEvent({ type: 'click' }), wireEvent({ type: 'focus' })];
    for (const batch of [first, second]) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/data/ptm.gif/get-order?v=0.1.0&ct=${Date.now()}&jzb=${nodeJzb(batch)}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/gif');
      expect(response.rawPayload.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    }
    expect(await readEvents(server.app, { apiKey: 'get-order' })).toEqual([...first, ...second]);
  });

  it('accepts type=track, rt and s and stores the event body as received', async () => {
    const track = wireEvent({ type: 'track', track_event_name: 'report created', props: { plan: 'pro', n: 1.5 } });
    const jzb = nodeJzb([track]);
    const response = await server.app.inject({
      method: 'GET',
      url: `/data/ptm.gif/track-key?v=0.1.0&ct=1&jzb=${jzb}&type=track&rt=2&s=${jzb.length}`,
    });
    expect(response.statusCode).toBe(200);
    expect(await readEvents(server.app, { apiKey: 'track-key' })).toEqual([track]);
  });
});

describe('wire-protocol "Endpoints": POST /data/ptm.gif', () => {
  it('stores {"events": "<jzb>"} and answers {stored}', async () => {
    const batch = [wireEvent(), wireEvent()];
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/ptm.gif/post-jzb?v=0.1.0&ct=1&s=10',
      payload: { events: nodeJzb(batch), jwt: 'a.b.c', signingKeyName: 'key-1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ stored: 2 });
    expect(await readEvents(server.app, { apiKey: 'post-jzb' })).toEqual(batch);
  });

  it('stores {"events": [...]} given as a plain array', async () => {
    const batch = [wireEvent({ type: 'submit' })];
    const response = await server.app.inject({ method: 'POST', url: '/data/ptm.gif/post-array', payload: { events: batch } });
    expect(response.json()).toEqual({ stored: 1 });
    expect(await readEvents(server.app, { apiKey: 'post-array' })).toEqual(batch);
  });

  it('accepts the same JSON sent as text/plain (navigator.sendBeacon)', async () => {
    const batch = [wireEvent({ type: 'unload' })];
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/ptm.gif/beacon?v=0.1.0&ct=1',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ events: nodeJzb(batch) }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ stored: 1 });
    expect(await readEvents(server.app, { apiKey: 'beacon' })).toEqual(batch);
  });

  it('rejects a text/plain body that is not JSON', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/ptm.gif/beacon-bad',
      headers: { 'content-type': 'text/plain' },
      payload: 'events=abc',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/not JSON/);
  });

  it('rejects a body without events', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/data/ptm.gif/k', payload: { jwt: 'a.b.c' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'body has no events field' });
  });
});

describe('analytics §9 retries: exactly-once at the collector', () => {
  it('stores a batch re-sent by GET, by retry (rt) and by POST only once', async () => {
    const batch = [wireEvent(), wireEvent(), wireEvent()];
    const jzb = nodeJzb(batch);
    const url = `/data/ptm.gif/dedupe?v=0.1.0&ct=1&jzb=${jzb}`;
    expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: `${url}&rt=1` })).statusCode).toBe(200);
    const again = await server.app.inject({ method: 'POST', url: '/data/ptm.gif/dedupe', payload: { events: jzb } });
    expect(again.json()).toEqual({ stored: 0 });
    expect(await readEvents(server.app, { apiKey: 'dedupe' })).toEqual(batch);
  });

  it('keeps the source of the copy that arrived first: a page-hide POST, then the worker retry of the same batch', async () => {
    const batch = [wireEvent({ type: 'click' }), wireEvent({ type: 'unload' })];
    const jzb = nodeJzb(batch);
    const first = await server.app.inject({ method: 'POST', url: '/data/ptm.gif/source-key?source=pagehide', payload: { events: batch } });
    expect(first.json()).toEqual({ stored: 2 });
    expect((await server.app.inject({ method: 'GET', url: `/data/ptm.gif/source-key?rt=1&source=worker&jzb=${jzb}` })).statusCode).toBe(200);
    expect(await readEvents(server.app, { apiKey: 'source-key', source: 'pagehide' })).toEqual(batch);
    expect(await readEvents(server.app, { apiKey: 'source-key', source: 'worker' })).toEqual([]);
    const later = wireEvent({ type: 'click' });
    await server.app.inject({ method: 'GET', url: `/data/ptm.gif/source-key?source=worker&jzb=${nodeJzb([later])}` });
    expect(await readEvents(server.app, { apiKey: 'source-key', source: 'worker' })).toEqual([later]);
  });

  it('stores the new events of a batch that overlaps one already stored', async () => {
    const [a, b, c] = [wireEvent(), wireEvent(), wireEvent()];
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/overlap', payload: { events: [a, b] } });
    const response = await server.app.inject({ method: 'POST', url: '/data/ptm.gif/overlap', payload: { events: [b, c] } });
    expect(response.json()).toEqual({ stored: 1 });
    expect(await readEvents(server.app, { apiKey: 'overlap' })).toEqual([a, b, c]);
  });

  it('keeps events of other tabs, api keys and kinds with the same sequence', async () => {
    const event = wireEvent({ sequence: 7, tabId: 'tab-A' });
    const otherTab = { ...event, tabId: 'tab-B' };
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/scope-1', payload: { events: [event, otherTab] } });
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/scope-2', payload: { events: [event] } });
    const asGuide = { ...event, type: 'guideSeen', props: { guide_id: 'g', guide_step_id: 's' } };
    await server.app.inject({ method: 'GET', url: `/data/guide.gif/scope-1?jzb=${nodeJzb([asGuide])}` });
    expect(await readEvents(server.app, { apiKey: 'scope-1' })).toEqual([event, otherTab, asGuide]);
    expect(await readEvents(server.app, { apiKey: 'scope-2' })).toEqual([event]);
  });

  it('keeps the same tab and sequence from a later page load (a new frameId)', async () => {
    const first = wireEvent({ sequence: 3, tabId: 'tab-R', frameId: 'load-1' });
    const reloaded = { ...first, frameId: 'load-2' };
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/reload', payload: { events: [first] } });
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/reload', payload: { events: [reloaded, first] } });
    expect(await readEvents(server.app, { apiKey: 'reload' })).toEqual([first, reloaded]);
  });

  it('always stores events without tabId or sequence (nothing to tell a re-send by)', async () => {
    const event = wireEvent({ tabId: undefined, sequence: undefined });
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/no-seq', payload: { events: [event] } });
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/no-seq', payload: { events: [event] } });
    expect(await readEvents(server.app, { apiKey: 'no-seq' })).toHaveLength(2);
  });
});

describe('wire-protocol "Endpoints": GET /data/guide.gif', () => {
  it('answers the availability probe (jzb of []) with a GIF and stores nothing', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/data/guide.gif/probe?jzb=${nodeJzb([])}&ct=1&v=0.1.0` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/gif');
    expect(await readEvents(server.app, { apiKey: 'probe' })).toEqual([]);
  });

  it('stores guide events as kind guide', async () => {
    const seen = { ...wireEvent({ type: 'guideSeen' }), props: { guide_id: 'g1', guide_step_id: 's1', reason: 'auto' } };
    await server.app.inject({ method: 'GET', url: `/data/guide.gif/guides-kind?jzb=${nodeJzb([seen])}` });
    await server.app.inject({ method: 'GET', url: `/data/ptm.gif/guides-kind?jzb=${nodeJzb([wireEvent()])}` });
    expect(await readEvents(server.app, { apiKey: 'guides-kind', kind: 'guide' })).toEqual([seen]);
    expect(await readEvents(server.app, { apiKey: 'guides-kind', kind: 'analytics' })).toHaveLength(1);
  });
});

describe('GET /api/events', () => {
  it('filters by type, visitorId and kind, and honours limit', async () => {
    const events = [
      wireEvent({ type: 'click', visitor_id: 'v1' }),
      wireEvent({ type: 'focus', visitor_id: 'v1' }),
      wireEvent({ type: 'click', visitor_id: 'v2' }),
      wireEvent({ type: 'click', visitor_id: 'v1' }),
    ];
    await server.app.inject({ method: 'POST', url: '/data/ptm.gif/filters', payload: { events } });
    expect(await readEvents(server.app, { apiKey: 'filters', type: 'click' })).toEqual([events[0], events[2], events[3]]);
    expect(await readEvents(server.app, { apiKey: 'filters', visitorId: 'v1', type: 'click' })).toEqual([events[0], events[3]]);
    expect(await readEvents(server.app, { apiKey: 'filters', limit: '2' })).toEqual(events.slice(0, 2));
    expect(await readEvents(server.app, { apiKey: 'filters', kind: 'guide' })).toEqual([]);
  });

  it('requires apiKey and checks kind and limit', async () => {
    for (const [url, message] of [
      ['/api/events', /apiKey is required/],
      ['/api/events?apiKey=k&kind=other', /kind must be/],
      ['/api/events?apiKey=k&limit=0', /limit must be a positive integer/],
      ['/api/events?apiKey=k&limit=ten', /limit must be a positive integer/],
    ] as const) {
      const response = await server.app.inject({ method: 'GET', url, headers: ADMIN_HEADERS });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toMatch(message);
    }
  });
});

describe('CORS: the agent may run on another origin', () => {
  it('answers OPTIONS preflight on /data and /api', async () => {
    for (const url of ['/data/ptm.gif/k', '/api/events']) {
      const response = await server.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'http://host.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(response.statusCode, url).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toMatch(/GET, POST/);
      expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, x-waymark-console');
    }
  });

  it('allows any origin on answers, errors and 404s of /data and /api', async () => {
    const ok = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/cors?jzb=${nodeJzb([])}` });
    const bad = await server.app.inject({ method: 'GET', url: '/data/ptm.gif/cors' });
    const missing = await server.app.inject({ method: 'GET', url: '/data/nothing.gif/cors' });
    expect([ok.statusCode, bad.statusCode, missing.statusCode]).toEqual([200, 400, 404]);
    for (const response of [ok, bad, missing]) expect(response.headers['access-control-allow-origin']).toBe('*');
    // An agent on another origin reads the pause a 503 asks for (shared/wire/collectorPause.ts).
    for (const response of [ok, bad, missing]) expect(response.headers['access-control-expose-headers']).toBe('retry-after');
  });
});

describe('unknown routes', () => {
  it('answers 404 JSON under /data and /api, for any method', async () => {
    for (const [method, url] of [
      ['GET', '/data/unknown'],
      ['POST', '/data/log.gif/k'],
      ['GET', '/api/nothing'],
      ['DELETE', '/api/events'],
    ] as const) {
      const response = await server.app.inject({ method, url, headers: ADMIN_HEADERS });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error, url).toBe(`no such endpoint: ${method} ${url}`);
    }
  });
});
