/**
 * Run by vitest.postgres.config.ts only (issue #33): the audit trail and guide history on a real PostgreSQL shared
 * by two collectors. A change on one is in the audit read on the other; the table refuses UPDATE and DELETE from
 * any client (the append-only trigger); saves of one guide racing on both collectors get versions 1..n, none lost
 * and none twice (the primary key and the retry of createGuideVersions).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../users';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from '../testServer';

vi.setConfig({ testTimeout: 60_000 });

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({}, { databaseUrl: first.databaseUrl });
}, SERVER_TIMEOUT * 2);
afterAll(async () => {
  await second?.close();
  await first?.close();
}, SERVER_TIMEOUT);

const guide = (text: string) => ({ id: 'g', launchMethod: 'auto', steps: [{ id: 's1', type: 'lightbox', markdown: text }] });

describe('issue #33 audit trail and guide history on PostgreSQL', () => {
  it('a change on one collector is in the audit read on the other, with its actor', async () => {
    const editor = await makeUser(first.app, 'editor');
    expect((await first.app.inject({ method: 'PUT', url: '/api/apps/pg-audit/guides/g', headers: editor.bearer, payload: guide('one') })).statusCode).toBe(201);
    const entries = (await second.app.inject({ method: 'GET', url: '/api/audit?apiKey=pg-audit', headers: ADMIN_HEADERS })).json().entries;
    expect(entries[0]).toMatchObject({ action: 'guide.saved', target: 'g', actor: { kind: 'api token', email: editor.email }, after: { version: 1 } });
  });

  it('the database refuses UPDATE and DELETE of audit rows', async () => {
    const client = new pg.Client({ connectionString: first.databaseUrl });
    await client.connect();
    try {
      const before = await client.query('select count(*)::int as n from audit_log');
      expect(before.rows[0].n).toBeGreaterThan(0);
      await expect(client.query("update audit_log set action = 'x'")).rejects.toThrow(/append-only/);
      await expect(client.query('delete from audit_log')).rejects.toThrow(/append-only/);
      expect((await client.query('select count(*)::int as n from audit_log')).rows[0].n).toBe(before.rows[0].n);
    } finally {
      await client.end();
    }
  });

  it('saves racing on both collectors each keep a version: 1..n, no gap, no number twice', async () => {
    const saves = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? first : second).app.inject({ method: 'PUT', url: '/api/apps/pg-race/guides/g', headers: ADMIN_HEADERS, payload: guide(`text ${i}`) }));
    const answers = await Promise.all(saves);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 201)).toBe(true);
    const versions = (await first.app.inject({ method: 'GET', url: '/api/apps/pg-race/guides/g/versions', headers: ADMIN_HEADERS })).json().versions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i));
  });
});
