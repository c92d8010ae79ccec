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
 * The walk goes back first (is it an occurrence? for `previous`, the path too), then, for `next`, forward.
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
  /** What to read next; undefined once the walk is done. */
  cursor(): WalkCursor | undefined;
  /** Takes the events read from the cursor, nearest first; `last` when the timeline has no more that way. */
  take(events: readonly WalkEvent[], last: boolean): void;
  /** The path's steps from level 1 once done; null when the event begins no occurrence; undefined before. */
  path(): Step[] | null | undefined;
}

/** Starts the walk of `start`, an event whose step is the walk's start. */
export function createOccurrenceWalk(start: WalkEvent, walk: Pick<PathWalk, 'startKey' | 'direction' | 'depth'>): OccurrenceWalk {
  const { startKey, direction, depth } = walk;
  const steps: Step[] = [];
  let way: WalkCursor['way'] | undefined = 'back';
  // The farthest event read the current way: the next chunk starts past it.
  let edge: WalkEvent = start;
  let path: Step[] | null | undefined;

  const finish = (ended: boolean) => {
    path = ended && steps.length < depth ? [...steps, END] : steps;
    way = undefined;
  };
  /** The start begins a run: `next` walks forward from it, `previous` has its path. */
  const begins = (ended: boolean) => {
    if (direction === 'previous') return finish(ended);
    way = 'forward';
    edge = start;
  };

  /** Takes one event before the edge; false when the walk needs no more that way. */
  const takeBack = (event: WalkEvent): boolean => {
    if (!sameSession(event, edge)) {
      begins(true);
      return false;
    }
    edge = event;
    if (!event.step) return true;
    const run = steps[steps.length - 1]?.key ?? startKey;
    if (event.step.key === run) {
      if (steps.length > 0) return true;
      // The start repeats the step before it: a run it does not begin.
      path = null;
      way = undefined;
      return false;
    }
    if (direction === 'next') {
      begins(false);
      return false;
    }
    steps.push(event.step);
    if (steps.length < depth) return true;
    finish(false);
    return false;
  };

  /** Takes one event after the edge; false when the walk needs no more. */
  const takeForward = (event: WalkEvent): boolean => {
    if (!sameSession(edge, event)) {
      finish(true);
      return false;
    }
    edge = event;
    if (!event.step || event.step.key === (steps[steps.length - 1]?.key ?? startKey)) return true;
    steps.push(event.step);
    if (steps.length < depth) return true;
    finish(false);
    return false;
  };

  return {
    cursor: () => (way ? { way, time: edge.time, id: edge.id } : undefined),
    take(events, last) {
      const current = way;
      if (!current) return;
      const take = current === 'back' ? takeBack : takeForward;
      for (const event of events) if (!take(event)) return;
      // Every event of this chunk taken and none left that way: the timeline's edge ends the session.
      if (last) {
        if (current === 'back') begins(true);
        else finish(true);
      }
    },
    path: () => path,
  };
}
