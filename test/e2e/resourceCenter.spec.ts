/**
 * The resource center (guides §2 Resource center, §3 attributes.resourceCenter, §8 its module failure, §9 its
 * constants), in Chromium against the reference server. Resource centers are guides: each test writes its own
 * guide files into the server's guide folder (WAYMARK_GUIDES_DIR) with ids of its own and a page rule on a path
 * of its own (/e2e/rc/{id}), so no other page (nor test) ever sees them; they are removed after the test.
 */
import { expect, test, uniqueId, waitForEvents } from './fixtures';
import { badge, bubble, panel, lightbox, resourceCenter, rcPage, box, shot, removeWrittenGuides } from './resourceCenterPages';

test.afterEach(removeWrittenGuides);


test.describe('guides §2 Resource center', () => {
  test("guides §3 notificationBubble: the top-level guide's colours on the unseen-count bubble, the count readable on them", async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('rc-bubble');
    const path = resourceCenter(uid, ['announcements'], {}, '', { guide: { launchMethod: 'badge', notificationBubble: { background: '#ffd43b' } } });
    await openHostPage(path, rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await expect(page.locator(bubble)).toHaveText('3');
    await expect(page.locator(bubble)).toHaveCSS('background-color', 'rgb(255, 212, 59)');
    // A light background gets the dark text (WCAG contrast), as the theme's buttons do.
    await expect(page.locator(bubble)).toHaveCSS('color', 'rgb(17, 24, 39)');
    await shot(page, testInfo, 'resource-center-bubble.png');
  });

  test('a badge at bottom-right with the unseen bubble opens the home view; modules switch with a 200 ms slide; closing clears the active module', async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('rc-home');
    const path = resourceCenter(uid, ['guideList', 'onboarding', 'announcements']);
    await openHostPage(path, rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));

    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toEqual({ x: 1280 - 20 - 48, y: 800 - 20 - 48, width: 48, height: 48 });
    // guides §2, §9: three unseen announcements; the bubble is 26 px high at the badge's top-right corner.
    await expect(page.locator(bubble)).toHaveText('3');
    await expect(page.locator(bubble)).toHaveAttribute('aria-label', '3 unseen');
    await expect(page.locator(badge)).toHaveAttribute('aria-label', 'Help, 3 unseen');
    const b = await box(page, bubble);
    expect(b.height).toBe(26);
    expect(b.x + b.width).toBeGreaterThan(1280 - 20);
    expect(b.y).toBeLessThan(800 - 20 - 48);

    // Without a notificationBubble: red, the count in white.
    await expect(page.locator(bubble)).toHaveCSS('background-color', 'rgb(224, 49, 49)');
    await expect(page.locator(bubble)).toHaveCSS('color', 'rgb(255, 255, 255)');

    await page.locator(badge).click();
    await expect(page.locator(panel)).toBeVisible();
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', '');
    const modules = page.locator(panel).locator('[data-module-id]');
    await expect(modules).toHaveText(['Guides', 'Getting started', "What's new 3 new"]);
    await shot(page, testInfo, 'resource-center-1280.png');

    await modules.filter({ hasText: 'Guides' }).click();
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', `${uid}-guideList`);
    const view = page.locator(panel).locator('.wm-rc-view');
    await expect(view).toHaveClass(/wm-rc-module/);
    expect(await view.evaluate((el) => getComputedStyle(el).animationDuration)).toBe('0.2s');
    await expect(page.locator(panel).locator('.wm-item')).toHaveText(['Export to CSV', 'Build a report']);
    await page.locator(panel).getByRole('button', { name: 'Back' }).click();
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', '');
    await expect(view).toHaveClass(/wm-rc-home/);

    await modules.filter({ hasText: 'Getting started' }).click();
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', `${uid}-onboarding`);
    // Escape closes; reopening shows home again (the active module was cleared).
    await page.keyboard.press('Escape');
    await expect(page.locator(panel)).toHaveCount(0);
    await page.locator(badge).click();
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', '');
  });

  test('search filters the items and announces the results count; under 3 characters no step content matches', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-search');
    await openHostPage(resourceCenter(uid, ['guideList', 'onboarding']), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await page.locator(badge).click();
    const search = page.locator(panel).getByRole('searchbox', { name: 'Search' });
    const status = page.locator(panel).getByRole('status');
    await expect(status).toHaveAttribute('aria-live', 'polite');
    const items = page.locator(panel).locator('.wm-item');

    await search.fill('tour');
    await expect(items).toHaveText(['Tour A', 'Tour B']);
    await expect(status).toHaveText('2 results');
    await search.fill('report');
    await expect(items).toHaveText(['Build a report']);
    await expect(status).toHaveText('1 result');
    // "spreadsheet" is only in the Export guide's step content.
    await search.fill('spreadsheet');
    await expect(items).toHaveText(['Export to CSV']);
    // "ch" is in "Pick a chart", but two characters match names only.
    await search.fill('ch');
    await expect(items).toHaveCount(0);
    await expect(status).toHaveText('0 results');
    await search.fill('cha');
    await expect(items).toHaveText(['Build a report']);
    // Debounced: typed and changed within 300 ms, only the last count is announced.
    await search.fill('tou');
    await search.fill('tour a');
    await expect(status).toHaveText('1 result');

    // A listed guide opens with seen reason resourceCenter; the panel steps aside.
    await search.fill('export');
    await items.filter({ hasText: 'Export to CSV' }).click();
    await expect(page.locator(lightbox)).toContainText('Download as a spreadsheet');
    await expect(page.locator(panel)).toHaveCount(0);
  });

  test('onboarding: progress is seen steps over total steps as a whole number', async ({ page, serverUrl, openHostPage }) => {
    const uid = uniqueId('rc-onboarding');
    const apiKey = uniqueId('e2e-rc');
    const visitor = uniqueId('rc-visitor');
    await openHostPage(resourceCenter(uid, ['onboarding']), rcPage(apiKey, visitor));
    await page.locator(badge).click();
    // A single module replaces the home view: no way back, the module is the panel.
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', `${uid}-onboarding`);
    await expect(page.locator(panel).getByRole('button', { name: 'Back' })).toHaveCount(0);
    await expect(page.locator(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    await expect(page.locator(panel)).toContainText('0% complete');

    await page.locator(panel).locator('.wm-item').filter({ hasText: 'Tour A' }).click();
    await expect(page.locator(lightbox)).toContainText('Tour A only step');
    await page.locator(lightbox).getByRole('button', { name: 'Done' }).click();
    await expect(page.locator(lightbox)).toHaveCount(0);
    await page.locator(badge).click();
    // 1 of 3 steps seen: 33 (rounded down).
    await expect(page.locator(panel)).toContainText('33% complete');
    await expect(page.locator(panel).locator('.wm-item').filter({ hasText: 'Tour A' })).toHaveText('Tour A \u2713');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: `${uid}-tour-a`, reason: 'resourceCenter' });
  });

  test('an announcement scrolled into view is marked seen: guideAdvanced at the collector, and the unseen count drops', async ({ page, serverUrl, openHostPage }) => {
    const uid = uniqueId('rc-news');
    const apiKey = uniqueId('e2e-rc');
    const visitor = uniqueId('rc-visitor');
    await openHostPage(resourceCenter(uid, ['guideList', 'announcements']), rcPage(apiKey, visitor));
    await expect(page.locator(bubble)).toHaveText('3');
    await page.locator(badge).click();
    await page.locator(panel).locator('[data-module-id]').filter({ hasText: "What's new" }).click();
    const news = page.locator(panel).locator('.wm-rc-news');
    await expect(news).toHaveCount(3);
    // The first ones in view are seen within a check or two (every 500 ms); the third is below the fold.
    await expect(news.nth(0)).not.toHaveAttribute('data-unseen', '');
    await expect(page.locator(bubble)).toHaveText('1');
    await expect(news.nth(2)).toHaveAttribute('data-unseen', '');
    await page.waitForTimeout(1200);
    await expect(page.locator(bubble)).toHaveText('1');

    await news.nth(2).scrollIntoViewIfNeeded();
    await expect(page.locator(bubble)).toHaveCount(0);
    await expect(page.locator(badge)).toHaveAttribute('aria-label', 'Help');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.filter((x) => x.type === 'guideAdvanced').length === 3);
    expect(events.filter((e) => e.type === 'guideAdvanced').map((e) => e.props.guide_id).sort()).toEqual([1, 2, 3].map((n) => `${uid}-news-${n}`));

    // The next page load knows them as seen (the collector keeps the state).
    await page.reload();
    await expect(page.locator(badge)).toBeVisible();
    await page.waitForTimeout(600);
    await expect(page.locator(bubble)).toHaveCount(0);
  });

});

test.describe('guides §2 Resource center: corners, integrations, iframe and custom modules', () => {
  test('top-left, and mirrored for a right-to-left page: bottom-right becomes bottom-left', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-corner');
    await openHostPage(resourceCenter(uid, ['guideList'], { position: 'top-left' }), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toMatchObject({ x: 20, y: 20 });

    const rtl = uniqueId('rc-rtl');
    const path = resourceCenter(rtl, ['guideList', 'announcements']);
    await openHostPage(path, rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor'), { lang: 'he' }));
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toMatchObject({ x: 20, y: 800 - 20 - 48 });
    // The bubble sits on the badge's inner (right) side.
    const b = await box(page, bubble);
    expect(b.x).toBeLessThan(20);
    await page.locator(badge).click();
    await expect(page.locator(panel)).toHaveAttribute('dir', 'rtl');
    expect((await box(page, panel)).x).toBe(20);
  });

  test('an integration module opens the provider through its public API and hides the badge until the provider closes; a failing API closes the resource center', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-intercom');
    // A stand-in for Intercom's public API: records calls, keeps the onHide callback, throws when told to.
    const head = `<script>window.intercomCalls = []; window.Intercom = function (cmd, arg) { intercomCalls.push(cmd); if (cmd === 'onHide') window.intercomHide = arg; if (cmd === 'show' && window.intercomFails) throw new Error('intercom is down'); };</script>`;
    await openHostPage(resourceCenter(uid, ['guideList', 'intercom']), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor'), { head }));
    await page.locator(badge).click();
    await page.locator(panel).locator('[data-module-id]').filter({ hasText: 'Chat with us' }).click();
    expect(await page.evaluate(() => (window as any).intercomCalls)).toEqual(['onHide', 'show']);
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toHaveCount(0);
    await page.evaluate(() => (window as any).intercomHide());
    await expect(page.locator(badge)).toBeVisible();

    await page.evaluate(() => ((window as any).intercomFails = true));
    await page.locator(badge).click();
    await page.locator(panel).locator('[data-module-id]').filter({ hasText: 'Chat with us' }).click();
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toBeVisible();
  });

  test('a page without the provider does not list its integration module', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-no-intercom');
    await openHostPage(resourceCenter(uid, ['guideList', 'intercom']), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await page.locator(badge).click();
    // The guide list is then the only module: it replaces the home view.
    await expect(page.locator(panel)).toHaveAttribute('data-active-module', `${uid}-guideList`);
  });

  test('an iframe module shows its page from an allowed origin, sandboxed; a custom module renders building blocks as text, never as markup or script', async ({ page, serverUrl, openHostPage }) => {
    const uid = uniqueId('rc-frame');
    const frameUrl = `${serverUrl}/e2e/rc-frame-${uid}.html`;
    await page.route(frameUrl, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Articles</title><h1>Help articles page</h1>' }));
    await openHostPage(resourceCenter(uid, ['iframe', 'custom'], {}, frameUrl), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await page.locator(badge).click();
    await page.locator(panel).locator('[data-module-id]').filter({ hasText: 'Help articles' }).click();
    const frame = page.locator(panel).locator('iframe');
    await expect(frame).toHaveAttribute('src', frameUrl);
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-forms allow-popups');
    await expect(page.frameLocator('[data-waymark-overlay] .wm-rc iframe').locator('h1')).toHaveText('Help articles page');

    await page.locator(panel).getByRole('button', { name: 'Back' }).click();
    await page.locator(panel).locator('[data-module-id]').filter({ hasText: 'Contact us' }).click();
    const body = page.locator(panel).locator('.wm-rc-body');
    await expect(body).toContainText('Write to support@acme.example');
    await expect(body.locator('p')).toHaveText('<img src=x onerror="window.pwned = 1">');
    await expect(body.locator('img')).toHaveCount(0);
    await expect(body.locator('script')).toHaveCount(0);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined();
  });

  test('the empty state: a resource center whose only module is an integration the page lacks', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-empty');
    await openHostPage(resourceCenter(uid, ['intercom']), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await page.locator(badge).click();
    await expect(page.locator(panel)).toContainText('Nothing here yet.');
    await expect(page.locator(panel).getByRole('searchbox')).toBeVisible();
  });

  test('a page where nothing is eligible shows no badge', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-none');
    resourceCenter(uid, ['guideList']);
    await openHostPage(`/e2e/rc/${uid}-elsewhere`, rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await page.waitForFunction(() => (window as any).waymark?.isReady?.() === true);
    await page.waitForTimeout(1200);
    await expect(page.locator(badge)).toHaveCount(0);
  });
});

/** The top-level guide's own content: the home view's introduction. */
