/**
 * The check of a segment's body (issue #35 "Segments", `POST` and `PATCH /api/apps/{apiKey}/segments`; STYLE §9):
 * each field's type and bound next to its reader, each refusal a 400 naming the field (`name`, `definition.when`,
 * `definition.behaviour[2].atLeast`, ...). Objects hold known fields only. Metadata conditions are the condition
 * language of shared/segments/segmentConditions.ts over what the summaries keep of a visitor: `visitorId`,
 * `accountId`, `visitor.X`, `account.X` (not `url` nor `parentAccount.X`, which no summary keeps). That a feature,
 * a page or a guide is the app's is the route's to say (segmentRoutes), after this.
 */
import { HttpError } from '../../HttpError';
import { textFault } from '../../ingest/textFault';
import { checkCondition, type SegmentCondition } from '../../../shared/segments/segmentConditions';
import type { BehaviourCondition, BehaviourTarget, SegmentDefinition } from '../../../shared/api/segments';
import { readRuleName, readRuleText } from '../checkRuleBodies';
import { isRecord, MAX_TRACK_NAME_LENGTH, readInteger, unknownKey, type FunnelStep } from '../funnelBody';
import { CONTROL_CHARACTERS } from '../../controlCharacters';

/** Conditions of one segment, metadata and behaviour together: at least 1, at most 20 (issue #35). */
export const MAX_SEGMENT_CONDITIONS = 20;
/** The most `atLeast` may ask: more uses than a visitor could make in years. */
export const MAX_AT_LEAST = 1_000_000;
/** The longest `days` window (issue #35: 1..365). */
export const MAX_DAYS = 365;
/** The largest body a segment route reads, bytes: 20 conditions with long values fit many times over. */
export const MAX_SEGMENT_BODY_BYTES = 64 * 1024;
/** The longest id of a feature, page or guide a condition may name. */
const MAX_ID_LENGTH = 200;
/** The longest metadata path of a condition, and the longest text value it compares with. */
const MAX_PATH_LENGTH = 200;
const MAX_VALUE_LENGTH = 1000;
/** The most values an `in` condition lists. */
const MAX_IN_VALUES = 100;

const EXAMPLE = '{ "name": "Exporters", "definition": { "when": { "visitor.plan": "pro" }, "behaviour": [{ "feature": "<feature id>", "atLeast": 3, "days": 30 }] } }';
const TARGETS = ['feature', 'page', 'track'] as const;

/** What a POST (all fields) or a PATCH (some) gives. */
export interface SegmentChange {
  name?: string;
  definition?: SegmentDefinition;
}

/** A behaviour condition as the judge reads it: the funnel step it counts, how often, over which window. */
export interface BehaviourRule {
  step: FunnelStep;
  /** The count must be at least this (1 for a plain or guideSeen condition); 0 with `never`. */
  atLeast: number;
  /** True: the count must be 0. */
  never: boolean;
  days?: number;
}

/** `value` as an object of the `allowed` fields only; an unknown one is a 400 naming it (cut to 40 characters). */
function readFields(value: unknown, at: string, allowed: readonly string[], shape: string): Record<string, unknown> {
  if (!isRecord(value)) throw new HttpError(400, `${at} must be ${shape}`, at);
  const unknown = unknownKey(value, allowed);
  if (unknown === undefined) return value;
  const field = at === 'body' ? unknown : `${at}.${unknown}`;
  throw new HttpError(400, `unknown field ${JSON.stringify(field)} (known: ${allowed.join(', ')})`, field);
}

/** A whole number in [min, max]; a 400 naming `field` otherwise (a huge number, a string, 1.5). */
const readWhole = (value: unknown, field: string, min: number, max: number) => readInteger(value, field, min, max, `a whole number from ${min} to ${max}`);

/** An id or a track name: text without control characters. */
function readName(value: unknown, field: string, max: number, what: string): string {
  const text = readRuleText(value, field, max, what);
  if (CONTROL_CHARACTERS.test(text)) throw new HttpError(400, `${field} must be ${what} without control characters`, field);
  return text;
}

/** One of feature, page, track (and, where `guide`, guideSeen) in `fields`: exactly one. */
function readTarget(fields: Record<string, unknown>, at: string, kinds: readonly string[]): FunnelStep {
  const present = kinds.filter((kind) => fields[kind] !== undefined);
  if (present.length !== 1) throw new HttpError(400, `${at} must name exactly one of ${kinds.join(', ')}`, at);
  const kind = present[0]!;
  const field = `${at}.${kind}`;
  if (kind === 'track') return { track: readName(fields.track, field, MAX_TRACK_NAME_LENGTH, "a track event's name") };
  const id = readName(fields[kind], field, MAX_ID_LENGTH, `the id of one of the app's ${kind === 'guideSeen' ? 'guide' : kind}s`);
  if (kind === 'guideSeen') return { guide: id, event: 'seen' };
  return kind === 'feature' ? { feature: id } : { page: id };
}

/** The condition as stored: what was given, checked, without defaults filled in. */
function storedCondition(rule: BehaviourRule, atLeastGiven: boolean): BehaviourCondition {
  const days = rule.days === undefined ? {} : { days: rule.days };
  const step = rule.step;
  if ('guide' in step) return { guideSeen: step.guide, ...days };
  const target = step as BehaviourTarget;
  if (rule.never) return { never: target, ...days };
  return { ...target, ...(atLeastGiven ? { atLeast: rule.atLeast } : {}), ...days };
}

/** One behaviour condition, checked. */
export function readBehaviour(value: unknown, at: string): { rule: BehaviourRule; stored: BehaviourCondition } {
  const fields = readFields(value, at, [...TARGETS, 'guideSeen', 'never', 'atLeast', 'days'], '{ "feature" | "page" | "track": ..., "atLeast"?, "days"? }, { "guideSeen": guideId, "days"? } or { "never": { "feature" | "page" | "track": ... }, "days"? }');
  const days = fields.days === undefined ? undefined : readWhole(fields.days, `${at}.days`, 1, MAX_DAYS);
  let rule: BehaviourRule;
  if (fields.never !== undefined) {
    const other = [...TARGETS, 'guideSeen', 'atLeast'].find((key) => fields[key] !== undefined);
    if (other !== undefined) throw new HttpError(400, `${at}.${other} does not go with never: { "never": { "page": "<id>" }, "days": 30 }`, `${at}.${other}`);
    const inner = readFields(fields.never, `${at}.never`, TARGETS, '{ "feature" | "page" | "track": ... }');
    rule = { step: readTarget(inner, `${at}.never`, TARGETS), atLeast: 0, never: true, ...(days === undefined ? {} : { days }) };
  } else {
    const step = readTarget(fields, at, [...TARGETS, 'guideSeen']);
    if ('guide' in step && fields.atLeast !== undefined) throw new HttpError(400, `${at}.atLeast does not go with guideSeen`, `${at}.atLeast`);
    const atLeast = fields.atLeast === undefined ? 1 : readWhole(fields.atLeast, `${at}.atLeast`, 1, MAX_AT_LEAST);
    rule = { step, atLeast, never: false, ...(days === undefined ? {} : { days }) };
  }
  return { rule, stored: storedCondition(rule, fields.atLeast !== undefined) };
}

/** The rule the judge reads of a stored condition (one segmentBody checked). */
export function behaviourRule(condition: BehaviourCondition): BehaviourRule {
  return readBehaviour(condition, 'behaviour').rule;
}

/** A metadata condition's value, bounded: text the database keeps, at most 1000 characters, `in` of at most 100. */
function checkValueBounds(condition: unknown, field: string): void {
  const values = isRecord(condition) ? Object.values(condition).flat() : [condition];
  if (values.length > MAX_IN_VALUES) throw new HttpError(400, `${field} may list at most ${MAX_IN_VALUES} values`, field);
  for (const value of values) {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new HttpError(400, `${field} must compare with a finite number`, field);
    if (typeof value !== 'string') continue;
    if (value.length > MAX_VALUE_LENGTH) throw new HttpError(400, `${field} must compare with text of at most ${MAX_VALUE_LENGTH} characters`, field);
    const fault = textFault(value);
    if (fault) throw new HttpError(400, `${field} is not valid text: it ${fault}`, field);
  }
}

/** A metadata condition's path: visitorId, accountId, visitor.X or account.X. */
function checkPath(path: string, field: string): void {
  const ok = path === 'visitorId' || path === 'accountId' || /^(visitor|account)(\.[^.]+)+$/.test(path);
  if (!ok || path.length > MAX_PATH_LENGTH || CONTROL_CHARACTERS.test(path) || textFault(path)) {
    throw new HttpError(400, `${field}: unknown path ${JSON.stringify(path.slice(0, 40))}: use visitorId, accountId, visitor.X or account.X (at most ${MAX_PATH_LENGTH} characters)`, field);
  }
}

/** `when`: an object of {path: condition}. */
function readWhen(value: unknown): Record<string, SegmentCondition> {
  const at = 'definition.when';
  if (!isRecord(value)) throw new HttpError(400, `${at} must be an object of {path: condition}: { "visitor.plan": "pro" }`, at);
  for (const [path, condition] of Object.entries(value).slice(0, MAX_SEGMENT_CONDITIONS + 1)) {
    const field = `${at}.${path.slice(0, 40)}`;
    checkPath(path, field);
    const problem = checkCondition(condition);
    if (problem) throw new HttpError(400, `${field} ${problem}`, field);
    checkValueBounds(condition, field);
  }
  return value as Record<string, SegmentCondition>;
}

/** A definition: `when`, `behaviour` or both, 1 to 20 conditions in all. */
export function readDefinition(value: unknown): { definition: SegmentDefinition; rules: BehaviourRule[] } {
  const fields = readFields(value, 'definition', ['when', 'behaviour'], `an object { "when"?, "behaviour"? }: ${EXAMPLE}`);
  const whenCount = isRecord(fields.when) ? Object.keys(fields.when).length : 0;
  const behaviourCount = Array.isArray(fields.behaviour) ? fields.behaviour.length : 0;
  // Counted before anything is read, so a list of a million conditions is refused without walking it.
  if (whenCount + behaviourCount > MAX_SEGMENT_CONDITIONS) {
    throw new HttpError(400, `definition has ${whenCount + behaviourCount} conditions: at most ${MAX_SEGMENT_CONDITIONS}`, behaviourCount ? 'definition.behaviour' : 'definition.when');
  }
  const definition: SegmentDefinition = {};
  if (fields.when !== undefined) definition.when = readWhen(fields.when);
  const rules: BehaviourRule[] = [];
  if (fields.behaviour !== undefined) {
    if (!Array.isArray(fields.behaviour)) throw new HttpError(400, 'definition.behaviour must be a list of conditions', 'definition.behaviour');
    definition.behaviour = fields.behaviour.map((item, i) => {
      const { rule, stored } = readBehaviour(item, `definition.behaviour[${i}]`);
      rules.push(rule);
      return stored;
    });
  }
  if (whenCount + behaviourCount === 0) throw new HttpError(400, `definition needs at least one condition: ${EXAMPLE}`, 'definition');
  return { definition, rules };
}

/** A segment's body: all of it (`partial` false, POST) or at least one field (PATCH). */
export function readSegmentBody(body: unknown, partial: boolean): SegmentChange & { rules?: BehaviourRule[] } {
  const fields = readFields(body, 'body', ['name', 'definition'], `a JSON object: ${EXAMPLE}`);
  const change: SegmentChange & { rules?: BehaviourRule[] } = {};
  if (fields.name !== undefined || !partial) change.name = readRuleName(fields.name);
  if (fields.definition !== undefined || !partial) {
    const { definition, rules } = readDefinition(fields.definition);
    change.definition = definition;
    change.rules = rules;
  }
  if (partial && change.name === undefined && change.definition === undefined) throw new HttpError(400, `nothing to change: give name, definition or both: ${EXAMPLE}`, 'body');
  return change;
}
