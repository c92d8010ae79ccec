/**
 * The resource center's launch methods (badge, dom, api; guides §4), its content and modules that fail (guides §8),
 * and a 375 px wide window, in Chromium against the reference server.
 */
import { MESSAGES } from '../../shared/messages';
import type { Page } from '@playwright/test';
import { agentReady, expect, test, uniqueId } from './fixtures';
import { badge, bubble, panel, resourceCenter, rcPage, box, shot, removeWrittenGuides } from './resourceCenterPages';

test.afterEach(removeWrittenGuides);

const intro = { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Answers, tours and news in one place.' }] };
const call = (page: Page, name: string) => page.evaluate((n) => (window as any).waymark[n](), name);

test.describe('guides §4 Resource center launch methods: badge, dom, api', () => {

  test('launched by api: no badge; openResourceCenter opens the panel in the badge corner with the introduction above the modules; close and toggle', async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('rc-api');
    await openHostPage(resourceCenter(uid, ['guideList', 'announcements'], {}, '', { guide: { launchMethod: 'api' }, step: { domJson: intro } }), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await agentReady(page);
    await page.waitForTimeout(800);
    await expect(page.locator(badge)).toHaveCount(0);
    await expect(page.locator(panel)).toHaveCount(0);

    await call(page, 'openResourceCenter');
    await expect(page.locator(panel)).toBeVisible();
    // The corner the badge would have: 20 px from the right and bottom edges of the 1280 x 800 window.
    const open = await box(page, panel);
    expect(open.x + open.width).toBe(1280 - 20);
    expect(open.y + open.height).toBe(800 - 20);
    await expect(page.locator(`${panel} .wm-rc-intro`)).toHaveText('Answers, tours and news in one place.');
    await expect(page.locator(`${panel} [data-module-id]`)).toHaveCount(2);
    await shot(page, testInfo, 'resource-center-api.png');
    await call(page, 'closeResourceCenter');
    await expect(page.locator(panel)).toHaveCount(0);
    await call(page, 'toggleResourceCenter');
    await expect(page.locator(panel)).toBeVisible();
    await call(page, 'toggleResourceCenter');
    await expect(page.locator(panel)).toHaveCount(0);
  });

  test('launched by dom: the visitor\'s click on the activation element opens it, a second click closes it', async ({ page, openHostPage }) => {
    const uid = uniqueId('rc-dom');
    const path = resourceCenter(uid, ['guideList'], {}, '', { guide: { launchMethod: 'dom', attributes: { activation: { event: 'click', selector: '#help-link' } } } });
    const html = rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')).replace('<h1>Resource center host</h1>', '<h1>Resource center host</h1><button id="help-link">Help</button>');
    await openHostPage(path, html);
    await agentReady(page);
    await page.waitForTimeout(800);
    await expect(page.locator(badge)).toHaveCount(0);
    await page.click('#help-link');
    await expect(page.locator(panel)).toBeVisible();
    // A single module replaces the home view.
    await expect(page.locator(panel)).toContainText('Export to CSV');
    await page.click('#help-link');
    await expect(page.locator(panel)).toHaveCount(0);
  });

  test('guides §2, §4: an element the app draws after the guide load opens it (the loop judges the resource center each tick); the panel is anchored below it and follows it when the app draws it again', async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('rc-late');
    const path = resourceCenter(uid, ['guideList'], {}, '', { guide: { launchMethod: 'dom', attributes: { activation: { event: 'click', selector: '.help-button' } } } });
    await openHostPage(path, rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await agentReady(page);
    await page.waitForTimeout(800);
    // The app's toolbar arrives with its data, after guide.json.
    await page.evaluate(`(() => {
      const bar = document.createElement('nav');
      bar.id = 'toolbar';
      bar.style.cssText = 'position:absolute;top:120px;left:300px';
      bar.innerHTML = '<button class="help-button">Help</button>';
      document.body.append(bar);
    })()`);
    // Within a tick or two (500 ms idle) the new element opens the panel.
    await expect(async () => {
      await page.click('.help-button');
      await expect(page.locator(panel)).toBeVisible({ timeout: 300 });
    }).toPass({ timeout: 3000 });
    const help = await box(page, '.help-button');
    const open = await box(page, panel);
    expect(open.y).toBeCloseTo(help.y + help.height + 8, 0);
    expect(open.x).toBeCloseTo(help.x, 0);
    await shot(page, testInfo, 'resource-center-anchored.png');

    // The app draws its toolbar again (a re-render): the panel moves to the new button.
    await page.evaluate(`(() => {
      const bar = document.getElementById('toolbar');
      bar.style.left = '600px';
      bar.innerHTML = '<button class="help-button">Help</button>';
    })()`);
    await expect.poll(async () => (await box(page, panel)).x, { timeout: 3000 }).toBeCloseTo((await box(page, '.help-button')).x, 0);
    // And the new button closes it, as the first did.
    await page.click('.help-button');
    await expect(page.locator(panel)).toHaveCount(0);
  });
});

test.describe('guides §4 Resource center content that fails validation', () => {
  test.use({ allowAgentErrors: [/Unable to verify content/] });

  test('a tampered introduction: no badge, the fallback said, and the API still opens it (without the introduction)', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const uid = uniqueId('rc-tampered');
    const url = `${serverUrl}/e2e-content/${uid}.dom.json`;
    await page.route(url, (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(intro) }));
    // The hash of other content: verification fails.
    const step = { domJson: undefined, domUrl: url, hashes: { domHash: 'nWG7DHScqagyrG1h2PISOXhz7klGNFxnq68dLqqZCWs=' } };
    await openHostPage(resourceCenter(uid, ['guideList', 'announcements'], {}, '', { step }), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await expect.poll(() => consoleLines.some((l) => l.includes(`resource center ${uid}: its content failed validation`) && l.includes('it opens by API only'))).toBe(true);
    expect(consoleLines.some((l) => l.includes(MESSAGES.unableToVerifyContent(url)))).toBe(true);
    await expect(page.locator(badge)).toHaveCount(0);
    await call(page, 'openResourceCenter');
    await expect(page.locator(panel)).toBeVisible();
    await expect(page.locator(`${panel} [data-module-id]`)).toHaveCount(2);
    await expect(page.locator(`${panel} .wm-rc-intro`)).toHaveCount(0);
  });

});

test.describe('guides §8 Resource center modules that fail', () => {
  test.use({ allowAgentErrors: [/Failed to load one or more Resource Center modules/] });

  test("a missing module logs 'Failed to load one or more Resource Center modules' and skips the resource center", async ({ page, openHostPage, consoleLines }) => {
    const uid = uniqueId('rc-fail');
    await openHostPage(resourceCenter(uid, ['guideList', 'missing']), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await expect.poll(() => consoleLines.find((l) => l.includes(MESSAGES.resourceCenterModulesFailed))).toContain(`${MESSAGES.resourceCenterModulesFailed}: module ${uid}-missing is not a loaded guide`);
    await page.waitForTimeout(600);
    await expect(page.locator(badge)).toHaveCount(0);
  });
});

test.describe('guides §2 Resource center on a 375 px wide window', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the panel fits the window beside the badge', async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('rc-narrow');
    await openHostPage(resourceCenter(uid, ['guideList', 'onboarding', 'announcements']), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await page.locator(badge).click();
    await expect(page.locator(panel)).toBeVisible();
    const open = await box(page, panel);
    expect(open.x).toBeGreaterThanOrEqual(0);
    expect(open.x + open.width).toBe(375 - 20);
    expect(open.width).toBe(375 - 40);
    expect(open.y).toBeGreaterThanOrEqual(0);
    expect(open.y + open.height).toBe(740 - 80);
    await shot(page, testInfo, 'resource-center-375-home.png');
    await page.locator(panel).locator('[data-module-id]').filter({ hasText: "What's new" }).click();
    // The announcements in view are marked seen within a check or two.
    await expect(page.locator(bubble)).toHaveText('1');
    await shot(page, testInfo, 'resource-center-375-news.png');
  });
});
