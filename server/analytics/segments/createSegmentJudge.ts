/**
 * Who is in a segment, for guide.json (issue #35 "a guide's audience can be a segment; the collector judges it when
 * it answers guide.json, adding at most 5 ms to that answer at p95"). The costly part, matching selectors and URL
 * rules over the app's distinct elements and addresses (behaviourCounts.resolveRules), is done once per segment and
 * kept per app; answering for one visitor is then one indexed statement over that visitor's events for every
 * behaviour condition of every segment asked (behaviourCounts.visitorCounts), and the metadata conditions are
 * judged over the guide.json payload in Node.
 *
 * What is kept is dropped when this process changes a feature, a page or a segment of the app (`forget`), and after
 * `ttlMs` in any case: another collector's change, and an element first clicked since, count within that time.
 */
import type { Database } from '../../storage/Database';
import type { Segment, SegmentDefinition } from '../../../shared/api/segments';
import { matchesConditions, type SegmentSubject } from '../../../shared/segments/segmentConditions';
import type { StepSources } from '../funnelSteps';
import { holdsAll, resolveRules, visitorCounts, type ResolvedRule } from './behaviourCounts';
import type { SegmentStore } from './createSegmentStore';
import { behaviourRule } from './segmentBody';

/** What the judge reads. */
export interface SegmentJudgeOptions {
  db: Database;
  segments: Pick<SegmentStore, 'get'>;
  /** Features, pages and guides' steps, as a funnel resolves them. */
  sources: StepSources;
  /** @default Date.now */
  now?: () => number;
  /** How long a resolved segment is kept, ms. @default 30_000 */
  ttlMs?: number;
}

/** A segment ready to judge: its metadata conditions and its resolved behaviour conditions. */
export interface JudgedSegment {
  segment: Segment;
  rules: ResolvedRule[];
}

/** Judges visitors against an app's segments. */
export interface SegmentJudge {
  /** The segment with its behaviour conditions resolved (kept per app); undefined when the app has no such segment. */
  prepared(apiKey: string, id: string): Promise<JudgedSegment | undefined>;
  /** Which of the segments `ids` the visitor of a guide.json payload is in (an unknown id: none). */
  segmentsOf(apiKey: string, ids: readonly string[], subject: SegmentSubject): Promise<Set<string>>;
  /** Drops what is kept of the app (a feature, page or segment of it changed). */
  forget(apiKey: string): void;
}

/** Apps whose segments are kept at once; the oldest is dropped past it. */
const MAX_KEPT_APPS = 1000;

/** The behaviour rules of a stored definition (checked when it was saved). */
export const rulesOf = (definition: SegmentDefinition) => (definition.behaviour ?? []).map(behaviourRule);

/** The subject of `when` conditions: the ids and metadata of a guide.json payload. */
export function judgedWhen(segment: Segment, subject: SegmentSubject): boolean {
  return !segment.definition.when || matchesConditions(segment.definition.when, subject);
}

/** Creates a judge with its own cache. */
export function createSegmentJudge({ db, segments, sources, now = Date.now, ttlMs = 30_000 }: SegmentJudgeOptions): SegmentJudge {
  const kept = new Map<string, { expires: number; byId: Map<string, Promise<JudgedSegment | undefined>> }>();

  const appCache = (apiKey: string) => {
    let app = kept.get(apiKey);
    if (!app || app.expires <= now()) {
      kept.delete(apiKey);
      if (kept.size >= MAX_KEPT_APPS) kept.delete(kept.keys().next().value!);
      app = { expires: now() + ttlMs, byId: new Map() };
      kept.set(apiKey, app);
    }
    return app;
  };

  const prepared = (apiKey: string, id: string) => {
    const app = appCache(apiKey);
    let entry = app.byId.get(id);
    if (!entry) {
      entry = (async () => {
        const segment = await segments.get(apiKey, id);
        return segment && { segment, rules: await resolveRules(db, apiKey, rulesOf(segment.definition), sources) };
      })();
      // A failed read is not kept: the next request tries again.
      entry.catch(() => app.byId.delete(id));
      app.byId.set(id, entry);
    }
    return entry;
  };

  return {
    prepared,
    async segmentsOf(apiKey, ids, subject) {
      const judged = (await Promise.all(ids.map((id) => prepared(apiKey, id)))).filter((s): s is JudgedSegment => s !== undefined);
      // Metadata first: a segment the payload already fails needs no count.
      const candidates = judged.filter(({ segment }) => judgedWhen(segment, subject));
      const rules = candidates.flatMap((c) => c.rules);
      const visitorId = typeof subject.visitorId === 'string' ? subject.visitorId : '';
      // One statement for every condition of every segment; a visitor without an id has no events.
      const counts = rules.length && visitorId ? await visitorCounts(db, apiKey, visitorId, rules, now()) : rules.map(() => 0);
      const inside = new Set<string>();
      let at = 0;
      for (const { segment, rules: own } of candidates) {
        if (holdsAll(own, counts.slice(at, at + own.length))) inside.add(segment.id);
        at += own.length;
      }
      return inside;
    },
    forget(apiKey) {
      kept.delete(apiKey);
    },
  };
}
