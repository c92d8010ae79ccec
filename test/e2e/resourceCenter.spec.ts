/**
 * The resource center (guides §2 Resource center, §3 attributes.resourceCenter, §8 its module failure, §9 its
 * constants), in Chromium against the reference server. Resource centers are guides: each test writes its own
 * guide files into the server's guide folder (WAYMARK_GUIDES_DIR) with ids of its own and a page rule on a path
 * of its own (/e2e/rc/{id}), so no other page (nor test) ever sees them; they are removed after the test.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { MESSAGES } from '../../shared/messages';
import { expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const badge = '[data-waymark-overlay] .wm-rc-badge';
const bubble = `${badge} .wm-rc-bubble`;
const panel = '[data-waymark-overlay] .wm-rc';
const lightbox = '[data-waymark-overlay] .wm-lightbox';

type Json = Record<string, unknown>;
const written: string[] = [];
test.afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

function write(guides: Json[]): void {
  const dir = process.env.WAYMARK_GUIDES_DIR;
  if (!dir) throw new Error('WAYMARK_GUIDES_DIR is not set: the e2e global setup did not run');
  for (const g of guides) {
    const file = join(dir, `${g.id as string}.json`);
    writeFileSync(file, JSON.stringify(g));
    written.push(file);
  }
}

const content = (title: string, extra: Json[] = []): Json => ({ type: 'div', props: {}, children: [{ type: 'h2', props: {}, content: title }, ...extra] });
const action = (label: string, name: string): Json => ({ type: 'button', props: {}, content: label, actions: [{ action: name, eventType: 'click', parameters: [] }] });

/**
 * A resource center of its own for one test: the top-level guide `uid`, its modules and the guides they list,
 * all on /e2e/rc/{uid} only. `modules` name the kinds in children order.
 */
function resourceCenter(
  uid: string,
  modules: Array<'guideList' | 'onboarding' | 'announcements' | 'missing' | 'intercom' | 'iframe' | 'custom'>,
  rc: Json = {},
  frameUrl = '',
  top: { guide?: Json; step?: Json } = {},
): string {
  const rule = `/e2e/rc/${uid}(?:[?#].*)?$`;
  const guide = (id: string, name: string, steps: Json[], extra: Json = {}): Json => ({
    id,
    name,
    launchMethod: 'api',
    steps: steps.map((s, i) => ({ id: `${id}-${i + 1}`, guideId: id, type: 'lightbox', regexUrlRule: rule, ...s })),
    ...extra,
  });
  const mod = (id: string, name: string, moduleId: string, extra: Json = {}) => guide(id, name, [{ domJson: content(name) }], { attributes: { resourceCenter: { isModule: true, moduleId, ...extra } } });
  const guides: Json[] = [];
  const children: string[] = [];
  for (const kind of modules) {
    const id = `${uid}-${kind}`;
    children.push(id);
    if (kind === 'guideList') {
      guides.push(mod(id, 'Guides', 'guideList', { children: [`${uid}-export`, `${uid}-report`] }));
      guides.push(guide(`${uid}-export`, 'Export to CSV', [{ domJson: content('Download as a spreadsheet', [action('Got it', 'dismissGuide')]) }]));
      guides.push(guide(`${uid}-report`, 'Build a report', [{ domJson: content('Pick a chart', [action('Got it', 'dismissGuide')]) }]));
    } else if (kind === 'onboarding') {
      guides.push(mod(id, 'Getting started', 'onboarding', { children: [`${uid}-tour-a`, `${uid}-tour-b`] }));
      guides.push(guide(`${uid}-tour-a`, 'Tour A', [{ domJson: content('Tour A only step', [action('Done', 'advanceGuide')]) }], { attributes: { isOnboarding: true } }));
      guides.push(
        guide(`${uid}-tour-b`, 'Tour B', [{ domJson: content('Tour B one', [action('Next', 'advanceGuide')]) }, { domJson: content('Tour B two', [action('Done', 'advanceGuide')]) }], {
          isMultiStep: true,
          attributes: { isOnboarding: true },
        }),
      );
    } else if (kind === 'announcements') {
      guides.push(mod(id, "What's new", 'announcements', { children: [1, 2, 3].map((n) => `${uid}-news-${n}`) }));
      for (const n of [1, 2, 3]) {
        // Tall items: the third is out of view until the list is scrolled.
        const body = { type: 'p', props: { style: 'height: 220px; margin: 0' }, content: `Announcement ${n} body` };
        guides.push(guide(`${uid}-news-${n}`, `News ${n}`, [{ type: 'whatsnew', domJson: content(`News ${n}`, [body]) }]));
      }
    } else if (kind === 'iframe') {
      guides.push(guide(id, 'Help articles', [{ contentUrl: frameUrl, domJson: content('Help articles') }], { attributes: { resourceCenter: { isModule: true, moduleId: 'iframe' } } }));
    } else if (kind === 'custom') {
      // Guide text that looks like markup, and a script block: text stays text, the script never runs.
      const body = [
        { type: 'p', props: {}, content: '<img src=x onerror="window.pwned = 1">' },
        { type: 'script', props: {}, content: 'window.pwned = 2' },
      ];
      guides.push(guide(id, 'Contact us', [{ domJson: content('Write to support@acme.example', body) }], { attributes: { resourceCenter: { isModule: true, moduleId: 'custom' } } }));
    } else if (kind === 'intercom') {
      guides.push(mod(id, 'Chat with us', 'integration', { integrationProvider: 'intercom', integrationName: 'chat' }));
    }
  }
  const topGuide = top.guide ?? {};
  guides.unshift(
    guide(uid, 'Help', [{ domJson: content('Help'), ...top.step }], {
      launchMethod: 'badge',
      ...topGuide,
      attributes: { ...(topGuide.attributes as Json | undefined), resourceCenter: { isTopLevel: true, children, ...rc } },
    }),
  );
  write(guides);
  return `/e2e/rc/${uid}`;
}

function rcPage(apiKey: string, visitor: string, { lang = 'en', head = '' } = {}): string {
  return hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, head, body: '<h1>Resource center host</h1>' }).replace('<html>', `<html lang="${lang}">`);
}

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  // Past the 200 ms slide of the view.
  await page.waitForTimeout(300);
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.describe('guides §2 Resource center', () => {
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
const intro = { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Answers, tours and news in one place.' }] };
const call = (page: Page, name: string) => page.evaluate((n) => (window as any).waymark[n](), name);

test.describe('guides §4 Resource center launch methods: badge, dom, api', () => {

  test('launched by api: no badge; openResourceCenter opens the panel in the badge corner with the introduction above the modules; close and toggle', async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('rc-api');
    await openHostPage(resourceCenter(uid, ['guideList', 'announcements'], {}, '', { guide: { launchMethod: 'api' }, step: { domJson: intro } }), rcPage(uniqueId('e2e-rc'), uniqueId('rc-visitor')));
    await expect.poll(() => page.evaluate(() => (window as any).waymark.isReady())).toBe(true);
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
    await expect.poll(() => page.evaluate(() => (window as any).waymark.isReady())).toBe(true);
    await page.waitForTimeout(800);
    await expect(page.locator(badge)).toHaveCount(0);
    await page.click('#help-link');
    await expect(page.locator(panel)).toBeVisible();
    // A single module replaces the home view.
    await expect(page.locator(panel)).toContainText('Export to CSV');
    await page.click('#help-link');
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
