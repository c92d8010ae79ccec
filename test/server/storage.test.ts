import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../server/createServer';
import { nodeJzb, readEvents, SERVER_TIMEOUT, TEST_ADMIN_TOKEN, wireEvent } from './testServer';

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

  it('fails to start with a clear error when DATABASE_URL cannot be used', async () => {
    // Port 1 on loopback refuses at once (without the 'pg' package installed, the message says to install it).
    await expect(createServer({ databaseUrl: 'postgres://waymark@127.0.0.1:1/waymark' })).rejects.toThrow(
      /'pg' package is not installed|cannot connect to the PostgreSQL database/,
    );
  }, SERVER_TIMEOUT);
});
