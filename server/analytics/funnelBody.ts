/**
 * The check of a funnel's body (issue #35 "Funnels", `POST /api/apps/{apiKey}/funnels`; STYLE §9): each field's type
 * and bound next to its reader, each refusal a 400 naming the field (`steps`, `steps[2].feature`, `windowMs`,
 * `from`, `to`, `by`, `breakdown`). Bodies and steps are objects of known fields only. That a feature, a page or a
 * guide is the app's is the route's to say (funnelSteps), after this.
 */
import { HttpError } from '../HttpError';
import { textFault } from '../ingest/textFault';
import { DAY_MS } from '../summaries/CONSOLE_SCHEMA';
import type { AnalyticsStep, AnalyticsUnit } from '../../shared/api/retention';
import { CONTROL_CHARACTERS } from '../controlCharacters';

/** Steps of a funnel: at least 2, at most 10 (issue #35). */
export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 10;
/** The conversion window when none is given: 7 days. */
export const DEFAULT_FUNNEL_WINDOW_MS = 7 * DAY_MS;
/** The longest conversion window: 90 days. */
export const MAX_FUNNEL_WINDOW_MS = 90 * DAY_MS;
/** The longest span of step-1 entries (`to - from`): 366 days; each read scans the span's events (funnelQuery). */
export const MAX_FUNNEL_RANGE_MS = 366 * DAY_MS;
/** The longest id of a feature, page or guide a step may name (ids are UUIDs or guide ids). */
const MAX_ID_LENGTH = 200;
/** The longest track event name: what the events table keeps of it (summaries/extractedColumns `name`). */
export const MAX_TRACK_NAME_LENGTH = 200;
/** The longest metadata field name of a breakdown. */
const MAX_FIELD_LENGTH = 100;
/** The largest body the route reads, bytes: ten steps with the longest ids fit many times over. */
export const MAX_FUNNEL_BODY_BYTES = 32 * 1024;

/** A step as checked: what happened, of which definition (retention's steps are the same form). */
export type FunnelStep = AnalyticsStep;

/** Whom a funnel counts: visitors, or accounts over the merged timeline of their visitors. */
export type FunnelUnit = AnalyticsUnit;

/** A checked funnel question. */
export interface FunnelQuestion {
  steps: FunnelStep[];
  /** Step-1 entries in [from, to), epoch ms. */
  from: number;
  to: number;
  windowMs: number;
  by: FunnelUnit;
  /** A top-level metadata field of the counted visitor (or account) to split the counts by. */
  breakdown?: string;
}

const EXAMPLE = '{ "steps": [{ "page": "<page id>" }, { "feature": "<feature id>" }], "from": 1767225600000, "to": 1767830400000 }';
const BODY_FIELDS = ['steps', 'from', 'to', 'windowMs', 'by', 'breakdown'] as const;
export const STEP_KINDS = ['feature', 'page', 'track', 'guide'] as const;

/** Whether `value` is a JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first key of `record` not in `allowed`, cut to 40 characters (an attacker's 100 KB key is not echoed). */
export function unknownKey(record: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  return Object.keys(record).find((key) => !allowed.includes(key))?.slice(0, 40);
}

/** Text of 1 to `max` characters the database can compare, untrimmed (an id or a name is matched as given). */
export function readText(value: unknown, field: string, max: number, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) throw new HttpError(400, `${field} must be ${what}: text of 1 to ${max} characters`, field);
  const fault = textFault(value);
  if (fault) throw new HttpError(400, `${field} is not valid text: it ${fault}`, field);
  return value;
}

/** An integer of epoch ms (or a duration) in [min, max]. */
export function readInteger(value: unknown, field: string, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) throw new HttpError(400, `${field} must be ${what}`, field);
  return value;
}

/** The kinds of step a question may name (a path's start names no guide). */
export type StepKind = (typeof STEP_KINDS)[number];

/** The step of each kind as a body writes it, for the refusals. */
const STEP_EXAMPLES: Record<StepKind, string> = {
  feature: '{ "feature": "<id>" }',
  page: '{ "page": "<id>" }',
  track: '{ "track": "<name>" }',
  guide: '{ "guide": "<id>", "event": "seen" | "completed" }',
};

/**
 * One step at field `at` (`steps[2]`, `start`): an object with exactly one of `kinds` (a guide with its event).
 * Shared by funnels and paths (pathsBody).
 */
export function readStep(value: unknown, at: string, kinds: readonly StepKind[] = STEP_KINDS): FunnelStep {
  const shape = `an object with one of ${kinds.join(', ')}: ${kinds.map((kind) => STEP_EXAMPLES[kind]).join(', ')}`;
  if (!isRecord(value)) throw new HttpError(400, `${at} must be ${shape}`, at);
  const allowed = kinds.includes('guide') ? [...kinds, 'event'] : kinds;
  const unknown = unknownKey(value, allowed);
  if (unknown !== undefined) throw new HttpError(400, `unknown field ${JSON.stringify(`${at}.${unknown}`)} (known: ${allowed.join(', ')})`, `${at}.${unknown}`);
  const present = kinds.filter((kind) => value[kind] !== undefined);
  if (present.length !== 1) throw new HttpError(400, `${at} must be ${shape}`, at);
  const kind = present[0]!;
  if (kind !== 'guide' && value.event !== undefined) throw new HttpError(400, `${at}.event is a guide step's only: a ${kind} step has none`, `${at}.event`);
  switch (kind) {
    case 'feature': return { feature: readText(value.feature, `${at}.feature`, MAX_ID_LENGTH, 'the id of one of the app\'s features') };
    case 'page': return { page: readText(value.page, `${at}.page`, MAX_ID_LENGTH, 'the id of one of the app\'s pages') };
    case 'track': return { track: readText(value.track, `${at}.track`, MAX_TRACK_NAME_LENGTH, 'a track event\'s name') };
    case 'guide': {
      const guide = readText(value.guide, `${at}.guide`, MAX_ID_LENGTH, 'the id of one of the app\'s guides');
      if (value.event !== 'seen' && value.event !== 'completed') throw new HttpError(400, `${at}.event must be 'seen' or 'completed'`, `${at}.event`);
      return { guide, event: value.event };
    }
  }
}

/** `from` and `to` of a question: epoch ms, from before to, at most `maxMs` apart (a 400 naming the field). */
export function readSpan(body: Record<string, unknown>, maxMs: number, why: string): { from: number; to: number } {
  const from = readInteger(body.from, 'from', 0, 8.64e15, 'epoch milliseconds (a non-negative integer)');
  const to = readInteger(body.to, 'to', 0, 8.64e15, 'epoch milliseconds (a non-negative integer)');
  if (from >= to) throw new HttpError(400, 'from must be before to', 'from');
  if (to - from > maxMs) throw new HttpError(400, `to must be at most ${Math.round(maxMs / DAY_MS)} days after from: ${why}`, 'to');
  return { from, to };
}

/** Reads a funnel's body; a 400 naming the field at fault. */
export function readFunnelBody(body: unknown): FunnelQuestion {
  if (!isRecord(body)) throw new HttpError(400, `the body must be a JSON object: ${EXAMPLE}`, 'body');
  const unknown = unknownKey(body, BODY_FIELDS);
  if (unknown !== undefined) throw new HttpError(400, `unknown field ${JSON.stringify(unknown)} (known: ${BODY_FIELDS.join(', ')})`, unknown);
  const { steps } = body;
  if (!Array.isArray(steps) || steps.length < MIN_FUNNEL_STEPS || steps.length > MAX_FUNNEL_STEPS) {
    throw new HttpError(400, `steps must be a list of ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps: ${EXAMPLE}`, 'steps');
  }
  const checked = steps.map((step, i) => readStep(step, `steps[${i}]`));
  const { from, to } = readSpan(body, MAX_FUNNEL_RANGE_MS, 'a funnel reads the events of its range');
  const windowMs = body.windowMs === undefined
    ? DEFAULT_FUNNEL_WINDOW_MS
    : readInteger(body.windowMs, 'windowMs', 1, MAX_FUNNEL_WINDOW_MS, `a whole number of milliseconds from 1 to ${MAX_FUNNEL_WINDOW_MS} (90 days)`);
  if (body.by !== undefined && body.by !== 'visitor' && body.by !== 'account') throw new HttpError(400, "by must be 'visitor' or 'account'", 'by');
  const by: FunnelUnit = body.by ?? 'visitor';
  let breakdown: string | undefined;
  if (body.breakdown !== undefined) {
    breakdown = readText(body.breakdown, 'breakdown', MAX_FIELD_LENGTH, 'a metadata field\'s name');
    if (CONTROL_CHARACTERS.test(breakdown)) throw new HttpError(400, 'breakdown must be a metadata field\'s name without control characters', 'breakdown');
  }
  return { steps: checked, from, to, windowMs, by, ...(breakdown === undefined ? {} : { breakdown }) };
}
