/**
 * The segment rules of the reference server (spec: analytics §3, §7 "Segment flags"): a JSON file of
 * `[{ "flag": "beta-tester", "when": { "visitor.plan": "pro" } }, ...]`, re-read when its modification time
 * or size changes, so an author edits the file and the next segmentflag.json request sees it.
 *
 * A condition's key is a path into the request payload: `visitorId`, `accountId`, `url`, or
 * `visitor.X`, `account.X`, `parentAccount.X` (X may itself be dotted) into its metadata. Its value is an
 * exact value (string, number, boolean or null) or one operator: `{ "equals": v }`, `{ "contains": s }`
 * (substring of a string, or element of an array), `{ "startsWith": s }`, `{ "in": [v, ...] }`.
 * A rule's flag is given when all its conditions hold; `"when": {}` always holds.
 */
import { readFile, stat } from 'node:fs/promises';

/** An exact value a condition compares with. */
export type SegmentValue = string | number | boolean | null;

/** One condition's test on the value at its path. */
export type SegmentCondition =
  | SegmentValue
  | { equals: SegmentValue }
  | { contains: SegmentValue }
  | { startsWith: string }
  | { in: SegmentValue[] };

/** One rule of the file. */
export interface SegmentRule {
  flag: string;
  when: Record<string, SegmentCondition>;
}

/** What the rules are matched against: the decoded segmentflag.json payload. */
export interface SegmentSubject {
  visitorId?: unknown;
  accountId?: unknown;
  url?: unknown;
  metadata?: { visitor?: unknown; account?: unknown; parentAccount?: unknown };
}

/** Where the rules file is and where warnings go. */
export interface SegmentRulesOptions {
  /** Path of the rules file. */
  file: string;
  /** Receives one message per unreadable version of the file (a missing file counts as one version). */
  warn(message: string): void;
}

/** The current rules. */
export interface SegmentRules {
  /** The rules of the file as it is now; `[]` when it is missing or malformed (warned, never thrown). */
  list(): Promise<SegmentRule[]>;
  /** The flags of every rule whose conditions all hold, in file order, without repeats. */
  flagsFor(subject: SegmentSubject): Promise<string[]>;
}

const OPERATORS = ['equals', 'contains', 'startsWith', 'in'] as const;
const ROOTS = ['visitorId', 'accountId', 'url'];
const METADATA_ROOTS = ['visitor', 'account', 'parentAccount'];

/** Creates the rules over `options.file`. */
export function createSegmentRules(options: SegmentRulesOptions): SegmentRules {
  /** The version last read: `null` mtime for a file that could not be stat'ed. */
  let cached: { mtimeMs: number | null; size: number; rules: SegmentRule[] } | null = null;

  async function list(): Promise<SegmentRule[]> {
    let info;
    try {
      info = await stat(options.file);
    } catch (err) {
      // Warned once per disappearance, not on every request.
      if (!cached || cached.mtimeMs !== null) {
        options.warn(`segment rules file ${options.file} cannot be read: ${(err as Error).message}`);
      }
      cached = { mtimeMs: null, size: 0, rules: [] };
      return [];
    }
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.rules;
    let rules: SegmentRule[] = [];
    try {
      rules = parseSegmentRules(JSON.parse(await readFile(options.file, 'utf8')));
    } catch (err) {
      options.warn(`ignoring segment rules file ${options.file}: ${(err as Error).message}`);
    }
    cached = { mtimeMs: info.mtimeMs, size: info.size, rules };
    return rules;
  }

  return {
    list,
    async flagsFor(subject) {
      const flags: string[] = [];
      for (const rule of await list()) {
        if (!flags.includes(rule.flag) && matchesSegmentRule(rule, subject)) flags.push(rule.flag);
      }
      return flags;
    },
  };
}

/** Checks a parsed rules file; throws with the index and the reason of the first bad rule. */
export function parseSegmentRules(value: unknown): SegmentRule[] {
  if (!Array.isArray(value)) throw new Error('the file must hold a JSON array of {"flag": string, "when": {...}}');
  return value.map((rule, index) => {
    const at = `rule ${index}`;
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new Error(`${at} is not an object`);
    const { flag, when } = rule as { flag?: unknown; when?: unknown };
    if (typeof flag !== 'string' || flag === '') throw new Error(`${at}: flag must be a non-empty string`);
    if (typeof when !== 'object' || when === null || Array.isArray(when)) throw new Error(`${at} (${flag}): when must be an object`);
    for (const [path, condition] of Object.entries(when)) {
      const problem = checkPath(path) ?? checkCondition(condition);
      if (problem) throw new Error(`${at} (${flag}), condition "${path}": ${problem}`);
    }
    return { flag, when: when as Record<string, SegmentCondition> };
  });
}

/** True when every condition of the rule holds for the subject. */
export function matchesSegmentRule(rule: SegmentRule, subject: SegmentSubject): boolean {
  return Object.entries(rule.when).every(([path, condition]) => holds(condition, valueAt(subject, path)));
}

function checkPath(path: string): string | null {
  if (ROOTS.includes(path)) return null;
  const [root, ...rest] = path.split('.');
  if (root !== undefined && METADATA_ROOTS.includes(root) && rest.length > 0 && rest.every((part) => part !== '')) return null;
  return `unknown path: use visitorId, accountId, url, or visitor.X, account.X, parentAccount.X`;
}

function isExact(value: unknown): value is SegmentValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function checkCondition(condition: unknown): string | null {
  if (isExact(condition)) return null;
  if (typeof condition !== 'object' || Array.isArray(condition)) {
    return 'must be a string, number, boolean, null, or one of {equals | contains | startsWith | in}';
  }
  const keys = Object.keys(condition);
  const operator = keys[0];
  if (keys.length !== 1 || !OPERATORS.includes(operator as (typeof OPERATORS)[number])) {
    return `must have exactly one operator of ${OPERATORS.join(', ')}; got {${keys.join(', ')}}`;
  }
  const operand = (condition as Record<string, unknown>)[operator!];
  if (operator === 'startsWith' && typeof operand !== 'string') return 'startsWith needs a string';
  if (operator === 'in' && !(Array.isArray(operand) && operand.every(isExact))) return 'in needs an array of exact values';
  if ((operator === 'equals' || operator === 'contains') && !isExact(operand)) return `${operator} needs an exact value`;
  return null;
}

function valueAt(subject: SegmentSubject, path: string): unknown {
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
