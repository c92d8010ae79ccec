/**
 * issue #14: a database made by the server before the console (its events schema, copied below as it was at
 * commit 60712e4) is upgraded at start: the new columns are filled from the stored bodies and the summaries
 * built once, so the console's answers count the old rows; a restart does not count them again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '../../server/storage/createPgliteDatabase';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, wireEvent } from './testServer';

const OLD_SCHEMA = `
create table if not exists events (
  id bigserial primary key,
  api_key text not null,
  kind text not null check (kind in ('analytics', 'guide')),
  type text not null,
  visitor_id text,
  account_id text,
  browser_time bigint,
  received_at bigint not null,
  tab_id text,
  frame_id text not null default '',
  sequence int,
  body jsonb not null
);
alter table events add column if not exists source text;
create unique index if not exists events_once_per_page
  on events (api_key, kind, tab_id, frame_id, sequence) where tab_id is not null and sequence is not null;
create index if not exists events_by_visitor on events (api_key, kind, visitor_id);
`;

const OLD_INSERT = `
insert into events (api_key, kind, type, visitor_id, account_id, browser_time, received_at, tab_id, frame_id, sequence, source, body)
select $1, $2, r.e->>'type', r.e->>'visitorId', r.e->>'accountId', (r.e->>'browserTime')::bigint, $3,
       r.e->>'tabId', coalesce(r.e->>'frameId', ''), (r.e->>'sequence')::int, $5, r.e->'body'
from jsonb_array_elements($4::jsonb) with ordinality as r(e, ord)
order by r.ord
on conflict do nothing
returning id`;

const T0 = Date.UTC(2026, 2, 1);
const H = 3_600_000;
const KEY = 'old-app';
const BUTTON = { tag: 'BUTTON', id: 'go', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0 };

const OLD_EVENTS = [
  wireEvent({ type: 'meta', browser_time: T0 + 1, visitor_id: 'old-1', account_id: 'acc', url: 'http://old/a', props: { visitor: { tier: 'gold' } } }),
  wireEvent({ type: 'load', browser_time: T0 + 2, visitor_id: 'old-1', account_id: 'acc', url: 'http://old/a', props: {} }),
  wireEvent({ type: 'click', browser_time: T0 + 3, visitor_id: 'old-1', account_id: 'acc', url: 'http://old/a', props: { target: BUTTON, frustrationTypes: ['rageClick'] } }),
  wireEvent({ type: 'load', browser_time: T0 + H, visitor_id: 'old-2', account_id: 'acc', url: 'http://old/b', props: {}, sessionId: 'other-session', tabId: 'tab-2' }),
];

let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-migration-'));
  const db = await createPgliteDatabase(dataDir);
  await db.exec(OLD_SCHEMA);
  const rows = OLD_EVENTS.map((e) => ({
    type: e.type, visitorId: e.visitor_id, accountId: e.account_id, browserTime: e.browser_time, tabId: e.tabId,
    frameId: e.frameId, sequence: e.sequence, body: e,
  }));
  await db.query(OLD_INSERT, [KEY, 'analytics', T0 + 2 * H, JSON.stringify(rows), 'worker']);
  await db.close();
}, SERVER_TIMEOUT);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function overview(): Promise<any> {
  const server = await startTestServer({}, { dataDir });
  try {
    const response = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/overview?from=${T0}&to=${T0 + 2 * H}`, headers: ADMIN_HEADERS });
    expect(response.statusCode).toBe(200);
    const visitor = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/visitors/old-1`, headers: ADMIN_HEADERS });
    const events = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/events?type=click`, headers: ADMIN_HEADERS });
    return { overview: response.json(), visitor: visitor.json(), events: events.json().events };
  } finally {
    await server.close();
  }
}

describe('issue #14 console: upgrading a database of the old schema', () => {
  it('fills the new columns and the summaries from the stored events, once', async () => {
    for (let start = 0; start < 2; start++) {
      const { overview: o, visitor, events } = await overview();
      expect(o.totals).toEqual({ events: 4, visitors: 2, accounts: 1, sessions: 2 });
      expect(o.series).toEqual([{ t: T0, events: 3, visitors: 1 }, { t: T0 + H, events: 1, visitors: 1 }]);
      expect(o.topPages).toEqual([{ url: 'http://old/a', events: 3, visitors: 1 }, { url: 'http://old/b', events: 1, visitors: 1 }]);
      expect(o.topFeatures).toEqual([{ label: 'button#go', tag: 'BUTTON', id: 'go', text: '', clicks: 1 }]);
      expect(o.frustration.rageClicks).toBe(1);
      expect(visitor.metadata).toEqual({ tier: 'gold' });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ time: T0 + 3, url: 'http://old/a', element: { tag: 'BUTTON', id: 'go', text: '' } });
    }
  }, 4 * SERVER_TIMEOUT);
});
