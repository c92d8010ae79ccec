/**
 * issue #35 "Fast at real volumes" (paths): the walk around one start event (createOccurrenceWalk) answers what
 * foldPaths' pathsOf answers over the whole timeline, whatever the chunks it is given. Checked against pathsOf on
 * seeded random timelines built to hit every rule: sessions by id and by the 30-minute gap (gaps around it, ids
 * missing on one side), runs of repeats, events that are no step, equal times, occurrences on the range's edges,
 * chunks of one event and more; plus a few timelines written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { createOccurrenceWalk, type WalkEvent } from '../../server/analytics/createOccurrenceWalk';
import { END, pathsOf, SESSION_GAP_MS, type PathWalk, type Step, type VisitorPath } from '../../server/analytics/foldPaths';
import { seededRandom } from '../seededRandom';

const STEPS: Record<string, Step> = Object.fromEntries(['A', 'B', 'C'].map((key) => [key, { key, label: key, kind: 'page' }]));

/** The paths of `timeline` (in (time, id) order) found by walking from each start event, chunks as `size` says. */
function walkedPaths(timeline: readonly WalkEvent[], walk: PathWalk, size: () => number): VisitorPath[] {
  const paths: VisitorPath[] = [];
  timeline.forEach((event, i) => {
    if (event.step?.key !== walk.startKey || event.time < walk.from || event.time >= walk.to) return;
    const occurrence = createOccurrenceWalk(event, walk);
    let reads = 0;
    for (let cursors = occurrence.cursors(); cursors.length; cursors = occurrence.cursors()) {
      expect(++reads).toBeLessThan(1000);
      // What each statement reads: the events past the cursor that way, nearest first, `limit` of them.
      for (const cursor of cursors) {
        const at = timeline.findIndex((e) => e.time === cursor.time && e.id === cursor.id);
        const limit = size();
        const chunk = cursor.way === 'forward' ? timeline.slice(at + 1, at + 1 + limit) : timeline.slice(Math.max(0, at - limit), at).reverse();
        occurrence.take(cursor.way, chunk, chunk.length < limit);
      }
    }
    const steps = occurrence.path();
    expect(steps, `event ${i}`).not.toBeUndefined();
    if (steps) paths.push({ visitor: 'v', steps });
  });
  return paths;
}

/** A random timeline of `n` events: steps A, B, C or none, session ids or none, gaps around 30 minutes, equal times. */
function randomTimeline(random: () => number, n: number): WalkEvent[] {
  const gaps = [0, 1, 60_000, SESSION_GAP_MS - 1, SESSION_GAP_MS, SESSION_GAP_MS + 1, 3 * SESSION_GAP_MS];
  const events: WalkEvent[] = [];
  let time = 0;
  let session = 0;
  for (let id = 1; id <= n; id++) {
    time += gaps[Math.floor(random() * gaps.length)]!;
    if (random() < 0.1) session += 1;
    const pick = random();
    events.push({
      time, id,
      sessionId: random() < 0.2 ? null : `s${session}`,
      step: pick < 0.4 ? STEPS.A! : pick < 0.55 ? STEPS.B! : pick < 0.7 ? STEPS.C! : null,
    });
  }
  return events;
}

describe('issue #35 paths: the walk around an occurrence answers what the whole timeline answers', () => {
  it('seeded random timelines, both directions, depths 1 to 5, chunks of 1 to 8 events', () => {
    const random = seededRandom(35);
    let occurrences = 0;
    for (let round = 0; round < 400; round++) {
      const timeline = randomTimeline(random, 5 + Math.floor(random() * 60));
      const last = timeline[timeline.length - 1]!.time;
      const from = Math.floor(random() * last * 0.5);
      const walk: PathWalk = {
        startKey: 'A', direction: random() < 0.5 ? 'next' : 'previous', depth: 1 + Math.floor(random() * 5),
        from, to: from + 1 + Math.floor(random() * last),
      };
      const expected = pathsOf('v', timeline, walk);
      const chunk = 1 + Math.floor(random() * 8);
      expect(walkedPaths(timeline, walk, () => chunk), JSON.stringify({ round, walk })).toEqual(expected);
      expect(walkedPaths(timeline, walk, () => 1 + Math.floor(random() * 4))).toEqual(expected);
      occurrences += expected.length;
    }
    // The rounds do test something: many occurrences, some paths ended by a session.
    expect(occurrences).toBeGreaterThan(1000);
  });

  it('by hand: a repeat across a step that is none, a break by id, a break by the gap without ids', () => {
    const [A, B, C] = [STEPS.A!, STEPS.B!, STEPS.C!];
    const walk: PathWalk = { startKey: 'A', direction: 'next', depth: 2, from: 0, to: 1_000_000_000 };
    const timeline: WalkEvent[] = [
      { time: 0, id: 1, sessionId: 's', step: A },
      { time: 1, id: 2, sessionId: 's', step: null },
      { time: 2, id: 3, sessionId: 's', step: A },
      { time: 3, id: 4, sessionId: 's', step: B },
      { time: 4, id: 5, sessionId: 't', step: C },
      { time: 5, id: 6, sessionId: null, step: A },
      { time: 5 + SESSION_GAP_MS, id: 7, sessionId: 't', step: C },
      { time: 6 + 2 * SESSION_GAP_MS, id: 8, sessionId: null, step: B },
    ];
    const one = () => 1;
    // A (its repeat past the click no feature matches is one step), B, then session t: END. The second: C, END.
    expect(walkedPaths(timeline, walk, one)).toEqual([{ visitor: 'v', steps: [B, END] }, { visitor: 'v', steps: [C, END] }]);
    expect(walkedPaths(timeline, { ...walk, direction: 'previous' }, one)).toEqual([{ visitor: 'v', steps: [END] }, { visitor: 'v', steps: [C, END] }]);
    expect(walkedPaths(timeline, walk, one)).toEqual(pathsOf('v', timeline, walk));
  });
});
