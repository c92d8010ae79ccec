/**
 * issue #35 "Funnels" and "Fast at real volumes": funnelQuery walks each unit's steps in SQL; funnelWalk's
 * walkFunnel is the same reading in memory. On random timelines (a seeded generator: many same-millisecond ties,
 * repeated steps, events before, in and after the range, visitors with and without an account), the answers of the
 * route's query equal those computed from walkFunnel over the stored events read back with their ids: per step the
 * units, the median gap and the dropped ids, by visitor and by account, for several windows and step lists.
 * PGlite here, PostgreSQL with vitest.postgres.config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleStore } from '../../server/analytics/createRuleStore';
import { readFunnelBody } from '../../server/analytics/funnelBody';
import { queryFunnel } from '../../server/analytics/funnelQuery';
import { countFunnel, droppedIds, walkFunnel, type Occurrence, type Reached } from '../../server/analytics/funnelWalk';
import type { EventStore } from '../../server/ingest/createEventStore';
import type { Database } from '../../server/storage/Database';
import type { Summarizer } from '../../server/summaries/createSummarizer';
import { openAnalyticsTestDatabase } from './analyticsTestDatabase';
import { SERVER_TIMEOUT, wireEvent } from './testServer';
import { seededRandom } from '../seededRandom';

const D = 86_400_000;
const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 2);
const KEY = 'funnel-reference-app';
/** The range of step-1 entries: 4 days; events span a day before it to 3 days after. */
const RANGE = { from: T0, to: T0 + 4 * D };

const SAVE = { tag: 'BUTTON', id: '', cls: 'save', title: null, attrs: {}, myIndex: 0, childIndex: 0 };
const EXPORT = { ...SAVE, cls: 'export' };

/** What the steps below read: a load's path, a click's class, a track's name. */
type Kind = { type: 'load'; path: string } | { type: 'click'; cls: 'save' | 'export' } | { type: 'track'; name: string };
const KINDS: Kind[] = [
  { type: 'load', path: '/home' }, { type: 'load', path: '/other' }, { type: 'click', cls: 'save' },
  { type: 'click', cls: 'export' }, { type: 'track', name: 'done' }, { type: 'track', name: 'other' },
];

/**
 * 40 visitors in 5 accounts (every fifth without one), 5 to 40 events each, on a grid of whole hours, each visitor's
 * within 10 hours from a random hour of the 8 days: many ties, many steps within a window.
 */
function timelines(seed: number): Array<Record<string, unknown>> {
  const next = seededRandom(seed);
  const events: Array<Record<string, unknown>> = [];
  for (let v = 0; v < 40; v++) {
    const visitor = `r${v}`;
    const account = v % 5 === 4 ? '' : `acct-${v % 4}`;
    const n = 5 + Math.floor(next() * 36);
    const start = Math.floor(next() * 7 * 24);
    for (let i = 0; i < n; i++) {
      const time = T0 - D + (start + Math.floor(next() * 10)) * H;
      const kind = KINDS[Math.floor(next() * KINDS.length)]!;
      const common = { browser_time: time, visitor_id: visitor, account_id: account };
      events.push(kind.type === 'load'
        ? wireEvent({ ...common, type: 'load', url: `http://app.test${kind.path}`, props: {} })
        : kind.type === 'click'
          ? wireEvent({ ...common, type: 'click', url: 'http://app.test/reports/1', props: { target: kind.cls === 'save' ? SAVE : EXPORT } })
          : wireEvent({ ...common, type: 'track', url: 'http://app.test/', track_event_name: kind.name, props: {} }));
    }
  }
  // Shuffled, so that the ids of one visitor's events of the same millisecond are in no particular order.
  for (let i = events.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [events[i], events[j]] = [events[j]!, events[i]!];
  }
  return events;
}

interface StoredEvent { id: number; time: number; visitor: string; account: string; kind: Kind }

let db: Database;
let store: EventStore;
let rules: RuleStore;
let summarizer: Summarizer;
let stored: StoredEvent[] = [];
let ids: { home: string; save: string };

beforeAll(async () => {
  ({ db, store, rules, summarizer } = await openAnalyticsTestDatabase(T0 - 30 * D, T0 + 30 * D));
  const events = timelines(35);
  // Several batches, as several beacons store them.
  for (let i = 0; i < events.length; i += 97) {
    await store.insertBatch(KEY, 'analytics', events.slice(i, i + 97).map((e) => ({ ...e, tabId: `ref-tab-${i}` })) as never, T0 + 3 * D);
  }
  await summarizer.flush();
  const home = await rules.createPage(KEY, 'Home', { url: '/home' }, T0);
  const save = await rules.createFeature(KEY, 'Save', { selector: 'button.save' }, T0);
  if (typeof home === 'string' || typeof save === 'string') throw new Error(String(home));
  ids = { home: home.id, save: save.id };
  const { rows } = await db.query<{ id: number | string; time: number | string; visitor_id: string; account_id: string; type: string; url: string; cls: string | null; name: string | null }>(
    `select id, time, visitor_id, account_id, type, url, body->'props'->'target'->>'cls' as cls, body->>'track_event_name' as name
     from events where api_key = $1`, [KEY]);
  stored = rows.map((row) => ({
    id: Number(row.id), time: Number(row.time), visitor: row.visitor_id, account: row.account_id,
    kind: row.type === 'load' ? { type: 'load', path: new URL(row.url).pathname }
      : row.type === 'click' ? { type: 'click', cls: row.cls as 'save' | 'export' } : { type: 'track', name: row.name! },
  }));
}, SERVER_TIMEOUT * 2);
afterAll(async () => {
  await summarizer?.stop();
  await db?.close();
});

/** A step of the questions below, and which stored events it counts. */
interface Step { body: () => object; counts: (kind: Kind) => boolean }
const HOME: Step = { body: () => ({ page: ids.home }), counts: (k) => k.type === 'load' && k.path === '/home' };
const SAVED: Step = { body: () => ({ feature: ids.save }), counts: (k) => k.type === 'click' && k.cls === 'save' };
const DONE: Step = { body: () => ({ track: 'done' }), counts: (k) => k.type === 'track' && k.name === 'done' };

/** The answer walkFunnel gives over the stored events: per step the units, the median gap and the dropped ids. */
function reference(steps: Step[], windowMs: number, by: 'visitor' | 'account') {
  const byUnit = new Map<string, Occurrence[][]>();
  const sorted = [...stored].sort((a, b) => a.time - b.time || a.id - b.id);
  for (const event of sorted) {
    const unit = by === 'visitor' ? event.visitor : event.account;
    if (unit === '') continue;
    let byStep = byUnit.get(unit);
    if (!byStep) byUnit.set(unit, (byStep = steps.map(() => [])));
    steps.forEach((step, k) => {
      const inSpan = event.time >= RANGE.from && event.time < (k === 0 ? RANGE.to : RANGE.to + windowMs);
      if (inSpan && step.counts(event.kind)) byStep![k]!.push({ time: event.time, id: event.id });
    });
  }
  const reached = new Map<string, Reached>();
  for (const [unit, byStep] of byUnit) {
    const walked = walkFunnel(byStep, windowMs);
    if (walked.length) reached.set(unit, walked);
  }
  const counts = countFunnel(reached.values(), steps.length);
  const dropped = droppedIds(reached, steps.length);
  return counts.map((c, k) => ({ units: c.count, median: c.medianMsFromPrevious, dropped: k === 0 ? undefined : dropped[k - 1] }));
}

describe('issue #35 a funnel walked in SQL answers as walkFunnel does', () => {
  const cases: Array<[string, Step[], number]> = [
    ['home -> save -> done, 1 day', [HOME, SAVED, DONE], D],
    ['home -> save -> done, 1 hour', [HOME, SAVED, DONE], H],
    ['home -> home -> save -> home, 2 days (a step again needs another event)', [HOME, HOME, SAVED, HOME], 2 * D],
    ['done -> save, 1 hour (the window\'s last millisecond: the grid\'s next hour)', [DONE, SAVED], H],
    ['save -> save -> save -> save -> save, 3 days', [SAVED, SAVED, SAVED, SAVED, SAVED], 3 * D],
  ];
  for (const by of ['visitor', 'account'] as const) {
    for (const [name, steps, windowMs] of cases) {
      it(`${name}, by ${by}`, async () => {
        const expected = reference(steps, windowMs, by);
        // Not a question without an answer: some unit enters and some reaches step 2.
        expect(expected[1]!.units).toBeGreaterThan(0);
        const answer = await queryFunnel(db, KEY, readFunnelBody({ steps: steps.map((s) => s.body()), ...RANGE, windowMs, by }), { rules, guideStepIds: async () => undefined });
        const unitsOf = (step: object) => (step as Record<string, number>)[by === 'visitor' ? 'visitors' : 'accounts'];
        expect(answer.steps.map((step, k) => ({ units: unitsOf(step), median: step.medianMsFromPrevious, dropped: k === 0 ? undefined : step.dropped })))
          .toEqual(expected);
      });
    }
  }

  it('the generator makes what the cases need: ties of time within a visitor, events outside the range', () => {
    const seen = new Set<string>();
    let ties = 0;
    for (const e of stored) {
      const key = `${e.visitor} ${e.time}`;
      if (seen.has(key)) ties += 1;
      seen.add(key);
    }
    expect(ties).toBeGreaterThan(20);
    expect(stored.some((e) => e.time < RANGE.from)).toBe(true);
    expect(stored.some((e) => e.time >= RANGE.to)).toBe(true);
  });
});

describe('issue #35 a track step read from its index: names the index holds cut', () => {
  it('a question names at most 200 characters: one of 200 counts only that name, not longer ones sharing them', async () => {
    const APP = 'funnel-long-names';
    const stem = 'n'.repeat(199);
    // Sent: 199 and 200 characters, and two of 250 whose first 200 are the 200's.
    const sent = [stem, `${stem}a`, `${stem}a${'b'.repeat(50)}`, `${stem}a${'c'.repeat(50)}`];
    const events = sent.flatMap((name, i) => [
      wireEvent({ type: 'track', browser_time: T0 + H, visitor_id: `long${i}`, account_id: '', url: 'http://app.test/', track_event_name: 'start', props: {} }),
      wireEvent({ type: 'track', browser_time: T0 + 2 * H, visitor_id: `long${i}`, account_id: '', url: 'http://app.test/', track_event_name: name, props: {} }),
    ]);
    await store.insertBatch(APP, 'analytics', events.map((e) => ({ ...e, tabId: 'long-names-tab' })) as never, T0 + 3 * D);
    const reached = async (name: string) => {
      const answer = await queryFunnel(db, APP, readFunnelBody({ steps: [{ track: 'start' }, { track: name }], ...RANGE }), { rules, guideStepIds: async () => undefined });
      return [(answer.steps[0] as { visitors: number }).visitors, (answer.steps[1] as { visitors: number }).visitors];
    };
    expect(await reached(stem)).toEqual([4, 1]);
    expect(await reached(`${stem}a`)).toEqual([4, 1]);
    expect(await reached(`${stem}b`)).toEqual([4, 0]);
  });
});
