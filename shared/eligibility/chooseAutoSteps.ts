/**
 * guides §4 "Auto display" as a whole: which step of each loaded guide would show, and whether it may.
 * The step is the continuation of a multi-step guide (from lastGuideStepSeen), else the first step not yet
 * advanced or dismissed, else (a guide with a redisplay setting) its first step again; then the guide passes
 * AUTO_DISPLAY_RULES and SCHEDULE_RULES, each refusal kept with its rule's name for the debugger.
 */
import { continuationStep } from '../guides/continuationStep';
import { evaluateScheduleRules, SCHEDULE_RULES, type ScheduleFacts, type ScheduleRule } from './scheduleRules';
import type { Guide, GuideLoadResponse, GuideStep } from '../guides/guides';
import type { SeenReason } from '../protocol';
import { AUTO_DISPLAY_RULES, nextStepOf } from './autoDisplayRules';

export interface AutoChoiceOptions {
  url: string;
  device: 'desktop' | 'mobile';
  schedule: ScheduleFacts;
  /** guides §4: adoption (isTraining) guides before the others or after. @default 'before' */
  adoptionGuides?: 'before' | 'after';
  /** The rules to run. @default ALL_AUTO_RULES */
  rules?: readonly ScheduleRule[];
}

export interface AutoChoice {
  /** Steps that may show, in display order, with the seen reason they would show with. */
  eligible: Array<{ guide: Guide; step: GuideStep; reason: SeenReason }>;
  /** Guides that may not, with the rule that refused them. */
  skipped: Array<{ guideId: string; stepId?: string; reason: string }>;
  /** Guides whose continuation record was older than 12 hours: the caller logs it once. */
  expiredContinuations: string[];
}

/** Every rule of auto display in the order checked: the guide's own rules first, then the clock's. */
export const ALL_AUTO_RULES: readonly ScheduleRule[] = [...AUTO_DISPLAY_RULES, ...SCHEDULE_RULES];

export function chooseAutoSteps(response: GuideLoadResponse, options: AutoChoiceOptions): AutoChoice {
  const choice: AutoChoice = { eligible: [], skipped: [], expiredContinuations: [] };
  const adoptionRank = (g: Guide) => (g.isTraining === true ? 0 : 1) * (options.adoptionGuides === 'after' ? -1 : 1);
  const ordered = response.guides
    .map((guide, index) => ({ guide, index }))
    .sort((a, b) => priorityOf(a.guide) - priorityOf(b.guide) || adoptionRank(a.guide) - adoptionRank(b.guide) || a.index - b.index);
  for (const { guide } of ordered) {
    const continued = continuationStep(guide, response.lastGuideStepSeen, options.schedule.now);
    if (continued.expired) choice.expiredContinuations.push(guide.id);
    let step = continued.step;
    let reason: SeenReason = 'continue';
    if (!step) {
      reason = 'auto';
      // spec: guides §4 Repeat — a guide with a redisplay setting starts over once every step was seen.
      step = nextStepOf(guide) ?? (guide.redisplay?.interval !== undefined ? guide.steps[0] : undefined);
    }
    const result = evaluateScheduleRules(options.rules ?? ALL_AUTO_RULES, {
      guide,
      step,
      url: options.url,
      device: options.device,
      lastGuideStepSeen: response.lastGuideStepSeen,
      schedule: options.schedule,
    });
    if (result.pass && step) choice.eligible.push({ guide, step, reason });
    else choice.skipped.push({ guideId: guide.id, stepId: step?.id, reason: result.reason });
  }
  return choice;
}

function priorityOf(guide: Guide): number {
  const p = guide.attributes?.priority;
  return typeof p === 'number' && Number.isFinite(p) ? p : Number.MAX_SAFE_INTEGER;
}
