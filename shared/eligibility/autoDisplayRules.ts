/**
 * Guide eligibility as a list of small named rules, each `evaluate(ctx) -> { pass, reason }`, run by a tiny
 * loop (STYLE §3). The reasons are kept: they are what a debugger shows when a guide does not appear.
 * This is the first cut of guides §4 "Auto display"; the guide engine issue adds throttling, timebox,
 * repeat, continuation and the rest as further rules in the same list.
 */
import type { Guide, GuideLoadResponse, GuideStep } from '../guides/guides';

/** The facts a rule may look at. `step` is the step the guide would show next. */
export interface RuleContext {
  guide: Guide;
  step: GuideStep | undefined;
  url: string;
  device: 'desktop' | 'mobile';
  lastGuideStepSeen: GuideLoadResponse['lastGuideStepSeen'];
}

export interface RuleResult {
  pass: boolean;
  reason: string;
}

export interface EligibilityRule<C extends RuleContext = RuleContext> {
  name: string;
  evaluate(ctx: C): RuleResult;
}

const pass = (reason = 'ok'): RuleResult => ({ pass: true, reason });
const refuse = (reason: string): RuleResult => ({ pass: false, reason });

/** The launch methods a guide names: combinations such as 'auto-launcher' or 'api,dom' (guides §3). */
export function launchMethods(guide: Pick<Guide, 'launchMethod'>): string[] {
  return String(guide.launchMethod ?? '').split(/[-,\s]+/);
}

/** A guide shows by itself only when its launch method includes auto (wire-protocol.md). */
export const autoLaunchRule: EligibilityRule = {
  name: 'launchMethod',
  evaluate: ({ guide }) => (launchMethods(guide).includes('auto') ? pass() : refuse(`launchMethod '${guide.launchMethod}' has no auto`)),
};

/** spec: guides §5 — any step with a pageId needs a regexUrlRule, otherwise the guide is dropped. */
export const pageIdNeedsRuleRule: EligibilityRule = {
  name: 'pageIdNeedsRegexUrlRule',
  evaluate: ({ guide }) => {
    const bad = guide.steps.find((s) => s.pageId && !s.regexUrlRule);
    return bad ? refuse(`step ${bad.id} has pageId without regexUrlRule`) : pass();
  },
};

/** A guide whose steps were all advanced or dismissed has nothing left to show. */
export const hasStepRule: EligibilityRule = {
  name: 'nextStep',
  evaluate: ({ step }) => (step ? pass() : refuse('no step left to show')),
};

/** spec: guides §4 — a step shows only if the page rule matches. */
export const pageRule: EligibilityRule = {
  name: 'regexUrlRule',
  evaluate: ({ step, url }) => {
    if (!step?.regexUrlRule) return pass('no page rule');
    let re: RegExp;
    try {
      re = new RegExp(step.regexUrlRule);
    } catch {
      return refuse(`regexUrlRule of step ${step.id} is not a valid regular expression`);
    }
    return re.test(url) ? pass() : refuse(`page ${url} does not match ${step.regexUrlRule}`);
  },
};

/**
 * spec: guides §5 — a step rendered on a page its URL rule does not match, or with a missing page rule (a
 * pageId without regexUrlRule), is a page rule exception: the reason, or null when the step belongs here.
 */
export function pageRuleException(guide: Guide, step: GuideStep, url: string): string | null {
  const ctx: RuleContext = { guide: { ...guide, steps: [step] }, step, url, device: 'desktop', lastGuideStepSeen: {} };
  for (const rule of [pageIdNeedsRuleRule, pageRule]) {
    const verdict = rule.evaluate(ctx);
    if (!verdict.pass) return verdict.reason;
  }
  return null;
}

/** spec: guides §4 — a step shows only if the device matches. */
export const deviceRule: EligibilityRule = {
  name: 'device',
  evaluate: ({ guide, device }) => {
    const d = guide.attributes?.device;
    if (d && (d.desktop !== undefined || d.mobile !== undefined)) {
      return d[device] ? pass() : refuse(`guide is not for ${device}`);
    }
    const type = guide.attributes?.type;
    if (type === 'desktop' || type === 'mobile') return type === device ? pass() : refuse(`guide is not for ${device}`);
    return pass();
  },
};

/** A step dismissed in seenState or in lastGuideStepSeen is not displayed (wire-protocol.md). */
export const notDismissedRule: EligibilityRule = {
  name: 'notDismissed',
  evaluate: ({ guide, lastGuideStepSeen }) => {
    // spec: guides §4 Repeat — a guide with a redisplay setting may come back; the repeat rule decides.
    if (guide.redisplay?.interval !== undefined) return pass('redisplay: the repeat rule decides');
    if (guide.steps.some((s) => s.seenState === 'dismissed')) return refuse('guide was dismissed');
    if (lastGuideStepSeen.guideId === guide.id && lastGuideStepSeen.state === 'dismissed') {
      return refuse('guide was dismissed (lastGuideStepSeen)');
    }
    return pass();
  },
};

/** The rules of auto display, in the order they are checked. */
/**
 * guides §3 attributes.stayHidden, of the guide or of its next step (the spec names it, ours to define): the guide
 * never shows by itself, and has no badge or element activation; it shows when asked for by id (showGuideById,
 * a permalink, the debugger's Show), as a guide launched by API would.
 */
export const stayHiddenRule: EligibilityRule = {
  name: 'stayHidden',
  evaluate: ({ guide, step }) => (guide.attributes?.stayHidden === true || step?.attributes?.stayHidden === true ? refuse('shown only when asked for by id') : pass()),
};

export const AUTO_DISPLAY_RULES: readonly EligibilityRule[] = [
  autoLaunchRule,
  pageIdNeedsRuleRule,
  notDismissedRule,
  hasStepRule,
  stayHiddenRule,
  deviceRule,
  pageRule,
];

/** Runs rules in order and stops at the first refusal, naming the rule in the reason. */
export function evaluateRules<C extends RuleContext>(rules: readonly EligibilityRule<C>[], ctx: C): RuleResult {
  for (const rule of rules) {
    const result = rule.evaluate(ctx);
    if (!result.pass) return { pass: false, reason: `${rule.name}: ${result.reason}` };
  }
  return pass();
}

/** The step a guide would show next: the first one not yet advanced or dismissed. */
export function nextStepOf(guide: Guide): GuideStep | undefined {
  return guide.steps.find((s) => s.seenState !== 'advanced' && s.seenState !== 'dismissed');
}
