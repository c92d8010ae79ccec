/**
 * The reference server's designer plugins (docs/designer.md "Plugins"): `{guides}/designer-plugins/*.js` listed
 * at /data/designer-plugins.json and served as JavaScript to any origin; files the agent's allow-list would
 * refuse are neither listed nor served.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

describe('designer plugins from the guide folder', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const folder = join(server.guidesDir, 'designer-plugins');
    mkdirSync(folder);
    writeFileSync(join(folder, 'release-notes.js'), 'export default (d) => d.addStepTemplate({ name: "x", step: {} });');
    writeFileSync(join(folder, 'Upper.js'), 'export default () => {};');
    writeFileSync(join(folder, 'notes.txt'), 'not a plugin');
  }, SERVER_TIMEOUT);
  afterAll(() => server.close(), SERVER_TIMEOUT);

  it('lists the plugins the agent would load', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/data/designer-plugins.json', headers: { origin: 'https://app.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.json()).toEqual({ plugins: ['/data/designer-plugins/release-notes.js'] });
  });

  it('serves a plugin as JavaScript to any origin, never cached', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/data/designer-plugins/release-notes.js', headers: { origin: 'https://app.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('addStepTemplate');
  });

  it.each(['Upper.js', 'notes.txt', '..%2Fa.json', 'missing.js'])('answers 404 with a reason for %s', async (file) => {
    const response = await server.app.inject({ method: 'GET', url: `/data/designer-plugins/${file}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatch(/no designer plugin/);
  });

  it('lists none when the guide folder has no plugin folder', async () => {
    const bare = await startTestServer({}, { guidesDir: join(server.root, 'no-guides-here') });
    try {
      expect((await bare.app.inject({ method: 'GET', url: '/data/designer-plugins.json' })).json()).toEqual({ plugins: [] });
    } finally {
      await bare.close();
    }
  }, SERVER_TIMEOUT);
});
