/**
 * The main-thread half of the guide loop (guides §4 "Guide loop", first cut). The worker decides which
 * steps may show; this loop supplies the DOM facts (is the target there and visible), lazily loads the
 * overlay, renders the first step whose facts hold, and reports what the visitor does with it.
 */
import { GUIDE_LOOP_IDLE_MS } from '../shared/constants';
import type { GuideAction } from '../shared/guides';
import { MESSAGES } from '../shared/messages';
import type { LogLevel, StepAction, StepToShow } from '../shared/protocol';
import type { Overlay, OverlayModule, UiElement } from '../overlay/api';
import type { Bridge } from './createBridge';

export interface GuideDisplayOptions {
  bridge: Bridge;
  overlayUrl: string;
  log(level: LogLevel, message: string): void;
}

export interface GuideDisplay {
  /** Shows the first step (or `stepId`) of a loaded guide; resolves false with a log when it cannot. */
  showGuideById(guideId: string, stepId?: string): Promise<boolean>;
  hideGuides(): void;
  stop(): void;
}

export function createGuideDisplay({ bridge, overlayUrl, log }: GuideDisplayOptions): GuideDisplay {
  let candidates: StepToShow[] = [];
  let shown: { step: StepToShow; since: number } | null = null;
  /** Steps hidden by hideGuides or already handled on this page: not auto-shown again. */
  const suppressed = new Set<string>();
  let loadedUrl = '';
  let loading = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let overlay: Promise<Overlay> | null = null;
  const noTargetLogged = new Set<string>();

  const keyOf = (s: { guideId: string; stepId: string }) => `${s.guideId}/${s.stepId}`;

  function getOverlay(): Promise<Overlay> {
    overlay ??= (import(/* @vite-ignore */ overlayUrl) as Promise<OverlayModule>).then((m) => m.createOverlay(document));
    return overlay;
  }

  function act(action: StepAction['action'], step: StepToShow, extra: Partial<StepAction> = {}) {
    return bridge.call((api) =>
      api.stepAction({ guideId: step.guideId, stepId: step.stepId, action, url: location.href, ...extra }),
    );
  }

  /** The target of a step, when the page has it and it is visible; lightboxes need none. */
  function targetOf(step: StepToShow): Element | null | false {
    if (step.type !== 'tooltip') return null;
    if (!step.elementPathRule) return false;
    let el: Element | null;
    try {
      el = document.querySelector(step.elementPathRule);
    } catch {
      return false;
    }
    if (!el) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 || rect.height > 0 ? el : false;
  }

  async function show(step: StepToShow, target: Element | null): Promise<void> {
    shown = { step, since: Date.now() };
    const view = await getOverlay();
    if (shown?.step !== step) return;
    view.show(step, target, {
      onAction: (actions, ui) => void onAction(step, actions, ui),
      onDismiss: (ui) => void dismiss(step, ui),
    });
    await act('seen', step, { reason: step.reason });
  }

  async function dismiss(step: StepToShow, ui: UiElement | null): Promise<void> {
    if (shown?.step !== step) return;
    const duration = Date.now() - shown.since;
    close(step);
    if (ui) await act('activity', step, { uiElement: { ...ui, actions: ['dismissGuide'] } });
    await act('dismiss', step, { duration });
  }

  function close(step: StepToShow): void {
    suppressed.add(keyOf(step));
    candidates = candidates.filter((c) => c.guideId !== step.guideId);
    shown = null;
    void getOverlay().then((v) => v.hide());
  }

  async function onAction(step: StepToShow, actions: GuideAction[], ui: UiElement): Promise<void> {
    if (shown?.step !== step) return;
    const duration = Date.now() - shown.since;
    await act('activity', step, { uiElement: { ...ui, actions: actions.map((a) => a.action) } });
    for (const a of actions) {
      if (a.action === 'dismissGuide') return dismiss(step, null);
      if (a.action === 'advanceGuide') {
        const next = await act('advance', step, { duration });
        close(step);
        if (next.ok && next.value) {
          candidates.unshift(next.value);
          tick();
        }
        return;
      }
      if (a.action === 'openLink') {
        const href = String(a.parameters?.[0] ?? '');
        if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener');
      }
    }
  }

  async function load(url: string): Promise<void> {
    loading = true;
    loadedUrl = url;
    try {
      const result = await bridge.call((api) => api.loadGuides(url));
      if (result.ok && loadedUrl === url) candidates = result.value.candidates;
    } finally {
      loading = false;
    }
  }

  function tick(): void {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(tick, GUIDE_LOOP_IDLE_MS);
    if (loading) return;
    if (location.href !== loadedUrl) {
      // An SPA page change: eligibility depends on the URL, so ask again (guides §4 page rules).
      if (shown && shown.step.reason === 'auto') {
        const step = shown.step;
        shown = null;
        void getOverlay().then((v) => v.hide());
        candidates = candidates.filter((c) => c !== step);
      }
      void load(location.href).then(tick);
      return;
    }
    if (shown) return;
    for (const step of candidates) {
      if (suppressed.has(keyOf(step))) continue;
      const target = targetOf(step);
      if (target === false) {
        if (!noTargetLogged.has(keyOf(step))) {
          noTargetLogged.add(keyOf(step));
          log('info', `${MESSAGES.noElementForStep} ${step.stepId} of guide ${step.guideId}`);
        }
        continue;
      }
      void show(step, target);
      return;
    }
  }

  tick();

  return {
    async showGuideById(guideId, stepId) {
      const result = await bridge.call((api) => api.stepForGuide(guideId, stepId));
      if (!result.ok) {
        log('warn', result.error.message);
        return false;
      }
      const target = targetOf(result.value);
      if (target === false) {
        log('info', `${MESSAGES.noElementForStep} ${result.value.stepId} of guide ${guideId}`);
        return false;
      }
      if (shown) getOverlay().then((v) => v.hide());
      await show(result.value, target);
      return true;
    },
    hideGuides() {
      if (!shown) return;
      suppressed.add(keyOf(shown.step));
      shown = null;
      void getOverlay().then((v) => v.hide());
    },
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (overlay) void overlay.then((v) => v.destroy());
    },
  };
}
