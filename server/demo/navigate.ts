/**
 * Client-side routing of the demo without a router library: history.pushState plus an event, so the app
 * behaves like a real single-page host (the agent must notice URL changes that fire no page load).
 */

/** Fired on window after `navigate` changes the URL; pushState itself fires nothing. */
export const NAVIGATE_EVENT = 'acme:navigate';

/** Moves to `path` (same origin) without a page load, and scrolls to the top like a page change would. */
export function navigate(path: string): void {
  if (path === location.pathname + location.search + location.hash) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  window.scrollTo(0, 0);
}
