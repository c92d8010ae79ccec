/**
 * GET /api/apps/{apiKey}/visitors/{visitorId}/guides: where one visitor stands with each guide they met, from the
 * same stored history guide.json serves them (createEventStore's latest step states, applyStepStates): completed
 * (guides §4 Guide completion), dismissed, snoozed (until when), in progress (at which step), in the control
 * group, or timed out; the step and the time of their latest guide event. A support team's "did this customer see
 * the onboarding?".
 */
import { DEFAULT_SNOOZE_MS } from '../../shared/constants';
import { completionStatus } from '../../shared/guides/continuationStep';
import type { Guide } from '../../shared/guides/guides';
import { applyStepStates } from '../guides/applyStepStates';
import type { StepStateEvent } from '../ingest/createEventStore';
import type { VisitorGuideRow, VisitorGuideStatus } from '../../shared/api';

const STATUS_OF: Record<StepStateEvent['type'], VisitorGuideStatus> = {
  guideSeen: 'in progress',
  guideAdvanced: 'in progress',
  guideDismissed: 'dismissed',
  guideSnoozed: 'snoozed',
  control: 'control group',
  guideTimeout: 'timed out',
};

/** The visitor's guides, the latest first. */
export function visitorGuides(guides: Guide[], states: StepStateEvent[], visitorId: string): VisitorGuideRow[] {
  const latest = new Map<string, StepStateEvent>();
  for (const s of states) {
    const before = latest.get(s.guideId);
    if (!before || s.time > before.time || (s.time === before.time && s.id > before.id)) latest.set(s.guideId, s);
  }
  const met = guides.filter((g) => latest.has(g.id));
  const applied = new Map(applyStepStates(met, states, visitorId).guides.map((g) => [g.id, g]));
  const rows: VisitorGuideRow[] = [];
  for (const [guideId, event] of latest) {
    const guide = applied.get(guideId);
    const index = guide ? guide.steps.findIndex((s) => s.id === event.guideStepId) : -1;
    const status: VisitorGuideStatus = guide && completionStatus(guide) === 'complete' ? 'completed' : STATUS_OF[event.type];
    rows.push({
      guideId,
      name: guide?.name ?? guideId,
      status,
      step: index + 1,
      steps: guide?.steps.length ?? 0,
      at: event.time,
      ...(status === 'snoozed' ? { snoozedUntil: event.time + (Number.isFinite(event.snoozeDuration) ? event.snoozeDuration! : DEFAULT_SNOOZE_MS) } : {}),
      ...(guide ? {} : { deleted: true as const }),
    });
  }
  return rows.sort((a, b) => b.at - a.at || a.guideId.localeCompare(b.guideId));
}
