/**
 * issue #14, docs/console-api.md "Apps and analytics" and guide stats: a small known set of events stored
 * through the real beacons (ptm.gif, guide.gif, errorlog), and the exact answers of every console route.
 */
import { migrateSchema } from '../../server/storage/migrations/MIGRATIONS';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from '../../server/storage/createPgliteDatabase';
import { registerConsoleRoutes } from '../../server/queries/registerConsoleRoutes';
import { createSummarizer } from '../../server/summaries/createSummarizer';
import { ADMIN_HEADERS, guideEvent, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';
import { pgliteTemplate } from './pgliteTemplate';

const H = 3_600_000;
/** An app's health at a glance (GET /api/apps) when its agents sent no report in the last 24 hours. */
const NO_HEALTH_REPORT = { reports: 0, beaconsFailed: 0, eventsDropped: 0, guideLoadFailures: 0, errors: 0 };
const D = 24 * H;
/** A UTC midnight: the range tests below use whole days. */
const T0 = Date.UTC(2026, 0, 10);
const KEY = 'console-app';

const GUIDE = {
  id: 'g1',
  launchMethod: 'auto',
  steps: ['s1', 's2'].map((id) => ({
    id,
    guideId: 'g1',
    type: 'lightbox',
    domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'div', props: { id: 't' }, content: id }] },
  })),
};

const SAVE = { tag: 'BUTTON', id: 'save', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Save' };
const EXPORT = { tag: 'A', id: '', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };

function at(time: number, visitor: string, account: string, session: string, channel: string, fields: Record<string, unknown>) {
  return wireEvent({ browser_time: time, visitor_id: visitor, account_id: account, sessionId: session, tabId: `tab-${session}`, utm: { channel }, ...fields });
}

/** 10 analytics events of 3 visitors, 2 accounts, 4 sessions, in [T0, T0 + 2 days). */
const ANALYTICS = [
  at(T0 + 1000, 'v1', 'acme', 's-1', 'Direct', { type: 'meta', url: 'http://app/home', props: { visitor: { name: 'Ann' }, account: { plan: 'pro' } } }),
  at(T0 + 2000, 'v1', 'acme', 's-1', 'Direct', { type: 'load', url: 'http://app/home', props: { load_time: 10 } }),
  at(T0 + 3000, 'v1', 'acme', 's-1', 'Direct', { type: 'click', url: 'http://app/home', props: { target: SAVE, frustrationTypes: ['rageClick'] } }),
  at(T0 + 4000, 'v1', 'acme', 's-1', 'Direct', { type: 'click', url: 'http://app/home', props: { target: SAVE, frustrationTypes: ['deadClick', 'errorClick'] } }),
  at(T0 + 5000, 'v1', 'acme', 's-1', 'Direct', { type: 'load', url: 'http://app/reports', props: { frustrationTypes: ['uTurn'] } }),
  at(T0 + 6000, 'v1', 'acme', 's-1', 'Direct', { type: 'click', url: 'http://app/reports', props: { target: EXPORT } }),
  at(T0 + 2 * H + 1000, 'v2', 'acme', 's-2', 'Direct', { type: 'load', url: 'http://app/home', props: {} }),
  at(T0 + 2 * H + 2000, 'v2', 'acme', 's-2', 'Direct', { type: 'click', url: 'http://app/home', props: { target: SAVE } }),
  at(T0 + 3 * H, 'v3', 'beta', 's-4', 'Organic Search', { type: 'load', url: 'http://app/reports', props: {} }),
  at(T0 + 26 * H, 'v2', 'acme', 's-3', 'Email', { type: 'load', url: 'http://app/home', props: {} }),
];

/** Guide events on day 3 (outside the analytics range), all in hour T0 + 3 days + 5 h. */
const G = T0 + 3 * D + 5 * H;
function g(type: string, visitor: string, props: Record<string, unknown>, dt: number) {
  return guideEvent(type, { guide_id: 'g1', ...props }, { browser_time: G + dt, visitor_id: visitor, account_id: visitor === 'v3' ? 'beta' : 'acme', sessionId: `g-${visitor}`, tabId: `gtab-${visitor}` });
}
const poll = (visitor: string, value: number, dt: number) =>
  g('pollResponse', visitor, { guide_step_id: 's2', poll_id: 'nps1', poll_type: 'NPSRating', poll_response: value }, dt);
const GUIDE_EVENTS = [
  g('guideSeen', 'v1', { guide_step_id: 's1' }, 1),
  g('guideAdvanced', 'v1', { guide_step_id: 's1' }, 2),
  g('guideSeen', 'v1', { guide_step_id: 's2' }, 3),
  g('guideAdvanced', 'v1', { guide_step_id: 's2' }, 4),
  g('guideSeen', 'v2', { guide_step_id: 's1' }, 5),
  g('guideDismissed', 'v2', { guide_step_id: 's1' }, 6),
  g('guideSeen', 'v3', { guide_step_id: 's1' }, 7),
  g('guideSnoozed', 'v3', { guide_step_id: 's1', snooze_duration: 1000 }, 8),
  g('guideTimeout', 'v3', { guide_step_id: 's2', reason: 'other' }, 9),
  g('guideNotSeen', 'v3', { guide_step_id: 's1', reason: 'renderFail' }, 10),
  poll('v1', 10, 11), poll('v2', 9, 12), poll('v3', 9, 13), poll('v4', 8, 14), poll('v5', 3, 15),
];

let server: TestServer;
const get = async (url: string, headers: Record<string, string> = ADMIN_HEADERS) => {
  const response = await server.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() };
};
const ok = async (url: string) => {
  const { status, body } = await get(url);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
};
const range = (from: number, to: number, bucket?: string) => `from=${from}&to=${to}${bucket ? `&bucket=${bucket}` : ''}`;

async function beacon(path: string, events: unknown[]) {
  const response = await server.app.inject({ method: 'GET', url: `/data/${path}/${KEY}?v=1&ct=1&jzb=${nodeJzb(events)}` });
  expect(response.statusCode).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer({ 'g1.json': GUIDE }, { seedApp: KEY });
  await beacon('ptm.gif', ANALYTICS.slice(0, 6));
  await beacon('ptm.gif', ANALYTICS.slice(6));
  await beacon('guide.gif', GUIDE_EVENTS.slice(0, 10));
  await beacon('poll.gif', GUIDE_EVENTS.slice(10));
  const error = await server.app.inject({
    method: 'POST', url: `/data/errorlog?apiKey=${KEY}`, payload: { error: 'guide g1 step s2 failed to render', version: '1', visitorId: 'v3' },
  });
  expect(error.statusCode).toBeLessThan(300);
}, SERVER_TIMEOUT);
afterAll(async () => server?.close(), SERVER_TIMEOUT);

describe('issue #14 console: apps and overview', () => {
  it('GET /api/apps lists the app with its totals and the guide count', async () => {
    const apps = await ok('/api/apps');
    const app = apps.find((a: { apiKey: string }) => a.apiKey === KEY);
    // The seed app got the folder's guide.
    expect(app).toEqual({ apiKey: KEY, events: 10 + 15, visitors: 5, firstSeen: T0 + 1000, lastSeen: G + 15, guides: 1, health24h: NO_HEALTH_REPORT });
    // An app with guides and no events yet is listed too.
    const put = await server.app.inject({ method: 'PUT', url: '/api/apps/guides-only/guides/g1', headers: ADMIN_HEADERS, payload: GUIDE });
    expect(put.statusCode).toBe(201);
    const again = await ok('/api/apps');
    expect(again.find((a: { apiKey: string }) => a.apiKey === 'guides-only')).toMatchObject({ events: 0, guides: 1 });
  });

  it('overview by hour: totals, series, top pages and features, frustration, channels, sessions', async () => {
    const o = await ok(`/api/apps/${KEY}/overview?${range(T0, T0 + 2 * D)}`);
    expect(o.range).toEqual({ from: T0, to: T0 + 2 * D, bucket: 'hour' });
    expect(o.totals).toEqual({ events: 10, visitors: 3, accounts: 2, sessions: 4 });
    expect(o.series).toEqual([
      { t: T0, events: 6, visitors: 1 },
      { t: T0 + 2 * H, events: 2, visitors: 1 },
      { t: T0 + 3 * H, events: 1, visitors: 1 },
      { t: T0 + 26 * H, events: 1, visitors: 1 },
    ]);
    expect(o.topPages).toEqual([
      { url: 'http://app/home', events: 7, visitors: 2 },
      { url: 'http://app/reports', events: 3, visitors: 2 },
    ]);
    expect(o.topFeatures).toEqual([
      { label: 'Save', tag: 'BUTTON', id: 'save', text: 'Save', clicks: 3 },
      { label: 'Export', tag: 'A', id: '', text: 'Export', clicks: 1 },
    ]);
    expect(o.frustration).toEqual({ rageClicks: 1, deadClicks: 1, errorClicks: 1, uTurns: 1 });
    expect(o.channels).toEqual([
      { channel: 'Direct', sessions: 2 },
      { channel: 'Email', sessions: 1 },
      { channel: 'Organic Search', sessions: 1 },
    ]);
    // Durations 5000, 1000, 0, 0 ms; 10 events in 4 sessions.
    expect(o.sessions).toEqual({ count: 4, medianDurationMs: 500, meanEvents: 2.5 });
  });

  it('overview by day, and a range widened to whole buckets', async () => {
    const o = await ok(`/api/apps/${KEY}/overview?${range(T0, T0 + 2 * D, 'day')}`);
    expect(o.series).toEqual([{ t: T0, events: 9, visitors: 3 }, { t: T0 + D, events: 1, visitors: 1 }]);
    const second = await ok(`/api/apps/${KEY}/overview?${range(T0 + D + 5, T0 + D + 6, 'day')}`);
    expect(second.range).toEqual({ from: T0 + D, to: T0 + 2 * D, bucket: 'day' });
    expect(second.totals).toEqual({ events: 1, visitors: 1, accounts: 1, sessions: 1 });
    expect(second.topPages).toEqual([{ url: 'http://app/home', events: 1, visitors: 1 }]);
  });

  it('an app with no events answers zeros', async () => {
    const o = await ok(`/api/apps/nobody/overview?${range(T0, T0 + D)}`);
    expect(o.totals).toEqual({ events: 0, visitors: 0, accounts: 0, sessions: 0 });
    expect(o.series).toEqual([]);
    expect(o.sessions).toEqual({ count: 0, medianDurationMs: 0, meanEvents: 0 });
  });
});

describe('issue #14 console: events', () => {
  it('newest first, filters, and paging with after', async () => {
    const { events, lastId } = await ok(`/api/apps/${KEY}/events?type=click&limit=2`);
    expect(events.map((e: { time: number }) => e.time)).toEqual([T0 + 2 * H + 2000, T0 + 6000]);
    expect(events[0]).toMatchObject({
      kind: 'analytics', type: 'click', visitorId: 'v2', accountId: 'acme', url: 'http://app/home',
      element: { tag: 'BUTTON', id: 'save', text: 'Save' }, name: null,
    });
    expect(lastId).toBe(events[0].id);
    const all = (await ok(`/api/apps/${KEY}/events?limit=500`)).events;
    expect(all).toHaveLength(25);
    const after = await ok(`/api/apps/${KEY}/events?after=${all[3].id}`);
    expect(after.events.map((e: { id: number }) => e.id)).toEqual([all[2].id, all[1].id, all[0].id]);
    expect(after.lastId).toBe(all[0].id);
    const none = await ok(`/api/apps/${KEY}/events?after=${all[0].id}`);
    expect(none).toEqual({ events: [], lastId: all[0].id });
    const v3 = (await ok(`/api/apps/${KEY}/events?visitorId=v3&type=load`)).events;
    expect(v3).toHaveLength(1);
    const guide = (await ok(`/api/apps/${KEY}/events?type=guideSeen&limit=1`)).events[0];
    expect(guide).toMatchObject({ kind: 'guide', name: 'g1', element: null });
  });

  it('one event with its body as sent; 404 for an unknown id or another app', async () => {
    const [latest] = (await ok(`/api/apps/${KEY}/events?type=meta`)).events;
    const event = await ok(`/api/apps/${KEY}/events/${latest.id}`);
    expect(event).toMatchObject({ id: latest.id, kind: 'analytics', type: 'meta', visitorId: 'v1', accountId: 'acme', source: null });
    expect(event.body).toEqual(ANALYTICS[0]);
    expect((await get(`/api/apps/${KEY}/events/999999`)).status).toBe(404);
    expect((await get(`/api/apps/other/events/${latest.id}`)).status).toBe(404);
  });
});

describe('the console: events as a CSV file', () => {
  it('the list as filtered, newest first, as a download; a bad limit is refused by name; nothing without the admin', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/events.csv?type=click&limit=2`, headers: ADMIN_HEADERS });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${KEY}-events.csv"`);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,received_at,time,kind,type,visitor_id,account_id,url,element_tag,element_id,element_text,name');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,${new Date(T0 + 2 * H + 2000).toISOString()},analytics,click,v2,acme,http://app/home,BUTTON,save,Save,`);
    const all = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/events.csv`, headers: ADMIN_HEADERS });
    expect(all.body.trimEnd().split('\r\n')).toHaveLength(26);
    const bad = await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/events.csv?limit=100001`, headers: ADMIN_HEADERS });
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'limit']);
    expect((await server.app.inject({ method: 'GET', url: `/api/apps/${KEY}/events.csv` })).statusCode).toBe(401);
  });
});

describe('issue #14 console: visitors and accounts', () => {
  it('lists and searches visitors', async () => {
    const all = await ok(`/api/apps/${KEY}/visitors`);
    expect(all.map((v: { visitorId: string }) => v.visitorId)).toEqual(['v5', 'v4', 'v3', 'v2', 'v1']);
    const [v1] = await ok(`/api/apps/${KEY}/visitors?q=1`);
    expect(v1).toEqual({ visitorId: 'v1', accountId: 'acme', firstSeen: T0 + 1000, lastSeen: G + 11, events: 11, metadata: { name: 'Ann' } });
    expect(await ok(`/api/apps/${KEY}/visitors?q=%25`)).toEqual([]);
  });

  it("a visitor's sessions and timeline; 404 for an unknown visitor", async () => {
    const v2 = await ok(`/api/apps/${KEY}/visitors/v2`);
    expect(v2).toMatchObject({ visitorId: 'v2', accountId: 'acme', metadata: null, firstSeen: T0 + 2 * H + 1000 });
    expect(v2.sessions).toEqual([
      { sessionId: 'g-v2', start: G + 5, end: G + 12, events: 3, pages: 0 },
      { sessionId: 's-3', start: T0 + 26 * H, end: T0 + 26 * H, events: 1, pages: 1 },
      { sessionId: 's-2', start: T0 + 2 * H + 1000, end: T0 + 2 * H + 2000, events: 2, pages: 1 },
    ]);
    expect(v2.events.map((e: { type: string }) => e.type)).toEqual(['pollResponse', 'guideDismissed', 'guideSeen', 'load', 'click', 'load']);
    expect((await get(`/api/apps/${KEY}/visitors/nobody`)).status).toBe(404);
  });

  it('lists accounts and one account; 404 for an unknown account', async () => {
    expect(await ok(`/api/apps/${KEY}/accounts?q=ac`)).toEqual([
      { accountId: 'acme', visitors: 4, events: 19, lastSeen: G + 15, metadata: { plan: 'pro' } },
    ]);
    const beta = await ok(`/api/apps/${KEY}/accounts/beta`);
    expect(beta).toEqual({ accountId: 'beta', metadata: null, visitors: [{ visitorId: 'v3', events: 6, lastSeen: G + 13 }] });
    expect((await get(`/api/apps/${KEY}/accounts/nobody`)).status).toBe(404);
  });
});

describe('issue #14 console: guide stats', () => {
  it('funnel, dismissed, snoozed, timeline, NPS and health', async () => {
    const s = await ok(`/api/apps/${KEY}/guides/g1/stats?${range(T0 + 3 * D, T0 + 4 * D)}`);
    expect(s.funnel).toEqual([
      { label: 'seen', stepId: 's1', visitors: 3 },
      { label: 'step 1 advanced', stepId: 's1', visitors: 1 },
      { label: 'step 2 advanced', stepId: 's2', visitors: 1 },
      { label: 'completed', visitors: 1 },
    ]);
    expect(s.dismissed).toBe(1);
    expect(s.snoozed).toBe(1);
    expect(s.timeline).toEqual([{ t: T0 + 3 * D + 5 * H, seen: 4, advanced: 2, dismissed: 1, snoozed: 1 }]);
    // 3 promoters, 1 passive, 1 detractor: 60% - 20% = 40.
    expect(s.polls).toEqual([{
      pollId: 'nps1',
      type: 'NPSRating',
      responses: [{ value: 9, count: 2 }, { value: 10, count: 1 }, { value: 3, count: 1 }, { value: 8, count: 1 }],
      nps: { score: 40, promoters: 3, passives: 1, detractors: 1, total: 5, distribution: [0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 1] },
    }]);
    expect(s.health.timeouts).toBe(1);
    expect(s.health.notSeen).toBe(1);
    const now = Date.now();
    const recent = await ok(`/api/apps/${KEY}/guides/g1/stats?${range(now - D, now)}`);
    expect(recent.health.errors).toEqual([{ message: 'guide g1 step s2 failed to render', count: 1, lastSeen: expect.any(Number) }]);
    expect(recent.funnel[0].visitors).toBe(0);
  });

  it('the guide list\'s figures in a range (the overview\'s guides): what happened in it; both ends or neither; of one account\'s visitors', async () => {
    const figures = async (query: string) => (await ok(`/api/apps/${KEY}/guides${query}`)).find((g: { id: string }) => g.id === 'g1').stats;
    expect(await figures('')).toEqual({ seen: 3, completed: 1, dismissed: 1 });
    expect(await figures(`?from=${T0 + 3 * D}&to=${T0 + 4 * D}`)).toEqual({ seen: 3, completed: 1, dismissed: 1 });
    expect(await figures(`?from=${T0}&to=${T0 + 3 * D}`)).toEqual({ seen: 0, completed: 0, dismissed: 0 });
    expect(await get(`/api/apps/${KEY}/guides?from=${T0}`)).toEqual({ status: 400, body: { error: 'from and to go together (epoch ms), or neither for all time', field: 'to' } });
    expect((await get(`/api/apps/${KEY}/guides?from=${T0}&to=${T0}`)).body.field).toBe('to');
    // Of one account's visitors (the account page): acme's v1 completed, v2 dismissed; beta's v3 snoozed.
    expect(await figures('?accountId=acme')).toEqual({ seen: 2, completed: 1, dismissed: 1 });
    expect(await figures(`?accountId=beta&from=${T0 + 3 * D}&to=${T0 + 4 * D}`)).toEqual({ seen: 1, completed: 0, dismissed: 0 });
    expect(await figures('?accountId=nobody')).toEqual({ seen: 0, completed: 0, dismissed: 0 });
  });

  it('404 for an unknown guide', async () => {
    expect(await get(`/api/apps/${KEY}/guides/nope/stats`)).toEqual({ status: 404, body: { error: 'guide not found' } });
  });
});

describe('issue #14 console: bad input and access', () => {
  it.each([
    ['overview?from=yesterday', 'from'],
    ['overview?to=1.5', 'to'],
    [`overview?from=${T0 + 1}&to=${T0}`, 'from'],
    ['overview?bucket=week', 'bucket'],
    [`overview?from=${T0}&to=${T0 + 40 * D}&bucket=hour`, 'bucket'],
    ['events?limit=0', 'limit'],
    ['events?limit=501', 'limit'],
    ['events?after=-1', 'after'],
    ['events?after=abc', 'after'],
    ['events/abc', 'id'],
    ['visitors?limit=x', 'limit'],
    ['guides/g1/stats?bucket=minute', 'bucket'],
  ])('%s -> 400 naming %s', async (path, field) => {
    const { status, body } = await get(`/api/apps/${KEY}/${path}`);
    expect(status).toBe(400);
    expect(body.field).toBe(field);
    expect(typeof body.error).toBe('string');
  });

  it('401 without the token', async () => {
    for (const path of ['/api/apps', `/api/apps/${KEY}/overview`, `/api/apps/${KEY}/events`, `/api/apps/${KEY}/guides/g1/stats`]) {
      expect((await get(path, {})).status).toBe(401);
    }
  });
});

describe('issue #14 console: exactly once', () => {
  it('the same beacon twice does not count twice', async () => {
    const batch = [at(T0 + 10 * D, 'v9', 'acme', 's-9', 'Direct', { type: 'load', url: 'http://app/x' })];
    await beacon('ptm.gif', batch);
    await beacon('ptm.gif', batch);
    const o = await ok(`/api/apps/${KEY}/overview?${range(T0 + 10 * D, T0 + 11 * D)}`);
    expect(o.totals).toEqual({ events: 1, visitors: 1, accounts: 1, sessions: 1 });
    expect(o.series).toEqual([{ t: T0 + 10 * D, events: 1, visitors: 1 }]);
    expect(o.topPages).toEqual([{ url: 'http://app/x', events: 1, visitors: 1 }]);
  });
});

describe('issue #14 console: top pages', () => {
  it('a page is its address without query and fragment: one row, its visitors counted once', async () => {
    await beacon('ptm.gif', [
      at(T0 + 20 * D, 'v10', 'acme', 's-10', 'Direct', { type: 'load', url: 'http://app/r?visitor=a' }),
      at(T0 + 20 * D + 1, 'v10', 'acme', 's-10', 'Direct', { type: 'load', url: 'http://app/r' }),
      at(T0 + 20 * D + 2, 'v11', 'acme', 's-11', 'Direct', { type: 'load', url: 'http://app/r?visitor=b#top' }),
      at(T0 + 20 * D + 3, 'v11', 'acme', 's-11', 'Direct', { type: 'load', url: 'http://app/s#top' }),
    ]);
    const o = await ok(`/api/apps/${KEY}/overview?${range(T0 + 20 * D, T0 + 21 * D)}`);
    expect(o.topPages).toEqual([{ url: 'http://app/r', events: 3, visitors: 2 }, { url: 'http://app/s', events: 1, visitors: 1 }]);
  });
});

describe('registerConsoleRoutes with a given guide source', () => {
  it('reads guide counts and steps from the source it is given', async () => {
    const db = await createPgliteDatabase('memory://', await pgliteTemplate());
    const app = Fastify();
    try {
      const { createEventStore } = await import('../../server/ingest/createEventStore');
      await migrateSchema(db);
      await db.exec("create table if not exists logs (id bigserial, api_key text, kind text, message text, version text, visitor_id text, received_at bigint)");
      const summaries = createSummarizer(db);
      app.addHook('onClose', async () => void (await summaries.stop()));
      registerConsoleRoutes(app, {
        db,
        summaries,
        guides: { countsByApp: async () => ({ 'only-guides': 2 }), stepIds: async (_k, id) => (id === 'known' ? ['a'] : undefined), all: async () => [] },
        stepStates: async () => [],
      });
      expect((await app.inject('/api/apps')).json()).toEqual([
        { apiKey: 'only-guides', events: 0, visitors: 0, firstSeen: null, lastSeen: null, guides: 2, health24h: NO_HEALTH_REPORT },
      ]);
      // The agents' health reports of the last 24 hours, summed per app; an older one is left out.
      const { createMonitorStore } = await import('../../server/ingest/createMonitorStore');
      const reports = createMonitorStore(db);
      const counts = (over: Record<string, number>) => ({ eventsSent: 5, beaconsFailed: 0, eventsDropped: 0, guideLoads: 1, guideLoadFailures: 0, errors: 0, warnings: 0, ...over });
      const report = (over: Record<string, number>) => ({ version: '0.1.0', visitorId: 'v', sessionId: 's', from: 0, to: 0, counts: counts(over) });
      await reports.insert('only-guides', report({ beaconsFailed: 2, errors: 1 }), Date.now() - 60_000);
      await reports.insert('only-guides', report({ eventsDropped: 1 }), Date.now() - 3_600_000);
      await reports.insert('only-guides', report({ beaconsFailed: 50 }), Date.now() - 25 * 3_600_000);
      expect((await app.inject('/api/apps')).json()[0].health24h).toEqual({ reports: 2, beaconsFailed: 2, eventsDropped: 1, guideLoadFailures: 0, errors: 1 });
      expect((await app.inject('/api/apps/k/guides/unknown/stats')).statusCode).toBe(404);
      const known = (await app.inject('/api/apps/k/guides/known/stats')).json();
      expect(known.funnel).toEqual([{ label: 'seen', stepId: 'a', visitors: 0 }, { label: 'step 1 advanced', stepId: 'a', visitors: 0 }, { label: 'completed', visitors: 0 }]);
    } finally {
      await app.close();
      await db.close();
    }
  }, SERVER_TIMEOUT);
});
