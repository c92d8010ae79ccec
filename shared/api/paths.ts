/**
 * Paths (issue #35 "Funnels, paths, retention", docs/console-api.md "Paths"): `POST /api/apps/{apiKey}/paths`
 * answers the most common steps after (or before) a page, a feature or a track event, as a tree folded per level
 * (server/analytics: pathsQuery). The console draws it as a flow diagram (console/pages/PathsPage.tsx). Types only.
 */

/** Which way a path runs from its start: the steps after it, or the steps before it. */
export type PathDirection = 'next' | 'previous';

/**
 * What a step of a timeline is: one of the app's pages or features (`ref` its id), a track event, an address no
 * page's rule matches (its path), the steps past a level's `top` folded together, or the end of the session.
 */
export type PathNodeKind = 'page' | 'feature' | 'track' | 'url' | 'other' | 'end';

/** One step at one level: level 0 is the start, level k the k-th step after (before) it. */
export interface PathNode {
  /** `level/kind:key` (the key is the page's or feature's id, the path, the track name, or empty). */
  id: string;
  level: number;
  /** A page's or feature's name, an address's path (`/reports/7`), `track: <name>`, `(other)` or `(end)`. */
  label: string;
  kind: PathNodeKind;
  /** The page's or feature's id. */
  ref?: string;
  /** Paths through this step at this level. */
  count: number;
  /** Distinct visitors of those paths. */
  visitors: number;
}

/**
 * Paths going from one step to the next, in time order: for `next`, from level k to level k + 1; for
 * `previous`, from level k + 1 (earlier) to level k.
 */
export interface PathLink {
  source: string;
  target: string;
  count: number;
  visitors: number;
}

/** The answer of `POST .../paths`. */
export interface PathsAnswer {
  start: { label: string; kind: PathNodeKind; ref?: string };
  direction: PathDirection;
  depth: number;
  from: number;
  to: number;
  /** Occurrences of the start in [from, to): each begins a path. */
  occurrences: number;
  /** Distinct visitors with at least one occurrence. */
  visitors: number;
  nodes: PathNode[];
  links: PathLink[];
}
