/**
 * The check of a paths question's body (issue #35 "Funnels, paths, retention", `POST /api/apps/{apiKey}/paths`;
 * STYLE §9): each field's type and bound next to its reader, each refusal a 400 naming the field (`start`,
 * `start.page`, `direction`, `depth`, `top`, `from`, `to`). The step and span readers are the funnels' (funnelBody).
 * That a page or a feature is the app's is the query's to say (pathsQuery), after this.
 */
import { HttpError } from '../HttpError';
import { DAY_MS } from '../summaries/CONSOLE_SCHEMA';
import type { PathDirection } from '../../shared/api/paths';
import { isRecord, readInteger, readSpan, readStep, unknownKey, type FunnelStep } from './funnelBody';

/** Steps a path follows from its start: 1 to 5 (issue #35), 3 when not given. */
export const MAX_PATH_DEPTH = 5;
export const DEFAULT_PATH_DEPTH = 3;
/** Steps kept per level, the rest folded into `(other)`: 1 to 20, 8 when not given. */
export const MAX_PATH_TOP = 20;
export const DEFAULT_PATH_TOP = 8;
/** The longest span of start occurrences (`to - from`): 92 days; a question reads the span's events (pathsQuery). */
export const MAX_PATH_RANGE_MS = 92 * DAY_MS;
/** The largest body the route reads, bytes: a start with the longest id or name fits many times over. */
export const MAX_PATHS_BODY_BYTES = 8 * 1024;

/** A path's start: a page, a feature or a track event (a guide event is no step of a timeline). */
export type PathStart = Exclude<FunnelStep, { guide: string }>;

/** A checked paths question. */
export interface PathsQuestion {
  start: PathStart;
  direction: PathDirection;
  depth: number;
  top: number;
  /** Start occurrences in [from, to), epoch ms. */
  from: number;
  to: number;
}

const EXAMPLE = '{ "start": { "page": "<page id>" }, "direction": "next", "depth": 3, "from": 1767225600000, "to": 1767830400000 }';
const BODY_FIELDS = ['start', 'direction', 'depth', 'top', 'from', 'to'] as const;

/** Reads a paths question's body; a 400 naming the field at fault. */
export function readPathsBody(body: unknown): PathsQuestion {
  if (!isRecord(body)) throw new HttpError(400, `the body must be a JSON object: ${EXAMPLE}`, 'body');
  const unknown = unknownKey(body, BODY_FIELDS);
  if (unknown !== undefined) throw new HttpError(400, `unknown field ${JSON.stringify(unknown)} (known: ${BODY_FIELDS.join(', ')})`, unknown);
  if (body.start === undefined) throw new HttpError(400, `start is required: ${EXAMPLE}`, 'start');
  const start = readStep(body.start, 'start', ['page', 'feature', 'track']) as PathStart;
  if (body.direction !== undefined && body.direction !== 'next' && body.direction !== 'previous') {
    throw new HttpError(400, "direction must be 'next' or 'previous'", 'direction');
  }
  const direction: PathDirection = body.direction ?? 'next';
  const depth = body.depth === undefined ? DEFAULT_PATH_DEPTH : readInteger(body.depth, 'depth', 1, MAX_PATH_DEPTH, `a whole number of steps from 1 to ${MAX_PATH_DEPTH}`);
  const top = body.top === undefined ? DEFAULT_PATH_TOP : readInteger(body.top, 'top', 1, MAX_PATH_TOP, `a whole number of steps kept per level, from 1 to ${MAX_PATH_TOP}`);
  const { from, to } = readSpan(body, MAX_PATH_RANGE_MS, 'paths read the events of their range');
  return { start, direction, depth, top, from, to };
}
