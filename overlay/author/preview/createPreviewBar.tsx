/**
 * The preview bar (guides §2 Preview bar, §7 messages): a fixed iframe at the top of the page, 70 px high at
 * z-index 400000, moved to the bottom when it would cover the guide, with a narrow layout at 320 px or less.
 * The agent talks to it only by messages, each with a type (setGuideLoaded, setGuideProgress, setErrors,
 * setHostname, setGuidePages, setGuideLoadError, setPreviewModeType, setIsPreviewBarTop, and ours, setLanguages),
 * posted to the bar's window; the bar answers with `{ type: 'preview', mode }` posted to the page (restart, exit,
 * and `update` with a `language` from its language options). The bar's frame is
 * same-origin and script-free (srcdoc): what it shows is drawn from here, so a host's CSP needs no exception.
 */
import { useEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { PREVIEW_BAR } from '../../../shared/constants';
import type { PreviewMode } from '../../../shared/authoring/previewRecord';

/** spec: guides §7 "To the preview bar": the messages, by type. */
export type PreviewBarMessage =
  | { type: 'setGuideLoaded'; guideId: string; name?: string; stepCount: number }
  | { type: 'setGuideProgress'; stepIndex: number; stepCount: number }
  | { type: 'setErrors'; errors: string[] }
  | { type: 'setHostname'; hostname: string }
  | { type: 'setGuidePages'; pages: string[] }
  | { type: 'setGuideLoadError'; status: number; data: string }
  | { type: 'setPreviewModeType'; previewModeType: 'tab' | 'designer' }
  | { type: 'setIsPreviewBarTop'; isTop: boolean }
  // Ours (guides §2 "shows ... language options" names no message): the guide's languages and the one shown.
  | { type: 'setLanguages'; languages: string[]; current: string };

/** What the bar posts to the page: a mode; `update` with a `language` shows the guide in that language. */
export interface PreviewModeMessage {
  type: 'preview';
  mode: PreviewMode;
  language?: string;
}

export interface PreviewBar {
  /** Posts a message to the bar (its window's message event, like any other sender's). */
  post(message: PreviewBarMessage): void;
  /** The bar's window: the page takes mode messages from it only. */
  window(): Window | null;
  remove(): void;
}

interface BarState {
  name?: string;
  stepIndex: number;
  stepCount: number;
  errors: string[];
  hostname: string;
  pages: string[];
  loadError?: { status: number; data: string };
  previewModeType: 'tab' | 'designer';
  isTop: boolean;
  languages: string[];
  language: string;
}

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #f8fafc;
  background: #1e293b; height: ${PREVIEW_BAR.height}px; overflow: hidden; }
.bar { display: flex; align-items: center; gap: 16px; height: 100%; padding: 0 16px; }
.title { display: flex; flex-direction: column; min-width: 0; }
.label { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: #94a3b8; }
.name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.progress { font-variant-numeric: tabular-nums; white-space: nowrap; }
.errors { color: #fecaca; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1; }
.spacer { flex: 1; }
.pages { color: #cbd5e1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 30%; }
.pages a { color: #93c5fd; }
button { font: inherit; border-radius: 6px; border: 1px solid #475569; background: #334155; color: #f8fafc;
  padding: 6px 12px; cursor: pointer; }
button:hover { background: #475569; }
button:focus-visible { outline: 2px solid #93c5fd; outline-offset: 2px; }
button.exit { background: #f8fafc; color: #0f172a; border-color: #f8fafc; }
select { font: inherit; border-radius: 6px; border: 1px solid #475569; background: #334155; color: #f8fafc; padding: 5px 8px; }
.narrow .bar { gap: 8px; padding: 0 8px; }
.narrow .label, .narrow .pages, .narrow .host { display: none; }
`;

export function createPreviewBar(): PreviewBar {
  const frame = document.createElement('iframe');
  frame.setAttribute('data-waymark-preview-bar', '');
  frame.title = 'Waymark preview';
  frame.srcdoc = '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body></body></html>';
  place(frame, true);
  document.documentElement.appendChild(frame);

  let root: Root | null = null;
  /** Messages posted before the bar listens (its React effects run after the first render). */
  const queue: PreviewBarMessage[] = [];
  let listening = false;
  frame.addEventListener('load', () => {
    const doc = frame.contentDocument;
    const win = frame.contentWindow;
    if (!doc || !win) return;
    const style = doc.createElement('style');
    style.textContent = CSS;
    doc.head.appendChild(style);
    root = createRoot(doc.body);
    const onListening = () => {
      listening = true;
      for (const message of queue.splice(0)) win.postMessage(message, location.origin);
    };
    root.render(<Bar win={win} doc={doc} frame={frame} onListening={onListening} />);
  });

  return {
    post(message) {
      const win = listening ? frame.contentWindow : null;
      if (win) win.postMessage(message, location.origin);
      else queue.push(message);
    },
    window: () => frame.contentWindow,
    remove() {
      root?.unmount();
      frame.remove();
    },
  };
}

/** Fixed at the top (or the bottom), full width, the spec's height and z-index. */
function place(frame: HTMLIFrameElement, top: boolean): void {
  frame.style.cssText =
    `position:fixed;left:0;${top ? 'top' : 'bottom'}:0;width:100%;height:${PREVIEW_BAR.height}px;` +
    `border:0;margin:0;padding:0;z-index:${PREVIEW_BAR.zIndex};box-shadow:0 1px 6px rgba(15,23,42,.35);color-scheme:light;`;
}

function Bar({ win, doc, frame, onListening }: { win: Window; doc: Document; frame: HTMLIFrameElement; onListening(): void }) {
  const [state, setState] = useState<BarState>({ stepIndex: 0, stepCount: 0, errors: [], hostname: '', pages: [], previewModeType: 'tab', isTop: true, languages: [], language: '' });
  const [narrow, setNarrow] = useState(false);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // The bar takes messages from the page it sits on only.
      if (event.origin !== location.origin || event.source !== window) return;
      const message = event.data as PreviewBarMessage | null;
      if (!message || typeof message.type !== 'string') return;
      setState((s) => reduce(s, message));
    };
    win.addEventListener('message', onMessage);
    onListening();
    return () => win.removeEventListener('message', onMessage);
  }, [win, onListening]);

  useEffect(() => {
    // guides §2 "Mobile layout in preview: width at most 320".
    const measure = () => setNarrow(win.innerWidth <= PREVIEW_BAR.mobileMaxWidth);
    measure();
    win.addEventListener('resize', measure);
    return () => win.removeEventListener('resize', measure);
  }, [win]);

  useEffect(() => {
    doc.body.className = narrow ? 'narrow' : '';
  }, [doc, narrow]);

  useEffect(() => place(frame, state.isTop), [frame, state.isTop]);

  const send = (mode: PreviewMode) => window.postMessage({ type: 'preview', mode } satisfies PreviewModeMessage, location.origin);
  const progress = state.stepCount ? `Step ${state.stepIndex + 1} of ${state.stepCount}` : 'Loading…';

  return (
    <div className="bar" role="toolbar" aria-label="Guide preview">
      <div className="title">
        <span className="label">Previewing{state.hostname ? <span className="host"> on {state.hostname}</span> : null}</span>
        <span className="name">{state.name ?? 'Guide'}</span>
      </div>
      {state.loadError ? (
        <span className="errors" role="alert">
          {state.loadError.data} ({state.loadError.status})
        </span>
      ) : (
        <>
          <span className="progress" aria-live="polite">
            {progress}
          </span>
          <span className="errors" role={state.errors.length ? 'alert' : undefined}>
            {state.errors.join(' · ')}
          </span>
        </>
      )}
      {state.pages.length ? (
        <span className="pages">
          Pages:{' '}
          {state.pages.map((page, i) => (
            <a key={page} href={page} target="_top">
              {i ? ', ' : ''}
              {safeLabel(page)}
            </a>
          ))}
        </span>
      ) : null}
      {state.languages.length > 1 ? (
        <select
          aria-label="Language"
          value={state.language}
          onChange={(e) => window.postMessage({ type: 'preview', mode: 'update', language: e.target.value } satisfies PreviewModeMessage, location.origin)}
        >
          {state.languages.map((l) => (
            <option key={l} value={l}>
              {languageName(l)}
            </option>
          ))}
        </select>
      ) : null}
      <button type="button" onClick={() => send('restart')}>
        Restart
      </button>
      <button type="button" className="exit" onClick={() => send('exit')}>
        {state.previewModeType === 'designer' ? 'Back to designer' : 'Exit preview'}
      </button>
    </div>
  );
}

function reduce(s: BarState, m: PreviewBarMessage): BarState {
  switch (m.type) {
    case 'setGuideLoaded':
      return { ...s, name: m.name ?? m.guideId, stepCount: m.stepCount, loadError: undefined };
    case 'setGuideProgress':
      return { ...s, stepIndex: m.stepIndex, stepCount: m.stepCount };
    case 'setErrors':
      return { ...s, errors: m.errors };
    case 'setHostname':
      return { ...s, hostname: m.hostname };
    case 'setGuidePages':
      return { ...s, pages: m.pages };
    case 'setGuideLoadError':
      return { ...s, loadError: { status: m.status, data: m.data } };
    case 'setPreviewModeType':
      return { ...s, previewModeType: m.previewModeType };
    case 'setIsPreviewBarTop':
      return { ...s, isTop: m.isTop };
    case 'setLanguages':
      return { ...s, languages: m.languages, language: m.current };
    default:
      return s;
  }
}

/** A language's name in English with its tag ("French (fr)"), or the tag where the browser knows no name. */
function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag.replace(/_/g, '-'));
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

/** A page link's label: its path, or the text as given when it is not a URL. */
function safeLabel(page: string): string {
  try {
    const url = new URL(page, location.href);
    return url.pathname + url.search;
  } catch {
    return page;
  }
}
