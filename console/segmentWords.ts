/**
 * A segment's definition in words for the Segments screens (issue #35): "visitor.plan is pro and used Export at least
 * 3 times in the last 30 days and never visited Billing". Features, pages and guides are named by `names` (an id
 * no longer known is shown as is). Pure.
 */
import type { BehaviourCondition, SegmentDefinition } from './types';

const OPERATOR_WORDS: Record<string, string> = { equals: 'is', contains: 'contains', startsWith: 'starts with', in: 'is one of' };

/** Names of the app's features, pages and guides by id. */
export interface SegmentNames {
  feature(id: string): string | undefined;
  page(id: string): string | undefined;
  guide(id: string): string | undefined;
}

/** One metadata condition: "visitor.plan is pro". */
export function conditionInWords(path: string, condition: unknown): string {
  if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
    const [operator, operand] = Object.entries(condition)[0] ?? ['equals', ''];
    const value = Array.isArray(operand) ? operand.map(String).join(', ') : String(operand);
    return `${path} ${OPERATOR_WORDS[operator] ?? operator} ${value}`;
  }
  return `${path} is ${String(condition)}`;
}

const within = (days: number | undefined) => (days === undefined ? '' : ` in the last ${days} day${days === 1 ? '' : 's'}`);

/** What a target is, in words: "used Export", "visited Billing", "sent report shared". */
function targetInWords(target: { feature?: string; page?: string; track?: string }, names: SegmentNames, verb: 'did' | 'never'): string {
  if (target.feature !== undefined) return `${verb === 'never' ? 'never used' : 'used'} ${names.feature(target.feature) ?? target.feature}`;
  if (target.page !== undefined) return `${verb === 'never' ? 'never visited' : 'visited'} ${names.page(target.page) ?? target.page}`;
  return `${verb === 'never' ? 'never sent' : 'sent'} the track event "${target.track ?? ''}"`;
}

/** One behaviour condition in words. */
export function behaviourInWords(condition: BehaviourCondition, names: SegmentNames): string {
  if ('guideSeen' in condition) return `saw the guide ${names.guide(condition.guideSeen) ?? condition.guideSeen}${within(condition.days)}`;
  if ('never' in condition) return `${targetInWords(condition.never, names, 'never')}${within(condition.days)}`;
  const atLeast = condition.atLeast ?? 1;
  const times = atLeast > 1 ? ` at least ${atLeast} times` : '';
  return `${targetInWords(condition, names, 'did')}${times}${within(condition.days)}`;
}

/** The whole definition: each condition, joined by "and". */
export function definitionInWords(definition: SegmentDefinition, names: SegmentNames): string {
  const parts = [
    ...Object.entries(definition.when ?? {}).map(([path, condition]) => conditionInWords(path, condition)),
    ...(definition.behaviour ?? []).map((condition) => behaviourInWords(condition, names)),
  ];
  return parts.join(' and ') || 'every visitor';
}
