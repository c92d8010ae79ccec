import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, SERVER_TIMEOUT, type TestServer, ADMIN_HEADERS } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

async function readLogs(query: Record<string, string>): Promise<any[]> {
  const response = await server.app.inject({ method: 'GET', url: '/api/logs', query, headers: ADMIN_HEADERS });
  if (response.statusCode !== 200) throw new Error(`/api/logs answered ${response.statusCode}: ${response.body}`);
  return response.json().logs;
}

describe('analytics §7 log beacon: GET /data/log.gif/{apiKey}', () => {
  it('stores msg and version, answers a GIF, and reads them back in arrival order', async () => {
    const before = Date.now();
    for (const msg of ['first line', 'second & 100% ✓']) {
      const response = await server.app.inject({
        method: 'GET',
        url: `/data/log.gif/log-key?msg=${encodeURIComponent(msg)}&version=0.1.0`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/gif');
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.rawPayload.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    }
    await server.app.inject({ method: 'GET', url: '/data/log.gif/log-key?msg=no-version' });
    const logs = await readLogs({ apiKey: 'log-key' });
    expect(logs.map(({ receivedAt, ...rest }) => rest)).toEqual([
      { kind: 'log', message: 'first line', version: '0.1.0', visitorId: null },
      { kind: 'log', message: 'second & 100% ✓', version: '0.1.0', visitorId: null },
      { kind: 'log', message: 'no-version', version: null, visitorId: null },
    ]);
    expect(logs[0].receivedAt).toBeGreaterThanOrEqual(before);
    expect(await readLogs({ apiKey: 'log-key', limit: '1' })).toHaveLength(1);
    expect(await readLogs({ apiKey: 'other-key' })).toEqual([]);
  });

  it('answers 400 without msg or api key', async () => {
    for (const url of ['/data/log.gif/log-bad', '/data/log.gif/log-bad?msg=', '/data/log.gif/log-bad?msg=a&msg=b', '/data/log.gif?msg=x']) {
      const response = await server.app.inject({ method: 'GET', url, headers: ADMIN_HEADERS });
      expect(response.statusCode, url).toBe(400);
      expect(typeof response.json().error, url).toBe('string');
    }
    expect(await readLogs({ apiKey: 'log-bad' })).toEqual([]);
  });
});

describe('analytics §7 error log: POST /data/errorlog?apiKey=', () => {
  it('stores {error, version, visitorId} and answers {stored: 1}', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/errorlog?apiKey=err-key',
      payload: { error: 'TypeError: boom\n    at explode (waymark.worker.js:1:2)', version: '0.1.0', visitorId: 'v-1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ stored: 1 });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    // The same JSON as text/plain (navigator.sendBeacon) is accepted too.
    const plain = await server.app.inject({
      method: 'POST',
      url: '/data/errorlog?apiKey=err-key',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ error: 'second' }),
    });
    expect(plain.json()).toEqual({ stored: 1 });
    await server.app.inject({ method: 'GET', url: '/data/log.gif/err-key?msg=fallback&version=0.1.0' });

    const errors = await readLogs({ apiKey: 'err-key', kind: 'error' });
    expect(errors.map(({ receivedAt, ...rest }) => rest)).toEqual([
      { kind: 'error', message: 'TypeError: boom\n    at explode (waymark.worker.js:1:2)', version: '0.1.0', visitorId: 'v-1' },
      { kind: 'error', message: 'second', version: null, visitorId: null },
    ]);
    expect((await readLogs({ apiKey: 'err-key', kind: 'log' })).map((l) => l.message)).toEqual(['fallback']);
    expect((await readLogs({ apiKey: 'err-key' })).map((l) => l.kind)).toEqual(['error', 'error', 'log']);
  });

  it('answers 400 with a readable {error} for bad input and stores nothing', async () => {
    const cases: Array<{ url: string; payload?: unknown; headers?: Record<string, string> }> = [
      { url: '/data/errorlog', payload: { error: 'no key' } },
      { url: '/data/errorlog?apiKey=err-bad', payload: {} },
      { url: '/data/errorlog?apiKey=err-bad', payload: { error: 42 } },
      { url: '/data/errorlog?apiKey=err-bad', payload: { error: '' } },
      { url: '/data/errorlog?apiKey=err-bad', payload: { error: 'x', version: 1 } },
      { url: '/data/errorlog?apiKey=err-bad', payload: { error: 'x', visitorId: ['v'] } },
      { url: '/data/errorlog?apiKey=err-bad', payload: [{ error: 'x' }] },
      { url: '/data/errorlog?apiKey=err-bad', payload: '{not json', headers: { 'content-type': 'application/json' } },
      { url: '/data/errorlog?apiKey=err-bad', payload: '{not json', headers: { 'content-type': 'text/plain' } },
      { url: '/data/errorlog?apiKey=err-bad', payload: { error: 'nul \u0000 inside' } },
    ];
    for (const c of cases) {
      const response = await server.app.inject({ method: 'POST', url: c.url, payload: c.payload as any, headers: c.headers });
      expect(response.statusCode, JSON.stringify(c)).toBe(400);
      expect(response.json().error, JSON.stringify(c)).toEqual(expect.any(String));
    }
    expect(await readLogs({ apiKey: 'err-bad' })).toEqual([]);
  });

  it('answers the CORS preflight of the JSON POST', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/data/errorlog?apiKey=err-key',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(response.headers['access-control-allow-headers']).toContain('content-type');
  });
});

describe('GET /api/logs', () => {
  it('requires an api key and checks kind and limit', async () => {
    for (const url of ['/api/logs', '/api/logs?apiKey=k&kind=analytics', '/api/logs?apiKey=k&limit=0', '/api/logs?apiKey=k&limit=x']) {
      const response = await server.app.inject({ method: 'GET', url, headers: ADMIN_HEADERS });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toEqual(expect.any(String));
    }
  });
});
