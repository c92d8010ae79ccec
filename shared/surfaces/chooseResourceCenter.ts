/**
 * guides §2 "Resource center", §3 attributes.resourceCenter, §4 "Resource center": which resource center the
 * visitor may see on this page, its modules and what each lists. Pure (STYLE §3): the worker runs it at every
 * guide load and again after the visitor's actions (an announcement seen lowers the unseen count).
 *
 * A resource center is a guide with `attributes.resourceCenter.isTopLevel`; its `children` are the ids of its
 * module guides (`resourceCenter.isModule`), in order. A module's `moduleId` names its kind (ours: the spec
 * names the field, not its values): 'guideList', 'onboarding', 'announcements', 'iframe', 'sandbox',
 * 'integration' or 'custom'. A list module's own `children` are the guides it lists. Fields of ours beside the
 * spec's: `resourceCenter.position` of the top-level guide (a badge corner, default bottom-right).
 * An iframe module's page is its first step's `contentUrl`; sandbox and custom modules render their first
 * step's building blocks; an integration module names `integrationProvider` (drift, intercom, zendesk) and
 * `integrationName` (zendesk: chat, knowledge base or messaging).
 */
import { isStepSeen } from '../eligibility/canRepeat';
import { LAUNCHER_POSITIONS } from './chooseLauncher';
import { completionStatus } from '../guides/continuationStep';
import { controlGroupRule, timeboxRule, type ScheduleRule } from '../eligibility/scheduleRules';
import type { DomNode, Guide, GuideLoadResponse } from '../guides/guides';
import type { LauncherPosition, ResourceCenterModuleKind } from '../protocol';
import { deviceRule, evaluateRules, launchMethods, pageIdNeedsRuleRule, pageRule } from '../eligibility/autoDisplayRules';

export const RESOURCE_CENTER_MODULE_KINDS: readonly ResourceCenterModuleKind[] = ['guideList', 'onboarding', 'announcements', 'iframe', 'sandbox', 'integration', 'custom'];

/** guides §2 Native integrations supported, with the names each one offers. */
export const RESOURCE_CENTER_INTEGRATIONS: Readonly<Record<string, readonly string[]>> = {
  drift: ['chat'],
  intercom: ['chat'],
  zendesk: ['chat', 'knowledge base', 'messaging'],
};

/** The resourceCenter attributes of a guide (guides §3), unchecked. */
export interface ResourceCenterAttributes {
  isTopLevel?: unknown;
  isModule?: unknown;
  moduleId?: unknown;
  children?: unknown;
  integrationName?: unknown;
  integrationProvider?: unknown;
  position?: unknown;
}

/** One guide a list module lists, judged on its first step; `stepId` is that step. */
export interface ResourceCenterItemChoice {
  guideId: string;
  stepId: string;
  name: string;
  /** Steps advanced or dismissed (guides §4: seen) and all steps. */
  seenSteps: number;
  totalSteps: number;
  complete: boolean;
}

/** A module as judged here; content, iframe address and integration are checked by the worker. */
export interface ResourceCenterModuleChoice {
  guideId: string;
  kind: ResourceCenterModuleKind;
  title: string;
  items: ResourceCenterItemChoice[];
  /** onboarding: seen steps over total steps of its guides, a whole number (rounded down, as the launcher). */
  percent?: number;
  /** announcements: items whose first step is not seen yet. */
  unseen?: number;
  /** iframe: the first step's contentUrl, not yet checked against the allowed origins. */
  contentUrl?: string;
  /** sandbox, custom: the step whose building blocks are the module's body. */
  stepId?: string;
  integration?: { provider: string; name: string };
}

export interface ResourceCenterChoice {
  resourceCenter: {
    guideId: string;
    stepId: string;
    title: string;
    position: LauncherPosition;
    /** Launch method has badge: a badge in a corner opens it. */
    badge: boolean;
    /** Launch method has dom, with attributes.activation {event (default click), selector}. */
    activation?: { event: string; selector: string };
    modules: ResourceCenterModuleChoice[];
    /** guides §2 the badge's bubble: unseen announcements over every module. */
    unseenCount: number;
    /** The app's step theme as served on its first step (shared/surfaces/guideTheme): the badge and panel wear it. */
    theme?: unknown;
    /** guides §3 the top-level guide's notificationBubble: the bubble's colours (shared/surfaces/notificationBubble). */
    bubble?: unknown;
  } | null;
  /** guides §8: a module could not load; the resource center is skipped. Says which and why. */
  moduleProblem?: string;
  /** Why the resource center, a module or an item is not shown: the debugger's view. */
  skipped: Array<{ guideId: string; reason: string }>;
}

/** The rules a resource center, a module and a listed guide pass, on their first step. */
export const RESOURCE_CENTER_RULES: readonly ScheduleRule[] = [
  { name: 'firstStep', evaluate: ({ step }) => (step ? { pass: true, reason: 'ok' } : { pass: false, reason: 'guide has no steps' }) },
  pageIdNeedsRuleRule,
  deviceRule,
  pageRule,
  controlGroupRule,
  timeboxRule,
];

export interface ResourceCenterChoiceOptions {
  url: string;
  device: 'desktop' | 'mobile';
  now: number;
}

/** A guide's resourceCenter attributes, or an empty object. */
export function resourceCenterOf(guide: Guide): ResourceCenterAttributes {
  const rc = guide.attributes?.resourceCenter;
  return typeof rc === 'object' && rc !== null && !Array.isArray(rc) ? (rc as ResourceCenterAttributes) : {};
}

/** Whether a guide is a resource center or one of its modules: such guides never show as steps of their own. */
export function isResourceCenterGuide(guide: Guide): boolean {
  const rc = resourceCenterOf(guide);
  return rc.isTopLevel === true || rc.isModule === true;
}

/**
 * guides §4 "The top-level resource center is the staged guide marked top level": the first top-level guide
 * whose state is staged or not given (a reference server serves no state), eligible on this page; then its
 * modules in `children` order. A child that is missing, not a module, of an unknown kind or badly formed is a
 * module failure: no resource center (guides §8). A list module with nothing eligible is left out, and the
 * resource center with no module left is not shown (guides §2: the badge is hidden when nothing is eligible).
 */
export function chooseResourceCenter(response: GuideLoadResponse, options: ResourceCenterChoiceOptions): ResourceCenterChoice {
  const skipped: ResourceCenterChoice['skipped'] = [];
  const judge = (guide: Guide) =>
    evaluateRules(RESOURCE_CENTER_RULES, { url: options.url, device: options.device, lastGuideStepSeen: response.lastGuideStepSeen, schedule: { now: options.now }, guide, step: guide.steps[0] });
  const tops = response.guides.filter((g) => resourceCenterOf(g).isTopLevel === true && (g.state === undefined || g.state === 'staged' || g.state === 'public'));
  let top: Guide | undefined;
  for (const guide of tops) {
    const verdict = judge(guide);
    if (verdict.pass) {
      top = guide;
      break;
    }
    skipped.push({ guideId: guide.id, reason: `resource center: ${verdict.reason}` });
  }
  if (!top) return { resourceCenter: null, skipped };
  const rc = resourceCenterOf(top);
  const children = Array.isArray(rc.children) ? rc.children : [];
  const byId = new Map(response.guides.map((g) => [g.id, g]));
  const modules: ResourceCenterModuleChoice[] = [];
  const problems: string[] = [];
  for (const childId of children) {
    const guide = typeof childId === 'string' ? byId.get(childId) : undefined;
    if (!guide) {
      problems.push(`module ${String(childId)} is not a loaded guide`);
      continue;
    }
    const read = readModule(guide, byId, judge, skipped);
    if (typeof read === 'string') problems.push(`module ${guide.id}: ${read}`);
    else if (read) modules.push(read);
  }
  if (!Array.isArray(rc.children)) problems.push('attributes.resourceCenter.children must be a list of module guide ids');
  if (problems.length) return { resourceCenter: null, moduleProblem: problems.join('; '), skipped };
  if (!modules.length) return { resourceCenter: null, skipped: [...skipped, { guideId: top.id, reason: 'resource center: nothing eligible on this page' }] };
  const position = LAUNCHER_POSITIONS.includes(rc.position as LauncherPosition) ? (rc.position as LauncherPosition) : 'bottom-right';
  return {
    resourceCenter: {
      guideId: top.id,
      stepId: top.steps[0]!.id,
      title: top.name ?? 'Resource center',
      position,
      badge: launchMethods(top).includes('badge'),
      ...activationOf(top),
      modules,
      unseenCount: modules.reduce((n, m) => n + (m.unseen ?? 0), 0),
      theme: top.steps[0]!.attributes?.theme,
      bubble: top.notificationBubble,
    },
    skipped,
  };
}

/**
 * guides §3 attributes.activation, §4 "Launch methods include badge, dom, api": a top-level guide launched by dom
 * opens on the visitor's `event` (default click) on an element matching `selector`; none without a selector.
 */
function activationOf(guide: Guide): { activation?: { event: string; selector: string } } {
  const a = guide.attributes?.activation as { event?: unknown; selector?: unknown } | undefined;
  if (!launchMethods(guide).includes('dom') || typeof a?.selector !== 'string' || !a.selector) return {};
  return { activation: { event: typeof a.event === 'string' && a.event ? a.event : 'click', selector: a.selector } };
}

/** One module: its choice, null when it has nothing eligible here, or why it cannot load. */
function readModule(
  guide: Guide,
  byId: Map<string, Guide>,
  judge: (g: Guide) => { pass: boolean; reason: string },
  skipped: ResourceCenterChoice['skipped'],
): ResourceCenterModuleChoice | null | string {
  const rc = resourceCenterOf(guide);
  if (rc.isModule !== true) return 'is not marked attributes.resourceCenter.isModule';
  const kind = rc.moduleId as ResourceCenterModuleKind;
  if (!RESOURCE_CENTER_MODULE_KINDS.includes(kind)) return `moduleId must be one of ${RESOURCE_CENTER_MODULE_KINDS.join(', ')} (got ${JSON.stringify(rc.moduleId)})`;
  const base = { guideId: guide.id, kind, title: guide.name ?? guide.id, items: [] as ResourceCenterItemChoice[] };
  const verdict = judge(guide);
  if (!verdict.pass) {
    skipped.push({ guideId: guide.id, reason: `resource center module: ${verdict.reason}` });
    return null;
  }
  const step = guide.steps[0]!;
  if (kind === 'iframe') {
    if (typeof step.contentUrl !== 'string' || !step.contentUrl) return 'an iframe module needs its first step contentUrl';
    return { ...base, contentUrl: step.contentUrl };
  }
  if (kind === 'sandbox' || kind === 'custom') return { ...base, stepId: step.id };
  if (kind === 'integration') {
    const provider = String(rc.integrationProvider ?? '').toLowerCase();
    const names = RESOURCE_CENTER_INTEGRATIONS[provider];
    if (!names) return `integrationProvider must be one of ${Object.keys(RESOURCE_CENTER_INTEGRATIONS).join(', ')} (got ${JSON.stringify(rc.integrationProvider)})`;
    const name = rc.integrationName === undefined ? names[0]! : String(rc.integrationName).toLowerCase();
    if (!names.includes(name)) return `integrationName of ${provider} must be one of ${names.join(', ')} (got ${JSON.stringify(rc.integrationName)})`;
    return { ...base, integration: { provider, name } };
  }
  if (!Array.isArray(rc.children)) return `a ${kind} module needs attributes.resourceCenter.children (the guides it lists)`;
  for (const id of rc.children) {
    const listed = typeof id === 'string' ? byId.get(id) : undefined;
    if (!listed) {
      skipped.push({ guideId: String(id), reason: `resource center module ${guide.id}: not a loaded guide` });
      continue;
    }
    const v = judge(listed);
    if (!v.pass) {
      skipped.push({ guideId: listed.id, reason: `resource center module ${guide.id}: ${v.reason}` });
      continue;
    }
    base.items.push({
      guideId: listed.id,
      stepId: listed.steps[0]!.id,
      name: listed.name ?? listed.id,
      seenSteps: listed.steps.filter(isStepSeen).length,
      totalSteps: listed.steps.length,
      complete: completionStatus(listed) === 'complete',
    });
  }
  if (!base.items.length) {
    skipped.push({ guideId: guide.id, reason: 'resource center module: no guide to list on this page' });
    return null;
  }
  if (kind === 'onboarding') return { ...base, percent: progressPercent(base.items) };
  if (kind === 'announcements') return { ...base, unseen: base.items.filter((i) => i.seenSteps === 0).length };
  return base;
}

/**
 * guides §2 "Progress percent is seen steps over total steps as a whole number": rounded down, as the
 * launcher's onboarding progress (so 100 means every step is seen); 0 with no steps.
 */
export function progressPercent(items: ReadonlyArray<Pick<ResourceCenterItemChoice, 'seenSteps' | 'totalSteps'>>): number {
  const total = items.reduce((n, i) => n + i.totalSteps, 0);
  return total ? Math.floor((items.reduce((n, i) => n + i.seenSteps, 0) * 100) / total) : 0;
}

/** The plain text of building-block content (its text nodes, space-joined), for search over step content. */
export function blockText(node: DomNode | undefined): string {
  if (!node || typeof node !== 'object') return '';
  const parts: string[] = [];
  const walk = (n: DomNode) => {
    if (typeof n.content === 'string' && n.content.trim()) parts.push(n.content.trim());
    if (Array.isArray(n.children)) for (const c of n.children) if (c && typeof c === 'object') walk(c);
  };
  walk(node);
  return parts.join(' ');
}
