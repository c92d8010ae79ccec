/**
 * Run by vitest.postgres.config.ts only (issue #19, summaries off the beacon's path, faults): collector processes
 * stopped with SIGTERM (the queue is drained before exit), killed with SIGKILL before their summarizer ran (another
 * collector summarizes their batches), and killed in the middle of a drain (its transaction rolls back; the next
 * collector summarizes the batches). In every case the console counts each event answered 2xx exactly once.
 */
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollectorProcess, type CollectorProcess } from '../startCollectorProcess';
import { ADMIN_HEADERS, freshPostgresDatabase, nodeJzb, SERVER_TIMEOUT, TEST_ADMIN_TOKEN, wireEvent } from '../testServer';

const EVENTS_PER_BEACON = 4;
/** A period no test waits out: the collector summarizes only when told (flush, shutdown). */
const NEVER_MS = '3600000';

let client: pg.Client;
let databaseUrl: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  databaseUrl = (await freshPostgresDatabase())!;
}, SERVER_TIMEOUT);
afterAll(async () => {
  for (const child of started) child.kill('SIGKILL');
});

/** A collector on the test database with its summarizer's period, killed at the end if still running. */
async function collector(intervalMs: string): Promise<CollectorProcess> {
  const process = await startCollectorProcess({ DATABASE_URL: databaseUrl, WAYMARK_ADMIN_TOKEN: TEST_ADMIN_TOKEN, WAYMARK_SUMMARY_INTERVAL_MS: intervalMs });
  started.push(process.process);
  return process;
}

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  if (!client) {
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
  }
  return (await client.query(text, params)).rows as T[];
}

/** Sends `beacons` beacons of fresh events for `apiKey`; every one must be answered 2xx. */
async function send(url: string, apiKey: string, beacons: number): Promise<number> {
  for (let i = 0; i < beacons; i++) {
    const events = Array.from({ length: EVENTS_PER_BEACON }, () => wireEvent({ visitor_id: `visitor-${i % 3}` }));
    const response = await fetch(`${url}/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${nodeJzb(events)}`);
    expect(response.status).toBe(200);
  }
  return beacons * EVENTS_PER_BEACON;
}

/** What the summaries say of `apiKey` next to what is stored, and how many batches wait. */
async function counts(apiKey: string): Promise<{ stored: number; apps: number; days: number; visitors: number; queued: number }> {
  const [row] = await sql<Record<string, string>>(
    `select (select count(*) from events where api_key = $1) as stored,
            (select coalesce(sum(events), 0) from console_apps where api_key = $1) as apps,
            (select coalesce(sum(events), 0) from console_buckets where api_key = $1 and grain = 'day') as days,
            (select coalesce(sum(events), 0) from console_visitors where api_key = $1) as visitors,
            (select count(*) from summary_queue) as queued`,
    [apiKey],
  );
  return { stored: Number(row!.stored), apps: Number(row!.apps), days: Number(row!.days), visitors: Number(row!.visitors), queued: Number(row!.queued) };
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

describe('issue #19 summaries: collectors stopped and killed', () => {
  it('SIGTERM: the collector summarizes what it queued before it exits', async () => {
    const doomed = await collector(NEVER_MS);
    const sent = await send(doomed.url, 'term', 30);
    expect(await counts('term')).toMatchObject({ stored: sent, apps: 0, queued: 30 });
    const stopping = Date.now();
    doomed.process.kill('SIGTERM');
    expect(await exited(doomed.process)).toBe(0);
    // Bounded: the drain at close gives up after 10 s (a drain of 30 batches takes milliseconds).
    expect(Date.now() - stopping).toBeLessThan(12_000);
    expect(await counts('term')).toEqual({ stored: sent, apps: sent, days: sent, visitors: sent, queued: 0 });
  }, SERVER_TIMEOUT);

  it('SIGKILL before the summarizer ran: another collector summarizes the batches by itself, once', async () => {
    const doomed = await collector(NEVER_MS);
    const sent = await send(doomed.url, 'killed', 40);
    doomed.process.kill('SIGKILL');
    await exited(doomed.process);
    expect(await counts('killed')).toMatchObject({ stored: sent, apps: 0, queued: 40 });

    const other = await collector('200');
    await until(async () => (await counts('killed')).queued === 0, 10_000);
    expect(await counts('killed')).toEqual({ stored: sent, apps: sent, days: sent, visitors: sent, queued: 0 });
    const apps = await (await fetch(`${other.url}/api/apps`, { headers: ADMIN_HEADERS })).json();
    expect(apps.find((a: { apiKey: string }) => a.apiKey === 'killed')).toMatchObject({ events: sent, visitors: 3 });
    other.process.kill('SIGTERM');
    await exited(other.process);
  }, SERVER_TIMEOUT);

  it('SIGKILL in the middle of a drain: its transaction rolls back and the next collector summarizes the batches, once', async () => {
    const doomed = await collector('100');
    const first = await send(doomed.url, 'midway', 1);
    await until(async () => (await counts('midway')).apps === first, 10_000);

    // Hold the app's summary row, so the next drain takes its batches off the queue and then waits here.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query("select * from console_apps where api_key = 'midway' for update");
      const more = await send(doomed.url, 'midway', 20);
      const waiting = async () =>
        (await sql<{ pid: number }>("select pid from pg_stat_activity where wait_event_type = 'Lock' and query like '%summary_queue%'"))[0]?.pid;
      await until(async () => (await waiting()) !== undefined, 10_000);
      const drainer = (await waiting())!;

      doomed.process.kill('SIGKILL');
      await exited(doomed.process);
      // A backend waiting on a lock notices its client is gone only when it next talks to it; the terminate
      // stands for that moment (and for a database-side failure), ending the drain's transaction unfinished.
      await sql('select pg_terminate_backend($1)', [drainer]);
      await holder.query('rollback');
      expect(await counts('midway')).toMatchObject({ stored: first + more, apps: first, queued: 20 });

      await collector('200');
      await until(async () => (await counts('midway')).queued === 0, 10_000);
      const total = first + more;
      expect(await counts('midway')).toEqual({ stored: total, apps: total, days: total, visitors: total, queued: 0 });
    } finally {
      await holder.end();
    }
  }, SERVER_TIMEOUT * 2);
});

afterAll(async () => {
  await client?.end();
});
