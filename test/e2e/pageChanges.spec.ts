/**
 * The guide list asked again on a page change of a single-page app (guides §4 page rules), in Chromium against the
 * reference server: what becomes of the step on screen, and what a page with nothing to show loads (nothing of
 * React). The identity side (identify, clearSession) is in identity.spec.ts.
 */
import { agentReady, expect, hostPage, publishGuide, storedEvents, test, uniqueId } from './fixtures';

test('an SPA page change: a step stays up, seen once, while the app writes its state into the address; it goes on a page its rule does not match, and comes back', async ({ page, serverUrl, openHostPage }) => {
  const apiKey = uniqueId('e2e-spa');
  const visitor = uniqueId('spa');
  await publishGuide(serverUrl, apiKey, {
    id: 'tip', name: 'Tip', launchMethod: 'auto',
    steps: [{ id: 'tip-1', type: 'tooltip', elementPathRule: '#go', regexUrlRule: '^https?://[^/]+/e2e/spa/reports(\\?.*)?$', domJson: { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'About Go' }] } }],
  });
  await openHostPage('/e2e/spa/reports', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body: '<button id="go" style="margin:60px">Go</button>' }));
  const tip = page.locator('[data-waymark-overlay] .wm-tooltip');
  await expect(tip).toContainText('About Go');
  // A search box that keeps its text in the address, one replaceState per keystroke.
  let gone = 0;
  for (const q of ['a', 'ab', 'abc']) {
    await page.evaluate((query) => history.replaceState(null, '', `/e2e/spa/reports?q=${query}`), q);
    for (let i = 0; i < 8; i++) {
      if (!(await tip.isVisible())) gone++;
      await page.waitForTimeout(100);
    }
  }
  expect(gone).toBe(0);
  await page.evaluate(() => history.pushState(null, '', '/e2e/spa/settings'));
  await expect(tip).toHaveCount(0);
  await page.evaluate(() => history.pushState(null, '', '/e2e/spa/reports'));
  await expect(tip).toContainText('About Go');
  await page.evaluate(() => (window as any).waymark.flushNow());
  const seen = await storedEvents(serverUrl, { apiKey, visitorId: visitor, type: 'guideSeen' });
  expect(seen.map((e) => e.url.replace(serverUrl, ''))).toEqual(['/e2e/spa/reports', '/e2e/spa/reports']);
});

test('a page with no guide to show never fetches the overlay chunk (React), not even at the first load or after an identify', async ({ page, serverUrl, openHostPage }) => {
  const apiKey = uniqueId('e2e-no-overlay');
  // The app's one guide is for another page (and the test folder's guides are no longer this app's).
  await publishGuide(serverUrl, apiKey, { id: 'elsewhere', name: 'Elsewhere', launchMethod: 'auto', steps: [{ id: 'elsewhere-1', type: 'lightbox', regexUrlRule: '/never-here$', domJson: { type: 'div', props: {}, children: [] } }] });
  const overlay: string[] = [];
  page.on('request', (r) => r.url().includes('waymark.overlay.js') && overlay.push(r.url()));
  await openHostPage('/e2e/no-overlay', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'first' } });` }));
  await agentReady(page);
  await page.waitForTimeout(1200); // the first load answered, a loop tick or two after it
  await page.evaluate(() => (window as any).waymark.identify('second'));
  await page.waitForTimeout(1200);
  expect(overlay).toEqual([]);
});
