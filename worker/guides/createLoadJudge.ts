/**
 * What a guide load makes of a checked guide.json response (guides §2, §3, §4, §7, §8): the global CSS and
 * script, the auto steps that may show in display order (shared/eligibility/chooseAutoSteps) with their
 * content resolved, control-group guides recorded once, element activations and badges (judged by every rule
 * but the launch method and throttling: the visitor asks for them), event property rules, the launcher and the
 * resource center, and a prefetch of what may show next. Keeps each guide's verdict for the debugger.
 */
import { GLOBAL_CSS_WAIT_MS } from '../../shared/constants';
import { readEventPropertyRules } from '../../shared/analytics/eventPropertyRules';
import { launchMethods } from '../../shared/eligibility/autoDisplayRules';
import { ALL_AUTO_RULES, chooseAutoSteps } from '../../shared/eligibility/chooseAutoSteps';
import { nextDisplayTime, throttlingBypassOf } from '../../shared/eligibility/nextDisplayTime';
import type { GuideEventProps, GuideEventType } from '../../shared/events/events';
import type { GuideLoadResponse, ThrottlingConfig } from '../../shared/guides/guides';
import { readSiteGuideSettings } from '../../shared/guides/readSiteGuideSettings';
import { withRecentStepStates } from '../../shared/guides/recentStepStates';
import { MESSAGES } from '../../shared/messages';
import type { GuideLoadResult, GuideState, LogLevel, StepToShow, WorkerInit } from '../../shared/protocol';
import { isResourceCenterGuide } from '../../shared/surfaces/chooseResourceCenter';
import { badgeOf } from './badgeOf';
import type { AssetCheck } from './checkAssetUrl';
import type { ContentLoader } from './createContentLoader';
import type { GuideBook } from './createGuideBook';
import type { SurfaceViews } from './createSurfaceViews';

export interface LoadJudgeOptions {
  config: WorkerInit;
  now(): number;
  log(level: LogLevel, message: string): void;
  book: GuideBook;
  loader: ContentLoader;
  surfaces: SurfaceViews;
  checkAsset: AssetCheck;
  record(type: GuideEventType, props: GuideEventProps, url: string): void;
  /** Throttling timestamps live here (guides §3). */
  state: GuideState;
  /** guides §4 Health check facts, kept by the step actions. */
  recentChanges: Record<string, number>;
  /** The auto steps are judged: the load counts as done for the debugger (before badges and surfaces). */
  onJudged(url: string, now: number): void;
}

/** One guide's verdict at the last load: a candidate to show, or why not. */
export interface LoadVerdict {
  candidate: boolean;
  reason: string;
}

export interface LoadJudge {
  judge(response: GuideLoadResponse, url: string): Promise<GuideLoadResult>;
  verdictOf(guideId: string): LoadVerdict | undefined;
  /** guides §3, §4: the throttling config the last load judged with (the host's, else the app's), if any. */
  throttling(): ThrottlingConfig | undefined;
}

export function createLoadJudge(options: LoadJudgeOptions): LoadJudge {
  const { config, log, book, loader, surfaces, checkAsset, record, state, recentChanges } = options;
  /** Control-group guides whose control event this page recorded. */
  const controlRecorded = new Set<string>();
  /** Guides whose expired continuation was logged ('Multi-step continuation has expired' once). */
  const expiredLogged = new Set<string>();
  const verdicts = new Map<string, LoadVerdict>();
  let throttling: ThrottlingConfig | undefined;

  /** Guides launched by `method` with every rule but the launch method, throttling and `alsoSkip` passing here. */
  const askedFor = (response: GuideLoadResponse, url: string, now: number, keep: (g: GuideLoadResponse['guides'][number]) => boolean, alsoSkip: string[] = []) =>
    chooseAutoSteps(
      { ...response, guides: response.guides.filter(keep) },
      { url, device: config.device, schedule: { now, recentChanges }, rules: ALL_AUTO_RULES.filter((r) => r.name !== 'launchMethod' && r.name !== 'throttling' && !alsoSkip.includes(r.name)) },
    );

  async function judge(answer: GuideLoadResponse, url: string): Promise<GuideLoadResult> {
    const host = config.guides ?? {};
    const now = options.now();
    // guides §9: this browser's step changes of the last 10 s win over an older answer (a dismissal still on its way).
    const response = withRecentStepStates(answer, state.recentSteps, now);
    // The host's initialize options win over the app's settings served in guide.json (issue #14).
    const site = readSiteGuideSettings(response.settings);
    book.set(response.guides);
    // guides §3, §8: the response's global CSS for every guide (5 s wait) and global script (allowed origins).
    loader.setGlobalCss(
      typeof response.guideCssUrl === 'string' && response.guideCssUrl
        ? await loader.loadStylesheet(null, response.guideCssUrl, GLOBAL_CSS_WAIT_MS, (u) => `${MESSAGES.globalCssMissing}: ${u}`)
        : undefined,
    );
    let globalScript: string | undefined;
    if (typeof response.globalJsUrl === 'string' && response.globalJsUrl) {
      const checked = checkAsset(response.globalJsUrl);
      if (checked.ok) globalScript = checked.href;
      else log('error', `${MESSAGES.globalScriptFailed}: ${checked.message}`);
    }
    throttling = host.throttling ?? site.throttling;
    // guides §4 Throttling: a guide held back only by throttling stays a candidate; the page holds it until the
    // next display time (`throttledUntil`), so it shows on this page once that passes, not at the next load.
    const choice = chooseAutoSteps(response, {
      url,
      device: config.device,
      adoptionGuides: host.adoptionGuides ?? site.adoptionGuides,
      schedule: { now, throttling, timestamps: state.timestamps, recentChanges },
      rules: ALL_AUTO_RULES.filter((r) => r.name !== 'throttling'),
    });
    const next = nextDisplayTime(throttling, state.timestamps);
    const throttledUntil = next !== null && next > now ? next : undefined;
    for (const guideId of choice.expiredContinuations) {
      if (expiredLogged.has(guideId)) continue;
      expiredLogged.add(guideId);
      log('info', `${MESSAGES.continuationExpired} (guide ${guideId})`);
    }
    const candidates: StepToShow[] = [];
    for (const { guide, step, reason } of choice.eligible) {
      const resolved = await loader.resolveStep(guide, step, reason);
      // guides §4 Auto display: the page holds the others back when a dismissal there sets a next display time.
      if (resolved.ok) candidates.push(throttlingBypassOf(guide, now) ? { ...resolved.value, bypassesThrottling: true } : resolved.value);
      else choice.skipped.push({ guideId: guide.id, stepId: step.id, reason: resolved.error.message });
    }
    for (const s of choice.skipped) {
      if (!s.reason.startsWith('controlGroup:')) continue;
      // spec: guides §4 Control group — never shown; its steps are marked notSeen and a control event is
      // recorded once (the collector keeps the notSeen state, so later pages do not record it again).
      const guide = book.byId(s.guideId);
      if (!guide || controlRecorded.has(guide.id) || guide.steps.some((st) => st.seenState === 'notSeen')) continue;
      controlRecorded.add(guide.id);
      log('info', `${MESSAGES.controlGroup} (guide ${guide.id})`);
      book.markNotSeen(guide.id);
      record('control', { guide_id: guide.id, guide_step_id: guide.steps[0]?.id ?? '', reason: 'control' }, url);
    }
    verdicts.clear();
    for (const c of candidates) {
      const held = throttledUntil !== undefined && !c.bypassesThrottling;
      verdicts.set(
        c.guideId,
        held
          ? { candidate: false, reason: `throttling: throttled until ${new Date(throttledUntil).toISOString()}; then shows step ${c.stepId} (${c.reason})` }
          : { candidate: true, reason: `shows step ${c.stepId} (${c.reason})` },
      );
    }
    for (const s of choice.skipped) {
      verdicts.set(s.guideId, { candidate: false, reason: s.reason });
      // spec: guides §4 Repeat — a redisplay that comes too early is an error worth seeing.
      log(s.reason.startsWith('repeat: redisplay too early') ? 'error' : 'debug', `guide ${s.guideId} not shown: ${s.reason}`);
    }
    options.onJudged(url, now);
    // guides §4 element activation: dom-launched guides with an activation. A resource center's activation
    // opens the resource center (GuideLoadResult.resourceCenter), not a step.
    // Without an activation, the first step's triggerElementPathRule (guides §3) is the element whose click shows it.
    const activationOf = (g: GuideLoadResponse['guides'][number]) =>
      (g.attributes?.activation as { event?: unknown; selector?: unknown } | undefined) ?? { selector: g.steps[0]?.triggerElementPathRule };
    // attributes.dom.isOnlyShowOnce (guides §3): a dom-launched guide once seen is not activated again.
    const seen = (g: GuideLoadResponse['guides'][number]) => (g.attributes?.dom as { isOnlyShowOnce?: unknown } | undefined)?.isOnlyShowOnce === true && g.steps.some((s) => s.seenState && s.seenState !== 'none');
    const activation = askedFor(response, url, now, (g) => launchMethods(g).includes('dom') && !isResourceCenterGuide(g) && !seen(g));
    const activations = activation.eligible.flatMap(({ guide }) => {
      const a = activationOf(guide);
      return typeof a.selector === 'string' && a.selector ? [{ guideId: guide.id, event: typeof a.event === 'string' && a.event ? a.event : 'click', selector: a.selector }] : [];
    });
    // Later steps of the guides that may show (and the activated ones), fetched while the visitor reads.
    const ahead = [...new Set([...candidates.map((c) => c.guideId), ...activations.map((a) => a.guideId)])];
    void loader.prefetch(ahead.flatMap((id) => book.list().filter((g) => g.id === id)));
    // guides §2 Badges: badge-launched guides; isOnlyShowOnce hides a seen guide's badge. A resource center's
    // badge is its own (guides §2); it and its modules are no badge-launched guides.
    const badgeChoice = askedFor(response, url, now, (g) => launchMethods(g).includes('badge') && !isResourceCenterGuide(g), ['notDismissed']);
    const badges = badgeChoice.eligible.flatMap(({ guide }) => badgeOf(guide, checkAsset, log));
    // analytics §3: event property rules ride on guide.json's features.
    const properties = readEventPropertyRules(response.features);
    for (const problem of properties.problems) log('warn', `guide.json features: ${problem}`);
    // guides §2 Launcher: its config judged for this page; a bad one is reported by the shim (critical).
    surfaces.setSource(response, url);
    const { launcher, launcherError } = await surfaces.launcherOf(true);
    const resourceCenter = await surfaces.resourceCenterOf(true);
    return {
      candidates,
      ...(throttledUntil !== undefined ? { throttledUntil } : {}),
      skipped: choice.skipped,
      activations,
      badges,
      eventPropertyRules: properties.rules,
      ...(globalScript ? { globalScript } : {}),
      ...(launcher ? { launcher } : {}),
      ...(launcherError ? { launcherError } : {}),
      ...(resourceCenter ? { resourceCenter } : {}),
      // analytics §2 form validation: the app's fields as served; the forms chunk checks them on the page.
      formFields: (response.settings as { formValidation?: { fields?: unknown } } | undefined)?.formValidation?.fields,
    };
  }

  return { judge, verdictOf: (guideId) => verdicts.get(guideId), throttling: () => throttling };
}
