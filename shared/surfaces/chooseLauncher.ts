/**
 * guides §2 "Launcher (guide center)", §3 "Launcher config": whether the load response's launcher shows on
 * this page, and which guides it lists. Pure (STYLE §3): the worker runs it at every guide load.
 *
 * The config rides on guide.json as `launcher` (wire-protocol.md names no field for it):
 * `{enabled, data: {launchType, position, launcherBadgeUrl, enableSearch, whatsnew, onboarding, height,
 * width, device {desktop, mobile, iframe}, contentUrl, contentUrlCss, contentUrlJs}}`, plus three fields the
 * spec's list does not name: `data.elementPathRule` (the element of launchType element), `data.hideCredits`
 * (no powered-by line) and `data.autoOpen` (the panel opens by itself; off unless set, issue #36).
 */
import { isStepSeen } from '../eligibility/canRepeat';
import { LAUNCHER_DEFAULTS } from '../constants';
import { completionStatus } from '../guides/continuationStep';
import { controlGroupRule, timeboxRule, type ScheduleRule, type ScheduleRuleContext } from '../eligibility/scheduleRules';
import type { Guide, GuideLoadResponse } from '../guides/guides';
import type { LauncherPosition, LauncherToShow } from '../protocol';
import { deviceRule, evaluateRules, launchMethods, pageIdNeedsRuleRule, pageRule, type RuleResult } from '../eligibility/autoDisplayRules';
import { whatsNewItems, type WhatsNewItem } from './launcherPanel';

export const LAUNCHER_POSITIONS: readonly LauncherPosition[] = ['bottom-right', 'bottom-left', 'top-left', 'top-right'];

/** The launcher settings read from a valid config; `launcherBadgeUrl` is still unchecked (the worker checks its origin). */
export type LauncherSettings = Omit<LauncherToShow, 'guides' | 'onboarding' | 'whatsnewUnseen' | 'whatsnew' | 'closedFlagKey' | 'badgeImageUrl' | 'content' | 'css' | 'scriptUrl'> & {
  launcherBadgeUrl?: string;
  /** guides §2 custom content, CSS and JS by URL, still unchecked (the worker checks their origins). */
  contentUrl?: string;
  contentUrlCss?: string;
  contentUrlJs?: string;
  whatsnew: boolean;
  onboarding: boolean;
  device: { desktop?: boolean; mobile?: boolean };
};

/**
 * Reads a launcher config: null when there is none or it is not enabled, `{ problem }` when it is malformed
 * (the agent then shows no launcher and logs 'ERROR while initializing launcher'), else its settings with
 * the defaults filled in (launchType badge, position bottom-right, 330 x 310, search, whatsnew, onboarding and
 * autoOpen off).
 */
export function readLauncherConfig(raw: unknown): { settings: LauncherSettings } | { problem: string } | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) return { problem: 'launcher must be an object {enabled, data}' };
  if (raw.enabled === undefined || raw.enabled === false) return null;
  if (raw.enabled !== true) return { problem: `launcher.enabled must be true or false (got ${show(raw.enabled)})` };
  const data = raw.data ?? {};
  if (!isObject(data)) return { problem: 'launcher.data must be an object' };
  const problem = (field: string, wanted: string) => ({ problem: `launcher.data.${field} must be ${wanted} (got ${show(data[field])})` });
  const launchType = data.launchType ?? 'badge';
  if (launchType !== 'badge' && launchType !== 'element') return problem('launchType', "'badge' or 'element'");
  const position = data.position ?? 'bottom-right';
  if (!LAUNCHER_POSITIONS.includes(position as LauncherPosition)) return problem('position', `one of ${LAUNCHER_POSITIONS.join(', ')}`);
  const elementPathRule = data.elementPathRule;
  if (launchType === 'element' && (typeof elementPathRule !== 'string' || !elementPathRule.trim())) {
    return problem('elementPathRule', 'a CSS selector when launchType is element');
  }
  for (const field of ['enableSearch', 'whatsnew', 'onboarding', 'hideCredits', 'autoOpen']) {
    if (data[field] !== undefined && typeof data[field] !== 'boolean') return problem(field, 'true or false');
  }
  for (const field of ['width', 'height']) {
    const n = data[field];
    if (n !== undefined && !(typeof n === 'number' && Number.isFinite(n) && n > 0)) return problem(field, 'a positive number of px');
  }
  for (const field of ['launcherBadgeUrl', 'contentUrl', 'contentUrlCss', 'contentUrlJs']) {
    if (data[field] !== undefined && typeof data[field] !== 'string') return problem(field, 'a URL string');
  }
  const device = data.device ?? {};
  if (!isObject(device)) return problem('device', 'an object {desktop, mobile, iframe}');
  for (const key of ['desktop', 'mobile', 'iframe']) {
    if (device[key] !== undefined && typeof device[key] !== 'boolean') return { problem: `launcher.data.device.${key} must be true or false (got ${show(device[key])})` };
  }
  return {
    settings: {
      launchType,
      position: position as LauncherPosition,
      ...(launchType === 'element' ? { elementPathRule: String(elementPathRule) } : {}),
      ...(data.launcherBadgeUrl ? { launcherBadgeUrl: data.launcherBadgeUrl as string } : {}),
      ...(data.contentUrl ? { contentUrl: data.contentUrl as string } : {}),
      ...(data.contentUrlCss ? { contentUrlCss: data.contentUrlCss as string } : {}),
      ...(data.contentUrlJs ? { contentUrlJs: data.contentUrlJs as string } : {}),
      enableSearch: data.enableSearch === true,
      hideCredits: data.hideCredits === true,
      whatsnew: data.whatsnew === true,
      onboarding: data.onboarding === true,
      autoOpen: data.autoOpen === true,
      width: (data.width as number | undefined) ?? LAUNCHER_DEFAULTS.width,
      height: (data.height as number | undefined) ?? LAUNCHER_DEFAULTS.height,
      iframe: device.iframe === true,
      device: { desktop: device.desktop as boolean | undefined, mobile: device.mobile as boolean | undefined },
      theme: raw.theme,
    },
  };
}

/** A guide is listed only when its launch method includes launcher (guides §3 launchMethod). */
export const launcherLaunchRule: ScheduleRule = {
  name: 'launchMethod',
  evaluate: ({ guide }) =>
    launchMethods(guide).includes('launcher') ? { pass: true, reason: 'ok' } : { pass: false, reason: `launchMethod '${guide.launchMethod}' has no launcher` },
};

/** A guide without steps has nothing to show from the list. */
export const hasFirstStepRule: ScheduleRule = {
  name: 'firstStep',
  evaluate: ({ step }) => (step ? { pass: true, reason: 'ok' } : { pass: false, reason: 'guide has no steps' }),
};

/**
 * The rules a guide passes to be listed, judged on its first step (a click shows the guide from the start).
 * The visitor asks for these guides, so throttling, snooze, repeat, the health check and an earlier dismissal
 * do not keep them off the list; the page, the device, the timebox and the control group do.
 */
export const LAUNCHER_RULES: readonly ScheduleRule[] = [
  launcherLaunchRule,
  hasFirstStepRule,
  pageIdNeedsRuleRule,
  deviceRule,
  pageRule,
  controlGroupRule,
  timeboxRule,
];

/** Whether one guide is listed in the launcher on this page, and why not. */
export function isLauncherGuide(guide: Guide, facts: Omit<ScheduleRuleContext, 'guide' | 'step'>): RuleResult {
  return evaluateRules(LAUNCHER_RULES, { ...facts, guide, step: guide.steps[0] });
}

/**
 * guides §2 onboarding progress, "seen steps over total steps as a whole number": the percent of the
 * onboarding guides' steps that are advanced or dismissed, rounded down so 100 means every step is seen.
 * null when there are no steps to count.
 */
export function onboardingPercent(guides: readonly Guide[]): number | null {
  const steps = guides.filter((g) => g.attributes?.isOnboarding === true).flatMap((g) => g.steps);
  if (!steps.length) return null;
  return Math.floor((steps.filter(isStepSeen).length * 100) / steps.length);
}

/** guides §2 what's-new unseen count: whatsnew steps never shown (seenState none or absent). */
export function whatsnewUnseenCount(guides: readonly Guide[]): { steps: number; unseen: number } {
  const steps = guides.flatMap((g) => g.steps.filter((s) => s.type === 'whatsnew'));
  return { steps: steps.length, unseen: steps.filter((s) => !s.seenState || s.seenState === 'none').length };
}

export interface LauncherChoiceOptions {
  url: string;
  device: 'desktop' | 'mobile';
  now: number;
}

export interface LauncherChoice {
  /** The launcher to show here (its badge URL unchecked, no storage key yet), or null. */
  launcher: (Omit<LauncherToShow, 'closedFlagKey'> & { launcherBadgeUrl?: string; contentUrl?: string; contentUrlCss?: string; contentUrlJs?: string }) | null;
  /** guides §2 What's-new feed items (content not resolved yet: the worker's I/O), when `data.whatsnew`. */
  whatsnewItems?: WhatsNewItem[];
  /** A config that cannot initialize, with why. */
  problem?: string;
  /** Why the launcher or a guide is not shown: the debugger's view. */
  skipped: Array<{ guideId: string; reason: string }>;
}

/** The launcher of a load response for this page: its config read, its device checked, its guides judged. */
export function chooseLauncher(response: GuideLoadResponse, options: LauncherChoiceOptions): LauncherChoice {
  const read = readLauncherConfig(response.launcher);
  if (!read) return { launcher: null, skipped: [] };
  if ('problem' in read) return { launcher: null, problem: read.problem, skipped: [] };
  const { device, whatsnew, onboarding, launcherBadgeUrl, ...settings } = read.settings;
  if (device[options.device] === false) return { launcher: null, skipped: [{ guideId: '(launcher)', reason: `device: launcher is not for ${options.device}` }] };
  const skipped: LauncherChoice['skipped'] = [];
  const listed: Guide[] = [];
  for (const guide of response.guides) {
    const verdict = isLauncherGuide(guide, {
      url: options.url,
      device: options.device,
      lastGuideStepSeen: response.lastGuideStepSeen,
      schedule: { now: options.now },
    });
    if (verdict.pass) listed.push(guide);
    else if (launchMethods(guide).includes('launcher')) skipped.push({ guideId: guide.id, reason: `launcher: ${verdict.reason}` });
  }
  // Like the resource center's badge (guides §2), a launcher with nothing to list stays off the page.
  if (!listed.length) return { launcher: null, skipped: [...skipped, { guideId: '(launcher)', reason: 'launcher: no guide to list on this page' }] };
  const percent = onboarding ? onboardingPercent(listed) : null;
  const news = whatsnewUnseenCount(listed);
  return {
    launcher: {
      ...settings,
      ...(launcherBadgeUrl ? { launcherBadgeUrl } : {}),
      guides: listed.map((g) => ({
        guideId: g.id,
        name: g.name ?? g.id,
        isOnboarding: g.attributes?.isOnboarding === true,
        complete: completionStatus(g) === 'complete',
      })),
      ...(percent !== null ? { onboarding: { percent } } : {}),
      ...(whatsnew && news.steps ? { whatsnewUnseen: news.unseen } : {}),
    },
    ...(whatsnew && news.steps ? { whatsnewItems: whatsNewItems(listed) } : {}),
    skipped,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
