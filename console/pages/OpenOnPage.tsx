/**
 * A guide opened on a page of the host app (issue #15): "Preview" opens the page with a preview link (guides §3
 * Preview: the agent shows the guide in any state with its preview bar), "Open in designer" with the designer
 * parameter (guides §2 URL triggers), and answers the opened page's `ready` with `set-token` (guides §7, the
 * opener's handshake) so its Shift+Alt+8 flow goes straight to the designer too. The page is the guide's first
 * preview page unless the author types another.
 */
import { useEffect, useRef, useState } from 'react';
import { DESIGNER_PARAMETER, encodeDesignerToken } from '../../shared/authoring/designerLaunch';
import { INSTALL_TYPE, PREVIEW_PARAMETER } from '../../shared/authoring/previewRecord';
import { api } from '../api';

export function OpenOnPage({ apiKey, guideId, previewPages }: { apiKey: string; guideId: string; previewPages: unknown }) {
  const first = (Array.isArray(previewPages) ? previewPages : []).find((p): p is string => typeof p === 'string' && /^https?:\/\//.test(p));
  const [page, setPage] = useState(first ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const listening = useRef<((event: MessageEvent) => void) | null>(null);
  useEffect(() => () => void (listening.current && removeEventListener('message', listening.current)), []);

  /** The page's address, or null (said to the author) when it is not an http(s) address. */
  function pageUrl(): URL | null {
    try {
      const url = new URL(page);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
      setProblem(null);
      return url;
    } catch {
      setProblem('Type the http(s) address of a page of your app that runs the agent');
      return null;
    }
  }

  function open(url: URL, parameter: string, value: string, token?: string): void {
    url.searchParams.set(parameter, value);
    const opened = window.open(url.href, '_blank');
    if (token) listen(opened, token);
  }

  /** Answers the opened page's `ready` with `set-token` (guides §7), for as long as this view stays. */
  function listen(opened: Window | null, token: string): void {
    if (!opened) return;
    if (listening.current) removeEventListener('message', listening.current);
    listening.current = (event: MessageEvent) => {
      const data = event.data as { type?: unknown } | null;
      if (event.source !== opened || data?.type !== 'ready') return;
      opened.postMessage({ type: 'set-token', token }, event.origin);
    };
    addEventListener('message', listening.current);
  }

  /**
   * Opens the page with `parameter`; on another origin, where the login cookie does not reach this console, the
   * page also gets a designer session of this app, in the set-token message only (never in its address). The tab
   * opens first, while the click still allows it.
   */
  function openWithSession(url: URL, parameter: string, value: string): void {
    const token = encodeDesignerToken({ baseUrl: location.origin, guideId });
    if (url.origin === location.origin) return open(url, parameter, value, parameter === DESIGNER_PARAMETER ? token : undefined);
    const opened = window.open('about:blank', '_blank');
    api<{ token: string }>('/api/designer-sessions', { method: 'POST', body: { apiKey } }).then(
      (session) => {
        url.searchParams.set(parameter, value);
        if (opened) opened.location.href = url.href;
        listen(opened, encodeDesignerToken({ baseUrl: location.origin, guideId, session: session.token }));
      },
      (err: Error) => {
        opened?.close();
        setProblem(`No designer session: ${err.message}`);
      },
    );
  }

  const preview = () => {
    const url = pageUrl();
    if (url) openWithSession(url, PREVIEW_PARAMETER, base64url({ apiKey, guideId, serverUrl: location.origin, origin: location.origin, installType: INSTALL_TYPE, stepIndex: 0 }));
  };
  const design = () => {
    const url = pageUrl();
    if (url) openWithSession(url, DESIGNER_PARAMETER, encodeDesignerToken({ baseUrl: location.origin, guideId }));
  };

  return (
    <form className="toolbar spaced open-on-page" onSubmit={(e) => (e.preventDefault(), preview())}>
      <label className="field inline">
        <span>Page</span>
        <input type="url" placeholder="https://your.app/page" value={page} onChange={(e) => setPage(e.target.value)} aria-invalid={problem !== null} />
      </label>
      <button type="submit">Preview</button>
      <button type="button" onClick={design}>
        Open in designer
      </button>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}

function base64url(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
