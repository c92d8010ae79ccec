/**
 * What the designer edits, and its two-way mapping to the guide JSON the agent and the server use (issue #15):
 * a guide is a name, a launch method, a page rule, a priority, an audience (designerAudience.ts) and steps; a step is its type, element rule and
 * its element contains rules, title, body, image, buttons, a question (designerPolls.ts), a tooltip's caret
 * (drawn or not) and gap, and a what's-new item's date. Writing keeps every field of the stored guide the designer does not edit, so
 * a guide written by hand and opened in the designer loses nothing. Pure.
 */
import type { DomNode, ElementContainsRule, Guide, GuideStep } from '../../../shared/guides/guides';
import { fromAudience, toAudience, type AudienceRule } from './designerAudience';
import { designedPollIds, isPollBlock, pollBlocks, pollRecords, readPoll, type DesignerPoll } from './designerPolls';

export { npsPollIds, pollIds } from './designerPolls';

export type DesignerStepType = 'tooltip' | 'lightbox' | 'mobile-lightbox' | 'banner' | 'whatsnew';
export type ButtonAction = 'next' | 'previous' | 'dismiss' | 'link' | 'custom';

export interface DesignerButton {
  label: string;
  action: ButtonAction;
  /** For `link`: the http(s) address opened in a new tab. */
  url?: string;
  /** For `custom`: the name the host's `waymark.addCustomAction(name, fn)` registered (guides §5). */
  customAction?: string;
}

export interface DesignerStep {
  id: string;
  type: DesignerStepType;
  elementPathRule: string;
  title: string;
  body: string;
  imageUrl: string;
  buttons: DesignerButton[];
  /** Tooltip placement (attributes.layoutDir). */
  layoutDir: 'auto' | 'top' | 'bottom' | 'left' | 'right';
  width: number;
  /**
   * guides §2 "Defaults ... arrow size 15 (configurable)": attributes.arrowSize, the gap in px the tooltip
   * keeps from its element, the caret in between; 0: the agent's default.
   */
  arrowSize: number;
  /** attributes.caret: whether the tooltip draws its caret (the arrow to the element). */
  caret: boolean;
  /** guides §3 advanceMethod of a tooltip: its buttons only, or also the visitor clicking or pointing at the element. */
  advance: 'buttons' | 'click' | 'hover';
  /**
   * guides §3 elementContainsRulesList: the tooltip shows only while its element's text passes every rule
   * (guides §5, judged by the shim with shared/eligibility/matchesContainsRules).
   */
  containsRules: ElementContainsRule[];
  /** A what's-new item's date, as the author writes it (shown under the title); '' for none. */
  date: string;
  /**
   * guides §2 polls: the question the step asks (NPS, multiple choice or open text), sent by a Send button
   * (submitPoll); its answers reach the console's poll results. Null: no question.
   */
  poll: DesignerPoll | null;
  /** guides §3 attributes.isRequired: the question must be answered before the step sends or moves on. */
  required: boolean;
}

export interface DesignerGuide {
  id: string;
  name: string;
  launchMethod: string;
  /** regexUrlRule of every step: the pages the guide shows on ('' for every page). */
  pageRule: string;
  priority: number;
  overrideThrottling: boolean;
  /** Who the guide is for (designerAudience.ts): every rule must hold; none: everyone. */
  audience: AudienceRule[];
  steps: DesignerStep[];
}

export const STEP_TYPES: Array<{ type: DesignerStepType; label: string }> = [
  { type: 'tooltip', label: 'Tooltip' },
  { type: 'lightbox', label: 'Lightbox' },
  { type: 'mobile-lightbox', label: 'Mobile lightbox' },
  { type: 'banner', label: 'Banner' },
  { type: 'whatsnew', label: "What's new (an item of the launcher's feed)" },
];

export const LAUNCH_METHODS = ['auto', 'api', 'badge', 'dom', 'launcher'] as const;

const ACTION_OF: Record<ButtonAction, string> = { next: 'advanceGuide', previous: 'previousStep', dismiss: 'dismissGuide', link: 'openLink', custom: 'customAction' };

/** A random id part: the guide's and its steps' ids. */
export function randomId(random: () => number = Math.random): string {
  let out = '';
  for (let i = 0; i < 8; i++) out += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)];
  return out;
}

/** The page rule of a page: its path on any host, with any query or hash. */
export function pageRuleFor(href: string): string {
  const match = /^https?:\/\/[^/?#]+([^?#]*)/.exec(href);
  const path = (match?.[1] ?? '/').replace(/\/+$/, '');
  return `^https?://[^/]+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?(?:[?#].*)?$`;
}

export function newGuide(href: string, random?: () => number): DesignerGuide {
  const id = `guide-${randomId(random)}`;
  return { id, name: 'New guide', launchMethod: 'auto', pageRule: pageRuleFor(href), priority: 0, overrideThrottling: false, audience: [], steps: [newStep(id, 0, 'tooltip', random)] };
}

export function newStep(guideId: string, index: number, type: DesignerStepType, random?: () => number): DesignerStep {
  return {
    id: `${guideId}-${randomId(random)}`,
    type,
    elementPathRule: '',
    title: index === 0 ? 'Welcome' : `Step ${index + 1}`,
    body: 'Tell your visitors what this does.',
    imageUrl: '',
    buttons: [{ label: 'Next', action: 'next' }],
    layoutDir: 'auto',
    width: type === 'banner' || type === 'whatsnew' ? 0 : type === 'tooltip' ? 320 : 480,
    arrowSize: 0,
    caret: true,
    advance: 'buttons',
    containsRules: [],
    date: '',
    poll: null,
    required: false,
  };
}

/** The building blocks of a step: title, date, image, body, question, buttons, under the guide-base root. */
export function stepContent(step: DesignerStep): DomNode {
  const children: DomNode[] = [];
  if (step.title) children.push({ type: 'h3', props: { id: `${step.id}-title` }, content: step.title });
  if (step.date.trim()) children.push({ type: 'small', props: { id: `${step.id}-date` }, content: step.date.trim() });
  if (step.imageUrl) children.push({ type: 'img', props: { id: `${step.id}-image`, src: step.imageUrl, alt: '' }, children: [] });
  if (step.body) children.push({ type: 'p', props: { id: `${step.id}-body` }, content: step.body });
  if (step.poll) children.push(...pollBlocks(step.id, step.poll));
  step.buttons.forEach((b, i) => {
    const id = `${step.id}-button-${i + 1}`;
    const parameter = b.action === 'link' ? b.url : b.action === 'custom' ? b.customAction?.trim() : undefined;
    const parameters = parameter ? [parameter] : [];
    children.push({ type: 'button', props: { id }, content: b.label, actions: [{ action: ACTION_OF[b.action], eventType: 'click', parameters, source: id, destination: 'Global' } as never] });
  });
  return { type: 'div', props: { id: 'guide-base' }, children };
}

/** The guide JSON of the designer's guide, on top of the stored one (`base`) so unedited fields stay. */
export function toGuide(d: DesignerGuide, base?: Guide): Guide {
  const baseSteps = new Map((base?.steps ?? []).map((s) => [s.id, s]));
  const steps: GuideStep[] = d.steps.map((s) => {
    const kept = baseSteps.get(s.id) ?? ({} as Partial<GuideStep>);
    const attributes: Record<string, unknown> = { ...(kept.attributes ?? {}), layoutDir: s.layoutDir };
    if (s.width > 0) attributes.width = s.width;
    else delete attributes.width;
    if (s.arrowSize > 0) attributes.arrowSize = s.arrowSize;
    else delete attributes.arrowSize;
    if (s.caret) delete attributes.caret;
    else attributes.caret = false;
    if (s.required && s.poll) attributes.isRequired = true;
    else delete attributes.isRequired;
    const step = { ...kept, id: s.id, guideId: d.id, type: s.type, attributes, domJson: stepContent(s) } as GuideStep;
    // A tooltip's element is the designer's to set. Other types keep what the stored step had: a hand-written
    // lightbox's rule names the element its block-out leaves clear, and the designer does not edit it.
    if (s.type === 'tooltip') {
      if (s.elementPathRule.trim()) step.elementPathRule = s.elementPathRule.trim();
      else delete step.elementPathRule;
      if (s.advance === 'buttons') delete step.advanceMethod;
      else step.advanceMethod = s.advance === 'click' ? 'element click' : 'mouseover';
    }
    // Only a tooltip's element is judged (the shim's targetOf); rules are written whatever the type so a
    // type switched back and forth keeps them.
    const rules = s.containsRules.filter((r) => String(r.matchValue).trim() !== '');
    if (rules.length) step.elementContainsRulesList = rules.map((r) => ({ ...r, matchValue: String(r.matchValue).trim() }));
    else delete step.elementContainsRulesList;
    if (d.pageRule.trim()) step.regexUrlRule = d.pageRule.trim();
    else delete step.regexUrlRule;
    return step;
  });
  const attributes = { ...(base?.attributes ?? {}), priority: d.priority };
  if (d.overrideThrottling) attributes.overrideAutoThrottling = true;
  else delete attributes.overrideAutoThrottling;
  // The guide's polls: those of its steps' questions, besides any it had that the designer did not write.
  const designed = new Set(d.steps.flatMap((s) => designedPollIds(s.id)));
  const polls = (base?.polls ?? []).filter((p) => !designed.has(p.id));
  for (const s of d.steps) if (s.poll) polls.push(...pollRecords(s.id, s.poll));
  const guide: Guide = { ...base, id: d.id, name: d.name, launchMethod: d.launchMethod, isMultiStep: steps.length > 1, attributes, steps, lastUpdatedAt: Date.now() };
  if (polls.length) guide.polls = polls;
  else delete guide.polls;
  // The designer edits the audience's conditions; a segment it names (issue #35, set in the console) is kept.
  const segment = base?.audience?.segment;
  const audience = { ...toAudience(d.audience), ...(segment !== undefined ? { segment } : {}) };
  if (Object.keys(audience).length) guide.audience = audience;
  else delete guide.audience;
  return guide;
}

/** The designer's view of a stored guide (what it cannot read is kept by toGuide from the stored guide). */
export function fromGuide(g: Guide): DesignerGuide {
  return {
    id: g.id,
    name: g.name ?? g.id,
    launchMethod: g.launchMethod,
    pageRule: g.steps.find((s) => typeof s.regexUrlRule === 'string')?.regexUrlRule ?? '',
    priority: typeof g.attributes?.priority === 'number' ? g.attributes.priority : 0,
    overrideThrottling: g.attributes?.overrideAutoThrottling === true,
    audience: fromAudience(g.audience),
    steps: g.steps.map((s) => fromStep(s)),
  };
}

function fromStep(s: GuideStep): DesignerStep {
  const blocks = flatten((s.domJson as DomNode | undefined) ?? { type: 'div' });
  // The question's own words are not the step's title or text.
  const own = blocks.filter((b) => !isPollBlock(b));
  const text = (type: string) => own.find((b) => b.type === type && typeof b.content === 'string')?.content ?? '';
  const image = blocks.find((b) => b.type === 'img')?.props?.src;
  const attributes = (s.attributes ?? {}) as Record<string, unknown>;
  const type: DesignerStepType = STEP_TYPES.some((t) => t.type === s.type) ? (s.type as DesignerStepType) : 'lightbox';
  return {
    id: s.id,
    type,
    elementPathRule: typeof s.elementPathRule === 'string' ? s.elementPathRule : '',
    title: text('h3') || text('h2') || text('h1'),
    body: own.find((b) => b.props?.id === `${s.id}-body`)?.content ?? text('p'),
    imageUrl: typeof image === 'string' ? image : '',
    buttons: blocks
      // A question's Send button is the question's (written again with it), not one of the step's buttons.
      .filter((b) => b.type === 'button' && !b.actions?.some((a) => a.action === 'submitPoll'))
      .map((b) => {
        const action = Object.entries(ACTION_OF).find(([, name]) => b.actions?.some((a) => a.action === name))?.[0] as ButtonAction | undefined;
        const url = b.actions?.find((a) => a.action === 'openLink')?.parameters?.[0];
        const custom = b.actions?.find((a) => a.action === 'customAction')?.parameters?.[0];
        return { label: b.content ?? '', action: action ?? 'next', ...(typeof url === 'string' ? { url } : {}), ...(typeof custom === 'string' ? { customAction: custom } : {}) };
      }),
    layoutDir: (['auto', 'top', 'bottom', 'left', 'right'] as const).find((d) => d === attributes.layoutDir) ?? 'auto',
    width: typeof attributes.width === 'number' ? attributes.width : 0,
    arrowSize: typeof attributes.arrowSize === 'number' ? attributes.arrowSize : 0,
    caret: attributes.caret !== false,
    advance: /mouseover/.test(s.advanceMethod ?? '') ? 'hover' : /element click/.test(s.advanceMethod ?? '') ? 'click' : 'buttons',
    containsRules: Array.isArray(s.elementContainsRulesList) ? s.elementContainsRulesList.map((r) => ({ ...r })) : [],
    date: own.find((b) => b.props?.id === `${s.id}-date`)?.content ?? '',
    poll: readPoll(s.id, blocks),
    required: attributes.isRequired === true,
  };
}

function flatten(node: DomNode): DomNode[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}
