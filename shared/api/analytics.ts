/**
 * The answers of the admin API's apps and analytics routes (docs/console-api.md "Apps and analytics"): what the
 * server sends (server/queries/) and the console reads. Types only. Times are epoch ms.
 */
import type { AppHealthGlance } from './health';
import type { ConsoleRange } from './range';

/** One app of `GET /api/apps`: every api key with events or guides, and every app made before its first event. */
export interface AppRow {
  apiKey: string;
  events: number;
  visitors: number;
  /** The first and latest event; null for an app without events (guides or settings only). */
  firstSeen: number | null;
  lastSeen: number | null;
  guides: number;
  /** The agents' health reports received in the last 24 hours (the Health page's figures, at a glance). */
  health24h: AppHealthGlance;
}

/** `GET /api/apps/{apiKey}/overview?from&to&bucket`: one app over a range, read from the summaries. */
export interface Overview {
  range: ConsoleRange;
  /** `visitors` and `accounts` count those with an event in the range; `sessions` those that started in it. */
  totals: { events: number; visitors: number; accounts: number; sessions: number };
  series: Array<{ t: number; events: number; visitors: number }>;
  /** The 10 pages (addresses without query and fragment) with the most events. */
  topPages: Array<{ url: string; events: number; visitors: number }>;
  /** The 10 most clicked elements; `label` is the text, else `tag#id`, else the tag. */
  topFeatures: Array<{ label: string; tag: string; id: string; text: string; clicks: number }>;
  frustration: { rageClicks: number; deadClicks: number; errorClicks: number; uTurns: number };
  /** Sessions per channel (`utm.channel` of their first event, `Other` when none). */
  channels: Array<{ channel: string; sessions: number }>;
  /** `meanEvents` has 2 decimals. */
  sessions: { count: number; medianDurationMs: number; meanEvents: number };
}

/** One event as the console lists it: an entry of `GET /api/apps/{apiKey}/events`, of a visitor's timeline, a CSV row. */
export interface ConsoleEvent {
  id: number;
  receivedAt: number;
  /** The agent's clock (`browser_time`), the received time when it sent none. */
  time: number;
  kind: string;
  type: string;
  visitorId: string | null;
  accountId: string | null;
  url: string | null;
  element: { tag: string; id: string; text: string } | null;
  /** `track_event_name` of a track event, the guide id of a guide event. */
  name: string | null;
}

/**
 * `GET /api/apps/{apiKey}/events?after&type&visitorId&limit`: newest first, or with `after` the events stored after
 * that id, oldest first; `lastId` is the highest id answered, else `after`, else 0 (poll with `after=lastId`).
 */
export interface EventList {
  events: ConsoleEvent[];
  lastId: number;
}

/** `GET /api/apps/{apiKey}/events/{id}`: the stored event, `body` exactly as the agent sent it. */
export interface StoredEvent {
  id: number;
  receivedAt: number;
  kind: string;
  type: string;
  visitorId: string | null;
  accountId: string | null;
  source: string | null;
  body: unknown;
}

/** One visitor of `GET /api/apps/{apiKey}/visitors?q&limit`. */
export interface VisitorRow {
  visitorId: string;
  /** The account of the visitor's latest event that named one. */
  accountId: string | null;
  firstSeen: number;
  lastSeen: number;
  events: number;
  /** The latest visitor metadata the agent sent (a `meta` event's `props.visitor`), null when none. */
  metadata: Record<string, unknown> | null;
}

/** One session of a visitor's timeline. */
export interface VisitorSession {
  sessionId: string;
  start: number;
  end: number;
  events: number;
  pages: number;
}

/** `GET /api/apps/{apiKey}/visitors/{visitorId}`: the visitor, their latest 100 sessions and 200 events. */
export interface VisitorDetail {
  visitorId: string;
  accountId: string | null;
  metadata: Record<string, unknown> | null;
  firstSeen: number;
  lastSeen: number;
  sessions: VisitorSession[];
  events: ConsoleEvent[];
}

/** Where a visitor stands with a guide (guides §4 Guide completion for `completed`). */
export type VisitorGuideStatus = 'completed' | 'dismissed' | 'snoozed' | 'in progress' | 'control group' | 'timed out';

/** One guide of `GET /api/apps/{apiKey}/visitors/{visitorId}/guides`, the guides the visitor met, the latest first. */
export interface VisitorGuideRow {
  guideId: string;
  /** The guide's name; its id when the app no longer has it (`deleted`). */
  name: string;
  status: VisitorGuideStatus;
  /** 1-based position of the step of the latest event, and the guide's step count (0 when deleted). */
  step: number;
  steps: number;
  /** The latest guide event's time. */
  at: number;
  snoozedUntil?: number;
  deleted?: true;
}

/** One account of `GET /api/apps/{apiKey}/accounts?q&limit`. */
export interface AccountRow {
  accountId: string;
  /** Visitors whose latest account is this one. */
  visitors: number;
  events: number;
  lastSeen: number;
  /** The latest account metadata the agent sent (a `meta` event's `props.account`), null when none. */
  metadata: Record<string, unknown> | null;
}

/** `GET /api/apps/{apiKey}/accounts/{accountId}`: the account and its visitors (up to 500, latest seen first). */
export interface AccountDetail {
  accountId: string;
  metadata: Record<string, unknown> | null;
  visitors: Array<{ visitorId: string; events: number; lastSeen: number }>;
}
