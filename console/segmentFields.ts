/**
 * A segment's definition as the console's form edits it (issue #35), and back: metadata conditions as rows of
 * (path, operator, value text) and behaviour conditions as rows of (kind, target, atLeast, days), as
 * react-hook-form's field arrays hold them. A value is read as JSON when it is a number, true, false or null, else as
 * text; `is one of` takes a comma list. Pure.
 */
import type { BehaviourCondition, SegmentDefinition } from './types';

/** A metadata condition's operator: `is` is the exact value, the others the condition language's operators. */
export type WhenOperator = 'is' | 'contains' | 'startsWith' | 'in';

/** What a behaviour row counts. */
export type BehaviourKind = 'feature' | 'page' | 'track' | 'guideSeen' | 'neverFeature' | 'neverPage' | 'neverTrack';

/** The form's fields. */
export interface SegmentFields {
  name: string;
  when: Array<{ path: string; operator: WhenOperator; value: string }>;
  behaviour: Array<{ kind: BehaviourKind; target: string; atLeast: string; days: string }>;
}

/** The behaviour kinds in the order the form offers them, with their words. */
export const BEHAVIOUR_KINDS: ReadonlyArray<{ kind: BehaviourKind; label: string }> = [
  { kind: 'feature', label: 'used the feature' },
  { kind: 'page', label: 'visited the page' },
  { kind: 'track', label: 'sent the track event' },
  { kind: 'guideSeen', label: 'saw the guide' },
  { kind: 'neverFeature', label: 'never used the feature' },
  { kind: 'neverPage', label: 'never visited the page' },
  { kind: 'neverTrack', label: 'never sent the track event' },
];

/** A never kind's target field. */
const NEVER_OF: Partial<Record<BehaviourKind, 'feature' | 'page' | 'track'>> = { neverFeature: 'feature', neverPage: 'page', neverTrack: 'track' };

/** True when the kind takes `atLeast` (a plain feature, page or track condition). */
export const takesAtLeast = (kind: BehaviourKind) => kind === 'feature' || kind === 'page' || kind === 'track';

/** What the target is picked from: the app's features, pages or guides; or typed (a track event's name). */
export function targetList(kind: BehaviourKind): 'features' | 'pages' | 'guides' | 'text' {
  if (kind === 'feature' || kind === 'neverFeature') return 'features';
  if (kind === 'page' || kind === 'neverPage') return 'pages';
  return kind === 'guideSeen' ? 'guides' : 'text';
}

/** A value's text read: a number, true, false or null as JSON, anything else as the text itself. */
function readValue(text: string): string | number | boolean | null {
  const trimmed = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed) || ['true', 'false', 'null'].includes(trimmed)) return JSON.parse(trimmed) as number | boolean | null;
  return text;
}

const valueText = (value: unknown) => (Array.isArray(value) ? value.map(String).join(', ') : String(value));

/** The form's values of a stored definition. */
export function fieldsOf(name: string, definition: SegmentDefinition): SegmentFields {
  const when = Object.entries(definition.when ?? {}).map(([path, condition]) => {
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      const [operator, operand] = Object.entries(condition)[0] ?? ['equals', ''];
      return { path, operator: (operator === 'equals' ? 'is' : operator) as WhenOperator, value: valueText(operand) };
    }
    return { path, operator: 'is' as const, value: valueText(condition) };
  });
  const behaviour = (definition.behaviour ?? []).map((condition: BehaviourCondition) => {
    const days = condition.days === undefined ? '' : String(condition.days);
    if ('guideSeen' in condition) return { kind: 'guideSeen' as const, target: condition.guideSeen, atLeast: '', days };
    if ('never' in condition) {
      const [field, target] = Object.entries(condition.never)[0] ?? ['feature', ''];
      const kind = (`never${field[0]!.toUpperCase()}${field.slice(1)}`) as BehaviourKind;
      return { kind, target: String(target), atLeast: '', days };
    }
    const field = 'feature' in condition ? 'feature' : 'page' in condition ? 'page' : 'track';
    const target = (condition as Record<string, unknown>)[field];
    return { kind: field as BehaviourKind, target: String(target), atLeast: condition.atLeast === undefined ? '' : String(condition.atLeast), days };
  });
  return { name, when, behaviour };
}

/** A whole number typed in a field, or undefined when empty (the server refuses what is not one, naming it). */
function numberOf(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text.trim());
}

/** The definition the form's values describe. */
export function definitionOf(fields: SegmentFields): SegmentDefinition {
  const definition: SegmentDefinition = {};
  if (fields.when.length) {
    definition.when = Object.fromEntries(
      fields.when.map(({ path, operator, value }) => {
        const path_ = path.trim();
        if (operator === 'is') return [path_, readValue(value)];
        if (operator === 'in') return [path_, { in: value.split(',').map((item) => readValue(item.trim())) }];
        return [path_, operator === 'contains' ? { contains: readValue(value) } : { startsWith: value }];
      }),
    );
  }
  if (fields.behaviour.length) {
    definition.behaviour = fields.behaviour.map(({ kind, target, atLeast, days }): BehaviourCondition => {
      const window = numberOf(days) === undefined ? {} : { days: numberOf(days)! };
      const never = NEVER_OF[kind];
      if (never) return { never: { [never]: target.trim() } as { feature: string }, ...window };
      if (kind === 'guideSeen') return { guideSeen: target, ...window };
      const times = numberOf(atLeast) === undefined ? {} : { atLeast: numberOf(atLeast)! };
      return { [kind]: target.trim(), ...times, ...window } as BehaviourCondition;
    });
  }
  return definition;
}

/**
 * The form's field of a server's 400 `field`: `definition.behaviour[2].atLeast` -> `behaviour.2.atLeast`, its
 * target (`.feature`, `.never.page`, `.guideSeen`) -> `behaviour.2.target`; undefined when the form has none.
 */
export function formFieldOf(field: string): string | undefined {
  if (field === 'name') return 'name';
  const behaviour = /^definition\.behaviour\[(\d+)\](?:\.never)?\.(\w+)$/.exec(field);
  if (behaviour) {
    const [, i, part] = behaviour;
    return `behaviour.${i}.${part === 'atLeast' || part === 'days' ? part : 'target'}`;
  }
  return undefined;
}
