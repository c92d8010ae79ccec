/**
 * issue #35 "Fast at real volumes": the timelines' copy paths walk (server/analytics/timelineCopySql.ts, migration
 * 25). Its rows read back through the dictionaries (timelineKeyTexts.ts) equal the events as every other read of
 * paths reads them (TIMELINE_COLUMNS): loads, clicks on an element and on none, track events, no session, no
 * address; events a timeline does not hold (focus, guide events, no visitor) are not copied. Migration 25's fill
 * gives the drain's rows, and an event queued when it ran, drained after it, is copied once. Retention deletes a
 * row with its event. PGlite here, PostgreSQL with vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILL_TIMELINE_COPY } from '../../server/analytics/timelineCopySql';
import { COPY_COLUMNS, createKeyTexts, type CopyRow } from '../../server/analytics/timelineKeyTexts';
import { TIMELINE_COLUMNS, TIMELINE_TYPES, type TimelineRow } from '../../server/analytics/timelineRows';
import type { EventStore } from '../../server/ingest/createEventStore';
import { applyRetention } from '../../server/storage/createRetention';
import type { Database } from '../../server/storage/Database';
import type { Summarizer } from '../../server/summaries/createSummarizer';
import { openAnalyticsTestDatabase } from './analyticsTestDatabase';
import { SERVER_TIMEOUT, wireEvent } from './testServer';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2026, 3, 6);
const KEY = 'timeline-copy-app';
const SAVE = { tag: 'BUTTON', id: 'save', cls: 'primary', title: null, attrs: { 'data-x': 'é"\\' }, myIndex: 0, childIndex: 1 };
const at = (t: number, fields: Record<string, unknown>) => wireEvent({ browser_time: T0 + t, visitor_id: 'v1', account_id: 'acme', url: 'http://app.test/home?q=1#top', ...fields });

/** One of each kind of event; the last four are not a timeline's. */
const EVENTS = [
  at(0, { type: 'load', props: {} }),
  at(1, { type: 'click', props: { target: SAVE } }),
  at(2, { type: 'click', props: { target: 'not an element' } }),
  at(3, { type: 'click', url: undefined, props: { target: SAVE } }),
  at(4, { type: 'track', track_event_name: `report ${'x'.repeat(250)}`, props: {} }),
  at(5, { type: 'load', sessionId: '', url: 'http://app.test/other', props: {} }),
  at(6, { type: 'load', visitor_id: 'v2', sessionId: 's2', props: {} }),
  at(7, { type: 'focus', props: {} }),
  at(8, { type: 'load', visitor_id: '', props: {} }),
];

let db: Database;
let store: EventStore;
let summarizer: Summarizer;
let batch = 0;
const ingest = (events: Array<Record<string, unknown>>, receivedAt: number, apiKey = KEY) =>
  store.insertBatch(apiKey, 'analytics', events.map((e) => ({ ...e, tabId: `copy-tab-${++batch}` })) as never, receivedAt);

/** The copy's rows of `apiKey` with their texts, and the events' own reading, each in (visitor, time, id) order. */
async function bothReadings(apiKey = KEY): Promise<[TimelineRow[], TimelineRow[]]> {
  const copied = await db.query<CopyRow & { visitor: string }>(`select visitor_id as visitor, ${COPY_COLUMNS} from analytics_timeline where api_key = $1 order by visitor_id, time, id`, [apiKey]);
  const events = await db.query<TimelineRow>(
    `select ${TIMELINE_COLUMNS} from events where api_key = $1 and kind = 'analytics' and ${TIMELINE_TYPES} and visitor_id <> '' order by visitor_id, time, id`, [apiKey]);
  const plain = (row: TimelineRow) => ({ ...row, time: Number(row.time), id: Number(row.id) });
  const texts = createKeyTexts(db, apiKey);
  await texts.learn(copied.rows);
  const read = copied.rows.map((row) => ({ visitor: row.visitor, time: row.time, id: row.id, session: row.session, ...texts.source(row) }));
  return [read.map(plain), events.rows.map(plain)];
}

beforeAll(async () => {
  ({ db, store, summarizer } = await openAnalyticsTestDatabase(T0 - 60 * D, T0 + 60 * D));
  await ingest(EVENTS, T0 + H);
  await summarizer.flush();
}, SERVER_TIMEOUT);
afterAll(async () => {
  await summarizer?.stop();
  await db?.close();
});

describe('issue #35 the timelines\' copy', () => {
  it('read back with its texts, it is the events as paths read them; no other event is copied', async () => {
    const [copy, events] = await bothReadings();
    expect(events).toHaveLength(7);
    expect(copy).toEqual(events);
    // What the cases are for: a click without an element, one without an address, a track name past 200, no session.
    expect(copy.map((r) => [r.type, r.target !== null, r.url !== null, r.session !== null])).toEqual([
      ['load', false, true, true], ['click', true, true, true], ['click', false, true, true], ['click', true, false, true],
      ['track', false, true, true], ['load', false, true, false], ['load', false, true, true],
    ]);
    expect(copy[4]!.track).toHaveLength(200);
  });

  it('migration 25\'s fill gives the drain\'s rows; an event queued when it ran, drained after it, is copied once', async () => {
    const snapshot = async () => (await db.query('select * from analytics_timeline where api_key = $1 order by visitor_id, time, id', [KEY])).rows;
    const drained = await snapshot();
    await db.query('delete from analytics_timeline where api_key = $1', [KEY]);
    const late = at(9, { type: 'load', url: 'http://app.test/late', props: {} });
    await ingest([late], T0 + 2 * H);
    // The fill runs while the late event waits in the queue; the drain after it copies it again: once.
    await db.query(FILL_TIMELINE_COPY);
    await summarizer.flush();
    const filled = await snapshot();
    expect(filled).toHaveLength(drained.length + 1);
    expect(filled.filter((row) => Number(row.time) !== T0 + 9)).toEqual(drained);
    const [copy, events] = await bothReadings();
    expect(copy).toEqual(events);
  });

  it('retention deletes a row with its event', async () => {
    const OLD = 'timeline-copy-retention';
    await ingest([at(-40 * D, { type: 'load', props: {} })], T0 - 40 * D + H, OLD);
    await ingest([at(0, { type: 'load', props: {} })], T0 + H, OLD);
    await summarizer.flush();
    const times = async () => (await db.query<{ time: unknown }>('select time from analytics_timeline where api_key = $1 order by time', [OLD])).rows.map((r) => Number(r.time));
    expect(await times()).toEqual([T0 - 40 * D, T0]);
    await applyRetention(db, 30, T0 + D);
    expect(await times()).toEqual([T0]);
    const [copy, events] = await bothReadings(OLD);
    expect(copy).toEqual(events);
  });
});
