/**
 * The launcher, or guide center (guides §2 Launcher, §3 Launcher config, §8 its errors), in Chromium against
 * the reference server. Each test writes its own launcher config as `launcher.{apiKey}.json` into the server's
 * guide folder (WAYMARK_GUIDES_DIR) under an api key of its own, so no other test ever sees a launcher. The
 * guides it lists are test/e2e/guides/e2e-launcher-*.json (launch method launcher, on /e2e/launcher only).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { LAUNCHER_CLOSED_MS, LAUNCHER_SEARCH_PLACEHOLDER, LAUNCHER_STOP_TUTORIAL } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const badge = '[data-waymark-overlay] .wm-launcher-badge';
const panel = '[data-waymark-overlay] .wm-launcher';
const lightbox = '[data-waymark-overlay] .wm-lightbox';
const LISTED = ['Export to CSV', 'Onboarding basics', 'Build a report'];

/** Writes a launcher config for a new api key of this test's own; returns the key. */
function launcherFor(config: unknown): string {
  const dir = process.env.WAYMARK_GUIDES_DIR;
  if (!dir) throw new Error('WAYMARK_GUIDES_DIR is not set: the e2e global setup did not run');
  const apiKey = uniqueId('e2e-launcher');
  writeFileSync(join(dir, `launcher.${apiKey}.json`), JSON.stringify(config));
  return apiKey;
}

/** Rewrites the launcher config of `apiKey` (the server reads it on every guide load). */
function rewriteLauncher(apiKey: string, config: unknown): void {
  writeFileSync(join(process.env.WAYMARK_GUIDES_DIR!, `launcher.${apiKey}.json`), JSON.stringify(config));
}

function launcherPage(apiKey: string, visitor: string, body = ''): string {
  return hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body: `<h1>Launcher host</h1>${body}` });
}

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

/** The messages the collector's error log holds for `apiKey` (analytics §8: where critical errors go). */
async function errorLog(serverUrl: string, apiKey: string): Promise<string[]> {
  const res = await adminFetch(`${serverUrl}/api/logs?apiKey=${apiKey}&kind=error`);
  return ((await res.json()) as { logs: Array<{ message: string }> }).logs.map((l) => l.message);
}

function screenshotPath(name: string): string {
  mkdirSync('test-results/screens', { recursive: true });
  return `test-results/screens/${name}`;
}

test.describe('guides §2 Launcher (guide center)', () => {
  test('a badge at bottom-right opens a 330 x 349 panel with search; search filters; a listed guide shows with seen reason launcher', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { launchType: 'badge', enableSearch: true, hideCredits: true } });
    const visitor = uniqueId('launcher');
    await openHostPage('/e2e/launcher', launcherPage(apiKey, visitor));

    // The 1280 x 800 window: a 48 px badge 20 px from the right and bottom edges.
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toEqual({ x: 1280 - 20 - 48, y: 800 - 20 - 48, width: 48, height: 48 });
    await expect(page.locator(badge)).toHaveAttribute('aria-expanded', 'false');
    await expect(page.locator(panel)).toHaveCount(0);

    await page.locator(badge).click();
    await expect(page.locator(panel)).toBeVisible();
    await expect(page.locator(badge)).toHaveAttribute('aria-expanded', 'true');
    // guides §2: 330 x 310, +39 for the search box; no credit line here.
    const open = await box(page, panel);
    expect({ width: open.width, height: open.height }).toEqual({ width: 330, height: 349 });
    // Above the badge, aligned with its right edge.
    expect(open.x + open.width).toBe(1280 - 20);
    expect(open.y + open.height).toBe(800 - 20 - 48 - 12);
    await expect(page.locator(panel).locator('.wm-footer')).toHaveCount(0);
    const items = page.locator(panel).locator('.wm-item');
    await expect(items).toHaveText(LISTED);
    await page.screenshot({ path: screenshotPath('launcher-1280.png') });

    const search = page.locator(panel).getByPlaceholder(LAUNCHER_SEARCH_PLACEHOLDER);
    await search.fill('REPORT');
    await expect(items).toHaveText(['Build a report']);
    await search.fill('zzz');
    await expect(items).toHaveCount(0);
    await expect(page.locator(panel)).toContainText('No guides found');
    await search.fill('');
    await expect(items).toHaveText(LISTED);

    await items.filter({ hasText: 'Build a report' }).click();
    await expect(page.locator(lightbox)).toContainText('How to build a report');
    // The panel steps aside for the guide; that is no visitor close, so no closed flag.
    await expect(page.locator(panel)).toHaveCount(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), `_wm_launcher-closed.${apiKey}.${visitor}`)).toBeNull();

    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: 'e2e-launcher-report', guide_step_id: 'e2e-launcher-report-1', reason: 'launcher' });
  });

  test('the badge goes to bottom-left, top-left or top-right; the credit line adds 40 to the height', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { position: 'bottom-left' } });
    await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-pos')));
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toMatchObject({ x: 20, y: 800 - 20 - 48 });
    await page.locator(badge).click();
    // No search box, the credit line shown: 310 + 40.
    expect(await box(page, panel)).toEqual({ x: 20, y: 800 - 80 - 350, width: 330, height: 350 });
    await expect(page.locator(panel).locator('.wm-footer')).toHaveText('Powered by Waymark');
    // Escape inside the panel closes it.
    await page.locator(panel).getByRole('button', { name: 'close' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.locator(panel)).toHaveCount(0);

    rewriteLauncher(apiKey, { enabled: true, data: { position: 'top-left', enableSearch: true } });
    await page.reload();
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toMatchObject({ x: 20, y: 20 });
    await page.locator(badge).click();
    expect(await box(page, panel)).toEqual({ x: 20, y: 80, width: 330, height: 389 });

    rewriteLauncher(apiKey, { enabled: true, data: { position: 'top-right', width: 400, height: 300, hideCredits: true } });
    await page.reload();
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toMatchObject({ x: 1280 - 20 - 48, y: 20 });
    await page.locator(badge).click();
    expect(await box(page, panel)).toEqual({ x: 1280 - 20 - 400, y: 80, width: 400, height: 300 });
  });

  test("onboarding: progress, the what's-new count, an in-panel confirm on close, and the closed flag that outlives a reload for 8 hours", async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { onboarding: true, whatsnew: true, enableSearch: true, autoOpen: true } });
    const visitor = uniqueId('launcher-onboarding');
    const flagKey = `_wm_launcher-closed.${apiKey}.${visitor}`;
    await openHostPage('/e2e/launcher', launcherPage(apiKey, visitor));

    // With autoOpen in its settings, an onboarding tutorial under way opens the panel by itself.
    await expect(page.locator(panel)).toBeVisible();
    await expect(page.locator(panel)).toContainText('Onboarding 0% complete');
    await expect(page.locator(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    // One whatsnew step not seen yet: the count in the panel and the bubble on the badge.
    await expect(page.locator(panel)).toContainText("What's new: 1 unseen");
    await expect(page.locator(badge).locator('.wm-bubble')).toHaveText('1');

    // Closing asks first, inside the panel (never window.confirm).
    page.on('dialog', () => {
      throw new Error('the launcher must not use a browser dialog');
    });
    await page.locator(panel).getByRole('button', { name: 'close' }).click();
    const confirm = page.locator(panel).getByRole('alertdialog');
    await expect(confirm).toContainText(LAUNCHER_STOP_TUTORIAL);
    await confirm.getByRole('button', { name: 'No, continue' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.locator(panel)).toBeVisible();
    expect(await page.evaluate((key) => localStorage.getItem(key), flagKey)).toBeNull();

    await page.locator(panel).getByRole('button', { name: 'close' }).click();
    const before = Date.now();
    await page.locator(panel).getByRole('alertdialog').getByRole('button', { name: 'Yes, stop' }).click();
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toHaveAttribute('aria-expanded', 'false');
    const flag = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), flagKey)) ?? 'null');
    expect(flag.closed).toBe(true);
    expect(flag.until).toBeGreaterThanOrEqual(before + LAUNCHER_CLOSED_MS - 1000);
    expect(flag.until).toBeLessThanOrEqual(Date.now() + LAUNCHER_CLOSED_MS);

    // The flag holds after a reload: the badge is there, the panel stays closed.
    await page.reload();
    await agentReady(page);
    await expect(page.locator(badge)).toBeVisible();
    await page.waitForTimeout(1000);
    await expect(page.locator(panel)).toHaveCount(0);

    // Past its 8 hours the flag no longer holds: the tutorial opens the panel again.
    await page.evaluate(({ key, until }) => localStorage.setItem(key, JSON.stringify({ closed: true, until })), { key: flagKey, until: Date.now() - 1 });
    await page.reload();
    await expect(page.locator(panel)).toBeVisible();
    await expect(page.locator(panel)).toContainText('Onboarding 0% complete');

    // The tutorial taken from the list: each step moves the progress on; once done, closing asks nothing.
    await page.locator(panel).locator('.wm-item').filter({ hasText: 'Onboarding basics' }).click();
    await expect(page.locator(lightbox)).toContainText('Basics one');
    await page.locator(lightbox).getByRole('button', { name: 'Next' }).click();
    await expect(page.locator(lightbox)).toContainText('Basics two');
    await page.evaluate(() => (window as any).waymark.showLauncher());
    await expect(page.locator(panel)).toContainText('Onboarding 50% complete');
    await page.locator(lightbox).getByRole('button', { name: 'Done' }).click();
    await expect(page.locator(lightbox)).toHaveCount(0);
    await expect(page.locator(panel)).toContainText('Onboarding 100% complete');
    await expect(page.locator(panel).locator('.wm-item').filter({ hasText: 'Onboarding basics' })).toHaveText('Onboarding basics \u2713');
    await page.locator(panel).getByRole('button', { name: 'close' }).click();
    await expect(page.locator(panel)).toHaveCount(0);
  });

  test('keyboard: the badge opens the panel with focus inside, Escape closes it and focus returns to the badge; opened by the host, focus stays put', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { enableSearch: true } });
    await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-keys'), '<input id="host-field">'));
    await expect(page.locator(badge)).toBeVisible();
    await page.locator(badge).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator(panel)).toBeVisible();
    await expect(page.locator(panel)).toBeFocused();
    // Tab walks the panel's own controls.
    await page.keyboard.press('Tab');
    await expect(page.locator(panel).getByRole('button', { name: 'close' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.locator(panel).getByPlaceholder(LAUNCHER_SEARCH_PLACEHOLDER)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toBeFocused();

    // The host opens it (showLauncher): the visitor typing in the page keeps the focus.
    await page.locator('#host-field').focus();
    await page.evaluate(() => (window as any).waymark.showLauncher());
    await expect(page.locator(panel)).toBeVisible();
    await page.waitForTimeout(100);
    await expect(page.locator('#host-field')).toBeFocused();
  });

  test('a right-to-left page (lang he): the badge mirrored to bottom-left, the panel laid out right to left beside it', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { enableSearch: true } });
    await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-rtl')).replace('<html>', '<html lang="he" dir="rtl">'));
    await expect(page.locator(badge)).toBeVisible();
    expect(await box(page, badge)).toMatchObject({ x: 20, y: 800 - 20 - 48 });
    await page.locator(badge).click();
    await expect(page.locator(panel)).toHaveAttribute('dir', 'rtl');
    // 310 + 39 for the search box + 40 for the credit line.
    expect(await box(page, panel)).toMatchObject({ x: 20, width: 330, height: 389 });
    // The close button sits at the panel's left edge; the heading's and the items' text end at its right.
    const textRight = (selector: string) =>
      page.locator(selector).first().evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return Math.round(range.getBoundingClientRect().right);
      });
    expect((await box(page, `${panel} .wm-close`)).x).toBeLessThan(20 + 40);
    expect(await textRight(`${panel} h2`)).toBe(20 + 330 - 16);
    expect(await textRight(`${panel} .wm-item`)).toBe(20 + 330 - 8 - 8);
    await page.screenshot({ path: screenshotPath('launcher-rtl.png') });
  });

});

test.describe('guides §2 Launcher (guide center): the API, custom content, launch types', () => {
  test('the API: toggleLauncher, showLauncher, hideLauncher, removeLauncher', async ({ page, openHostPage, consoleLines }) => {
    const apiKey = launcherFor({ enabled: true, data: {} });
    const visitor = uniqueId('launcher-api');
    const flagKey = `_wm_launcher-closed.${apiKey}.${visitor}`;
    await openHostPage('/e2e/launcher', launcherPage(apiKey, visitor));
    await expect(page.locator(badge)).toBeVisible();
    const call = (name: string) => page.evaluate((n) => (window as any).waymark[n](), name);

    await call('toggleLauncher');
    await expect(page.locator(panel)).toBeVisible();
    await call('toggleLauncher');
    await expect(page.locator(panel)).toHaveCount(0);
    // Closing is closing, by API too: the flag is stored.
    expect(await page.evaluate((key) => localStorage.getItem(key), flagKey)).toContain('"closed":true');
    await call('showLauncher');
    await expect(page.locator(panel)).toBeVisible();
    expect(await page.evaluate((key) => localStorage.getItem(key), flagKey)).toBeNull();
    await call('showLauncher');
    await expect(page.locator(panel)).toBeVisible();
    await call('hideLauncher');
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toBeVisible();
    await call('removeLauncher');
    await expect(page.locator(badge)).toHaveCount(0);
    await call('showLauncher');
    await page.waitForTimeout(700);
    await expect(page.locator(panel)).toHaveCount(0);
    expect(consoleLines.some((l) => l.includes('there is no launcher on this page'))).toBe(true);
    // The page's next guide load does not bring a removed launcher back.
    await page.evaluate(() => (window as any).waymark.loadGuides());
    await page.waitForTimeout(700);
    await expect(page.locator(badge)).toHaveCount(0);
  });

  test('a new visitor with a tutorial under way: the panel stays closed, the badge waits, until the visitor opens it (no autoOpen in the settings)', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { onboarding: true, whatsnew: true } });
    await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-asks')));
    await expect(page.locator(badge)).toBeVisible();
    await expect(page.locator(badge).locator('.wm-bubble')).toHaveText('1');
    await page.waitForTimeout(1200); // two loop ticks with no step to show
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toHaveAttribute('aria-expanded', 'false');
    await page.locator(badge).click();
    await expect(page.locator(panel)).toContainText('Onboarding 0% complete');
  });

  test('autoOpen: a tutorial under way opens the panel only once no step is showing: after the welcome lightbox is closed', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { onboarding: true, autoOpen: true } });
    // test/e2e/guides/e2e-launcher-welcome.json: an auto lightbox on /e2e/launcher?welcome only.
    await openHostPage('/e2e/launcher?welcome', launcherPage(apiKey, uniqueId('launcher-welcome')));
    const lightbox = page.locator('[data-waymark-overlay] .wm-lightbox');
    await expect(lightbox).toContainText('Welcome first');
    await page.waitForTimeout(1200); // two loop ticks
    await expect(page.locator(panel)).toHaveCount(0);
    await expect(page.locator(badge)).toBeVisible();
    await lightbox.getByRole('button', { name: 'close' }).click();
    await expect(page.locator(panel)).toBeVisible();
  });

  test('autoOpen: a visitor who snoozes the welcome ("not now") is not shown the tutorial\'s panel by itself on that page; the badge opens it', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { onboarding: true, autoOpen: true } });
    await openHostPage('/e2e/launcher?welcome', launcherPage(apiKey, uniqueId('launcher-snooze')));
    const lightbox = page.locator('[data-waymark-overlay] .wm-lightbox');
    await expect(lightbox).toContainText('Welcome first');
    await lightbox.getByRole('button', { name: 'Later' }).click();
    await expect(lightbox).toHaveCount(0);
    await page.waitForTimeout(1200); // two loop ticks
    await expect(page.locator(panel)).toHaveCount(0);
    await page.locator(badge).click();
    await expect(page.locator(panel)).toBeVisible();
  });

  test("the config's custom content, stylesheet and script (contentUrl, contentUrlCss, contentUrlJs); no script with preventCodeInjection", async ({ page, serverUrl, openHostPage }) => {
    const content = { type: 'div', props: { id: 'custom-help' }, children: [{ type: 'p', props: { class: 'hours' }, content: 'Help desk: 9 to 5' }] };
    await page.route(`${serverUrl}/e2e-content/launcher.json`, (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(content) }));
    await page.route(`${serverUrl}/e2e-content/launcher.css`, (route) => route.fulfill({ contentType: 'text/css', body: '.hours { color: rgb(0, 120, 60); }' }));
    await page.route(`${serverUrl}/e2e-content/launcher.js`, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'window.__launcherScript = (window.__launcherScript || 0) + 1;' }),
    );
    const config = { enabled: true, data: { contentUrl: '/e2e-content/launcher.json', contentUrlCss: '/e2e-content/launcher.css', contentUrlJs: '/e2e-content/launcher.js' } };
    const apiKey = launcherFor(config);
    await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-custom')));
    await page.locator(badge).click();
    const hours = page.locator(panel).locator('.hours');
    await expect(hours).toHaveText('Help desk: 9 to 5');
    await expect.poll(() => hours.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(0, 120, 60)');
    await expect.poll(() => page.evaluate(() => (window as any).__launcherScript)).toBe(1);

    const guarded = launcherFor(config);
    await openHostPage(
      '/e2e/launcher?guarded',
      hostPage({ init: `waymark.initialize({ apiKey: '${guarded}', visitor: { id: '${uniqueId('launcher-guarded')}' }, preventCodeInjection: true });` }),
    );
    await page.locator(badge).click();
    await expect(page.locator(panel).locator('.hours')).toHaveText('Help desk: 9 to 5');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as any).__launcherScript)).toBeUndefined();
  });

  test('a page where no guide of the launcher is eligible shows no launcher', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { onboarding: true } });
    await openHostPage('/e2e/launcher-elsewhere', launcherPage(apiKey, uniqueId('launcher-empty')));
    await agentReady(page);
    await page.waitForTimeout(1500);
    await expect(page.locator(badge)).toHaveCount(0);
    await expect(page.locator(panel)).toHaveCount(0);
  });

  test('launchType element: clicks on the element open and close the panel, placed by it', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { launchType: 'element', elementPathRule: '#help-menu', hideCredits: true } });
    await openHostPage(
      '/e2e/launcher',
      launcherPage(apiKey, uniqueId('launcher-element'), '<button id="help-menu" style="position:absolute;left:300px;top:120px;width:100px;height:32px">Help</button>'),
    );
    await agentReady(page);
    await page.waitForTimeout(1000);
    await expect(page.locator(badge)).toHaveCount(0);
    await page.locator('#help-menu').click();
    await expect(page.locator(panel)).toBeVisible();
    const placed = await box(page, panel);
    expect(placed).toEqual({ x: 300, y: 120 + 32 + 8, width: 330, height: 310 });
    await page.locator('#help-menu').click();
    await expect(page.locator(panel)).toHaveCount(0);
  });
});

test.describe('guides §2 Launcher on a 375 px wide window', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the panel fits beside the badge', async ({ page, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { enableSearch: true, onboarding: true, whatsnew: true } });
    await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-narrow')));
    await page.locator(badge).click();
    await expect(page.locator(panel)).toBeVisible();
    const open = await box(page, panel);
    expect(open).toEqual({ x: 375 - 20 - 330, y: 740 - 80 - 389, width: 330, height: 389 });
    await page.screenshot({ path: screenshotPath('launcher-375.png') });
  });
});

test.describe('guides §8 Launcher errors', () => {
  test.describe('badge image', () => {
    // The browser's own line for the 404 is a console error as well.
    test.use({ allowAgentErrors: [/ERROR in when attempting to render guide center badge image|Failed to load resource/] });

    test("a badge image that fails to load logs the critical 'ERROR in when attempting to render guide center badge image'; the badge keeps working", async ({ page, serverUrl, openHostPage, consoleLines }) => {
      const apiKey = launcherFor({ enabled: true, data: { launcherBadgeUrl: `${serverUrl}/e2e-missing/launcher-badge.png` } });
      await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-image')));
      await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.launcherBadgeImageFailed))).toBe(true);
      await expect(page.locator(badge)).toHaveText('?');
      await page.locator(badge).click();
      await expect(page.locator(panel)).toBeVisible();
      // Critical: it reaches the collector's error log too.
      await expect.poll(async () => (await errorLog(serverUrl, apiKey)).some((m) => m.startsWith(MESSAGES.launcherBadgeImageFailed))).toBe(true);
    });
  });

  test.describe('bad config', () => {
    test.use({ allowAgentErrors: [/ERROR while initializing launcher/] });

    test("a malformed launcher config logs 'ERROR while initializing launcher' with why, shows no launcher and throws nothing into the page", async ({ page, serverUrl, openHostPage, consoleLines }) => {
      const apiKey = launcherFor({ enabled: true, data: { position: 'middle' } });
      await openHostPage('/e2e/launcher', launcherPage(apiKey, uniqueId('launcher-bad')));
      await expect
        .poll(() => consoleLines.find((l) => l.includes(MESSAGES.launcherInitFailed)))
        .toContain(`${MESSAGES.launcherInitFailed}: launcher.data.position must be one of bottom-right, bottom-left, top-left, top-right (got "middle")`);
      await expect(page.locator(badge)).toHaveCount(0);
      await expect.poll(async () => (await errorLog(serverUrl, apiKey)).some((m) => m.startsWith(`${MESSAGES.launcherInitFailed}: launcher.data.position`))).toBe(true);
      // The API says there is none, without an error.
      await page.evaluate(() => (window as any).waymark.showLauncher());
      await page.waitForTimeout(500);
      await expect(page.locator(panel)).toHaveCount(0);
    });
  });
});
