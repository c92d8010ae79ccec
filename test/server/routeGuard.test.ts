/**
 * Issue #31 "Guard": access is decided on the route the router matched, never on the request's URL text. Every
 * route the server registered (the list taken from the server, so a new route is covered the day it is added) is
 * called without credentials in each spelling an attacker tries — percent-encoded letters, an absolute-form target,
 * a doubled slash, upper case, `;` parameters, HEAD — over a real socket, as a client sends them, and none answers
 * 2xx. The same spellings with the admin token do reach the route: the guard, not a 404, is what refused them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes } from '../../server/auth/registerAuth';
import { looseApiPrefix } from '../../server/looseApiPrefix';
import { SERVER_TIMEOUT, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from './testServer';
import { makeUser, type TestUser } from './users';

let server: TestServer;
let port: number;
let viewer: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  viewer = await makeUser(server.app, 'viewer');
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as { port: number }).port;
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

/** Sends one raw HTTP/1.1 request (the target exactly as given) and answers its status code. */
function rawStatus(method: string, target: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? '{}' : '';
    const head = [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (body) head.push('Content-Type: application/json', `Content-Length: ${body.length}`);
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      if (status) resolve(Number(status));
      else reject(new Error(`no status line for ${method} ${target}: ${JSON.stringify(answer.slice(0, 80))}`));
    });
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** The spellings of an /api path that some router or proxy reads as the same route. */
function spellings(path: string): string[] {
  const rest = path.slice('/api'.length);
  return [
    path,
    `/%61pi${rest}`,
    `/ap%69${rest}`,
    `/%61%70%69${rest}`,
    `/%2561pi${rest}`,
    `http://127.0.0.1:${port}${path}`,
    `http://evil.example${path}`,
    `//api${rest}`,
    `/API${rest}`,
    `/Api${rest}`,
    `/api;x=1${rest}`,
    `${path};x=1`,
    `${path}/`,
    `/api/.${rest}`,
    `/x/..${path}`,
    `/api%2F${rest.slice(1)}`,
  ];
}

describe('issue #31 guard: every route, every spelling, no 2xx without credentials', () => {
  it('refuses each guarded route in every spelling, GET routes by HEAD too', async () => {
    const guarded = listRoutes(server.app).filter((r) => r.access !== 'open');
    expect(guarded.length).toBeGreaterThanOrEqual(30);
    // Every route under /api is guarded but health and login; none outside /api is.
    expect(guarded.every((r) => r.url.startsWith('/api/'))).toBe(true);
    const answered: string[] = [];
    for (const { method, url } of guarded) {
      const path = url.replace(/:(\w+)\??/g, 'x').replace('*', 'x');
      for (const target of spellings(path)) {
        for (const m of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
          const status = await rawStatus(m, target);
          if (status >= 200 && status < 300) answered.push(`${m} ${target} -> ${status}`);
        }
      }
    }
    expect(answered).toEqual([]);
  }, 120_000);

  it("issue #33: a viewer's token reaches no editor or admin route in any spelling, GET routes by HEAD too", async () => {
    const above = listRoutes(server.app).filter((r) => r.access === 'editor' || r.access === 'admin');
    expect(above.length).toBeGreaterThanOrEqual(15);
    const answered: string[] = [];
    for (const { method, url } of above) {
      const path = url.replace(/:(\w+)\??/g, 'x').replace('*', 'x');
      for (const target of spellings(path)) {
        for (const m of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
          const status = await rawStatus(m, target, { Authorization: viewer.bearer.authorization });
          if (status >= 200 && status < 300) answered.push(`${m} ${target} -> ${status}`);
        }
      }
    }
    expect(answered).toEqual([]);
  }, 120_000);

  it('the spellings reach the route with the admin token: the guard refused them, not the router', async () => {
    const auth = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    for (const target of [`/%61pi/apps`, `/ap%69/apps`, `/%61%70%69/apps`, `http://127.0.0.1:${port}/api/apps`]) {
      expect(await rawStatus('GET', target, auth), target).toBe(200);
      expect(await rawStatus('GET', target), target).toBe(401);
    }
    expect(await rawStatus('HEAD', '/api/apps', auth)).toBe(200);
    expect(await rawStatus('HEAD', '/api/apps')).toBe(401);
  });

  it('unknown paths that read as /api are 401 without credentials, never the demo page', async () => {
    for (const target of ['/api/nothing', '/%61pi/nothing', '//api/apps', '/API/apps', '/api;x/apps']) {
      expect(await rawStatus('GET', target, { Accept: 'text/html' }), target).toBe(401);
    }
  });

  it('reads a path as loosely as any router: only to refuse more', () => {
    expect(['/api', '/api/x', '/%61pi/x', '/%2561pi', '//api/x', '/API/x', '/api;a/x', 'http://h/api/x', '/api%2Fx', '\\api\\x'].map(looseApiPrefix)).toEqual(
      Array(10).fill('/api'),
    );
    expect(['/data/ptm.gif/k', '/DATA/x'].map(looseApiPrefix)).toEqual(['/data', '/data']);
    expect(['/', '/apix', '/console/', '/reports', '/x/api'].map(looseApiPrefix)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
