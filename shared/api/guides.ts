/**
 * The answers of the admin API's guide routes (docs/console-api.md "Guides"): the list, one guide, its stats.
 * Types only. Times are epoch ms.
 */
import type { Guide } from '../guides/guides';
import type { ConsoleRange } from './range';

/**
 * A guide's state: `draft` (never served), `staged` (kept for the preview, never served by guide.json), `public`
 * (served by guide.json at once), `disabled` (kept, never served).
 */
export type GuideState = 'draft' | 'staged' | 'public' | 'disabled';

/** Visitors per figure of a guide on the list: who saw it, who completed it (guides §4 Guide completion), who dismissed it. */
export interface GuideListStats {
  seen: number;
  completed: number;
  dismissed: number;
}

/** One guide of `GET /api/apps/{apiKey}/guides?from&to&accountId`. */
export interface GuideRow {
  id: string;
  /** The guide's name, its id when it has none. */
  name: string;
  state: GuideState;
  launchMethod: string;
  stepCount: number;
  /** A resource center's top-level guide, one of its modules, or a guide. */
  kind: 'guide' | 'resourceCenter' | 'module';
  /** guides §4 Timebox, when the guide has one. */
  showsAfter?: number;
  expiresAfter?: number;
  updatedAt: number;
  /** Of all time, or of the range asked; of every visitor, or of `accountId`'s. */
  stats: GuideListStats;
}

/**
 * One guide as `GET|PUT /api/apps/{apiKey}/guides/{guideId}`, `POST .../state` and `POST .../duplicate` answer it:
 * the guide in the wire format of guide.json's `guides[]` (no `state` field: the state is `state`).
 */
export interface GuideDetail {
  guide: Guide;
  state: GuideState;
  /** The last save or state change. */
  updatedAt: number;
}

/** Net Promoter Score of an NPS poll: 9-10 promoters, 7-8 passives, 0-6 detractors; score = % promoters - % detractors, rounded. */
export interface Nps {
  score: number;
  promoters: number;
  passives: number;
  detractors: number;
  total: number;
  /** Responses per score: index 0 holds the count of 0s, index 10 of 10s. */
  distribution: number[];
}

/** One poll of a guide's stats: its answers by value, the NPS of an NPS poll, the mean (one decimal) of a NumberScale. */
export interface PollResult {
  pollId: string;
  /** The poll's `poll_type` as the agent sent it. */
  type: string;
  responses: Array<{ value: string | number; count: number }>;
  nps?: Nps;
  average?: number;
}

/** `GET /api/apps/{apiKey}/guides/{guideId}/stats?from&to&bucket`: a guide's funnel, timeline, polls and health over a range. */
export interface GuideStats {
  range: ConsoleRange;
  /** `seen` (the first step), `step N advanced` per step, `completed`: visitors each. */
  funnel: Array<{ label: string; stepId?: string; visitors: number }>;
  /** Visitors who dismissed a step of the guide, and who snoozed one. */
  dismissed: number;
  snoozed: number;
  /** Events per bucket. */
  timeline: Array<{ t: number; seen: number; advanced: number; dismissed: number; snoozed: number }>;
  polls: PollResult[];
  /** The error log's messages that mention the guide id; guideTimeout and guideNotSeen events. */
  health: { errors: Array<{ message: string; count: number; lastSeen: number }>; timeouts: number; notSeen: number };
}
