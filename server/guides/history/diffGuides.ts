/**
 * The difference between two versions of a guide in words (issue #33, the History tab): steps added or removed,
 * each step's text changed, targeting changed (launch method, page rules, audience, schedule), state changed.
 * Pure: two guides and their states in, a list of changes out, each with its sentence.
 */
import type { GuideChange } from '../../../shared/api/guideHistory';
import type { Guide, GuideStep } from '../../../shared/guides/guides';

// A change is part of the API's answer (GET .../diff): one description, in shared/api/guideHistory.ts.
export type { GuideChange } from '../../../shared/api/guideHistory';

/** One side of a diff. */
export interface GuideSide {
  guide: Guide;
  state: string;
}

// What the server sets itself, or the agent's per-visitor fields: never a change an author made.
const IGNORED = new Set(['publishedAt', 'lastUpdatedAt', 'state', 'steps', 'id']);
const SCHEDULE = ['showsAfter', 'expiresAfter', 'redisplay'] as const;
const AUDIENCE = ['audience', 'targetAccount'] as const;
const STEP_TEXT = ['markdown', 'domJson', 'contentUrl', 'domUrl'] as const;
const STEP_TARGET = ['regexUrlRule', 'pageId', 'elementPathRule', 'triggerElementPathRule', 'elementContainsRulesList'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const shown = (value: unknown) => (value === undefined ? 'none' : typeof value === 'string' ? `'${value}'` : JSON.stringify(value));
const when = (value: unknown) => (typeof value === 'number' ? new Date(value).toISOString() : shown(value));
const stepName = (step: GuideStep, index: number) => `step ${index + 1} (${step.id})`;

/** The changes from `a` to `b`, in the order a reader wants them: state, steps, targeting, the rest. */
export function diffGuides(a: GuideSide, b: GuideSide): GuideChange[] {
  const changes: GuideChange[] = [];
  if (a.state !== b.state) changes.push({ kind: 'state', before: a.state, after: b.state, sentence: `State changed from ${a.state} to ${b.state}.` });
  if (!same(a.guide.name, b.guide.name)) {
    changes.push({ kind: 'name', before: a.guide.name, after: b.guide.name, sentence: `Name changed from ${shown(a.guide.name)} to ${shown(b.guide.name)}.` });
  }
  changes.push(...diffSteps(a.guide.steps, b.guide.steps));
  if (!same(a.guide.launchMethod, b.guide.launchMethod)) {
    changes.push({ kind: 'launchMethod', field: 'launchMethod', before: a.guide.launchMethod, after: b.guide.launchMethod,
      sentence: `Launch method changed from ${shown(a.guide.launchMethod)} to ${shown(b.guide.launchMethod)}.` });
  }
  for (const field of AUDIENCE) {
    if (!same(a.guide[field], b.guide[field])) {
      changes.push({ kind: 'audience', field, before: a.guide[field], after: b.guide[field], sentence: `Audience (${field}) changed from ${shown(a.guide[field])} to ${shown(b.guide[field])}.` });
    }
  }
  for (const field of SCHEDULE) {
    if (!same(a.guide[field], b.guide[field])) {
      const show = field === 'redisplay' ? shown : when;
      changes.push({ kind: 'schedule', field, before: a.guide[field], after: b.guide[field], sentence: `Schedule (${field}) changed from ${show(a.guide[field])} to ${show(b.guide[field])}.` });
    }
  }
  const rest = new Set([...Object.keys(a.guide), ...Object.keys(b.guide)]);
  for (const field of ['name', 'launchMethod', ...AUDIENCE, ...SCHEDULE, ...IGNORED]) rest.delete(field);
  for (const field of [...rest].sort()) {
    const before = (a.guide as unknown as Record<string, unknown>)[field];
    const after = (b.guide as unknown as Record<string, unknown>)[field];
    if (same(before, after)) continue;
    const translations = field === 'translations' || field === 'translationStates';
    changes.push({ kind: translations ? 'translations' : 'other', field, before, after, sentence: translations ? `Translations (${field}) changed.` : `${field} changed.` });
  }
  return changes;
}

function diffSteps(before: GuideStep[], after: GuideStep[]): GuideChange[] {
  const changes: GuideChange[] = [];
  const old = new Map(before.map((step, index) => [step.id, { step, index }]));
  const now = new Map(after.map((step, index) => [step.id, { step, index }]));
  before.forEach((step, index) => {
    if (!now.has(step.id)) changes.push({ kind: 'stepRemoved', stepId: step.id, before: step, sentence: `Removed ${stepName(step, index)}.` });
  });
  after.forEach((step, index) => {
    const was = old.get(step.id);
    if (!was) {
      changes.push({ kind: 'stepAdded', stepId: step.id, after: step, sentence: `Added ${stepName(step, index)}.` });
      return;
    }
    for (const field of STEP_TEXT) {
      if (!same(was.step[field], step[field])) {
        const words = typeof was.step[field] === 'string' || typeof step[field] === 'string'
          ? ` from ${shown(was.step[field])} to ${shown(step[field])}` : '';
        changes.push({ kind: 'stepText', stepId: step.id, field, before: was.step[field], after: step[field], sentence: `Text of ${stepName(step, index)} changed (${field})${words}.` });
      }
    }
    for (const field of STEP_TARGET) {
      if (!same(was.step[field], step[field])) {
        const rule = field === 'regexUrlRule' || field === 'pageId' ? 'Page rule' : 'Element rule';
        changes.push({ kind: 'stepTarget', stepId: step.id, field, before: was.step[field], after: step[field],
          sentence: `${rule} of ${stepName(step, index)} changed (${field}) from ${shown(was.step[field])} to ${shown(step[field])}.` });
      }
    }
  });
  return changes;
}
