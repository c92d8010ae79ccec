/**
 * The condition language of segments (analytics §7 "Segment flags") and guide audiences (issue #15): a condition's
 * key is a path into what the agent sends with guide.json and segmentflag.json: `visitorId`, `accountId`, `url`,
 * or `visitor.X`, `account.X`, `parentAccount.X` (X may itself be dotted) into its metadata. Its value is an exact
 * value (string, number, boolean or null) or one operator: `{ "equals": v }`, `{ "contains": s }` (substring of a
 * string, or element of an array), `{ "startsWith": s }`, `{ "in": [v, ...] }`. A missing value satisfies no
 * condition. Pure.
 */

/** An exact value a condition compares with. */
export type SegmentValue = string | number | boolean | null;

/** One condition's test on the value at its path. */
export type SegmentCondition =
  | SegmentValue
  | { equals: SegmentValue }
  | { contains: SegmentValue }
  | { startsWith: string }
  | { in: SegmentValue[] };

/** What conditions are matched against: the decoded segmentflag.json or guide.json payload. */
export interface SegmentSubject {
  visitorId?: unknown;
  accountId?: unknown;
  url?: unknown;
  metadata?: { visitor?: unknown; account?: unknown; parentAccount?: unknown };
}

export const CONDITION_OPERATORS = ['equals', 'contains', 'startsWith', 'in'] as const;
const ROOTS = ['visitorId', 'accountId', 'url'];
const METADATA_ROOTS = ['visitor', 'account', 'parentAccount'];

/** Checks a `when` object; the first problem as "condition "path": reason", or null. */
export function checkConditions(when: unknown): string | null {
  if (typeof when !== 'object' || when === null || Array.isArray(when)) return 'when must be an object of {path: condition}';
  for (const [path, condition] of Object.entries(when)) {
    const problem = checkConditionPath(path) ?? checkCondition(condition);
    if (problem) return `condition "${path}": ${problem}`;
  }
  return null;
}

/** True when every condition holds for the subject; no condition at all always holds. */
export function matchesConditions(when: Readonly<Record<string, SegmentCondition>>, subject: SegmentSubject): boolean {
  return Object.entries(when).every(([path, condition]) => holds(condition, valueAt(subject, path)));
}

/** What is wrong with a condition's path; null when it is one of the paths above. */
export function checkConditionPath(path: string): string | null {
  if (ROOTS.includes(path)) return null;
  const [root, ...rest] = path.split('.');
  if (root !== undefined && METADATA_ROOTS.includes(root) && rest.length > 0 && rest.every((part) => part !== '')) return null;
  return `unknown path: use visitorId, accountId, url, or visitor.X, account.X, parentAccount.X`;
}

function isExact(value: unknown): value is SegmentValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** What is wrong with a condition; null when it is an exact value or one operator with its operand. */
export function checkCondition(condition: unknown): string | null {
  if (isExact(condition)) return null;
  if (typeof condition !== 'object' || Array.isArray(condition)) {
    return 'must be a string, number, boolean, null, or one of {equals | contains | startsWith | in}';
  }
  const keys = Object.keys(condition);
  const operator = keys[0];
  if (keys.length !== 1 || !CONDITION_OPERATORS.includes(operator as (typeof CONDITION_OPERATORS)[number])) {
    return `must have exactly one operator of ${CONDITION_OPERATORS.join(', ')}; got {${keys.join(', ')}}`;
  }
  const operand = (condition as Record<string, unknown>)[operator!];
  if (operator === 'startsWith' && typeof operand !== 'string') return 'startsWith needs a string';
  if (operator === 'in' && !(Array.isArray(operand) && operand.every(isExact))) return 'in needs an array of exact values';
  if ((operator === 'equals' || operator === 'contains') && !isExact(operand)) return `${operator} needs an exact value`;
  return null;
}

/** The value at a condition's path in `subject` (own keys only: never a prototype's); undefined when missing. */
export function valueAt(subject: SegmentSubject, path: string): unknown {
  const [root, ...rest] = path.split('.');
  let value: unknown = rest.length === 0 ? (subject as Record<string, unknown>)[root!] : subject.metadata?.[root as 'visitor'];
  for (const part of rest) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function holds(condition: SegmentCondition, value: unknown): boolean {
  // A missing value satisfies no condition, not even `null`.
  if (value === undefined) return false;
  if (isExact(condition)) return value === condition;
  if ('equals' in condition) return value === condition.equals;
  if ('startsWith' in condition) return typeof value === 'string' && value.startsWith(condition.startsWith);
  if ('in' in condition) return condition.in.some((item) => item === value);
  const needle = condition.contains;
  if (typeof value === 'string') return typeof needle === 'string' && value.includes(needle);
  return Array.isArray(value) && value.some((item) => item === needle);
}
