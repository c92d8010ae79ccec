/**
 * Seeds a database with realistic console traffic for bench/consoleQueries.ts (issue #14): by default
 * 1,000,000 events of one app over 90 days, from ~2,000 visitors in 200 accounts, in sessions of pages,
 * clicks on elements (some rage, dead or error clicks), u-turns, track events, and guide events of 5 guides
 * (seen, advanced, dismissed, snoozed, an NPS poll answered 0-10). Deterministic (seeded PRNG), stored
 * through the real EventStore.insertBatch, so the summaries are built the way ingest builds them (queued there,
 * then added by a summarizer: the caller flushes one).
 */
import type { ReceivedEvent } from '../server/ingest/checkEventBatch';
import type { EventStore } from '../server/ingest/createEventStore';

/** What to seed. */
export interface SeedOptions {
  /** Events to store (about; the last session may end past it). @default 1_000_000 */
  events?: number;
  apiKey?: string;
  /** The end of the 90 days, epoch ms. */
  end: number;
  /** Events per insertBatch call. @default 2000 */
  batchSize?: number;
  /** Called after each batch with the events stored so far. */
  progress?(stored: number): void;
}

/** The guides the seed's guide events belong to: ids and step ids. */
export const SEED_GUIDES = [1, 2, 3, 4, 5].map((n) => ({ id: `guide-${n}`, steps: [`g${n}-s1`, `g${n}-s2`, `g${n}-s3`] }));

const VISITORS = 2000;
const ACCOUNTS = 200;
const DAYS = 90;
const PAGES = ['/', '/dashboard', '/reports', '/reports/new', '/settings', '/settings/team', '/billing', '/projects',
  '/projects/1', '/projects/2', '/inbox', '/search', '/help', '/profile', '/integrations', '/export', '/import',
  '/calendar', '/tasks', '/analytics'].map((p) => `https://app.example.com${p}`);
const CHANNELS = ['Direct', 'Direct', 'Direct', 'Organic Search', 'Organic Search', 'Email', 'Referral', 'Paid Search', 'Organic Social', 'Other'];

/** mulberry32: a small seeded PRNG, so every run seeds the same data (bench/pathsQuery.ts seeds with it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeds; returns the events stored. Bounded: stops at `events`. */
export async function seedConsoleEvents(store: EventStore, options: SeedOptions): Promise<number> {
  const total = options.events ?? 1_000_000;
  const apiKey = options.apiKey ?? 'bench-app';
  const batchSize = options.batchSize ?? 2000;
  const random = prng(14);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const start = options.end - DAYS * 86_400_000;
  // Sessions of ~40 events; start times spread over the 90 days, in order.
  const sessions = Math.ceil(total / 40);
  const starts = Array.from({ length: sessions }, () => start + Math.floor(random() * (DAYS * 86_400_000 - 7_200_000))).sort((a, b) => a - b);
  // A few heavy visitors and a long tail: visitor index by a skewed draw.
  const visitorOf = () => Math.floor(VISITORS * random() ** 1.6);

  let stored = 0;
  let analytics: ReceivedEvent[] = [];
  let guide: ReceivedEvent[] = [];
  const flush = async (at: number) => {
    if (analytics.length) stored += await store.insertBatch(apiKey, 'analytics', analytics, at);
    if (guide.length) stored += await store.insertBatch(apiKey, 'guide', guide, at);
    analytics = [];
    guide = [];
    options.progress?.(stored);
  };

  for (let s = 0; s < sessions && stored + analytics.length + guide.length < total; s++) {
    const v = visitorOf();
    const visitorId = `visitor-${v}`;
    const accountId = `account-${v % ACCOUNTS}`;
    const sessionId = `session-${String(s).padStart(8, '0')}`;
    const channel = pick(CHANNELS);
    let time = starts[s];
    let sequence = 0;
    let url = pick(PAGES);
    const base = () => ({
      browser_time: time, visitor_id: visitorId, account_id: accountId, url, sequence: ++sequence, sessionId,
      tabId: `tab-${s}`, frameId: 'frame', parentTabId: '', utm: { channel },
    });
    // Guide events travel on the guide beacon (kind 'guide'), the rest on ptm.gif.
    const push = (event: ReceivedEvent) => (event.type.startsWith('guide') || event.type === 'pollResponse' ? guide : analytics).push(event);
    if (random() < 0.2) {
      push({ type: 'identify', ...base(), props: { visitor_id: visitorId, account_id: accountId } });
      push({ type: 'meta', ...base(), props: { visitor: { email: `${visitorId}@example.com`, role: pick(['admin', 'user', 'viewer']) }, account: { plan: pick(['free', 'team', 'enterprise']) } } });
    }
    const length = 10 + Math.floor(random() * 60);
    for (let i = 0; i < length; i++) {
      time += 1000 + Math.floor(random() * 60_000);
      const r = random();
      if (i === 0 || r < 0.12) {
        url = i === 0 ? url : pick(PAGES);
        push({ type: 'load', ...base(), props: random() < 0.03 ? { load_time: 800, frustrationTypes: ['uTurn'] } : { load_time: 800 } });
      } else if (r < 0.6) {
        const page = PAGES.indexOf(url);
        const el = Math.floor(random() * 4);
        const frustrationTypes = [
          ...(random() < 0.02 ? ['rageClick'] : []), ...(random() < 0.05 ? ['deadClick'] : []), ...(random() < 0.01 ? ['errorClick'] : []),
        ];
        push({
          type: 'click', ...base(),
          props: {
            target: { tag: el === 3 ? 'A' : 'BUTTON', id: el === 0 ? '' : `p${page}-el${el}`, cls: 'btn', title: null, attrs: {}, myIndex: 0, childIndex: el, txt: `Action ${el} on ${page}`,
              parentElem: { tag: 'DIV', id: '', cls: 'toolbar', title: null, attrs: {}, myIndex: 0, childIndex: 0 } },
            flags: ['left'],
            ...(frustrationTypes.length ? { frustrationTypes } : {}),
          },
        });
      } else if (r < 0.8) {
        push({ type: 'focus', ...base(), props: { target: { tag: 'INPUT', id: 'search', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0 } } });
      } else if (r < 0.88) {
        push({ type: 'track', ...base(), props: { plan: 'team' }, track_event_name: pick(['report_created', 'export_done', 'invite_sent']) });
      } else if (r < 0.93) {
        push({ type: 'hidden', ...base(), props: {} });
      } else {
        // A guide's progress in this session.
        const g = pick(SEED_GUIDES);
        const props = (step: string, extra: Record<string, unknown> = {}) => ({ guide_id: g.id, guide_step_id: step, ...extra });
        for (const step of g.steps) {
          time += 2000;
          push({ type: 'guideSeen', ...base(), props: props(step, { reason: 'auto', duration: 10 }) });
          const next = random();
          time += 3000;
          if (g.id === 'guide-5' && step === g.steps[1]) {
            push({ type: 'pollResponse', ...base(), props: props(step, { poll_id: 'nps', poll_type: 'NPSRating', poll_response: Math.min(10, Math.floor(random() * 12)), duration: 3000 }) });
          }
          if (next < 0.65) push({ type: 'guideAdvanced', ...base(), props: props(step, { seen_reason: 'auto', duration: 3000 }) });
          else {
            if (next < 0.9) push({ type: 'guideDismissed', ...base(), props: props(step, { seen_reason: 'auto', duration: 3000 }) });
            else push({ type: 'guideSnoozed', ...base(), props: props(step, { snooze_duration: 3_600_000 }) });
            break;
          }
        }
        i += 3;
      }
    }
    if (analytics.length + guide.length >= batchSize) await flush(time);
  }
  await flush(options.end);
  return stored;
}
