/**
 * The launcher and the resource center of the last guide load (guides §2, §4, §8), judged on the guides as they
 * stand now (a step advanced since the load moves the onboarding progress on): the pure choices of
 * shared/surfaces, then what needs I/O — custom content, stylesheets and scripts of the launcher config, what's-new
 * items, announcement and sandbox/custom module content (fetched, verified and allow-listed as any step's), the
 * iframe module's origin, the resource center's introduction. `logged`: log what was left off and why (at a load;
 * the views asked after each action stay quiet).
 */
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import { checkBuildingBlocks } from '../../shared/guides/checkBuildingBlocks';
import { asDomNode } from '../../shared/guides/validateGuidePayload';
import { MESSAGES } from '../../shared/messages';
import type { LauncherToShow, LogLevel, ResourceCenterModule, ResourceCenterToShow, WorkerInit } from '../../shared/protocol';
import { chooseLauncher } from '../../shared/surfaces/chooseLauncher';
import { blockText, chooseResourceCenter } from '../../shared/surfaces/chooseResourceCenter';
import { launcherClosedKey } from '../../shared/surfaces/launcherPanel';
import type { Clock } from '../ports';
import type { AssetCheck } from './checkAssetUrl';
import type { ContentLoader } from './createContentLoader';
import type { GuideBook } from './createGuideBook';

/** Stands for the launcher where content checks name a guide (its config is no guide of its own). */
export const LAUNCHER_GUIDE: Guide = { id: '(launcher)', launchMethod: 'launcher', steps: [] };

export interface SurfaceViewOptions {
  config: WorkerInit;
  clock: Clock;
  log(level: LogLevel, message: string): void;
  book: GuideBook;
  loader: ContentLoader;
  checkAsset: AssetCheck;
}

export interface SurfaceViews {
  /** The load response and page the views are judged for. */
  setSource(response: GuideLoadResponse, url: string): void;
  launcherOf(logged: boolean): Promise<{ launcher?: LauncherToShow; launcherError?: string }>;
  resourceCenterOf(logged: boolean): Promise<ResourceCenterToShow | undefined>;
}

export function createSurfaceViews({ config, clock, log, book, loader, checkAsset }: SurfaceViewOptions): SurfaceViews {
  let source: { response: GuideLoadResponse; url: string } | null = null;

  async function launcherOf(logged: boolean): Promise<{ launcher?: LauncherToShow; launcherError?: string }> {
    if (!source) return {};
    const choice = chooseLauncher({ ...source.response, guides: book.list() }, { url: source.url, device: config.device, now: clock.now() });
    if (logged) for (const s of choice.skipped) log('debug', `guide ${s.guideId} not in the launcher: ${s.reason}`);
    if (!choice.launcher) return choice.problem ? { launcherError: choice.problem } : {};
    const { launcherBadgeUrl, contentUrl, contentUrlCss, contentUrlJs, ...rest } = choice.launcher;
    const launcher: LauncherToShow = { ...rest, closedFlagKey: launcherClosedKey(config.apiKey, config.identity.visitorId) };
    // guides §2 custom content, CSS and JS from a content URL: the content fetched and checked as a step's
    // (allowed origins, building-block allow-list), the stylesheet fetched (10 s), the script's origin checked.
    if (contentUrl) {
      const loaded = await loader.loadContent(LAUNCHER_GUIDE, { id: LAUNCHER_GUIDE.id, guideId: LAUNCHER_GUIDE.id, type: 'launcher', domUrl: contentUrl });
      const blocks = loaded.ok ? checkBuildingBlocks(loaded.value, LAUNCHER_GUIDE.id, LAUNCHER_GUIDE.id) : null;
      if (blocks?.ok) launcher.content = asDomNode(blocks.content);
      else if (logged) log('warn', `launcher content ${contentUrl} left out: ${blocks ? blocks.message : loaded.ok ? '' : loaded.error.message}`);
    }
    if (contentUrlCss) {
      const css = await loader.loadStylesheet(null, contentUrlCss);
      if (css !== undefined) launcher.css = css;
    }
    if (contentUrlJs) {
      const checked = checkAsset(contentUrlJs);
      if (checked.ok) launcher.scriptUrl = checked.href;
      else if (logged) log('error', `${MESSAGES.scriptLoadFailed}: ${checked.message}`);
    }
    if (launcherBadgeUrl) {
      const checked = checkAsset(launcherBadgeUrl);
      if (checked.ok) launcher.badgeImageUrl = checked.href;
      else if (logged) log('warn', `launcher badge image: ${checked.message}`);
    }
    // guides §2 What's-new feed: each item's content resolved and verified like any step's; one that fails is
    // left off (and logged), the rest still show.
    if (choice.whatsnewItems) {
      launcher.whatsnew = [];
      for (const item of choice.whatsnewItems) {
        const found = book.find(item.guideId, item.stepId);
        const resolved = found ? await loader.resolveStep(found.guide, found.step, 'launcher', true) : null;
        if (resolved?.ok) launcher.whatsnew.push({ ...item, content: resolved.value.content });
        else if (logged) log('warn', `what's-new item ${item.guideId}/${item.stepId} left off: ${resolved ? resolved.error.message : 'no such step'}`);
      }
    }
    return { launcher };
  }

  /** Any module that cannot load skips the whole resource center ('Failed to load one or more Resource Center modules'). */
  async function resourceCenterOf(logged: boolean): Promise<ResourceCenterToShow | undefined> {
    if (!source) return undefined;
    const choice = chooseResourceCenter({ ...source.response, guides: book.list() }, { url: source.url, device: config.device, now: clock.now() });
    if (logged) for (const s of choice.skipped) log('debug', `guide ${s.guideId} not in the resource center: ${s.reason}`);
    const problems: string[] = choice.moduleProblem ? [choice.moduleProblem] : [];
    const modules: ResourceCenterModule[] = [];
    const contentOf = async (guideId: string, stepId: string) => {
      const found = book.find(guideId, stepId);
      if (!found) return undefined;
      const resolved = await loader.resolveStep(found.guide, found.step, 'resourceCenter', true);
      if (!resolved.ok) {
        problems.push(`module content of guide ${guideId}: ${resolved.error.message}`);
        return undefined;
      }
      return resolved.value.content;
    };
    for (const m of choice.resourceCenter?.modules ?? []) {
      const { contentUrl, stepId, ...rest } = m;
      const module: ResourceCenterModule = { ...rest, items: [] };
      for (const item of m.items) {
        const content = m.kind === 'announcements' ? await contentOf(item.guideId, item.stepId) : undefined;
        const step = book.find(item.guideId, item.stepId)?.step;
        module.items.push({ ...item, text: blockText(content ?? step?.domJson), ...(content ? { content } : {}) });
      }
      if (contentUrl) {
        const checked = checkAsset(contentUrl);
        if (checked.ok) module.iframeSrc = checked.href;
        else problems.push(`iframe module ${m.guideId}: ${checked.message}`);
      }
      if (stepId) {
        const content = await contentOf(m.guideId, stepId);
        if (content) module.content = content;
      }
      modules.push(module);
    }
    if (problems.length) {
      if (logged) log('error', `${MESSAGES.resourceCenterModulesFailed}: ${problems.join('; ')}`);
      return undefined;
    }
    if (!choice.resourceCenter) return undefined;
    // guides §4 "it falls back to api launch if content validation fails": the top-level guide's own content
    // (the home view's introduction) is verified and checked as any step's; failing, the resource center
    // stays, opened by the host's API only.
    const top = book.find(choice.resourceCenter.guideId, choice.resourceCenter.stepId);
    if (top && (top.step.domJson !== undefined || top.step.domUrl)) {
      const resolved = await loader.resolveStep(top.guide, top.step, 'resourceCenter', true);
      if (resolved.ok) return { ...choice.resourceCenter, intro: resolved.value.content, modules };
      if (logged) log('warn', `resource center ${top.guide.id}: its content failed validation (${resolved.error.message}); it opens by API only`);
      const { activation: _dropped, ...rest } = choice.resourceCenter;
      return { ...rest, badge: false, modules };
    }
    return { ...choice.resourceCenter, modules };
  }

  return {
    setSource(response, url) {
      source = { response, url };
    },
    launcherOf,
    resourceCenterOf,
  };
}
