import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../server/createServer';
import { startCollectorProcess } from './startCollectorProcess';
import { ADMIN_HEADERS, nodeJzb, readEvents, SERVER_TIMEOUT, TEST_ADMIN_TOKEN, wireEvent } from './testServer';

describe('storage', () => {
  it('keeps events in a PGlite data folder across restarts, still stored once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-pglite-test-'));
    const batch = [wireEvent(), wireEvent()];
    const url = `/data/ptm.gif/persist?jzb=${nodeJzb(batch)}`;
    try {
      const first = await createServer({ dataDir: join(dir, 'pglite'), guidesDir: dir, adminToken: TEST_ADMIN_TOKEN });
      expect((await first.inject({ method: 'GET', url })).statusCode).toBe(200);
      await first.close();
      const second = await createServer({ dataDir: join(dir, 'pglite'), guidesDir: dir, adminToken: TEST_ADMIN_TOKEN });
      expect((await second.inject({ method: 'GET', url })).statusCode).toBe(200);
      expect(await readEvents(second, { apiKey: 'persist' })).toEqual(batch);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 2 * SERVER_TIMEOUT);

  it('a collector killed (SIGKILL) before its summarizer ran summarizes its queued batches at restart, once (issue #19)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-pglite-test-'));
    const env = { WAYMARK_DATA: join(dir, 'pglite'), WAYMARK_ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    const beacons = Array.from({ length: 12 }, (_, i) => `/data/ptm.gif/restart?jzb=${nodeJzb([wireEvent({ visitor_id: `v${i % 2}` }), wireEvent({ visitor_id: `v${i % 2}` })])}`);
    try {
      // Its summarizer would run in an hour: every batch is still queued when it is killed.
      const doomed = await startCollectorProcess({ ...env, WAYMARK_SUMMARY_INTERVAL_MS: '3600000' });
      try {
        for (const url of beacons) expect((await fetch(doomed.url + url)).status).toBe(200);
      } finally {
        doomed.process.kill('SIGKILL');
        await new Promise((resolve) => (doomed.process.exitCode !== null ? resolve(null) : doomed.process.once('exit', resolve)));
      }
      const again = await startCollectorProcess(env);
      try {
        // Replays of what was answered 2xx are stored and counted once.
        for (const url of beacons.slice(0, 3)) expect((await fetch(again.url + url)).status).toBe(200);
        const apps = await (await fetch(`${again.url}/api/apps`, { headers: ADMIN_HEADERS })).json();
        expect(apps).toEqual([expect.objectContaining({ apiKey: 'restart', events: 24, visitors: 2 })]);
      } finally {
        again.process.kill('SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 3 * SERVER_TIMEOUT);

  it('one server owns a PGlite data folder: a second is refused naming the first; once that one is gone, the folder opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-pglite-test-'));
    const dataDir = join(dir, 'pglite');
    try {
      const owner = await startCollectorProcess({ WAYMARK_DATA: dataDir, WAYMARK_ADMIN_TOKEN: TEST_ADMIN_TOKEN });
      try {
        await expect(createServer({ dataDir, guidesDir: dir, adminToken: TEST_ADMIN_TOKEN })).rejects.toThrow(
          `the data folder ${dataDir} is in use by another Waymark server (process ${owner.process.pid})`,
        );
      } finally {
        // Killed outright, its lock stays behind: the next server takes it over.
        owner.process.kill('SIGKILL');
        await new Promise((resolve) => (owner.process.exitCode !== null ? resolve(null) : owner.process.once('exit', resolve)));
      }
      const next = await createServer({ dataDir, guidesDir: dir, adminToken: TEST_ADMIN_TOKEN });
      expect(readFileSync(join(dataDir, 'waymark.lock'), 'utf8')).toBe(String(process.pid));
      await next.close();
      expect(existsSync(join(dataDir, 'waymark.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 3 * SERVER_TIMEOUT);

  it('fails to start with a clear error when DATABASE_URL cannot be used', async () => {
    // Port 1 on loopback refuses at once (without the 'pg' package installed, the message says to install it).
    await expect(createServer({ databaseUrl: 'postgres://waymark@127.0.0.1:1/waymark' })).rejects.toThrow(
      /'pg' package is not installed|cannot connect to the PostgreSQL database/,
    );
  }, SERVER_TIMEOUT);
});
