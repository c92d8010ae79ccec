/**
 * Who a guide is for, as the designer edits it (issue #15 "targeting ... segments"): a list of conditions on the
 * visitor's ids and metadata, written to the guide's `audience` (shared/guides/guides.ts), which the collector
 * judges on every guide.json request (shared/segments/segmentConditions.ts). A visitor must meet every condition.
 * Pure.
 */
import type { GuideAudience } from '../../../shared/guides/guides';
import { checkConditions, type SegmentCondition, type SegmentValue } from '../../../shared/segments/segmentConditions';

/** Where a condition looks: one of the ids, or a metadata field of the visitor, the account or the parent account. */
export type AudienceSource = 'visitor' | 'account' | 'parentAccount' | 'visitorId' | 'accountId';
export type AudienceOperator = 'equals' | 'contains' | 'startsWith' | 'in';
/** How the value is compared: metadata keeps numbers and booleans as the page gave them. */
export type AudienceValueType = 'text' | 'number' | 'boolean';

export interface AudienceRule {
  source: AudienceSource;
  /** The metadata field (`role`, `plan.tier`); '' for the ids. */
  field: string;
  operator: AudienceOperator;
  /** As typed: for `in`, values separated by commas. */
  value: string;
  valueType: AudienceValueType;
}

export const AUDIENCE_SOURCES: Array<{ source: AudienceSource; label: string }> = [
  { source: 'visitor', label: "Visitor's metadata" },
  { source: 'account', label: "Account's metadata" },
  { source: 'parentAccount', label: "Parent account's metadata" },
  { source: 'visitorId', label: 'Visitor id' },
  { source: 'accountId', label: 'Account id' },
];

export const AUDIENCE_OPERATORS: Array<{ operator: AudienceOperator; label: string }> = [
  { operator: 'equals', label: 'is' },
  { operator: 'in', label: 'is one of' },
  { operator: 'contains', label: 'contains' },
  { operator: 'startsWith', label: 'starts with' },
];

export const isMetadataSource = (source: AudienceSource) => source === 'visitor' || source === 'account' || source === 'parentAccount';

export function newAudienceRule(): AudienceRule {
  return { source: 'visitor', field: '', operator: 'equals', value: '', valueType: 'text' };
}

/** The condition's path (`visitor.role`, `accountId`). */
export function rulePath(rule: AudienceRule): string {
  return isMetadataSource(rule.source) ? `${rule.source}.${rule.field.trim()}` : rule.source;
}

/** A typed value as the condition holds it; undefined when it does not read as its type. */
function typed(text: string, type: AudienceValueType): SegmentValue | undefined {
  const t = text.trim();
  if (type === 'text') return t;
  if (type === 'boolean') return t === 'true' ? true : t === 'false' ? false : undefined;
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : undefined;
}

/** What is wrong with a rule as written; null when it can be saved. */
export function ruleProblem(rule: AudienceRule): string | null {
  if (isMetadataSource(rule.source) && !/^[^.\s]+(\.[^.\s]+)*$/.test(rule.field.trim())) return 'Name the metadata field (for example role or plan.tier).';
  if (rule.operator === 'startsWith' && rule.valueType !== 'text') return '"starts with" compares text.';
  const parts = rule.operator === 'in' ? rule.value.split(',') : [rule.value];
  if (rule.valueType === 'text' && parts.every((p) => p.trim() === '')) return 'Write the value.';
  if (parts.some((p) => typed(p, rule.valueType) === undefined)) {
    return rule.valueType === 'number' ? 'The value is not a number.' : 'The value is true or false.';
  }
  return null;
}

/** The condition of a rule that {@link ruleProblem} passed. */
function conditionOf(rule: AudienceRule): SegmentCondition {
  if (rule.operator === 'in') {
    const values = rule.value.split(',').filter((p) => p.trim() !== '').map((p) => typed(p, rule.valueType)!);
    return { in: values };
  }
  const value = typed(rule.value, rule.valueType)!;
  if (rule.operator === 'startsWith') return { startsWith: String(value) };
  if (rule.operator === 'contains') return { contains: value };
  return { equals: value };
}

/**
 * The guide's audience from the rules that can be saved (the rest are shown with their problem and left out);
 * undefined when none: everyone. Two rules on one path: the later wins (the editor warns).
 */
export function toAudience(rules: readonly AudienceRule[]): GuideAudience | undefined {
  const when: Record<string, SegmentCondition> = {};
  for (const rule of rules) if (!ruleProblem(rule)) when[rulePath(rule)] = conditionOf(rule);
  return Object.keys(when).length ? { when } : undefined;
}

/** The editor's rules of a stored audience (one the server accepted); anything else reads as no rule. */
export function fromAudience(audience: unknown): AudienceRule[] {
  const when = (audience as GuideAudience | undefined)?.when;
  if (checkConditions(when) !== null) return [];
  return Object.entries(when!).map(([path, condition]) => {
    const [root, ...rest] = path.split('.');
    const operator: AudienceOperator = condition !== null && typeof condition === 'object' ? (Object.keys(condition)[0] as AudienceOperator) : 'equals';
    const operand = condition !== null && typeof condition === 'object' ? Object.values(condition)[0] : condition;
    const values: unknown[] = Array.isArray(operand) ? operand : [operand];
    const valueType: AudienceValueType = typeof values[0] === 'number' ? 'number' : typeof values[0] === 'boolean' ? 'boolean' : 'text';
    return { source: root as AudienceSource, field: rest.join('.'), operator, value: values.map((v) => String(v ?? '')).join(', '), valueType };
  });
}

/** The paths two or more rules write (the later wins). */
export function repeatedPaths(rules: readonly AudienceRule[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const rule of rules) {
    const path = rulePath(rule);
    if (seen.has(path)) repeated.add(path);
    seen.add(path);
  }
  return [...repeated];
}

/** The audience in words, as the editor sums it up: "Everyone", or each condition joined by "and". */
export function describeAudience(rules: readonly AudienceRule[]): string {
  const valid = rules.filter((r) => !ruleProblem(r));
  if (!valid.length) return 'Every visitor (on the pages and elements above).';
  const source = (r: AudienceRule) => AUDIENCE_SOURCES.find((s) => s.source === r.source)!.label.toLowerCase();
  const label = (r: AudienceRule) => (isMetadataSource(r.source) ? `${source(r).replace(' metadata', '')} ${r.field.trim()}` : source(r));
  const op = (r: AudienceRule) => AUDIENCE_OPERATORS.find((o) => o.operator === r.operator)!.label;
  return `Only visitors where ${valid.map((r) => `${label(r)} ${op(r)} ${r.value.trim()}`).join(' and ')}.`;
}
