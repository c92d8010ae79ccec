/**
 * A resource center as the designer edits it (issue #15; guides §2 Resource center, §3 attributes.resourceCenter):
 * a name, an introduction, how it opens (a badge in a corner, or the app's API only), the pages it is on, and its
 * modules in order. The agent reads a resource center as several guides (shared/surfaces/chooseResourceCenter):
 * the top-level guide, whose `children` are its module guides, each module's kind in `moduleId`, and a list
 * module's own `children` the guides it lists. This file maps one to the other, keeping every field of the
 * stored guides it does not edit, and builds what the live preview shows. Pure.
 */
import type { DomNode, Guide, GuideLoadResponse } from '../../../shared/guides/guides';
import type { LauncherPosition, ResourceCenterToShow } from '../../../shared/protocol';
import { chooseResourceCenter, RESOURCE_CENTER_INTEGRATIONS } from '../../../shared/surfaces/chooseResourceCenter';
import { pageRuleFor, randomId } from './designerGuide';

/**
 * The module kinds the designer writes; a module it cannot read (an unknown kind, a missing guide) is `kept`:
 * listed in its place and saved untouched.
 */
export type DesignerModuleKind = 'guideList' | 'onboarding' | 'announcements' | 'iframe' | 'custom' | 'sandbox' | 'integration' | 'kept';

export const MODULE_KINDS: Array<{ kind: Exclude<DesignerModuleKind, 'kept'>; label: string }> = [
  { kind: 'guideList', label: 'Guide list' },
  { kind: 'onboarding', label: 'Onboarding (a task list with progress)' },
  { kind: 'announcements', label: 'Announcements' },
  { kind: 'iframe', label: 'A page (iframe)' },
  { kind: 'custom', label: 'Text' },
  { kind: 'sandbox', label: 'Sandbox (text in a module of its own kind)' },
  { kind: 'integration', label: 'Chat or help desk (Drift, Intercom, Zendesk)' },
];

export const POSITIONS: Array<{ position: LauncherPosition; label: string }> = [
  { position: 'bottom-right', label: 'Bottom right' },
  { position: 'bottom-left', label: 'Bottom left' },
  { position: 'top-right', label: 'Top right' },
  { position: 'top-left', label: 'Top left' },
];

export interface DesignerModule {
  /** The module guide's id. */
  id: string;
  kind: DesignerModuleKind;
  title: string;
  /** guideList, onboarding, announcements: the guides listed, in order. */
  guideIds: string[];
  /** iframe: the page's address. */
  url: string;
  /** custom, sandbox: the module's text; kept: the module's own kind, as the JSON names it. */
  text: string;
  /** integration: the provider (drift, intercom, zendesk) and what of it (zendesk: chat, knowledge base, messaging). */
  provider: string;
  service: string;
}

export interface DesignerResourceCenter {
  /** The top-level guide's id. */
  id: string;
  name: string;
  intro: string;
  /** badge: a badge in `position` opens it; api: only the app's openResourceCenter and friends. */
  opens: 'badge' | 'api';
  position: LauncherPosition;
  /** regexUrlRule of the top-level guide and its modules ('' for every page). */
  pageRule: string;
  modules: DesignerModule[];
}

/** Whether a stored guide is a resource center's top-level guide. */
export function isResourceCenter(guide: Pick<Guide, 'attributes'>): boolean {
  return (guide.attributes?.resourceCenter as { isTopLevel?: unknown } | undefined)?.isTopLevel === true;
}

/** The module guide ids a top-level guide names, in order. */
export function moduleIdsOf(guide: Pick<Guide, 'attributes'>): string[] {
  const children = (guide.attributes?.resourceCenter as { children?: unknown } | undefined)?.children;
  return Array.isArray(children) ? children.filter((c): c is string => typeof c === 'string') : [];
}

export function newResourceCenter(href: string, random?: () => number): DesignerResourceCenter {
  const id = `rc-${randomId(random)}`;
  return { id, name: 'Help', intro: 'Guides and news for this app.', opens: 'badge', position: 'bottom-right', pageRule: pageRuleFor(href), modules: [newModule(id, 'guideList', random)] };
}

export function newModule(rcId: string, kind: Exclude<DesignerModuleKind, 'kept'>, random?: () => number): DesignerModule {
  const title = MODULE_KINDS.find((k) => k.kind === kind)!.label.replace(/ \(.*$/, '');
  return { id: `${rcId}-${randomId(random)}`, kind, title, guideIds: [], url: '', text: '', provider: 'intercom', service: 'chat' };
}

const listsGuides = (kind: DesignerModuleKind) => kind === 'guideList' || kind === 'onboarding' || kind === 'announcements';

/** What a module lacks before visitors can use it; null when complete. */
export function moduleProblem(m: DesignerModule): string | null {
  if (m.kind === 'kept') return null;
  if (!m.title.trim()) return 'Give the module a title.';
  if (listsGuides(m.kind) && m.guideIds.length === 0) return 'Pick at least one guide to list: an empty list module is left out.';
  if (m.kind === 'iframe' && !/^https?:\/\/[^/]/i.test(m.url.trim())) return 'Write the http(s) address of the page to show.';
  if ((m.kind === 'custom' || m.kind === 'sandbox') && !m.text.trim()) return 'Write the text to show.';
  if (m.kind === 'integration' && !RESOURCE_CENTER_INTEGRATIONS[m.provider]?.includes(m.service)) return `${m.provider} offers ${RESOURCE_CENTER_INTEGRATIONS[m.provider]?.join(', ') ?? 'nothing'}.`;
  return null;
}

/** One lightbox step with these blocks, on the resource center's pages. */
function stepOf(guideId: string, blocks: DomNode[], pageRule: string, kept?: Guide['steps'][number]): Guide['steps'][number] {
  const step: Guide['steps'][number] = { ...kept, id: kept?.id ?? `${guideId}-1`, guideId, type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: blocks } };
  if (pageRule.trim()) step.regexUrlRule = pageRule.trim();
  else delete step.regexUrlRule;
  return step;
}

const paragraphs = (text: string): DomNode[] =>
  text.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean).map((p) => ({ type: 'p', props: {}, content: p }));

/**
 * The guides of a resource center: its modules, then the top-level guide, each on top of its stored version
 * (`stored`, by id) so fields the designer does not edit stay.
 */
export function toResourceCenterGuides(rc: DesignerResourceCenter, stored: ReadonlyMap<string, Guide> = new Map()): Guide[] {
  const modules = rc.modules.filter((m) => m.kind !== 'kept').map((m): Guide => {
    const base = stored.get(m.id);
    const attributes = {
      ...base?.attributes,
      resourceCenter: {
        isModule: true,
        moduleId: m.kind,
        ...(listsGuides(m.kind) ? { children: [...m.guideIds] } : {}),
        ...(m.kind === 'integration' ? { integrationProvider: m.provider, integrationName: m.service } : {}),
      },
    };
    const step = stepOf(m.id, m.kind === 'custom' || m.kind === 'sandbox' ? paragraphs(m.text) : [], rc.pageRule, base?.steps[0]);
    if (m.kind === 'iframe') step.contentUrl = m.url.trim();
    else delete step.contentUrl;
    return { ...base, id: m.id, name: m.title.trim(), launchMethod: 'api', attributes, steps: [step], lastUpdatedAt: Date.now() };
  });
  const base = stored.get(rc.id);
  const top: Guide = {
    ...base,
    id: rc.id,
    name: rc.name.trim() || 'Resource center',
    launchMethod: rc.opens,
    attributes: { ...base?.attributes, resourceCenter: { isTopLevel: true, children: rc.modules.map((m) => m.id), position: rc.position } },
    steps: [stepOf(rc.id, paragraphs(rc.intro), rc.pageRule, base?.steps[0])],
    lastUpdatedAt: Date.now(),
  };
  return [...modules, top];
}

/** The designer's view of a stored resource center: its top-level guide and the module guides found. */
export function fromResourceCenterGuides(top: Guide, modules: readonly Guide[]): DesignerResourceCenter {
  const rc = top.attributes?.resourceCenter as { position?: unknown } | undefined;
  const textOf = (g: Guide | undefined) =>
    ((g?.steps[0]?.domJson as DomNode | undefined)?.children ?? []).filter((b) => typeof b.content === 'string').map((b) => b.content).join('\n\n');
  const byId = new Map(modules.map((m) => [m.id, m]));
  return {
    id: top.id,
    name: top.name ?? top.id,
    intro: textOf(top),
    opens: /badge/.test(top.launchMethod) ? 'badge' : 'api',
    position: POSITIONS.find((p) => p.position === rc?.position)?.position ?? 'bottom-right',
    pageRule: top.steps.find((s) => typeof s.regexUrlRule === 'string')?.regexUrlRule ?? '',
    modules: moduleIdsOf(top).map((id): DesignerModule => {
      const g = byId.get(id);
      const attrs = g?.attributes?.resourceCenter as { moduleId?: unknown; children?: unknown; integrationProvider?: unknown; integrationName?: unknown } | undefined;
      const kind = MODULE_KINDS.find((k) => k.kind === attrs?.moduleId)?.kind;
      // A module the designer does not write (sandbox, integration) or cannot read keeps its place, untouched.
      if (!g || !kind) return { id, kind: 'kept', title: g?.name ?? id, guideIds: [], url: '', text: String(attrs?.moduleId ?? 'unreadable'), provider: '', service: '' };
      const guideIds = Array.isArray(attrs?.children) ? attrs.children.filter((c): c is string => typeof c === 'string') : [];
      const url = g.steps[0]?.contentUrl;
      const provider = kind === 'integration' ? String(attrs?.integrationProvider ?? '').toLowerCase() : 'intercom';
      const service = kind === 'integration' ? String(attrs?.integrationName ?? RESOURCE_CENTER_INTEGRATIONS[provider]?.[0] ?? '').toLowerCase() : 'chat';
      return { id, kind, title: g.name ?? id, guideIds, url: typeof url === 'string' ? url : '', text: kind === 'custom' || kind === 'sandbox' ? textOf(g) : '', provider, service };
    }),
  };
}

/**
 * What the visitor would see on this page, for the live preview: the agent's own choice (chooseResourceCenter)
 * over the designer's guides and `listed` (the guides its modules list, and the stored modules it keeps), shaped as
 * the overlay draws it; or why nothing would show.
 */
export function previewResourceCenter(
  rc: DesignerResourceCenter,
  listed: ReadonlyMap<string, Guide>,
  page: { url: string; device: 'desktop' | 'mobile'; now: number },
): { view: ResourceCenterToShow } | { reason: string } {
  // Kept modules are drawn as stored (`listed` carries them when the editor has them).
  const guides = toResourceCenterGuides(rc, listed).map((g) => ({ ...g, state: 'public' }));
  const fresh = new Set(guides.map((g) => g.id));
  const others = [...listed.values()].filter((g) => !fresh.has(g.id)).map((g) => ({ ...g, state: 'public' }));
  const response: GuideLoadResponse = { guides: [...guides, ...others], lastGuideStepSeen: {} };
  const choice = chooseResourceCenter(response, page);
  if (!choice.resourceCenter) {
    const why = choice.moduleProblem ?? choice.skipped.map((s) => s.reason).join('; ');
    return { reason: why || 'nothing would show on this page' };
  }
  const byId = new Map(response.guides.map((g) => [g.id, g]));
  const top = byId.get(rc.id);
  return {
    view: {
      ...choice.resourceCenter,
      intro: top?.steps[0]?.domJson as DomNode | undefined,
      modules: choice.resourceCenter.modules.map(({ contentUrl, stepId, ...m }) => ({
        ...m,
        items: m.items.map((item) => ({ ...item, text: '', ...(m.kind === 'announcements' ? { content: byId.get(item.guideId)?.steps[0]?.domJson as DomNode | undefined } : {}) })),
        ...(contentUrl ? { iframeSrc: contentUrl } : {}),
        ...(stepId ? { content: byId.get(m.guideId)?.steps[0]?.domJson as DomNode | undefined } : {}),
      })),
    },
  };
}
