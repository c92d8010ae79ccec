/**
 * The check of a retention question's body (issue #35 "Funnels, paths, retention", `POST /api/apps/{apiKey}/retention`;
 * STYLE §9): each field's type and bound next to its reader, each refusal a 400 naming the field (`from`, `to`,
 * `weeks`, `by`, `start`, `return.page`...). Steps are a funnel's (funnelBody's readStep); that a feature, a page
 * or a guide is the app's is the route's to say (funnelSteps), after this.
 */
import { HttpError } from '../HttpError';
import { DAY_MS } from '../summaries/CONSOLE_SCHEMA';
import type { AnalyticsStep, AnalyticsUnit } from '../../shared/api/retention';
import { isRecord, readInteger, readStep, unknownKey } from './funnelBody';

/** Weeks after the cohort's own week: 1 to 12, 8 when none is given (issue #35: "back in weeks 1..8"). */
export const MIN_RETENTION_WEEKS = 1;
export const MAX_RETENTION_WEEKS = 12;
export const DEFAULT_RETENTION_WEEKS = 8;
/** The longest span of cohort weeks (`to - from`): 731 days, two years. */
export const MAX_RETENTION_RANGE_MS = 731 * DAY_MS;
/** The largest body the route reads, bytes: two steps with the longest ids fit many times over. */
export const MAX_RETENTION_BODY_BYTES = 8 * 1024;

/** A checked retention question. */
export interface RetentionQuery {
  /** Cohort weeks starting in [from, to), epoch ms. */
  from: number;
  to: number;
  weeks: number;
  by: AnalyticsUnit;
  /** First use; absent: any analytics event. */
  start?: AnalyticsStep;
  /** A return; absent: any analytics event. */
  return?: AnalyticsStep;
}

const EXAMPLE = '{ "from": 1767571200000, "to": 1772409600000, "weeks": 8, "start": { "feature": "<feature id>" } }';
const BODY_FIELDS = ['from', 'to', 'weeks', 'by', 'start', 'return'] as const;

/** Reads a retention question's body; a 400 naming the field at fault. */
export function readRetentionBody(body: unknown): RetentionQuery {
  if (!isRecord(body)) throw new HttpError(400, `the body must be a JSON object: ${EXAMPLE}`, 'body');
  const unknown = unknownKey(body, BODY_FIELDS);
  if (unknown !== undefined) throw new HttpError(400, `unknown field ${JSON.stringify(unknown)} (known: ${BODY_FIELDS.join(', ')})`, unknown);
  const from = readInteger(body.from, 'from', 0, 8.64e15, 'epoch milliseconds (a non-negative integer)');
  const to = readInteger(body.to, 'to', 0, 8.64e15, 'epoch milliseconds (a non-negative integer)');
  if (from >= to) throw new HttpError(400, 'from must be before to', 'from');
  if (to - from > MAX_RETENTION_RANGE_MS) throw new HttpError(400, 'to must be at most 731 days (two years) after from', 'to');
  const weeks = body.weeks === undefined
    ? DEFAULT_RETENTION_WEEKS
    : readInteger(body.weeks, 'weeks', MIN_RETENTION_WEEKS, MAX_RETENTION_WEEKS, `a whole number of weeks from ${MIN_RETENTION_WEEKS} to ${MAX_RETENTION_WEEKS}`);
  if (body.by !== undefined && body.by !== 'visitor' && body.by !== 'account') throw new HttpError(400, "by must be 'visitor' or 'account'", 'by');
  const by: AnalyticsUnit = body.by ?? 'visitor';
  return {
    from, to, weeks, by,
    ...(body.start === undefined ? {} : { start: readStep(body.start, 'start') }),
    ...(body.return === undefined ? {} : { return: readStep(body.return, 'return') }),
  };
}
