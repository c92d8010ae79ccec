/** What the frame specs share: an iframe's document served on the server's origin, and the agent inside it. */
import type { Frame, Page } from '@playwright/test';
import { expect } from './fixtures';

/** Serves `html` at `path` on the server's origin (for iframes: openHostPage serves the top page). */
export async function routeDocument(page: Page, serverUrl: string, path: string, html: string): Promise<void> {
  const target = new URL(path, serverUrl);
  await page.route((url) => url.origin === target.origin && url.pathname === target.pathname, (route) => route.fulfill({ contentType: 'text/html', body: html }));
}

/** The frame whose URL has `path`, once its agent (installed by the top's) has started. */
export async function childAgent(page: Page, path: string): Promise<Frame> {
  let frame: Frame | undefined;
  await expect.poll(() => (frame = page.frames().find((f) => f.url().includes(path))) !== undefined).toBe(true);
  await frame!.waitForFunction(() => (window as any).waymark?.isReady?.() === true);
  return frame!;
}
