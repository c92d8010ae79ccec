import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, SERVER_TIMEOUT, type TestServer, ADMIN_HEADERS } from './testServer';

const SECRET = 'secret-outside-the-served-folders';
const INDEX = '<!doctype html><title>Acme Analytics</title><div id="root"></div>';
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let root: string;
let server: TestServer;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'waymark-static-test-'));
  const agentDir = join(root, 'dist', 'agent');
  const demoDir = join(root, 'dist', 'demo');
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(demoDir, 'assets'), { recursive: true });
  for (const file of ['waymark.js', 'waymark.worker.js', 'waymark.overlay.js', 'chunk-abc123.js']) {
    writeFileSync(join(agentDir, file), `/* ${file} */`);
  }
  writeFileSync(join(demoDir, 'index.html'), INDEX);
  writeFileSync(join(demoDir, 'assets', 'index-1a2b.js'), 'console.log(1)');
  writeFileSync(join(demoDir, 'assets', 'index-1a2b.css'), 'body{}');
  writeFileSync(join(demoDir, '.env'), SECRET);
  writeFileSync(join(root, 'dist', 'secret.txt'), SECRET);
  symlinkSync(join(root, 'dist', 'secret.txt'), join(demoDir, 'assets', 'link.txt'));
  server = await startTestServer({}, { agentDir, demoDir });
}, SERVER_TIMEOUT);
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
}, SERVER_TIMEOUT);

describe('agent files at the root', () => {
  it('serves waymark.js, the worker, the overlay and chunks as JavaScript, never cached without revalidation', async () => {
    for (const file of ['waymark.js', 'waymark.worker.js', 'waymark.overlay.js', 'chunk-abc123.js']) {
      const response = await server.app.inject({ method: 'GET', url: `/${file}?v=1` });
      expect(response.statusCode, file).toBe(200);
      expect(response.body).toBe(`/* ${file} */`);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      // The overlay is imported as a module: cross-origin hosts need CORS to load it.
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['timing-allow-origin']).toBe('*');
    }
  });

  it('answers a revalidation of an unchanged file with 304 and no body, and a changed file in full (issue #16)', async () => {
    const first = await server.app.inject({ method: 'GET', url: '/waymark.overlay.js' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    for (const header of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
      const again = await server.app.inject({ method: 'GET', url: '/waymark.overlay.js', headers: { 'if-none-match': header } });
      expect(again.statusCode, header).toBe(304);
      expect(again.body, header).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['access-control-allow-origin']).toBe('*');
    }
    const other = await server.app.inject({ method: 'GET', url: '/waymark.overlay.js', headers: { 'if-none-match': 'W/"0-0"' } });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe('/* waymark.overlay.js */');
    // A rebuild changes size or time: the old validator no longer matches.
    const file = join(root, 'dist', 'agent', 'waymark.overlay.js');
    writeFileSync(file, '/* waymark.overlay.js, rebuilt */');
    const rebuilt = await server.app.inject({ method: 'GET', url: '/waymark.overlay.js', headers: { 'if-none-match': etag } });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toBe('/* waymark.overlay.js, rebuilt */');
    expect(rebuilt.headers.etag).not.toBe(etag);
    writeFileSync(file, '/* waymark.overlay.js */');
  });

  it("answers the build's own version of a file as immutable, and every other version, odd or not, as before (issue #34)", async () => {
    const agentDir = join(root, 'dist', 'agent');
    writeFileSync(join(agentDir, '.version'), '0123456789ab\n');
    try {
      for (const file of ['waymark.worker.js', 'waymark.overlay.js']) {
        const response = await server.app.inject({ method: 'GET', url: `/${file}?v=0123456789ab` });
        expect(response.statusCode, file).toBe(200);
        expect(response.body).toBe(`/* ${file} */`);
        expect(response.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
      }
      // A retry marker beside it (shim/importChunk.ts) keeps it; the file that says the version is never served.
      const retried = await server.app.inject({ method: 'GET', url: '/waymark.overlay.js?v=0123456789ab&waymark_retry=1' });
      expect(retried.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await server.app.inject({ method: 'GET', url: '/.version', headers: { accept: '*/*' } })).statusCode).toBe(404);
      for (const query of ['?v=0123456789aa', '?v=0123456789AB', '?v=', '?v=0123456789ab%00', '?v[]=0123456789ab', '?V=0123456789ab', `?v=${'0'.repeat(5000)}`, '']) {
        const response = await server.app.inject({ method: 'GET', url: `/waymark.overlay.js${query}` });
        expect(response.statusCode, query).toBe(200);
        expect(response.headers['cache-control'], query).toBe('no-cache');
      }
    } finally {
      rmSync(join(agentDir, '.version'));
    }
    // A rebuild in place removes the file first (scripts/build.mjs): meanwhile nothing is immutable.
    const during = await server.app.inject({ method: 'GET', url: '/waymark.overlay.js?v=0123456789ab' });
    expect(during.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD', async () => {
    const response = await server.app.inject({ method: 'HEAD', url: '/waymark.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });
});

describe('demo app', () => {
  it('serves index.html at / and its assets with their content types', async () => {
    const index = await server.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toBe(INDEX);
    const css = await server.app.inject({ method: 'GET', url: '/assets/index-1a2b.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const js = await server.app.inject({ method: 'GET', url: '/assets/index-1a2b.js' });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('falls back to index.html for client-side routes requested as HTML', async () => {
    for (const url of ['/reports', '/settings?tab=profile', '/reports/2024/q1']) {
      const response = await server.app.inject({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX);
    }
  });

  it('answers 404 for missing files not requested as HTML, and for unknown /data and /api paths', async () => {
    const script = await server.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(script.statusCode).toBe(404);
    for (const url of ['/data/nothing', '/api/nothing']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { ...html, ...ADMIN_HEADERS } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error, url).toMatch(/^no such endpoint/);
    }
  });

  it('never serves a file outside the folders, a dotfile, or through a symlink that leads out', async () => {
    for (const url of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%5csecret.txt',
      '/.env',
      '/assets/link.txt',
      '/%00',
    ]) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.body, url).not.toContain(SECRET);
    }
  });
});

describe('malformed URLs', () => {
  it('answers a bad percent-escape with a 400 JSON error', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(['error']);
  });
});

describe('before `npm run build`', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startTestServer();
  }, SERVER_TIMEOUT);
  afterAll(() => bare.close(), SERVER_TIMEOUT);

  it('answers 503 telling to build, for agent files and for the demo', async () => {
    const agent = await bare.app.inject({ method: 'GET', url: '/waymark.js' });
    expect(agent.statusCode).toBe(503);
    expect(agent.json().error).toMatch(/agent is not built.*npm run build/);
    const page = await bare.app.inject({ method: 'GET', url: '/', headers: html });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toMatch(/demo app is not built.*npm run build/);
    const route = await bare.app.inject({ method: 'GET', url: '/reports', headers: { accept: 'application/json' } });
    expect(route.statusCode).toBe(503);
    expect(route.json().error).toMatch(/npm run build/);
  });

  it('still answers the API', async () => {
    const response = await bare.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toEqual({ ok: true });
  });
});
