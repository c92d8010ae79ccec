/**
 * Segments (issue #35 "Segments, and guides that target them", docs/console-api.md "Segments"): a saved filter of an
 * app's visitors, by metadata conditions and behaviour conditions, all of which must hold. `GET
 * /api/apps/{apiKey}/segments` lists them with their live counts, `GET .../{id}` adds the guides whose audience it is,
 * `GET .../{id}/members` pages through its visitors (server/analytics/segments).
 */
import type { SegmentCondition } from '../segments/segmentConditions';

/** What a behaviour condition counts: clicks of a feature, loads of a page, a track event (issue #35 funnels' steps). */
export type BehaviourTarget = { feature: string } | { page: string } | { track: string };

/**
 * One behaviour condition: the visitor did `target` at least `atLeast` times (default 1) within the last `days`
 * days (absent: all time); saw a guide (`guideSeen`: the guide's first step seen, as the guide's stats count it);
 * or never did `target` within the last `days` days.
 */
export type BehaviourCondition =
  | (BehaviourTarget & { atLeast?: number; days?: number })
  | { guideSeen: string; days?: number }
  | { never: BehaviourTarget; days?: number };

/**
 * A segment's definition. `when`: conditions of shared/segments/segmentConditions.ts over the visitor's ids
 * (`visitorId`, `accountId`) and latest metadata (`visitor.X`, `account.X`); `behaviour`: conditions over its
 * stored events. All must hold; 1 to 20 conditions in all.
 */
export interface SegmentDefinition {
  when?: Record<string, SegmentCondition>;
  behaviour?: BehaviourCondition[];
}

/** A segment as stored. */
export interface Segment {
  id: string;
  name: string;
  definition: SegmentDefinition;
  createdAt: number;
  updatedAt: number;
}

/** A guide whose audience names a segment. */
export interface SegmentGuide {
  id: string;
  name: string;
}

/** A row of `GET .../segments`: the segment and its live count of visitors. */
export type SegmentRow = Segment & { count: number };

/** `GET .../segments/{id}`: the segment, its live count and the guides whose audience it is. */
export type SegmentDetail = SegmentRow & { guides: SegmentGuide[] };

/** One member of a segment. */
export interface SegmentMember {
  visitorId: string;
  accountId: string | null;
  /** Epoch ms of the visitor's latest event. */
  lastSeen: number;
}

/** `GET .../segments/{id}/members`: members in visitor id order after `cursor`; `next` is the cursor of the next page. */
export interface SegmentMembers {
  members: SegmentMember[];
  next: string | null;
}
