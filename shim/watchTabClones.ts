/**
 * Clone detection (analytics §3, §4, §9): a duplicated browser tab starts with a copy of the original's
 * session storage, and so with its tab id. Two signals tell a clone from a reload:
 * - a session-storage marker set while a page of the tab is alive, removed when it hides and in any case
 *   after 10 s: found at start, it was copied from a tab that is still open (a reload removes it first);
 * - a BroadcastChannel named with the api key: a top-level page claims its tab id, and any other live
 *   page holding the same id answers, which catches clones made more than 10 s after the original loaded.
 * A clone takes a new tab id. Child frames share their tab's id and take no part.
 */
import { newTabId } from './loadIdentity';

/** spec: analytics §9 — clone timer 10 s. */
const CLONE_MARKER_MS = 10_000;
const MARKER_KEY = '_wm_tabAlive';
const TAB_KEY = '_wm_tabId';

interface TabMessage {
  type: 'claim' | 'taken';
  tabId: string;
  frameId: string;
}

/**
 * Watches this page's tab id for clones (not when `off`: a torn-down agent); `onNewTabId` runs when this page
 * turns out to be the clone.
 * Returns the tab id to start with (already new when the marker showed a clone) and a stop function.
 */
export function watchTabClones(
  off: boolean,
  apiKey: string,
  tabId: string,
  frameId: string,
  onNewTabId: (tabId: string) => void,
): { tabId: string; stop(): void } {
  if (off || window.top !== window) return { tabId, stop: () => undefined };
  let current = tabId;
  const renew = () => {
    current = newTabId();
    try {
      sessionStorage.setItem(TAB_KEY, current);
    } catch {
      // Without session storage the id lives for this page only.
    }
    return current;
  };

  let marker: string | null = null;
  try {
    marker = sessionStorage.getItem(MARKER_KEY);
    sessionStorage.setItem(MARKER_KEY, frameId);
  } catch {
    // No session storage: the broadcast channel alone decides.
  }
  if (marker && marker !== frameId) renew();
  const clearMarker = () => {
    try {
      if (sessionStorage.getItem(MARKER_KEY) === frameId) sessionStorage.removeItem(MARKER_KEY);
    } catch {
      // As above.
    }
  };
  const timer = setTimeout(clearMarker, CLONE_MARKER_MS);
  addEventListener('pagehide', clearMarker);

  let channel: BroadcastChannel | null = null;
  if (typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(`waymark-${apiKey}`);
    channel.onmessage = (event: MessageEvent<TabMessage>) => {
      const message = event.data;
      if (!message || message.tabId !== current) return;
      if (message.type === 'claim' && message.frameId !== frameId) {
        // Another page claims our tab id: it is the newcomer, so it is the clone. Tell it, by its frameId.
        channel?.postMessage({ type: 'taken', tabId: current, frameId: message.frameId } satisfies TabMessage);
      } else if (message.type === 'taken' && message.frameId === frameId) {
        onNewTabId(renew());
      }
    };
    channel.postMessage({ type: 'claim', tabId: current, frameId } satisfies TabMessage);
  }

  return {
    tabId: current,
    stop() {
      clearTimeout(timer);
      removeEventListener('pagehide', clearMarker);
      clearMarker();
      channel?.close();
    },
  };
}
