/**
 * spec: guides §3 "Element-match rule", §5 "Element contains rules: all rules must pass; number rules fail
 * on non-numeric values." Pure: the element's text is an argument (the shim reads it from the DOM).
 */
import type { ElementContainsRule } from '../guides/guides';
import type { RuleResult } from './autoDisplayRules';

/** A plain decimal number: digits with an optional sign, fraction and exponent (no hex, no Infinity). */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * spec: guides §5 — does the element text satisfy every rule of a step's `elementContainsRulesList`?
 * No rules (absent or empty) pass. The first failing rule is named in the reason (1-based).
 *
 * Readings:
 * - Both the element text and `matchValue` are trimmed at both ends; inner whitespace is kept as is.
 * - Comparison is case-sensitive ('Total' does not equal 'total').
 * - `dataType` defaults to string. A string rule compares texts: equal, notEqual, contains (substring),
 *   notContains, and greaterThan / lessThan by code-unit order (plain `<`, not locale order).
 * - A number rule first requires both the text and `matchValue` to be plain decimal numbers (an empty
 *   text, '12 items', '1,000', '$5' or '0x10' fail the rule, whatever its matchType); then equal,
 *   notEqual, greaterThan and lessThan compare the numbers ('1.0' equals '1'), while contains and
 *   notContains, which have no numeric meaning, compare the two trimmed texts as substrings.
 * - An unknown matchType or dataType fails the rule.
 */
export function matchesContainsRules(rules: readonly ElementContainsRule[] | undefined, text: string): RuleResult {
  if (!rules?.length) return { pass: true, reason: 'no contains rules' };
  const actual = String(text ?? '').trim();
  for (const [i, rule] of rules.entries()) {
    const failure = failureOf(rule, actual);
    if (failure) return { pass: false, reason: `contains rule ${i + 1} (${describe(rule)}): ${failure}` };
  }
  return { pass: true, reason: `all ${rules.length} contains rules pass` };
}

/** Why `actual` fails `rule`, or `null` when it passes. */
function failureOf(rule: ElementContainsRule, actual: string): string | null {
  const expected = String(rule.matchValue ?? '').trim();
  const dataType = rule.dataType ?? 'string';
  if (dataType === 'number') {
    if (!DECIMAL.test(actual)) return `element text '${actual}' is not a number`;
    if (!DECIMAL.test(expected)) return `matchValue '${expected}' is not a number`;
    const a = Number(actual);
    const b = Number(expected);
    switch (rule.matchType) {
      case 'equal':
        return a === b ? null : `${a} is not equal to ${b}`;
      case 'notEqual':
        return a !== b ? null : `${a} is equal to ${b}`;
      case 'greaterThan':
        return a > b ? null : `${a} is not greater than ${b}`;
      case 'lessThan':
        return a < b ? null : `${a} is not less than ${b}`;
      case 'contains':
      case 'notContains':
        return compareText(rule.matchType, actual, expected);
      default:
        return `unknown matchType '${String(rule.matchType)}'`;
    }
  }
  if (dataType !== 'string') return `unknown dataType '${String(dataType)}'`;
  return compareText(rule.matchType, actual, expected);
}

function compareText(matchType: ElementContainsRule['matchType'], actual: string, expected: string): string | null {
  switch (matchType) {
    case 'equal':
      return actual === expected ? null : `'${actual}' is not equal to '${expected}'`;
    case 'notEqual':
      return actual !== expected ? null : `'${actual}' is equal to '${expected}'`;
    case 'contains':
      return actual.includes(expected) ? null : `'${actual}' does not contain '${expected}'`;
    case 'notContains':
      return !actual.includes(expected) ? null : `'${actual}' contains '${expected}'`;
    case 'greaterThan':
      return actual > expected ? null : `'${actual}' is not greater than '${expected}'`;
    case 'lessThan':
      return actual < expected ? null : `'${actual}' is not less than '${expected}'`;
    default:
      return `unknown matchType '${String(matchType)}'`;
  }
}

function describe(rule: ElementContainsRule): string {
  return `${rule.dataType ?? 'string'} ${String(rule.matchType)} '${String(rule.matchValue ?? '').trim()}'`;
}
