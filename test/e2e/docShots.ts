/**
 * The docs' screenshots, written by the e2e specs that reach each page when WAYMARK_SHOTS=1 (docs/console.md shows
 * them); a plain run writes none.
 */
import type { Page } from '@playwright/test';

export const SHOTS = process.env.WAYMARK_SHOTS === '1';

/** A screenshot for the docs: the viewport grown to the page, so the sticky sidebar spans it. */
export async function shoot(page: Page, path: string): Promise<void> {
  if (!SHOTS) return;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height: Math.max(800, height) });
  await page.screenshot({ path });
  await page.setViewportSize({ width: 1280, height: 800 });
}
