/**
 * The path of one event of the start, found from the events around it alone (issue #35 "Fast at real volumes"),
 * so that paths read a few events per occurrence instead of its visitor's whole timeline (occurrencePaths.ts).
 * Pure: the caller reads the events, nearest first, in chunks as the walk asks (STYLE §3).
 *
 * It answers what foldPaths' pathsOf answers over the whole timeline, because every rule pathsOf applies is local:
 * - a session breaks between two consecutive events (sameSession), so the session's edge is the first break met;
 * - an event begins an occurrence when it begins its run of repeats: the nearest step before it in its session is
 *   another step, or there is none (a break, or the timeline's start, come first);
 * - the path is the runs after it (`next`: past the start's own run) or before it (`previous`), nearest first, up to
 *   `depth`, with END when the session (or the timeline) ends first.
 * Events that are no step (a click no feature matches) still count for the sessions, so the walk reads every event.
 *
 * Back says whether it is an occurrence (for `previous`, the path too); forward, for `next`, the path; the two are
 * read independently (at once), forward's counting only for an occurrence.
 */
import { END, sameSession, type PathWalk, type Step, type TimelineEvent } from './foldPaths';

/** A timeline event with its id: events are in (time, id) order. */
export interface WalkEvent extends TimelineEvent {
  id: number;
}

/** Where a walk reads next: the events before (`back`) or after (`forward`) this one, nearest first. */
export interface WalkCursor {
  way: 'back' | 'forward';
  time: number;
  id: number;
}

/** One start event's walk. */
export interface OccurrenceWalk {
  /** What to read next, each way at most once; empty once the walk is done. */
  cursors(): WalkCursor[];
  /** Takes the events read from the `way` cursor, nearest first; `last` when the timeline has no more that way. */
  take(way: WalkCursor['way'], events: readonly WalkEvent[], last: boolean): void;
  /** The path's steps from level 1 once done; null when the event begins no occurrence; undefined before. */
  path(): Step[] | null | undefined;
}

/** One way of a walk: the steps it found (runs, nearest first), the farthest event read, and whether it is done. */
interface Side {
  steps: Step[];
  edge: WalkEvent;
  /** Done: 'depth' with `depth` steps, 'end' when the session (or the timeline) ended first. */
  done?: 'depth' | 'end';
}

/**
 * Starts the walk of `start`, an event whose step is the walk's start. The two ways are independent, so both can be
 * read at once: back decides whether it is an occurrence (and, for `previous`, its path); forward (`next` only) the
 * path, which counts only once back says it is an occurrence.
 */
export function createOccurrenceWalk(start: WalkEvent, walk: Pick<PathWalk, 'startKey' | 'direction' | 'depth'>): OccurrenceWalk {
  const { startKey, direction, depth } = walk;
  // `next` needs back only up to the first step before the start: one run.
  const back: Side = { steps: [], edge: start };
  const forward: Side | undefined = direction === 'next' ? { steps: [], edge: start } : undefined;
  const backDepth = direction === 'next' ? 1 : depth;
  // The start repeats the step before it: a run it does not begin.
  let repeat = false;

  /** Takes one event past the side's edge (`earlier` first: the session is checked in time order). */
  const takeOne = (side: Side, event: WalkEvent, way: WalkCursor['way'], wanted: number): boolean => {
    if (!(way === 'back' ? sameSession(event, side.edge) : sameSession(side.edge, event))) {
      side.done = 'end';
      return false;
    }
    side.edge = event;
    if (!event.step) return true;
    const run = side.steps[side.steps.length - 1]?.key ?? startKey;
    if (event.step.key === run) {
      if (way === 'forward' || side.steps.length > 0) return true;
      repeat = true;
      side.done = 'end';
      return false;
    }
    side.steps.push(event.step);
    if (side.steps.length < wanted) return true;
    side.done = 'depth';
    return false;
  };
  const open = (side: Side | undefined): side is Side => side !== undefined && side.done === undefined && !repeat;
  const ended = (side: Side) => (side.done === 'end' && side.steps.length < depth ? [...side.steps, END] : side.steps);

  return {
    cursors() {
      const cursors: WalkCursor[] = [];
      if (open(back)) cursors.push({ way: 'back', time: back.edge.time, id: back.edge.id });
      if (open(forward)) cursors.push({ way: 'forward', time: forward.edge.time, id: forward.edge.id });
      return cursors;
    },
    take(way, events, last) {
      const side = way === 'back' ? back : forward;
      if (!open(side)) return;
      const wanted = way === 'back' ? backDepth : depth;
      for (const event of events) if (!takeOne(side, event, way, wanted)) return;
      // Every event of this chunk taken and none left that way: the timeline's edge ends the session.
      if (last) side.done = 'end';
    },
    path() {
      if (repeat) return null;
      if (back.done === undefined) return undefined;
      if (!forward) return ended(back);
      return forward.done === undefined ? undefined : ended(forward);
    },
  };
}
