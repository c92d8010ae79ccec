/**
 * A preview (guides §3 Preview, §7 preview endpoint, §8 preview messages): the author's guide, in any state,
 * shown on the host page with the preview bar, step after step, across the host's page loads until the author
 * exits. The record (shared/authoring/previewRecord) is checked first ("Preview origin must be valid and the
 * apiKey must match; otherwise the preview exits") and kept per api key with the step reached. Modes come as
 * `{ type: 'preview', mode }` messages from this page's origin only (the bar, the designer): enter and start
 * show the record's step, restart resets the steps and shows the first, update loads the guide again (after the
 * designer saved it), resize places the bar again, exit ends it (back to the designer when it came from there).
 */
import { GUIDE_LOOP_IDLE_MS, PREVIEW_BAR, PREVIEW_POLL_MS } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import {
  checkPreviewRecord,
  PREVIEW_STORAGE_PREFIX,
  type PreviewMode,
  type PreviewRecord,
} from '../../../shared/authoring/previewRecord';
import type { PreviewLoaded } from '../../../shared/protocol/guides';
import type { AuthorHost } from '../api';
import { authOf } from '../designer/designerAuth';
import { createPreviewBar, type PreviewModeMessage } from './createPreviewBar';

export interface PreviewSession {
  mode(mode: PreviewMode): void;
  stop(): void;
}

const MODES: readonly string[] = ['enter', 'start', 'restart', 'update', 'exit', 'resize'];

/** Runs the preview `value` describes, or exits it with the refusal logged (then null). */
export function runPreview(host: AuthorHost, value: unknown, fromLink: boolean, onExit: (record: PreviewRecord) => void): PreviewSession | null {
  const key = PREVIEW_STORAGE_PREFIX + host.apiKey;
  const checked = checkPreviewRecord(value, host.apiKey);
  if ('refused' in checked) {
    host.log('warn', checked.refused);
    forget(key);
    return null;
  }
  const record = checked.record;
  const save = () => {
    try {
      localStorage.setItem(key, JSON.stringify(record));
    } catch {
      // Without storage the preview lasts this page.
    }
  };
  if (fromLink) save();

  host.holdGuides(true);
  const bar = createPreviewBar();
  bar.post({ type: 'setHostname', hostname: location.hostname });
  bar.post({ type: 'setPreviewModeType', previewModeType: record.fromDesigner ? 'designer' : 'tab' });
  let loaded: PreviewLoaded | null = null;
  let selectors: Array<string | undefined> = [];
  let stopped = false;
  let barTop = true;
  /** A load is under way: what shows meanwhile is the old guide's, and moves nothing. */
  let loading = false;

  /** Asks the preview endpoint for the guide, hands it to the worker and shows step `startAt` (clamped). */
  async function load(startAt: number): Promise<void> {
    loading = true;
    host.hideGuides();
    try {
      await fetchAndShow(startAt);
    } finally {
      loading = false;
    }
  }

  async function fetchAndShow(startAt: number): Promise<void> {
    const kind = record.resourceCenter ? 'resourcecenter' : 'guide';
    const query = new URLSearchParams({ url: location.href, apiKey: host.apiKey, ...(record.language ? { language: record.language } : {}) });
    let response: Response;
    try {
      // The console's login on its own origin, the designer's session on another (designerAuth).
      const auth = authOf(host.apiKey, record.serverUrl);
      response = await fetch(`${record.serverUrl}/api/s/${encodeURIComponent(host.apiKey)}/${kind}/${encodeURIComponent(record.guideId)}/preview?${query}`, auth);
    } catch (err) {
      return loadError(0, `The preview endpoint did not answer: ${String(err)}`);
    }
    const body = (await response.json().catch(() => null)) as { error?: string; guide?: unknown; children?: unknown[]; pages?: unknown[]; languages?: unknown; language?: unknown } | null;
    if (!response.ok || !body) {
      // guides §8: "guide not found sends status 404 with data 'Guide not found' to the preview bar".
      const data = response.status === 404 ? MESSAGES.previewGuideNotFound : body?.error ?? response.statusText;
      return loadError(response.status, response.status === 401 ? `${data}: sign in to the console, then reload` : data);
    }
    const outcome = await host.bridge.call((w) => w.previewGuide({ guide: body.guide, children: body.children }));
    if (stopped) return;
    if (!outcome.ok || !outcome.value) return loadError(422, outcome.ok ? 'no guide' : outcome.error.message);
    loaded = outcome.value;
    const steps = (body.guide as { steps?: Array<{ elementPathRule?: unknown }> }).steps ?? [];
    selectors = steps.map((s) => (typeof s.elementPathRule === 'string' && s.elementPathRule ? s.elementPathRule : undefined));
    const index = Math.min(startAt, Math.max(0, loaded.stepIds.length - 1));
    bar.post({ type: 'setGuideLoaded', guideId: loaded.guideId, name: loaded.name, stepCount: loaded.stepIds.length });
    const pages = (body.pages ?? []).filter((p): p is string => typeof p === 'string' && /^https?:\/\//i.test(p));
    bar.post({ type: 'setGuidePages', pages });
    // issue #17: the guide's languages, for the bar's language options (one language: none to offer).
    const languages = Array.isArray(body.languages) ? body.languages.filter((l): l is string => typeof l === 'string') : [];
    bar.post({ type: 'setLanguages', languages, current: typeof body.language === 'string' ? body.language : languages[0] ?? '' });
    await show(index);
  }

  function loadError(status: number, data: string): void {
    host.log('warn', `preview of guide ${record.guideId}: ${data}`);
    bar.post({ type: 'setGuideLoadError', status, data });
  }

  async function show(index: number): Promise<void> {
    if (!loaded || stopped) return;
    host.hideGuides();
    missing = null;
    const stepId = loaded.stepIds[index];
    const shown = stepId !== undefined && (await host.showGuide(loaded.guideId, stepId));
    progress(index);
    bar.post({ type: 'setErrors', errors: shown ? [] : [`Step ${index + 1}: ${MESSAGES.noElementForStep} on this page`] });
    if (!shown && stepId !== undefined) missing = { index, triedAt: Date.now() };
  }

  /**
   * A step whose element was not there (the page is still rendering, or an iframe's agent has not started yet):
   * tried again at the guide loop's idle pace while nothing shows, and its error goes once it shows.
   */
  let missing: { index: number; triedAt: number } | null = null;
  async function retry(): Promise<void> {
    const m = missing;
    if (!m || !loaded || Date.now() - m.triedAt < GUIDE_LOOP_IDLE_MS) return;
    m.triedAt = Date.now();
    const stepId = loaded.stepIds[m.index];
    if (stepId === undefined || !(await host.showGuide(loaded.guideId, stepId)) || missing !== m || stopped) return;
    missing = null;
    bar.post({ type: 'setErrors', errors: [] });
    place();
  }

  function progress(index: number): void {
    if (!loaded) return;
    if (index !== record.stepIndex) {
      record.stepIndex = index;
      save();
    }
    bar.post({ type: 'setGuideProgress', stepIndex: index, stepCount: loaded.stepIds.length });
    place();
  }

  /** guides §2: the bar goes to the bottom when it would cover the step's element. */
  function place(): void {
    const selector = selectors[record.stepIndex];
    const target = selector ? host.query(selector) : null;
    const top = !target || target.getBoundingClientRect().top > PREVIEW_BAR.height + 8;
    if (top !== barTop) bar.post({ type: 'setIsPreviewBarTop', isTop: (barTop = top) });
  }

  // What the author does with the guide (next, previous) moves the record and the bar's progress.
  const poll = setInterval(() => {
    const active = host.activeStep();
    if (!loading && !active) void retry();
    if (loading || !loaded || !active || active.guideId !== loaded.guideId) return;
    const index = loaded.stepIds.indexOf(active.stepId);
    if (index >= 0 && index !== record.stepIndex) progress(index);
  }, PREVIEW_POLL_MS);

  function onMessage(event: MessageEvent): void {
    const data = event.data as Partial<PreviewModeMessage> | null;
    if (!data || data.type !== 'preview') return;
    // guides §3: preview messages are taken from this page's origin only (the bar, the designer).
    if (event.origin !== location.origin) return host.log('warn', MESSAGES.previewInvalidOrigin);
    // The bar's language options: the record keeps the choice across the tab's page loads.
    if (data.mode === 'update' && typeof data.language === 'string' && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(data.language)) {
      record.language = data.language;
      save();
    }
    if (typeof data.mode === 'string' && MODES.includes(data.mode)) session.mode(data.mode as PreviewMode);
  }
  addEventListener('message', onMessage);
  const onResize = () => session.mode('resize');
  addEventListener('resize', onResize);

  const session: PreviewSession = {
    mode(mode) {
      if (stopped) return;
      switch (mode) {
        case 'enter':
        case 'start':
          void show(record.stepIndex);
          break;
        case 'restart':
          // guides §3: the steps reset: the guide is handed to the worker again, fresh, and shows from its first step.
          void load(0);
          break;
        case 'update':
          void load(record.stepIndex);
          break;
        case 'resize':
          place();
          break;
        case 'exit':
          forget(key);
          session.stop();
          onExit(record);
          break;
      }
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(poll);
      removeEventListener('message', onMessage);
      removeEventListener('resize', onResize);
      bar.remove();
      host.hideGuides();
      void host.bridge.call((w) => w.previewGuide(null)).then(() => host.holdGuides(false));
    },
  };
  void load(record.stepIndex);
  return session;
}

function forget(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing was kept.
  }
}
