/**
 * Issue #34 in real Chromium: ahead of a guide, the overlay lays a hidden sample of a step's text out for one frame,
 * so the frame that paints the first step finds its font faces looked up (overlay/static/warmFaces.ts). It leaves
 * the page as it found it, and it never makes a visitor's dead click look alive: it waits while the visitor has just
 * acted.
 *
 * The page is read over the DevTools protocol without a user gesture: Playwright's page.evaluate runs as one, which
 * would give the page the transient activation of a visitor who has just clicked (5 s in Chromium).
 */
import type { CDPSession, Page } from '@playwright/test';
import { expect, hostPage, storedEvents, test, uniqueId } from './fixtures';

const API_KEY = 'e2e-warm-faces';

interface HostChange {
  added: boolean;
  /** For an addition: the sample in the host's shadow root, hidden from sight and from assistive technology. */
  sample?: { visibility: string; ariaHidden: string | null; buttonWeight: string } | null;
  at: number;
}

/** Records our overlay's host going into <html> and out of it, from the page's start. */
async function watchOverlayHost(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const changes: unknown[] = [];
    (window as any).overlayHostChanges = changes;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element) || !node.hasAttribute('data-waymark-overlay')) continue;
          const sample = node.shadowRoot?.querySelector<HTMLElement>('[data-wm-warm-up]');
          const button = sample?.querySelector('button:not(.wm-close)');
          changes.push({
            added: true,
            sample: sample && button
              ? { visibility: getComputedStyle(sample).visibility, ariaHidden: sample.getAttribute('aria-hidden'), buttonWeight: getComputedStyle(button).fontWeight }
              : null,
            at: performance.now(),
          });
        }
        for (const node of record.removedNodes) {
          if (node instanceof Element && node.hasAttribute('data-waymark-overlay')) changes.push({ added: false, at: performance.now() });
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** `expression`'s value in the page, read without a user gesture. */
async function quietly<T>(cdp: CDPSession, expression: string): Promise<T> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value as T;
}

const hostChanges = (cdp: CDPSession) => quietly<HostChange[]>(cdp, 'window.overlayHostChanges');

/** Waits until the agent on the page has started, asking without a user gesture. */
const agentStarted = (cdp: CDPSession) => expect.poll(() => quietly<boolean>(cdp, 'window.waymark?.isReady?.() === true')).toBe(true);

test('ahead of a guide the overlay lays a hidden sample of its faces out for a frame, then leaves the page as it was', async ({ page, openHostPage }) => {
  await watchOverlayHost(page);
  const visitor = uniqueId('warm-faces');
  await openHostPage('/e2e/warm-faces', hostPage({ init: `waymark.initialize({ apiKey: '${API_KEY}', visitor: { id: '${visitor}' } });`, body: '<h1>Host</h1>' }));
  const cdp = await page.context().newCDPSession(page);
  await agentStarted(cdp);
  await expect.poll(() => hostChanges(cdp).then((changes) => changes.length), { timeout: 10_000 }).toBe(2);
  const [added, removed] = await hostChanges(cdp);
  // The step's own stylesheet applies to the sample: its button in the step's 600 weight.
  expect(added).toMatchObject({ added: true, sample: { visibility: 'hidden', ariaHidden: 'true', buttonWeight: '600' } });
  expect(removed).toMatchObject({ added: false });
  expect(await quietly<number>(cdp, "document.querySelectorAll('[data-waymark-overlay]').length")).toBe(0);
});

test('clicks around the time the sample would be laid out are still dead clicks: the sample waits while the visitor acts', async ({ page, serverUrl, openHostPage }) => {
  await watchOverlayHost(page);
  const visitor = uniqueId('warm-dead');
  // The overlay's chunk is held until the visitor has begun clicking, so its sample comes while they click.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/waymark.steps.js*', async (route) => {
    await held;
    await route.continue();
  });
  await openHostPage(
    '/e2e/warm-dead',
    hostPage({ init: `waymark.initialize({ apiKey: '${API_KEY}', visitor: { id: '${visitor}' } });`, body: '<button id="stuck" style="margin:40px">Stuck</button>' }),
  );
  const cdp = await page.context().newCDPSession(page);
  await agentStarted(cdp);
  // A click on a button that does nothing every 300 ms for 3.6 s: each is watched for 500 ms, so a node added to the
  // page anywhere in that time falls within some click's watch (the chunk and its idle callback take under 2.5 s).
  const CLICKS = 12;
  for (let i = 0; i < CLICKS; i++) {
    await page.click('#stuck');
    if (i === 0) release();
    await page.waitForTimeout(300);
  }
  await page.waitForTimeout(1000); // past the last click's 500 ms watch and the tick that tells it
  expect(await hostChanges(cdp)).toEqual([]);
  await quietly(cdp, 'window.waymark.flushNow()');
  const clicks = await storedEvents(serverUrl, { apiKey: API_KEY, visitorId: visitor, type: 'click' });
  expect(clicks).toHaveLength(CLICKS);
  expect(clicks.filter((click) => !click.props.frustrationTypes?.includes('deadClick'))).toEqual([]);
  // Once the visitor's activation has passed (5 s in Chromium), the sample is laid out after all.
  await expect.poll(() => hostChanges(cdp).then((changes) => changes.map((c) => c.added)), { timeout: 15_000 }).toEqual([true, false]);
});
