/**
 * The little the agent keeps in the browser's storage for later pages: the tab's last page loads (session
 * storage, for U-turns across full navigations, analytics §4) and JSON values in local storage (the session's
 * traffic source, guide state). Storage that is unavailable or full is never an error.
 */

const PAGES_KEY = '_wm_pages';

/**
 * A storage key's value, or null: `storage` is a getter because a browser that refuses storage (cookies blocked,
 * a sandboxed frame) throws on the very access to `localStorage` or `sessionStorage`, before any getItem.
 */
export function readStored(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

/**
 * Local storage's flag that this browser has drawn guides of the app (issue #16): written by the guides chunk,
 * read by the shim's start, which then asks for the overlay chunk early, and by the guides chunk.
 */
export const hadGuidesKey = (apiKey: string): string => `_wm_overlay.${apiKey}`;

/** The tab's last two page loads, oldest first (session storage: this tab only). */
export function recentPages(): Array<{ url: string; time: number }> {
  try {
    const pages = JSON.parse(sessionStorage.getItem(PAGES_KEY) ?? '[]') as Array<{ url: string; time: number }>;
    return Array.isArray(pages) ? pages.filter((p) => typeof p?.url === 'string' && typeof p.time === 'number').slice(-2) : [];
  } catch {
    return [];
  }
}

/** Records a page load of this tab, for the next page's U-turn check. One write per page change. */
export function rememberPage(url: string, time: number): void {
  try {
    sessionStorage.setItem(PAGES_KEY, JSON.stringify([...recentPages(), { url, time }].slice(-2)));
  } catch {
    // No session storage: U-turns across full navigations go unseen.
  }
}

/** A JSON value kept in local storage, or null (none, unreadable, or no storage). */
export function readJson<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

/** Keeps a JSON value in local storage; does nothing where storage is unavailable. */
export function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage unavailable: the next page classifies its own traffic.
  }
}
