/**
 * The guides of the last load as the visitor's actions change them (seen states, dismissals): the engine's one
 * piece of shared state, read by the surfaces and the step actions. A change replaces a guide, never mutates it
 * (shared/guides/applyGuideTransition answers new guides).
 */
import type { Guide, GuideStep } from '../../shared/guides/guides';

export interface GuideBook {
  list(): Guide[];
  set(guides: Guide[]): void;
  /** A guide and one of its steps, or null. */
  find(guideId: string, stepId: string): { guide: Guide; step: GuideStep } | null;
  byId(guideId: string): Guide | undefined;
  /** Replaces the guide with this id by what `update` makes of it. */
  update(guideId: string, update: (guide: Guide) => Guide): void;
  /** Marks the steps (all, or `stepId` only) of a guide notSeen (guides §4 control group, step timeout). */
  markNotSeen(guideId: string, stepId?: string): void;
}

export function createGuideBook(): GuideBook {
  let guides: Guide[] = [];
  const book: GuideBook = {
    list: () => guides,
    set(list) {
      guides = list;
    },
    find(guideId, stepId) {
      const guide = guides.find((g) => g.id === guideId);
      const step = guide?.steps.find((s) => s.id === stepId);
      return guide && step ? { guide, step } : null;
    },
    byId: (guideId) => guides.find((g) => g.id === guideId),
    update(guideId, update) {
      guides = guides.map((g) => (g.id === guideId ? update(g) : g));
    },
    markNotSeen(guideId, stepId) {
      book.update(guideId, (g) => ({ ...g, steps: g.steps.map((st) => (stepId === undefined || st.id === stepId ? { ...st, seenState: 'notSeen' as const } : st)) }));
    },
  };
  return book;
}
