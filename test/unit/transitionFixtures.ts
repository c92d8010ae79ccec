/**
 * Fixtures of the step state machine tests (guides §4 Transitions): frozen guides, and `apply` / `refusal`,
 * which also check that applyGuideTransition never mutates its input.
 */
import { expect } from 'vitest';
import { applyGuideTransition, type GuideTransition, type TransitionContext, type TransitionResult } from '../../shared/guides/applyGuideTransition';
import type { Guide, GuideStep } from '../../shared/guides/guides';

export const NOW = 1_700_000_000_000;
/** When the active step of a fixture went on screen: 4.25 s before NOW. */
export const SHOWN_AT = NOW - 4_250;
export const UPDATED_AT = 1_699_000_000_000;

/** Freezes an object and everything it holds, so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export const step = (guideId: string, id: string, extra: Partial<GuideStep> = {}): GuideStep => ({ id, guideId, type: 'tooltip', ...extra });

/** A 3-step auto guide on its first step, shown 4.25 s ago. */
export function guide3(overrides: Record<string, Partial<GuideStep>> = {}, extra: Partial<Guide> = {}): Guide {
  return deepFreeze({
    id: 'g3',
    launchMethod: 'auto',
    isMultiStep: true,
    lastUpdatedAt: UPDATED_AT,
    steps: [
      step('g3', 's1', { seenState: 'active', seenReason: 'auto', lastSeenAt: SHOWN_AT, ...overrides.s1 }),
      step('g3', 's2', overrides.s2),
      step('g3', 's3', overrides.s3),
    ],
    ...extra,
  });
}

/** A 4-step api guide that nobody has seen yet. */
export function guide4(overrides: Record<string, Partial<GuideStep>> = {}, extra: Partial<Guide> = {}): Guide {
  return deepFreeze({
    id: 'g4',
    launchMethod: 'api',
    isMultiStep: true,
    lastUpdatedAt: UPDATED_AT,
    steps: ['a1', 'a2', 'a3', 'a4'].map((id) => step('g4', id, overrides[id])),
    ...extra,
  });
}

/** Applies a transition and checks it neither mutated its input nor was refused. */
export function apply(guide: Guide, transition: GuideTransition, ctx: Partial<TransitionContext> = {}) {
  const before = structuredClone(guide);
  const result = applyGuideTransition(guide, transition, { now: NOW, ...ctx });
  expect(guide).toEqual(before);
  if (!result.ok) throw new Error(`unexpected refusal: ${result.refusal}`);
  expect(result.guide).not.toBe(guide);
  return result;
}

/** Applies a transition that must be refused, and returns the refusal. */
export function refusal(guide: Guide, transition: GuideTransition, ctx: Partial<TransitionContext> = {}): string {
  const before = structuredClone(guide);
  const result: TransitionResult = applyGuideTransition(guide, transition, { now: NOW, ...ctx });
  expect(guide).toEqual(before);
  if (result.ok) throw new Error(`expected a refusal of ${JSON.stringify(transition)}`);
  expect(Object.keys(result)).toEqual(['ok', 'refusal']);
  expect(result.refusal.trim().length).toBeGreaterThan(0);
  return result.refusal;
}

export const states = (guide: Guide) => guide.steps.map((s) => s.seenState ?? 'none');
