/**
 * Run by vitest.postgres.config.ts only (issue #19, faults): PostgreSQL restarted under load (collectors answer
 * 503 meanwhile, never 2xx for what was not stored, and reconnect), and a collector process killed with SIGKILL
 * during a burst (nothing answered 2xx is lost; what was not answered is sent again, as agents do, and stored
 * once). A PostgreSQL of this file's own, since it is stopped on purpose.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../../server/createServer';
import { startCollectorProcess, type CollectorProcess } from '../startCollectorProcess';
import { startPostgres, type TestPostgres } from '../startPostgres';
import { nodeJzb, SERVER_TIMEOUT, TEST_ADMIN_TOKEN, wireEvent } from '../testServer';

let postgres: TestPostgres;
let databases = 0;

beforeAll(async () => {
  postgres = await startPostgres();
}, SERVER_TIMEOUT);
afterAll(() => postgres?.stop());

async function freshDatabase(): Promise<string> {
  const name = `faults_${++databases}`;
  const admin = new pg.Client({ connectionString: postgres.url('postgres') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return postgres.url(name);
}

async function storedCount(databaseUrl: string, apiKey: string): Promise<{ rows: number; distinct: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query('select count(*)::int as rows, count(distinct sequence)::int as distinct from events where api_key = $1', [apiKey]);
    return result.rows[0] as { rows: number; distinct: number };
  } finally {
    await client.end();
  }
}

const beacon = (apiKey: string, events: unknown[]) => `/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${nodeJzb(events)}`;

describe('issue #19 faults', () => {
  it('PostgreSQL restarted under load: the collector answers 503 with Retry-After meanwhile, then stores again; nothing is stored twice', async () => {
    const databaseUrl = await freshDatabase();
    const app = await createServer({ dataDir: 'memory://', databaseUrl, adminToken: TEST_ADMIN_TOKEN, agentDir: '/nonexistent', demoDir: '/nonexistent' });
    try {
      const first = beacon('restart', [wireEvent(), wireEvent()]);
      expect((await app.inject({ method: 'GET', url: first })).statusCode).toBe(200);

      postgres.pause();
      const during = beacon('restart', [wireEvent(), wireEvent(), wireEvent()]);
      const refused = await app.inject({ method: 'GET', url: during });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({ error: 'the database is unavailable for now: try again' });

      postgres.resume();
      // The agent sends again what was not answered 2xx; the pool reconnects by itself.
      expect((await app.inject({ method: 'GET', url: during })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: first })).statusCode).toBe(200);
      expect(await storedCount(databaseUrl, 'restart')).toEqual({ rows: 5, distinct: 5 });
    } finally {
      await app.close();
    }
  }, SERVER_TIMEOUT * 2);

  it('a collector killed with SIGKILL during a burst loses nothing: what was not answered 2xx, sent again to another, is stored once', async () => {
    const databaseUrl = await freshDatabase();
    const beacons = Array.from({ length: 300 }, () => beacon('killed', [wireEvent(), wireEvent(), wireEvent(), wireEvent()]));
    const doomed = await startCollector(databaseUrl);
    const answered = new Set<number>();
    try {
      // The burst: 8 at a time; the collector is killed once a third of the beacons are answered.
      let next = 0;
      let killed = false;
      const worker = async () => {
        while (next < beacons.length) {
          const i = next++;
          try {
            const response = await fetch(doomed.url + beacons[i]);
            if (response.ok) answered.add(i);
          } catch {
            // Killed mid-request: not answered, so not counted.
          }
          if (!killed && answered.size >= beacons.length / 3) {
            killed = true;
            doomed.process.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(killed).toBe(true);
      expect(answered.size).toBeLessThan(beacons.length);
      // Every answered beacon is there (a 2xx means committed).
      expect((await storedCount(databaseUrl, 'killed')).rows).toBeGreaterThanOrEqual(answered.size * 4);
    } finally {
      doomed.process.kill('SIGKILL');
    }
    // As the agents would: everything not answered goes again, to another collector.
    const other = await startCollector(databaseUrl);
    try {
      for (let i = 0; i < beacons.length; i++) {
        if (answered.has(i)) continue;
        expect((await fetch(other.url + beacons[i])).status).toBe(200);
      }
      expect(await storedCount(databaseUrl, 'killed')).toEqual({ rows: beacons.length * 4, distinct: beacons.length * 4 });
    } finally {
      other.process.kill('SIGKILL');
    }
  }, SERVER_TIMEOUT * 3);
});

/** A collector process with the test's admin token. */
function startCollector(databaseUrl: string): Promise<CollectorProcess> {
  return startCollectorProcess({ DATABASE_URL: databaseUrl, WAYMARK_ADMIN_TOKEN: TEST_ADMIN_TOKEN });
}
