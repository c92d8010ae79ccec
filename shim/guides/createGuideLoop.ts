/**
 * The guide loop on the page (guides §4 "Guide loop"): every 500 ms, unless loading, paused, stopped or the tab
 * is in the background — badges placed, a launcher by its element followed; the guide list asked again on an
 * SPA page change or after an hour (guides §9); then, unless a step shows here or in another frame or this frame
 * cannot be seen, the auto-display phase: the first candidate whose target is there shows, within 50 ms (what
 * is left goes on 50 ms later); a candidate whose target never comes times out (guides §4 Step timeout); after a
 * guide moved on, the candidates wait for the worker's next display time (guides §4 Throttling). A load
 * also sets element activations, event property rules, badges, the launcher, the resource center, the global
 * script, and opens a permalink.
 */
import { GUIDE_LOOP_BUSY_MS, GUIDE_LOOP_IDLE_MS, GUIDE_REQUEST_STALE_MS, STEP_SEEN_TIMEOUT_MS } from '../../shared/constants';
import { ERROR_CODES } from '../../shared/errors';
import { mayShowGuidesInFrame } from '../../shared/frames/frameVisibility';
import { continuesVisitor } from '../../shared/identity/identityRules';
import { MESSAGES } from '../../shared/messages';
import type { BadgeToShow, GuideLoadResult } from '../../shared/protocol';
import { collectEventProperties } from '../collectEventProperties';
import type { LauncherView } from './createLauncherView';
import type { ResourceCenterView } from './createResourceCenterView';
import { keyOf, type StepFlow } from './createStepFlow';
import type { DisplayContext } from './displayContext';
import type { GuideDisplayOptions } from './guideDisplayTypes';
import { TICK_MS, type Ticker } from '../createTicker';
import { openPermalink } from './openPermalink';
import { watchActivations, type Activation, type ActivationWatch } from './watchActivations';

export interface GuideLoop {
  /** Runs the loop now (and every 500 ms after). */
  tick(): void;
  /** Asks the worker for this page's guides. */
  load(url: string): Promise<void>;
  setPaused(paused: boolean): void;
  /**
   * guides §4 Throttling: a guide moved on (a dismissal, snooze or final advance of an auto guide sets a throttling
   * timestamp); the candidates judged at the load, but those that bypass throttling, wait until the worker's next
   * display time. The loop does nothing until the worker has said it.
   */
  throttle(): void;
  /** False once guide.json said the subscription lacks guides (guides §5). */
  supported(): boolean;
  stop(): void;
}

export interface GuideLoopParts {
  ctx: DisplayContext;
  flow: StepFlow;
  launcher: LauncherView;
  resourceCenter: ResourceCenterView;
}

/** Without a running agent (tests), the loop keeps a timer of its own. */
const ownTicker: Ticker = {
  every(ticks, job) {
    const timer = setInterval(job, ticks * TICK_MS);
    return () => clearInterval(timer);
  },
};

export function createGuideLoop(
  { ctx, flow, launcher, resourceCenter }: GuideLoopParts,
  { delayed, seenTimeoutMs, onEventPropertyRules, running }: Pick<GuideDisplayOptions, 'delayed' | 'seenTimeoutMs' | 'onEventPropertyRules' | 'running'>,
): GuideLoop {
  const { bridge, log, query } = ctx;
  /** When the loop started: a child frame of unknown visibility waits a while for its parent to say (guides §4). */
  const startedAt = Date.now();
  let loadedUrl = '';
  /** Whose guide list it is (visitor, account, metadata): an identify asks again, as a page change does. */
  let loadedFor = { visitorId: '', accountId: '' };
  let loadedMetadata = running?.init.metadata;
  const identity = () => running?.identity ?? loadedFor;
  /** When the guide list of this page was asked for (guides §9: stale after an hour). */
  let loadedAt = 0;
  let loading = false;
  /** guides §5: guide.json said the subscription lacks the guides feature. */
  let notInSubscription = false;
  /** teardown (issue #7): the loop never runs again. */
  let stopped = false;
  /** guides §4 Throttling: auto candidates without a bypass wait until then (epoch ms); see `throttle`. */
  let throttledUntil = 0;
  /** The worker is asked for the next display time: the loop waits for it, as it does for a load. */
  let throttling = false;
  /** guides §4 Guide loop: skipped while paused (stopGuides, delayGuides). */
  let paused = delayed === true;
  /** A tick 50 ms on, when the auto-display phase ran out of its time. */
  let timer: ReturnType<typeof setTimeout> | null = null;
  // The idle ticks ride on the agent's one periodic timer (shim/createTicker, issue #16).
  const stopTicks = (running?.ticker ?? ownTicker).every(GUIDE_LOOP_IDLE_MS / TICK_MS, () => tick());
  /** Where the auto-display phase goes on after a tick ran out of its 50 ms. */
  let resumeAt = 0;
  /** Addresses whose permalink was already opened. */
  const handledPermalinks = new Set<string>();
  /** Steps logged over the processing time limit. */
  const slow = new Set<string>();
  /** When each candidate's target was first missing, for the step seen timeout. */
  const waitingSince = new Map<string, number>();
  let activationWatch: ActivationWatch = { rescan() {}, undo() {} };
  /** guides §2 badges of the last load, and the targets they were last drawn on. */
  let badges: BadgeToShow[] = [];
  let drawnBadges: Array<{ badge: BadgeToShow; target: Element }> = [];

  async function load(url: string): Promise<void> {
    loading = true;
    loadedUrl = url;
    loadedFor = identity();
    loadedMetadata = running?.init.metadata;
    loadedAt = Date.now();
    // Issues #16, #34: the overlay's chunk loads beside guide.json, so a first step waits for no fetch: the steps
    // chunk (no React, ~14 KB gzip) for every visitor, unless the app's subscription has no guides.
    if (!notInSubscription) ctx.prefetchOverlay();
    try {
      const result = await bridge.call((api) => api.loadGuides(url));
      if (loadedUrl !== url) return;
      if (!result.ok && result.error.code === ERROR_CODES.notInSubscription) notInSubscription = true;
      if (result.ok && mayDraw(result.value)) {
        ctx.hadGuides.write(true);
        ctx.prefetchOverlay();
      } else if (notInSubscription) ctx.hadGuides.write(false);
      flow.candidates = result.ok ? result.value.candidates : [];
      throttledUntil = (result.ok && result.value.throttledUntil) || 0;
      const activations: Activation[] = result.ok ? result.value.activations.map((a) => ({ ...a, run: () => void activate(a.guideId) })) : [];
      // guides §4 a resource center launched by dom: the visitor's event on its element opens or closes it.
      const rc = result.ok ? result.value.resourceCenter : undefined;
      if (rc?.activation) activations.push({ guideId: rc.guideId, ...rc.activation, run: resourceCenter.toggle });
      activationWatch.undo();
      activationWatch = watchActivations(activations, log);
      badges = result.ok ? result.value.badges : [];
      if (result.ok) {
        const rules = result.value.eventPropertyRules;
        onEventPropertyRules?.(rules.length ? (target) => collectEventProperties(target, rules) : null);
        launcher.set(result.value);
        resourceCenter.set(result.value.resourceCenter);
        ctx.formFields(result.value.formFields);
        if (result.value.globalScript) ctx.loadScript({ url: result.value.globalScript }, MESSAGES.globalScriptFailed);
        // guides §3 Guide language: a step showing through an identify that changed the language follows it.
        void flow.restate();
      }
    } finally {
      loading = false;
    }
    // The same page after its address was cleaned (waymark_once): no new guide load for it.
    if (await openPermalink(handledPermalinks, ctx.showGuide, log)) loadedUrl = location.href;
  }

  /** Whether a load brought anything the overlay may draw on this page. */
  function mayDraw(r: GuideLoadResult): boolean {
    return Boolean(r.candidates.length || r.badges.length || r.activations.length || r.launcher || r.resourceCenter);
  }

  /** An activated guide shows as soon as its step can; past the step seen timeout it gives up with a warning. */
  async function activate(guideId: string): Promise<void> {
    const started = Date.now();
    const limit = seenTimeoutMs ?? STEP_SEEN_TIMEOUT_MS;
    while (!(await ctx.showGuide(guideId, undefined, 'dom', true))) {
      if (Date.now() - started >= limit) {
        log('warn', MESSAGES.elementActivationTimeout);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, GUIDE_LOOP_IDLE_MS));
    }
  }

  /** guides §4 Guide loop, badges phase: draws each badge whose target is on the page, redrawing on change. */
  function placeBadges(): void {
    const placed: Array<{ badge: BadgeToShow; target: Element }> = [];
    for (const badge of badges) {
      const target = query(badge.selector);
      if (target) placed.push({ badge, target });
    }
    const same = placed.length === drawnBadges.length && placed.every((p, i) => p.badge === drawnBadges[i]!.badge && p.target === drawnBadges[i]!.target);
    if (same || (!placed.length && !ctx.hasOverlay())) return;
    drawnBadges = placed;
    void ctx.overlay().then((v) => v.showBadges(placed, (guideId) => void ctx.showGuide(guideId, undefined, 'badge')));
  }

  /** guides §4 Auto display: the first candidate whose target is here shows; 50 ms at most per tick. */
  function autoDisplay(): void {
    const { candidates } = flow;
    const started = performance.now();
    const list = candidates.slice(resumeAt).concat(candidates.slice(0, resumeAt));
    /** Candidates whose element is not in this document: the leader asks its followers (frames chunk). */
    const unplaced: typeof list = [];
    const frames = ctx.frames();
    for (let i = 0; i < list.length; i++) {
      const step = list[i]!;
      if (i > 0 && performance.now() - started > GUIDE_LOOP_BUSY_MS) {
        resumeAt = (resumeAt + i) % candidates.length;
        clearTimeout(timer!);
        timer = setTimeout(tick, GUIDE_LOOP_BUSY_MS);
        return;
      }
      if (flow.suppressed.has(keyOf(step)) || (!step.bypassesThrottling && Date.now() < throttledUntil)) continue;
      const before = performance.now();
      const target = flow.targetOf(step);
      // guides §8: a step over the processing time limit is logged (once), and ejected with ejectOnTimeout.
      const took = performance.now() - before;
      if (took > GUIDE_LOOP_BUSY_MS && !slow.has(keyOf(step))) {
        slow.add(keyOf(step));
        const eject = running?.options.guides?.ejectOnTimeout === true;
        log('warn', `guide ${step.guideId} step ${step.stepId} took ${Math.round(took)} ms to process (limit ${GUIDE_LOOP_BUSY_MS} ms)${eject ? ': ejected' : ''}`);
        if (eject) {
          flow.suppressed.add(keyOf(step));
          continue;
        }
      }
      if (target === false) {
        // A leader's step whose element a follower frame has shows there, in display order (the follower waits
        // for it like for a step of its own).
        if (frames?.place(step)) return;
        unplaced.push(step);
        if (seenTimeoutMs !== undefined && seenTimeoutMs > 0) {
          const since = waitingSince.get(keyOf(step)) ?? Date.now();
          waitingSince.set(keyOf(step), since);
          if (Date.now() - since >= seenTimeoutMs) {
            flow.suppressed.add(keyOf(step));
            void flow.act('timeout', step, { timeoutReason: 'element', timeoutMs: seenTimeoutMs });
            continue;
          }
        }
        flow.noteMissing(step);
        continue;
      }
      resumeAt = 0;
      // One guide in the tab at a time: a follower frame shows once the leader grants it (the loop runs then).
      if (frames && !frames.mayShow()) return;
      void flow.show(step, target);
      return;
    }
    resumeAt = 0;
    frames?.unplaced(unplaced);
    launcher.autoOpen();
  }

  function tick(): void {
    clearTimeout(timer!);
    timer = null;
    if (notInSubscription || stopped) return void stopTicks();
    // guides §4 Guide loop: skipped while loading, disabled or delayed, and while the tab is in the background
    // (a step shown there would count as seen by nobody).
    if (loading || throttling || paused || document.visibilityState === 'hidden') return;
    const shown = flow.shown();
    const who = identity();
    const sameIds = who.visitorId === loadedFor.visitorId && who.accountId === loadedFor.accountId;
    const sameVisitor = sameIds && running?.init.metadata === loadedMetadata;
    if (location.href === loadedUrl && sameVisitor) {
      flow.follow();
      placeBadges();
      // guides §4 resource center phase: elements that activate it (or a dom guide) that the app drew since, and
      // the panel kept beside the element that opened it.
      activationWatch.rescan();
      resourceCenter.follow();
      launcher.follow();
      // guides §9: a guide list is stale after an hour on the same page; ask again.
      if (Date.now() - loadedAt > GUIDE_REQUEST_STALE_MS && !shown) {
        void load(location.href).then(tick);
        return;
      }
    } else {
      // An SPA page change: eligibility depends on the URL, so ask again (guides §4 page rules). So does an
      // identify: the guides are the new visitor's, and another person (not the anonymous visitor signing in,
      // analytics §4) sees nothing of the one before, not even a guide the host showed by API.
      // (Not at the first load: there is no visitor before.)
      const otherPerson = loadedAt > 0 && !continuesVisitor(loadedFor.visitorId, who.visitorId);
      const pageChanged = location.href !== loadedUrl;
      if (otherPerson) {
        if (shown) flow.clear();
        // What the visitor before dismissed or hid on this page is theirs, and so is their throttling.
        flow.suppressed.clear();
        throttledUntil = 0;
      }
      // A step the loop showed stays up while the new list still has it: an app that writes its state into the
      // address (a filter, a tab) would otherwise take it down and show it again, a guideSeen each time.
      void load(location.href).then(() => {
        // A step still being drawn is the seen check's to judge (guides §5 page rule exception).
        const kept = pageChanged && shown?.seen && flow.shown() === shown && shown.step.reason !== 'api';
        if (kept && !flow.candidates.some((c) => keyOf(c) === keyOf(shown.step))) flow.clear();
        tick();
      });
      return;
    }
    // guides §4 Auto display: a guide shown here, or in another frame of the tab, blocks auto display; frame
    // visibility phase: a frame that cannot be seen shows nothing (one whose parent has not said yet waits a while).
    if (shown || ctx.frame.othersShowing || !mayShowGuidesInFrame(ctx.frame, Date.now() - startedAt)) return;
    autoDisplay();
  }

  async function throttle(): Promise<void> {
    throttling = true;
    try {
      // Asked after the step action: the worker handles calls in order, so the timestamp is set.
      throttledUntil = (await bridge.call((w) => w.throttling())).nextDisplayAt ?? 0;
    } catch {
      // The worker is gone (teardown): nothing left to show.
    } finally {
      throttling = false;
      tick();
    }
  }

  return {
    tick,
    load,
    setPaused(next) {
      paused = next;
    },
    throttle: () => void throttle(),
    supported: () => !notInSubscription,
    stop() {
      stopped = true;
      stopTicks();
      clearTimeout(timer!);
      timer = null;
      activationWatch.undo();
    },
  };
}
