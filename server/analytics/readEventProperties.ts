/**
 * The check of a feature's `eventProperties` (issue #35, analytics §3 "Event property rule: name, path, source or
 * selector"): a list of at most MAX_EVENT_PROPERTIES, each `{ name, selector | path | source }` with exactly one
 * source, every refusal a 400 naming the field (`eventProperties[2].path`). The bounds keep what guide.json serves
 * to every visitor small: the agent reads these on each click of the feature.
 *
 * - `name`: 1 to 100 characters of letters, digits, `_`, `-`, `.` (a property's key in the event);
 * - `selector`: a CSS selector the browser can run (css-what parses it; `>>>` is the designer's, not the agent's);
 * - `path`: a dotted path of JavaScript identifiers (`app.user.plan`), at most 10 parts;
 * - `source`: an attribute name (`data-plan`); `value` of an input is read by `selector`, never an attribute here.
 */
import { parse } from 'css-what';
import { HttpError } from '../HttpError';
import type { FeatureEventProperty } from '../../shared/api/rules';

/** Event properties one feature may carry. */
export const MAX_EVENT_PROPERTIES = 20;
/** The longest property name, in characters. */
const MAX_NAME_LENGTH = 100;
/** The longest selector a property reads its value from. */
const MAX_VALUE_SELECTOR_LENGTH = 500;
/** The longest path and attribute name. */
const MAX_PATH_LENGTH = 200;
const MAX_PATH_PARTS = 10;

const NAME = /^[A-Za-z0-9_.-]+$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ATTRIBUTE = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const SOURCES = ['selector', 'path', 'source'] as const;
const EXAMPLE = '[{ "name": "plan", "source": "data-plan" }]';

/** Why a property's source is refused, or undefined when the agent can read it. */
function sourceProblem(kind: (typeof SOURCES)[number], value: string): string | undefined {
  if (kind === 'path') {
    const parts = value.split('.');
    if (value.length > MAX_PATH_LENGTH || parts.length > MAX_PATH_PARTS || !parts.every((p) => IDENTIFIER.test(p))) {
      return `must be a dotted path of at most ${MAX_PATH_PARTS} JavaScript names (app.user.plan), ${MAX_PATH_LENGTH} characters at most`;
    }
    return undefined;
  }
  if (kind === 'source') {
    return value.length <= MAX_PATH_LENGTH && ATTRIBUTE.test(value) ? undefined : `must be an attribute name of the clicked element (data-plan), ${MAX_PATH_LENGTH} characters at most`;
  }
  if (value.length > MAX_VALUE_SELECTOR_LENGTH || value.includes('>>>')) return `must be a CSS selector of at most ${MAX_VALUE_SELECTOR_LENGTH} characters (no >>>)`;
  try {
    parse(value);
  } catch (err) {
    return `is not a CSS selector: ${String((err as Error).message).slice(0, 200)}`;
  }
  return undefined;
}

/** One property; `at` its field path (`eventProperties[0]`). */
function readProperty(value: unknown, at: string): FeatureEventProperty {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, `${at} must be an object: ${EXAMPLE}`, at);
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => key !== 'name' && !(SOURCES as readonly string[]).includes(key))?.slice(0, 40);
  if (unknown !== undefined) throw new HttpError(400, `unknown field ${JSON.stringify(`${at}.${unknown}`)} (known: name, selector, path, source)`, `${at}.${unknown}`);
  const name = record.name;
  if (typeof name !== 'string' || name.length < 1 || name.length > MAX_NAME_LENGTH || !NAME.test(name)) {
    throw new HttpError(400, `${at}.name must be 1 to ${MAX_NAME_LENGTH} letters, digits, _, - or .`, `${at}.name`);
  }
  const given = SOURCES.filter((kind) => record[kind] !== undefined);
  if (given.length !== 1) throw new HttpError(400, `${at} needs exactly one of selector, path or source`, at);
  const kind = given[0]!;
  const text = record[kind];
  const field = `${at}.${kind}`;
  if (typeof text !== 'string' || !text.trim()) throw new HttpError(400, `${field} must be text`, field);
  const problem = sourceProblem(kind, text.trim());
  if (problem) throw new HttpError(400, `${field} ${problem}`, field);
  return { name, [kind]: text.trim() };
}

/**
 * A feature body's `eventProperties`: a list (empty or null: none, answered as undefined), names unique.
 */
export function readEventProperties(value: unknown): FeatureEventProperty[] | undefined {
  if (value === null) return undefined;
  if (!Array.isArray(value)) throw new HttpError(400, `eventProperties must be a list: ${EXAMPLE}`, 'eventProperties');
  if (value.length > MAX_EVENT_PROPERTIES) throw new HttpError(400, `eventProperties may have at most ${MAX_EVENT_PROPERTIES} properties`, 'eventProperties');
  const properties = value.map((p, i) => readProperty(p, `eventProperties[${i}]`));
  const seen = new Set<string>();
  for (const [i, p] of properties.entries()) {
    if (seen.has(p.name)) throw new HttpError(400, `eventProperties[${i}].name '${p.name}' is given twice`, `eventProperties[${i}].name`);
    seen.add(p.name);
  }
  return properties.length ? properties : undefined;
}
