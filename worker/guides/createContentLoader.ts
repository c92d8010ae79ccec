/**
 * Guide content in the worker (guides §3, §5, §7, §8, §9): a step's building blocks, inline or fetched from an
 * allowed origin and verified against its hash before they are parsed, then checked against the building-block
 * allow-list; step stylesheets (10 s) and scripts (allowed origins, SRI); a 10-minute cache keyed by URL and
 * hash; prefetch of the guides that may show, 10 requests at a time. `resolveStep` turns a guide's step into the
 * StepToShow the shim draws.
 */
import { CONTENT_PREFETCH_BATCH, GUIDE_CACHE_TIMEOUT_MS, STYLESHEET_TIMEOUT_MS } from '../../shared/constants';
import { ERROR_CODES, fail, ok, type Outcome } from '../../shared/errors';
import type { Guide, GuideStep } from '../../shared/guides/guides';
import { checkBuildingBlocks } from '../../shared/guides/checkBuildingBlocks';
import { fillVariables } from '../../shared/guides/fillVariables';
import { asDomNode } from '../../shared/guides/validateGuidePayload';
import { MESSAGES } from '../../shared/messages';
import type { LogLevel, SeenReason, StepToShow } from '../../shared/protocol';
import type { AssetCheck } from './checkAssetUrl';
import type { GuideHealth } from './createGuideHealth';
import type { StepPainter } from './createStepPainter';
import type { WorkerPorts } from '../ports';
import { raceTimeout, TIMED_OUT } from '../raceTimeout';
import { defaultDigest, sriOf, verifyContentHash } from '../verifyContentHash';

export interface ContentLoaderOptions {
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
  checkAsset: AssetCheck;
  health: GuideHealth;
  /** guides §7: no prefetch. @default false */
  disablePrefetch?: boolean;
  /** Issue #34: paints the steps it resolves (StepToShow.painted). @default none: the page draws them with React */
  painter?: StepPainter;
}

export interface ContentLoader {
  /** A step's content: inline, cached, or fetched from an allowed origin and verified against its hash. */
  loadContent(guide: Guide, step: GuideStep): Promise<Outcome<unknown>>;
  /**
   * A stylesheet from an allowed origin, as text for the overlay's shadow root; one still loading after `waitMs`
   * fails with `timeoutMessage` (the step shows without it). `guide` null: a sheet of no guide (global, launcher).
   */
  loadStylesheet(guide: Guide | null, href: string, waitMs?: number, timeoutMessage?: (url: string) => string): Promise<string | undefined>;
  /** Fetches the content of these guides' steps ahead, 10 requests at a time. */
  prefetch(list: Guide[]): Promise<void>;
  /**
   * The step as the shim draws it: content verified and checked, step CSS after the global CSS, its script, and
   * its surface painted (issue #34) unless `contentOnly` (its content goes into another surface: what's new, the
   * resource center).
   */
  resolveStep(guide: Guide, step: GuideStep, reason: SeenReason, contentOnly?: boolean): Promise<Outcome<StepToShow>>;
  /** guides §7 cachedGuides: guides whose content this page holds (not the sheets nor `excluded`'s). */
  cachedGuideIds(excluded: string): string[];
  /** The load response's global guide CSS (guideCssUrl), put before every step's own. */
  setGlobalCss(css: string | undefined): void;
}

export function createContentLoader({ ports, log, checkAsset, health, disablePrefetch, painter }: ContentLoaderOptions): ContentLoader {
  /**
   * Verified, parsed content fetched by URL, kept GUIDE_CACHE_TIMEOUT_MS (guides §9: 10 minutes) so a
   * prefetched or already shown step needs no second request; keyed by URL and expected hash.
   */
  const contentCache = new Map<string, { content: unknown; at: number; guideId: string }>();
  let globalCss: string | undefined;
  const fresh = (at: number) => ports.clock.now() - at < GUIDE_CACHE_TIMEOUT_MS;

  const loader: ContentLoader = {
    async loadContent(guide, step) {
      const source = contentSourceOf(step);
      if (step.domJson !== undefined || !source) return ok(step.domJson);
      const checked = checkAsset(source.url);
      if (!checked.ok) return health.markFailed(guide, checked.message);
      const url = checked.href;
      const key = `${url}\u0000${source.hash ?? ''}`;
      const cached = contentCache.get(key);
      if (cached && fresh(cached.at)) return ok(cached.content);
      let text: string;
      try {
        const response = await ports.transport.request({ method: 'GET', url });
        if (response.status < 200 || response.status >= 300) throw new Error(`status ${response.status}`);
        text = await response.text();
      } catch (err) {
        const message = `${MESSAGES.contentLoadFailed}: ${url} (${(err as Error).message})`;
        log('error', message);
        health.countError(guide);
        return fail(ERROR_CODES.badPayload, message);
      }
      // spec: guides §5, §8 — content must verify against its hash before it is even parsed; a mismatch
      // marks the guide failed and it is never rendered.
      const verified = await verifyContentHash(new TextEncoder().encode(text), url, source.hash, ports.digest ?? defaultDigest);
      if (!verified.ok) return health.markFailed(guide, verified.message);
      let content: unknown;
      try {
        // guides §3 domJsonpUrl: the same content as a script calling a function; only its argument is read, never run.
        content = JSON.parse(source.jsonp ? (JSONP.exec(text)?.[1] ?? '') : text);
      } catch {
        return health.markFailed(guide, `${MESSAGES.contentNotJson}: ${url}`);
      }
      contentCache.set(key, { content, at: ports.clock.now(), guideId: guide.id });
      return ok(content);
    },

    async loadStylesheet(guide, href, waitMs = STYLESHEET_TIMEOUT_MS, timeoutMessage = MESSAGES.stylesheetTimeout) {
      const checked = checkAsset(href);
      if (!checked.ok) {
        log('error', checked.message);
        return undefined;
      }
      const url = checked.href;
      const cached = contentCache.get(url);
      if (cached && fresh(cached.at)) return cached.content as string;
      try {
        const answer = await raceTimeout(
          ports.clock,
          ports.transport.request({ method: 'GET', url }).then(async (r) => (r.status >= 200 && r.status < 300 ? r.text() : Promise.reject(new Error(`status ${r.status}`)))),
          waitMs,
        );
        if (answer === TIMED_OUT) {
          log('error', timeoutMessage(url));
          if (guide) health.countError(guide);
          return undefined;
        }
        contentCache.set(url, { content: answer, at: ports.clock.now(), guideId: guide?.id ?? '' });
        return answer;
      } catch (err) {
        log('error', `${MESSAGES.contentLoadFailed}: ${url} (${(err as Error).message})`);
        if (guide) health.countError(guide);
        return undefined;
      }
    },

    async prefetch(list) {
      // guides §7 Assets: a multi-step guide's later steps are ready when the visitor advances.
      if (disablePrefetch) return;
      const steps = list.flatMap((guide) => guide.steps.filter((s) => s.domJson === undefined && contentSourceOf(s)).map((step) => ({ guide, step })));
      for (let i = 0; i < steps.length; i += CONTENT_PREFETCH_BATCH) {
        await Promise.all(steps.slice(i, i + CONTENT_PREFETCH_BATCH).map(({ guide, step }) => loader.loadContent(guide, step)));
      }
    },

    async resolveStep(guide, step, reason, contentOnly) {
      const failure = health.failure(guide.id);
      if (failure) return fail(ERROR_CODES.badPayload, `guide ${guide.id} failed earlier on this page: ${failure}`);
      const loaded = await loader.loadContent(guide, step);
      if (!loaded.ok) return loaded;
      const blocks = checkBuildingBlocks(loaded.value, guide.id, step.id);
      if (!blocks.ok) return health.markFailed(guide, blocks.message);
      const stepCss = step.contentUrlCss ? await loader.loadStylesheet(guide, step.contentUrlCss) : undefined;
      // The load response's global guide CSS comes first, so a step's own sheet can override it.
      const sheets = [globalCss, stepCss].filter((sheet): sheet is string => sheet !== undefined);
      const css = sheets.length ? sheets.join('\n') : undefined;
      let script: StepToShow['script'];
      if (step.contentUrlJs) {
        // guides §5: scripts only from allowed origins; the page checks the hash itself (SRI integrity).
        const checked = checkAsset(step.contentUrlJs);
        if (!checked.ok) return health.markFailed(guide, checked.message);
        script = { url: checked.href, integrity: sriOf(step.hashes?.contentJsHash) };
      }
      const shown: StepToShow = {
        guideId: guide.id,
        guideName: guide.name ?? guide.id,
        stepId: step.id,
        type: step.type,
        stepIndex: guide.steps.indexOf(step),
        stepCount: guide.steps.length,
        elementPathRule: step.elementPathRule,
        elementContainsRulesList: step.elementContainsRulesList,
        content: fillVariables(asDomNode(blocks.content), step.attributes?.variables),
        attributes: step.attributes ?? {},
        hideCredits: step.hideCredits === true,
        reason,
        lastUpdatedAt: guide.lastUpdatedAt,
        ...(guide.language ? { language: guide.language } : {}),
        ...(css !== undefined ? { css } : {}),
        ...(Array.isArray(guide.automations) && guide.automations.length ? { automations: guide.automations } : {}),
        ...(script ? { script } : {}),
        ...advanceOf(guide, step),
        ...embedOf(guide),
      };
      return ok(painter && !contentOnly ? await painter.paint(shown) : shown);
    },

    cachedGuideIds(excluded) {
      return [...new Set([...contentCache.values()].filter((c) => fresh(c.at) && c.guideId && c.guideId !== excluded).map((c) => c.guideId))];
    },

    setGlobalCss(css) {
      globalCss = css;
    },
  };
  return loader;
}

/**
 * guides §3 how a step moves on by itself: the step's advanceMethod, the guide's advanceActions {elementClick,
 * elementHover} for every step, and the step's confirmationElementPathRule (a click there advances it).
 */
function advanceOf(guide: Guide, step: GuideStep): Pick<StepToShow, 'advanceMethod' | 'confirmationElementPathRule'> {
  const actions = guide.attributes?.advanceActions as { elementClick?: unknown; elementHover?: unknown } | undefined;
  const method = [step.advanceMethod, actions?.elementClick === true && 'element click', actions?.elementHover === true && 'mouseover'].filter((m) => typeof m === 'string' && m).join(',');
  return {
    ...(method ? { advanceMethod: method } : {}),
    ...(typeof step.confirmationElementPathRule === 'string' && step.confirmationElementPathRule ? { confirmationElementPathRule: step.confirmationElementPathRule } : {}),
  };
}

/** guides §3 attributes.embedConfig {selector, method replace or prepend (the default)}; none when it has no selector. */
function embedOf(guide: Guide): Pick<StepToShow, 'embed'> {
  const config = guide.attributes?.embedConfig as { selector?: unknown; method?: unknown } | undefined;
  return typeof config?.selector === 'string' && config.selector ? { embed: { selector: config.selector, method: config.method === 'replace' ? 'replace' : 'prepend' } } : {};
}

/** `callback({...});` as dom.jsonp files have it: the argument. */
const JSONP = /^\s*[\w$.]+\s*\(([\s\S]*)\)\s*;?\s*$/;

/**
 * guides §3, §7 where a step's content comes from when it is not inline: domUrl (dom.json, checked against
 * domHash), else domJsonpUrl (dom.jsonp, against domJsonpHash), else buildingBlocksUrl (buildingBlocks.json,
 * against domHash).
 */
function contentSourceOf(step: GuideStep): { url: string; hash?: string; jsonp?: boolean } | null {
  if (step.domUrl) return { url: step.domUrl, hash: step.hashes?.domHash };
  if (step.domJsonpUrl) return { url: step.domJsonpUrl, hash: step.hashes?.domJsonpHash, jsonp: true };
  if (step.buildingBlocksUrl) return { url: step.buildingBlocksUrl, hash: step.hashes?.domHash };
  return null;
}
