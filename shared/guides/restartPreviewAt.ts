/**
 * A previewed guide started at one of its steps (guides §3 Preview modes: "restart (steps reset; earlier steps
 * marked advanced with reason continue)"): every step before it reads as advanced with seen reason `continue`,
 * it and every later step as never seen, so the guide stands as if the visitor had walked up to that step and
 * the step shows as the guide's continuation. Pure.
 */
import type { Guide } from './guides';

/** The guide with its steps set for a start at `stepId`; unchanged when the guide has no such step. */
export function restartPreviewAt(guide: Guide, stepId: string): Guide {
  const at = guide.steps.findIndex((s) => s.id === stepId);
  if (at < 0) return guide;
  return {
    ...guide,
    steps: guide.steps.map((step, i) => {
      const { seenState: _seen, seenReason: _reason, lastSeenAt: _at, ...rest } = step;
      return i < at ? { ...rest, seenState: 'advanced' as const, seenReason: 'continue' } : { ...rest, seenState: 'none' as const };
    }),
  };
}
