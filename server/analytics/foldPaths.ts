/**
 * The pure part of paths (issue #35 "Funnels, paths, retention"): a visitor's timeline cut into sessions, repeats
 * collapsed, the paths from each occurrence of the start, and those paths folded per level into the answer's nodes
 * and links; plain inputs, no database (STYLE §3).
 *
 * - Sessions: two consecutive events of a visitor are in one session when both carry a session id and it is the
 *   same, or, when either carries none, when the later comes at most SESSION_GAP_MS after the earlier. Every event
 *   read counts for this (a click no feature matches too), though only steps make up paths.
 * - Within a session, consecutive events of the same step are one step, at the time of the first.
 * - Each occurrence of the start (a step whose time is in [from, to)) begins a path: the `depth` steps after it
 *   (`next`) or before it, nearest first (`previous`), in its session; a shorter path ends with END.
 * - Per level, the `top` steps with the most paths (ties in code-unit order of the key) keep their node; the others
 *   are OTHER. END is always its own node. A path goes on through OTHER: only its node at that level is folded.
 */
import type { PathDirection, PathLink, PathNode, PathNodeKind } from '../../shared/api/paths';

/** Over 30 minutes between two events without a session id ends a session (the usual web-analytics reading). */
export const SESSION_GAP_MS = 30 * 60_000;

/** What an event is, as a step of a path; `key` tells steps apart (`page:<id>`, `url:/reports/7`, `track:<name>`). */
export interface Step {
  key: string;
  label: string;
  kind: PathNodeKind;
  ref?: string;
}

/** One event of a visitor's timeline, in (time, id) order; `step` null for an event that is no step. */
export interface TimelineEvent {
  time: number;
  sessionId: string | null;
  step: Step | null;
}

/** The steps past a level's top, folded together. */
export const OTHER: Step = { key: 'other:', label: '(other)', kind: 'other' };
/** Where a path ends before its depth: its session has no more steps. */
export const END: Step = { key: 'end:', label: '(end)', kind: 'end' };

/** A path: the visitor and its steps from level 1 (the last may be END). */
export interface VisitorPath {
  visitor: string;
  steps: Step[];
}

/** The question's part the walk needs. */
export interface PathWalk {
  startKey: string;
  direction: PathDirection;
  depth: number;
  from: number;
  to: number;
}

/** Whether two consecutive events of a visitor (`earlier` just before `later`) are in one session. */
export function sameSession(earlier: TimelineEvent, later: TimelineEvent): boolean {
  return earlier.sessionId !== null && later.sessionId !== null
    ? earlier.sessionId === later.sessionId
    : later.time - earlier.time <= SESSION_GAP_MS;
}

/** A visitor's sessions, each a list of steps with the time of the first event of each run of repeats. */
export function sessionsOf(events: readonly TimelineEvent[]): Array<Array<{ step: Step; time: number }>> {
  const sessions: Array<Array<{ step: Step; time: number }>> = [];
  let current: Array<{ step: Step; time: number }> = [];
  let previous: TimelineEvent | undefined;
  for (const event of events) {
    if (previous) {
      if (!sameSession(previous, event)) {
        if (current.length) sessions.push(current);
        current = [];
      }
    }
    previous = event;
    if (event.step && current[current.length - 1]?.step.key !== event.step.key) current.push({ step: event.step, time: event.time });
  }
  if (current.length) sessions.push(current);
  return sessions;
}

/** The paths one visitor's timeline begins (one per occurrence of the start in [from, to)). */
export function pathsOf(visitor: string, events: readonly TimelineEvent[], walk: PathWalk): VisitorPath[] {
  const paths: VisitorPath[] = [];
  const way = walk.direction === 'next' ? 1 : -1;
  for (const session of sessionsOf(events)) {
    session.forEach(({ step, time }, i) => {
      if (step.key !== walk.startKey || time < walk.from || time >= walk.to) return;
      const steps: Step[] = [];
      for (let k = 1; k <= walk.depth; k++) {
        const next = session[i + way * k];
        if (!next) {
          steps.push(END);
          break;
        }
        steps.push(next.step);
      }
      paths.push({ visitor, steps });
    });
  }
  return paths;
}

/** A node or link being counted. */
interface Tally {
  count: number;
  visitors: Set<string>;
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Per level (1..depth), the keys kept as nodes of their own: the `top` with the most paths. */
function keptKeys(paths: readonly VisitorPath[], depth: number, top: number): Array<Set<string>> {
  const kept: Array<Set<string>> = [new Set()];
  for (let level = 1; level <= depth; level++) {
    const counts = new Map<string, number>();
    for (const { steps } of paths) {
      const step = steps[level - 1];
      if (step && step !== END) counts.set(step.key, (counts.get(step.key) ?? 0) + 1);
    }
    const ranked = [...counts].sort((a, b) => b[1] - a[1] || byKey(a[0], b[0])).slice(0, top);
    kept.push(new Set([...ranked.map(([key]) => key), END.key]));
  }
  return kept;
}

/** The folded tree: nodes (level 0 the start) and links between consecutive levels, in time order. */
export function foldPaths(paths: readonly VisitorPath[], start: Step, walk: Pick<PathWalk, 'direction' | 'depth'>, top: number): { nodes: PathNode[]; links: PathLink[] } {
  if (paths.length === 0) return { nodes: [], links: [] };
  const kept = keptKeys(paths, walk.depth, top);
  const nodes = new Map<string, { node: Omit<PathNode, 'count' | 'visitors'>; tally: Tally }>();
  // By source, then target: a question folds tens of thousands of paths, so no key text is made per path and step.
  const links = new Map<string, Map<string, { source: string; target: string; tally: Tally }>>();
  const count = (tally: Tally, visitor: string) => {
    tally.count += 1;
    tally.visitors.add(visitor);
  };
  // Each level's node id made once per step object (readStep answers the same object for the same event text).
  const ids: Array<Map<Step, string>> = [];
  const idOf = (level: number, step: Step) => {
    const known = (ids[level] ??= new Map());
    let id = known.get(step);
    if (id === undefined) known.set(step, (id = `${level}/${step.key}`));
    return id;
  };
  const nodeAt = (level: number, step: Step, visitor: string) => {
    const id = idOf(level, step);
    let entry = nodes.get(id);
    if (!entry) {
      entry = { node: { id, level, label: step.label, kind: step.kind, ...(step.ref === undefined ? {} : { ref: step.ref }) }, tally: { count: 0, visitors: new Set() } };
      nodes.set(id, entry);
    }
    count(entry.tally, visitor);
    return id;
  };
  for (const { visitor, steps } of paths) {
    let previous = nodeAt(0, start, visitor);
    steps.forEach((step, i) => {
      const level = i + 1;
      const id = nodeAt(level, kept[level]!.has(step.key) ? step : OTHER, visitor);
      // Time order: after the start the link runs outward, before it inward.
      const [source, target] = walk.direction === 'next' ? [previous, id] : [id, previous];
      let targets = links.get(source);
      if (!targets) links.set(source, (targets = new Map()));
      let link = targets.get(target);
      if (!link) targets.set(target, (link = { source, target, tally: { count: 0, visitors: new Set() } }));
      count(link.tally, visitor);
      previous = id;
    });
  }
  // Levels in order; within one, the most paths first, then OTHER, then END.
  const rank = (kind: PathNodeKind) => (kind === 'other' ? 1 : kind === 'end' ? 2 : 0);
  const nodeList = [...nodes.values()]
    .map(({ node, tally }) => ({ ...node, count: tally.count, visitors: tally.visitors.size }))
    .sort((a, b) => a.level - b.level || rank(a.kind) - rank(b.kind) || b.count - a.count || byKey(a.id, b.id));
  const levelOf = new Map(nodeList.map((node) => [node.id, node.level]));
  const linkList = [...links.values()].flatMap((targets) => [...targets.values()])
    .map(({ source, target, tally }) => ({ source, target, count: tally.count, visitors: tally.visitors.size }))
    .sort((a, b) => Math.min(levelOf.get(a.source)!, levelOf.get(a.target)!) - Math.min(levelOf.get(b.source)!, levelOf.get(b.target)!)
      || b.count - a.count || byKey(a.source, b.source) || byKey(a.target, b.target));
  return { nodes: nodeList, links: linkList };
}
