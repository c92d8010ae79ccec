/**
 * Host pages of the analytics specs (issue #35): a page of the app's, opened in a new tab of the browser context for
 * one visitor of one account, whose clicks are stored before a feature is made (consoleFeatures, designerTagFeature).
 */
import type { BrowserContext, Page } from '@playwright/test';
import { agentReady, hostPage } from './fixtures';

/** Who visits, and what the page holds. */
export interface ClickHostOptions {
  apiKey: string;
  visitor: string;
  account: string;
  body: string;
}

/** The page at `path` (served by the test) in a new tab, the agent ready and its first guide load answered. */
export async function openClickHost(context: BrowserContext, serverUrl: string, path: string, { apiKey, visitor, account, body }: ClickHostOptions): Promise<Page> {
  const host = await context.newPage();
  const target = new URL(path, serverUrl);
  const init = `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, account: { id: '${account}' } });`;
  await host.route(
    (url) => url.pathname === target.pathname,
    (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init, body }) }),
  );
  // Event property rules come with the guide load: a click before it would carry none.
  const guides = host.waitForResponse((r) => r.url().includes('/data/guide.json/'));
  await host.goto(target.href);
  await agentReady(host);
  await guides;
  return host;
}

/**
 * Clicks `selector` `times` times, sends what the agent holds and closes the tab (a tab in front of the console would
 * slow its frames).
 */
export async function clickAndClose(host: Page, selector: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await host.locator(selector).click({ delay: 20 });
  await host.evaluate(() => (window as any).waymark.flushNow());
  await host.close();
}
