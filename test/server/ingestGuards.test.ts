/**
 * Issue #31 "Bounded ingest": what the collector refuses before anything is stored, and what it still accepts.
 * - every decoder stops at its output cap (a 64 KB jzb that inflates to 40 MB, a recording chunk that would inflate
 *   to gigabytes) and a single event has a size cap: 413 naming the limit;
 * - the fields the collector reads have types and bounds: a 400 naming the event and the field (`events[3].sequence`);
 * - U+0000 or broken UTF-8 in a path or query parameter of any /data or /api route is a 400 naming the parameter;
 * - a database error is answered `{ error: 'internal server error', requestId }`, logged once, never quoted.
 * Payloads are compressed with Node's own zlib.
 */
import { deflateRawSync, deflateSync, constants as zlib } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listRoutes } from '../../server/auth/registerAuth';
import { SERVER_LIMITS } from '../../server/ingest/SERVER_LIMITS';
import { ADMIN_HEADERS, base64Url, nodeJzb, readEvents, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);
afterEach(() => {
  vi.restoreAllMocks();
});

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

describe('issue #31 event field types: a 400 naming the event and the field, nothing stored', () => {
  const cases: Array<[string, Record<string, unknown> | string, string, RegExp]> = [
    ['a visitor_id that is an object', { visitor_id: { id: 'v' } }, 'visitor_id', /^event 2: visitor_id must be a string or a number \(got an object\)$/],
    ['an account_id that is an array', { account_id: ['a'] }, 'account_id', /^event 2: account_id must be a string or a number \(got an array\)$/],
    ['a visitor_id of 513 characters', { visitor_id: 'v'.repeat(513) }, 'visitor_id', /^event 2: visitor_id must be at most 512 characters \(got a string of 513 characters\)$/],
    ['a sequence of -5', { sequence: -5 }, 'sequence', /^event 2: sequence must be a non-negative integer \(got -5\)$/],
    ['a sequence of 1.5', { sequence: 1.5 }, 'sequence', /\(got 1\.5\)$/],
    ['a sequence of "abc"', { sequence: 'abc' }, 'sequence', /\(got "abc"\)$/],
    ['a sequence of 1e20', { sequence: 1e20 }, 'sequence', /\(got 100000000000000000000\)$/],
    ['a browser_time that is a string', { browser_time: '2026-11-27' }, 'browser_time', /^event 2: browser_time must be a finite number of epoch milliseconds/],
    ['a browser_time of 1e300', { browser_time: 1e300 }, 'browser_time', /\(got 1e\+300\)$/],
    ['a browser_time of 1e400 (Infinity once parsed)', '"browser_time":1e400', 'browser_time', /\(got Infinity\)$/],
    ['a type of 129 characters', { type: 't'.repeat(129) }, 'type', /^event 2: type must be at most 128 characters/],
    ['a tabId of 129 characters', { tabId: 't'.repeat(129) }, 'tabId', /^event 2: tabId must be at most 128 characters/],
    ['a frameId that is a number', { frameId: 7 }, 'frameId', /^event 2: frameId must be a string \(got 7\)$/],
    ['U+0000 in the url', { url: 'http://a/\u0000' }, 'url', /^event 2: url holds U\+0000 \(NUL\), which cannot be stored$/],
    ['a lone surrogate deep in props', { props: { target: { attrs: { 'data-x': 'a\ud800' } } } }, 'props.target.attrs["data-x"]', /^event 2: props\.target\.attrs\["data-x"\] holds a lone surrogate/],
    ['U+0000 in a key of props', { props: { 'a\u0000': 1 } }, 'props', /^event 2: a key of props holds U\+0000/],
  ];
  for (const [what, fields, field, message] of cases) {
    it(`refuses ${what}`, async () => {
      const apiKey = `types-${field.replace(/\W/g, '')}`;
      const bad = typeof fields === 'string' ? `{"type":"click","visitor_id":"v",${fields}}` : JSON.stringify(wireEvent(fields));
      const jzb = jzbOfText(`[${JSON.stringify(wireEvent())},${JSON.stringify(wireEvent())},${bad}]`);
      const response = await getBeacon(apiKey, jzb);
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe(`events[2].${field}`);
      expect(response.json().error).toMatch(message);
      expect(await readEvents(server.app, { apiKey })).toEqual([]);
    });
  }

  it('refuses an event nested more than 1000 deep, naming it', async () => {
    const deep = `{"type":"click","props":${'['.repeat(1000)}${']'.repeat(1000)}}`;
    const response = await getBeacon('types-deep', jzbOfText(`[${deep}]`));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'event 0 nests objects and arrays more than 1000 deep', field: 'events[0]' });
  });

  it('applies the same checks to a POSTed array of events', async () => {
    const response = await postBeacon('types-post', { events: [wireEvent(), wireEvent({ sequence: -1 })] });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('events[1].sequence');
  });

  it("still accepts what agents send: account_id null or absent, numeric ids, fractional times, Pendo's deep clicks", async () => {
    // Pendo's agent: account_id null until set (get_account_id), a guide event without sequence, a click whose
    // target carries its ancestors up to the body (600 deep here), and its own fields (eventProperties, bytes).
    let target: Record<string, unknown> = { tag: 'BODY', id: '', cls: '', attrs: {} };
    for (let i = 0; i < 600; i++) target = { tag: 'DIV', id: `d${i}`, cls: 'x', attrs: { role: 'group' }, myIndex: 0, childIndex: 0, parentElem: target };
    const events = [
      { type: 'identify', browser_time: T0, visitor_id: '_PENDO_T_abcdefghijk', account_id: null, url: 'http://127.0.0.1/', props: { old_visitor_id: '_PENDO_T_abcdefghijk', visitor_id: 'ann' }, tabId: 'tAbId0123456789a', frameId: 'fRaMe0123456789a', sequence: 0 },
      { type: 'click', browser_time: T0 + 1, visitor_id: 'ann', url: 'http://127.0.0.1/', props: { target }, tabId: 'tAbId0123456789a', frameId: 'fRaMe0123456789a', sequence: 1, bytes: 20_000 },
      { type: 'guideSeen', browser_time: T0 + 2, visitor_id: 'ann', account_id: 'acme', url: 'http://127.0.0.1/', props: { guide_id: 'g', guide_step_id: 's' }, tabId: 'tAbId0123456789a', frameId: 'fRaMe0123456789a' },
      { type: 'track', browser_time: T0 + 3.25, visitor_id: 42, account_id: 7, url: 'http://127.0.0.1/', props: {}, track_event_name: 'Signed up', sequence: 2, tabId: 'tAbId0123456789a', frameId: 'fRaMe0123456789a' },
      { type: 'agentic_prompt_submitted', browser_time: T0 + 4, visitor_id: 'ann', account_id: 'acme', props: {} },
    ];
    const response = await postBeacon('pendo-app', { events: nodeJzb(events) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ stored: events.length });
    expect(await readEvents(server.app, { apiKey: 'pendo-app' })).toEqual(events);
  });
});

describe('issue #31 U+0000 or broken UTF-8 in a path or query parameter: a 400 naming it, never 5xx', () => {
  const probe = nodeJzb({ visitorId: 'v' });
  const cases: Array<[string, string, string]> = [
    ['GET', '/data/guide.json/%00?id=1', 'apiKey'],
    ['GET', '/data/recording.json/%00', 'apiKey'],
    ['GET', `/data/ptm.gif/k%00?jzb=${nodeJzb([])}`, 'apiKey'],
    ['GET', `/data/guide.json/k?id=%00&jzb=${probe}`, 'id'],
    ['GET', `/data/segmentflag.json/k?id=%00&jzb=${probe}`, 'id'],
    ['GET', '/data/log.gif/k?msg=%00', 'msg'],
    ['POST', '/data/errorlog?apiKey=%00', 'apiKey'],
    ['POST', '/data/monitor?apiKey=%00', 'apiKey'],
    ['GET', `/data/ptm.gif/k?source=%ED%A0%80&jzb=${nodeJzb([])}`, 'source'],
    ['GET', `/data/ptm.gif/k?source=%C3&jzb=${nodeJzb([])}`, 'source'],
    ['GET', '/api/events?apiKey=%00', 'apiKey'],
    ['GET', '/api/logs?apiKey=%00', 'apiKey'],
    ['GET', '/api/apps/%00/recordings', 'apiKey'],
    ['GET', '/api/apps/k/recordings/%00', 'id'],
    ['POST', `/data/errorlog?apiKey=${'k'.repeat(101)}`, 'apiKey'],
    ['POST', `/data/monitor?apiKey=${'k'.repeat(101)}`, 'apiKey'],
  ];
  for (const [method, url, field] of cases) {
    it(`${method} ${url.slice(0, 60)}`, async () => {
      const response = await server.app.inject({ method: method as 'GET' | 'POST', url, headers: ADMIN_HEADERS, ...(method === 'POST' ? { payload: { error: 'e' } } : {}) });
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe(field);
      expect(response.json().error).toMatch(new RegExp(`^${field} (is not valid text: it holds U\\+0000 \\(NUL\\)|is not valid percent-encoded UTF-8|is longer than 100 characters)$`));
    });
  }

  it('every /data and /api route refuses U+0000 in each path parameter and in its query', async () => {
    const routes = listRoutes(server.app).filter(({ method, url }) => /^\/(data|api)\//.test(url) && method !== 'OPTIONS' && !url.includes('*'));
    expect(routes.length).toBeGreaterThan(30);
    for (const { method, url } of routes) {
      // The path with `nul` (a parameter's name) as %00 and every other parameter filled in.
      const path = (nul?: string) => url.replace(/:(\w+)\??/g, (_, name: string) => (name === nul ? '%00' : 'k'));
      const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      const targets = [...names.map((name) => [path(name), name]), [`${path()}?apiKey=%00`, 'apiKey']];
      for (const [target, field] of targets) {
        const response = await server.app.inject({ method: method as 'GET', url: target, headers: ADMIN_HEADERS, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
        expect({ route: `${method} ${url}`, target, status: response.statusCode, field: response.json().field }).toEqual({ route: `${method} ${url}`, target, status: 400, field });
      }
    }
  });

  it('answers a path whose escapes do not decode in words, without echoing the URL', async () => {
    for (const url of [`/data/guide.json/%C3?jzb=${probe}`, '/data/recording.json/%ED%A0%80', '/api/apps/%zz/recordings']) {
      const response = await server.app.inject({ method: 'GET', url, headers: ADMIN_HEADERS });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: 'the path does not decode: a percent-escape in it is malformed or not UTF-8' });
    }
  });

  it('refuses U+0000 in the ids a guide list, an error log and a recording chunk carry in their bodies', async () => {
    const guides = await server.app.inject({ method: 'GET', url: `/data/guide.json/k?id=1&jzb=${nodeJzb({ visitorId: 'ann\u0000' })}` });
    expect(guides.statusCode).toBe(400);
    expect(guides.json().field).toBe('visitorId');
    const errorlog = await server.app.inject({ method: 'POST', url: '/data/errorlog?apiKey=k', payload: { error: 'broke\u0000', visitorId: 'ann' } });
    expect(errorlog.statusCode).toBe(400);
    expect(errorlog.json().field).toBe('error');
    await server.app.inject({ method: 'PUT', url: '/api/apps/rec-text/settings', headers: ADMIN_HEADERS, payload: { recording: { enabled: true, sampleRate: 1 } } });
    const chunk = (fields: Record<string, unknown>) =>
      server.app.inject({
        method: 'POST',
        url: '/data/recording/rec-text',
        headers: { 'content-type': 'application/octet-stream' },
        payload: deflateSync(Buffer.from(JSON.stringify({ recordingId: 'r', sessionId: 's', visitorId: 'v', accountId: '', tabId: 't', frameId: 'f', url: 'u', chunk: 0, events: [{ type: 4, data: {}, timestamp: T0 }], ...fields }))),
      });
    for (const [fields, field] of [
      [{ recordingId: 'r\u0000' }, 'recordingId'],
      [{ url: 'http://a/\u0000' }, 'url'],
      [{ events: [{ type: 4, data: {}, timestamp: 1e300 }] }, 'events[0].timestamp'],
    ] as const) {
      const response = await chunk(fields);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().field, field).toBe(field);
    }
    // rrweb's timestamps are whole milliseconds; a fractional one is still stored, its span widened to whole ones.
    expect((await chunk({ recordingId: 'frac', events: [{ type: 4, data: {}, timestamp: T0 + 0.5 }] })).json()).toEqual({ stored: 1 });
    const list = await server.app.inject({ method: 'GET', url: '/api/apps/rec-text/recordings', headers: ADMIN_HEADERS });
    expect(list.json().recordings).toMatchObject([{ id: 'frac', start: T0, end: T0 + 1 }]);
  });
});

describe('issue #31 a database error is never quoted to a client', () => {
  /**
   * Makes the database fail the log insert with a real error of its own: the statement is swapped at the driver
   * (PGlite, or pg on the PostgreSQL run) for one naming a table that does not exist.
   */
  function failLogInsert(sql: string): void {
    for (const proto of [PGlite.prototype, pg.Pool.prototype] as Array<{ query: (...args: unknown[]) => unknown }>) {
      const original = proto.query;
      vi.spyOn(proto, 'query').mockImplementation(function (this: unknown, text: unknown, ...rest: unknown[]) {
        const swapped = typeof text === 'string' && text.startsWith('insert into logs') ? sql : text;
        return original.call(this, swapped, ...(swapped === text ? rest : [['secret-visitor']]));
      });
    }
  }

  it('answers 500 { error, requestId } without the SQL, and logs it once with the request id', async () => {
    failLogInsert('select secret_column from no_such_table where visitor = $1');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await server.app.inject({ method: 'GET', url: '/data/log.gif/db-error?msg=hello' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({ error: 'internal server error', requestId: expect.any(String) });
    expect(response.body).not.toMatch(/select|no_such_table|secret/i);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toContain(body.requestId);
    expect(String(logged.mock.calls[0]![0])).toContain('no_such_table');
  });

  it('answers a data exception of the database as a 400 in its own words, not the database\'s', async () => {
    failLogInsert("select 'not a number'::int, $1::text");
    const response = await server.app.inject({ method: 'GET', url: '/data/log.gif/db-error?msg=hello' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'log could not be stored: it holds a value the database refuses (such as text with U+0000 or a number out of range)' });
  });
});

describe('issue #31 a HEAD stores nothing', () => {
  it('HEAD of a beacon URL is no beacon: not 2xx, and no event or log stored (its GET stores)', async () => {
    const jzb = nodeJzb([wireEvent({ visitor_id: 'head-visitor' })]);
    for (const endpoint of ['ptm.gif', 'guide.gif', 'poll.gif']) {
      const head = await server.app.inject({ method: 'HEAD', url: `/data/${endpoint}/head-app?jzb=${jzb}` });
      expect(head.statusCode, endpoint).toBeGreaterThanOrEqual(400);
    }
    const log = await server.app.inject({ method: 'HEAD', url: '/data/log.gif/head-app?msg=hello&version=1' });
    expect(log.statusCode).toBeGreaterThanOrEqual(400);
    expect(await readEvents(server.app, { apiKey: 'head-app' })).toEqual([]);
    const logs = await server.app.inject({ method: 'GET', url: '/api/logs?apiKey=head-app', headers: ADMIN_HEADERS });
    expect(JSON.stringify(logs.json())).not.toContain('hello');
    expect((await getBeacon('head-app', jzb)).statusCode).toBe(200);
    expect(await readEvents(server.app, { apiKey: 'head-app' })).toHaveLength(1);
  });
});
