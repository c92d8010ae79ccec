/**
 * issue #17, the step and guide fields of guides §3 that the engine ignored, in Chromium against the reference
 * server: the guide's advanceActions, a step's confirmationElementPathRule, the first step's
 * triggerElementPathRule (a dom-launched guide without activation), a step's seenDelay and a guide's stayHidden.
 */
import type { Page } from '@playwright/test';
import { adminFetch, agentReady, expect, hostPage, publishGuide, test, uniqueId, waitForEvents } from './fixtures';

const overlay = '[data-waymark-overlay]';
const BODY = `<main style="padding:220px 0 0 420px">
  <button id="export">Export</button> <button id="help" style="margin-left:80px">Help</button>
  <button id="done" style="margin-left:80px">I did it</button>
</main>`;

const content = (text: string) => ({ type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: text }] });

async function open(page: Page, openHostPage: (path: string, html: string) => Promise<void>, apiKey: string, visitor: string): Promise<void> {
  await openHostPage(`/e2e/step-fields/${apiKey}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body: BODY }));
  await agentReady(page);
}

test.describe('issue #17 guides §3 step and guide fields', () => {
  test("the guide's advanceActions.elementClick moves a tooltip on with a click on its element; a confirmation element moves a lightbox on", async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-advance-actions');
    await publishGuide(serverUrl, apiKey, {
      id: 'tour',
      name: 'Tour',
      launchMethod: 'auto',
      attributes: { advanceActions: { elementClick: true } },
      steps: [
        { id: 'tour-1', type: 'tooltip', elementPathRule: '#export', domJson: content('Export your report') },
        { id: 'tour-2', type: 'lightbox', confirmationElementPathRule: '#done', domJson: content('Click "I did it" when done') },
      ],
    });
    await open(page, openHostPage, apiKey, 'v-actions');
    await expect(page.locator(`${overlay} .wm-tooltip`)).toContainText('Export your report');
    await page.click('#export');
    await expect(page.locator(`${overlay} .wm-lightbox`)).toContainText('I did it');
    // A click elsewhere does nothing; the confirmation element's click advances (the lightbox is not modal here).
    await page.mouse.click(5, 5);
    await page.waitForTimeout(200);
    await expect(page.locator(`${overlay} .wm-lightbox`)).toHaveCount(1);
    await page.locator('#done').dispatchEvent('click');
    await expect(page.locator(`${overlay} .wm-lightbox`)).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: 'v-actions' }, (list) => list.filter((e) => e.type === 'guideAdvanced').length === 2);
    expect(events.filter((e) => e.type === 'guideAdvanced').map((e) => e.props.guide_step_id).sort()).toEqual(['tour-1', 'tour-2']);
  });

  test("a dom-launched guide without activation shows on a click on its first step's triggerElementPathRule", async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-trigger');
    await publishGuide(serverUrl, apiKey, {
      id: 'help',
      name: 'Help',
      launchMethod: 'dom',
      steps: [{ id: 'help-1', type: 'tooltip', elementPathRule: '#help', triggerElementPathRule: '#help', domJson: content('Here is help') }],
    });
    await open(page, openHostPage, apiKey, 'v-trigger');
    await page.waitForTimeout(700);
    await expect(page.locator(`${overlay} .wm-tooltip`)).toHaveCount(0);
    await page.click('#help');
    await expect(page.locator(`${overlay} .wm-tooltip`)).toContainText('Here is help');
  });

  test('a step with seenDelay appears, and is seen, that long after it could', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-seen-delay');
    await publishGuide(serverUrl, apiKey, {
      id: 'late',
      name: 'Late',
      launchMethod: 'auto',
      steps: [{ id: 'late-1', type: 'lightbox', attributes: { seenDelay: 1500 }, domJson: content('After a moment') }],
    });
    await open(page, openHostPage, apiKey, 'v-delay');
    await page.waitForFunction(() => (window as any).waymark.getActiveGuide?.() !== undefined);
    const loaded = Date.now();
    await expect(page.locator(`${overlay} .wm-lightbox`)).toContainText('After a moment', { timeout: 10_000 });
    expect(Date.now() - loaded).toBeGreaterThanOrEqual(1000);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: 'v-delay' }, (list) => list.some((e) => e.type === 'guideSeen'));
    expect(events.filter((e) => e.type === 'guideSeen')).toHaveLength(1);
  });

  test('a guide that stays hidden never shows by itself, and shows when asked for by id', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-stay-hidden');
    await publishGuide(serverUrl, apiKey, {
      id: 'quiet',
      name: 'Quiet',
      launchMethod: 'auto',
      attributes: { stayHidden: true },
      steps: [{ id: 'quiet-1', type: 'lightbox', domJson: content('Only when asked') }],
    });
    await open(page, openHostPage, apiKey, 'v-hidden');
    await page.waitForTimeout(1200);
    await expect(page.locator(`${overlay} .wm-lightbox`)).toHaveCount(0);
    expect(await page.evaluate(() => (window as any).waymark.showGuideById('quiet'))).toBe(true);
    await expect(page.locator(`${overlay} .wm-lightbox`)).toContainText('Only when asked');
  });

  test("an embedded guide (embedConfig) is drawn inside the page's element: in place of its content, which comes back untouched, or before it", async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-embedded');
    await publishGuide(serverUrl, apiKey, {
      id: 'inline',
      name: 'Inline',
      launchMethod: 'auto',
      attributes: { embedConfig: { selector: '#news', method: 'replace' } },
      steps: [
        {
          id: 'inline-1',
          type: 'lightbox',
          domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: 'New: dark mode' }, { type: 'button', props: { id: 'next' }, content: 'Next', actions: [{ action: 'advanceGuide' }] }] },
        },
        { id: 'inline-2', type: 'lightbox', domJson: content('Turn it on in Settings') },
      ],
    });
    await openHostPage(
      `/e2e/step-fields/${apiKey}`,
      hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v-embed' } });`, body: '<h1>Home</h1><section id="news"><p id="original">Yesterday\'s news</p></section><footer>Footer</footer>' }),
    );
    await agentReady(page);
    const embedded = page.locator('#news [data-waymark-embedded] .wm-embedded');
    await expect(embedded).toContainText('New: dark mode');
    await expect(page.locator('#original')).toHaveCount(0);
    // In the page's flow (between the heading and the footer), with no backdrop over the page.
    await expect(page.locator('[data-waymark-overlay] .wm-backdrop')).toHaveCount(0);
    const [heading, box, footer] = await Promise.all([page.locator('h1').boundingBox(), embedded.boundingBox(), page.locator('footer').boundingBox()]);
    expect(box!.y).toBeGreaterThan(heading!.y);
    expect(footer!.y).toBeGreaterThan(box!.y + box!.height - 1);
    await page.screenshot({ path: 'test-results/embedded-guide.png' });
    await embedded.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('#news .wm-embedded')).toContainText('Turn it on in Settings');
    await expect(page.locator('#news [data-waymark-embedded]')).toHaveCount(1);
    await page.locator('#news .wm-embedded .wm-close').click();
    await expect(page.locator('#news [data-waymark-embedded]')).toHaveCount(0);
    await expect(page.locator('#news > #original')).toHaveText("Yesterday's news");

    // prepend: before the element's content, which stays.
    const other = uniqueId('e2e-embedded-prepend');
    await publishGuide(serverUrl, other, { id: 'tip', name: 'Tip', launchMethod: 'auto', attributes: { embedConfig: { selector: '#news' } }, steps: [{ id: 'tip-1', type: 'lightbox', domJson: content('A tip') }] });
    await openHostPage(
      `/e2e/step-fields/${other}`,
      hostPage({ init: `waymark.initialize({ apiKey: '${other}', visitor: { id: 'v-embed' } });`, body: '<section id="news"><p id="original">Yesterday\'s news</p></section>' }),
    );
    await agentReady(page);
    await expect(page.locator('#news .wm-embedded')).toContainText('A tip');
    expect(await page.locator('#news').evaluate((el) => [...el.children].map((c) => c.id || c.tagName.toLowerCase()))).toEqual(['div', 'original']);
  });

  test('autoHeight false gives a step its height (the rest scrolls); variables fill the text', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-height');
    const long = Array.from({ length: 30 }, (_, i) => ({ type: 'p', props: {}, content: `Line ${i + 1} of the {{plan}} plan` }));
    await publishGuide(serverUrl, apiKey, {
      id: 'tall',
      name: 'Tall',
      launchMethod: 'auto',
      steps: [{ id: 'tall-1', type: 'lightbox', attributes: { autoHeight: false, height: 240, variables: { plan: 'Team' } }, domJson: { type: 'div', props: { id: 'guide-base' }, children: long } }],
    });
    await open(page, openHostPage, apiKey, 'v-height');
    const box = page.locator(`${overlay} .wm-lightbox`);
    await expect(box).toContainText('Line 1 of the Team plan');
    expect((await box.boundingBox())!.height).toBe(240);
    expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  });

  test('guides §2, §9 tooltip defaults: 430 px wide, 15 px from its element (the arrow), z-index 300000, caret 11 px', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-tooltip-defaults');
    await publishGuide(serverUrl, apiKey, { id: 'tip', name: 'Tip', launchMethod: 'auto', steps: [{ id: 'tip-1', type: 'tooltip', elementPathRule: '#export', domJson: content('Export here') }] });
    await open(page, openHostPage, apiKey, 'v-defaults');
    const tip = page.locator(`${overlay} .wm-tooltip`);
    await expect(tip).toContainText('Export here');
    await expect(tip).toHaveAttribute('data-side', 'bottom');
    const [box, target] = await Promise.all([tip.boundingBox(), page.locator('#export').boundingBox()]);
    expect(box!.width).toBe(430);
    expect(Math.round(box!.y - (target!.y + target!.height))).toBe(15);
    expect(await tip.evaluate((el) => getComputedStyle(el).zIndex)).toBe('300000');
    const caret = await tip.evaluate((el) => {
      const c = [...el.querySelectorAll('*')].find((n) => n.className?.toString().includes('caret')) as HTMLElement | undefined;
      return c ? c.offsetWidth : null;
    });
    expect(caret).toBe(11);
  });

  test('guides §9 tooltip margins: it stays inside 2 % .. 98 % of the viewport\'s width, its caret 10 px from its corner; guides §2 the credit unless hideCredits', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-tooltip-margins');
    // Forced below its target (layoutDir), so the tooltip shifts along the edge instead of flipping to a side.
    const body = '<main style="padding-top:200px"><button id="edge-left" style="position:absolute;left:0;top:200px;width:20px">L</button><button id="edge-right" style="position:absolute;right:0;top:200px;width:20px">R</button></main>';
    const tip = (id: string, selector: string, hideCredits: boolean) => ({ id, name: id, launchMethod: 'api', steps: [{ id: `${id}-1`, type: 'tooltip', elementPathRule: selector, attributes: { layoutDir: 'bottom' }, hideCredits, domJson: content(`Tip ${id}`) }] });
    await publishGuide(serverUrl, apiKey, tip('left', '#edge-left', false));
    await publishGuide(serverUrl, apiKey, tip('right', '#edge-right', true));
    await openHostPage(`/e2e/step-fields/${apiKey}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v-margins' } });`, body }));
    await agentReady(page);
    await expect.poll(() => page.evaluate(async () => (await (window as any).waymark.debugGuides()).guides.length)).toBe(2);
    const viewport = await page.evaluate(() => document.documentElement.clientWidth);
    const tooltip = page.locator(`${overlay} .wm-tooltip`);
    for (const side of ['left', 'right'] as const) {
      expect(await page.evaluate((id) => (window as any).waymark.showGuideById(id), side)).toBe(true);
      await expect(tooltip).toContainText(`Tip ${side}`);
      await expect.poll(async () => {
        const box = (await tooltip.boundingBox())!;
        return side === 'left' ? Math.round(box.x) : Math.round(box.x + box.width);
      }).toBe(Math.round(side === 'left' ? viewport * 0.02 : viewport * 0.98));
      // The target's middle is nearer the edge than the tooltip is: the caret stops 10 px from the corner.
      const caret = await tooltip.evaluate((el) => {
        const c = el.querySelector('.wm-caret') as HTMLElement;
        return { left: c.offsetLeft, right: el.clientWidth - c.offsetLeft - c.offsetWidth };
      });
      expect(caret[side]).toBe(10);
      // guides §2: the 'powered by' credit, unless the step says hideCredits.
      await expect(tooltip.locator('.wm-credit')).toHaveCount(side === 'left' ? 1 : 0);
      if (side === 'left') await expect(tooltip.locator('.wm-credit')).toHaveText('Powered by Waymark');
      await page.screenshot({ path: `test-results/screens/tooltip-margin-${side}.png` });
      await page.evaluate(() => (window as any).waymark.hideGuides());
      await expect(tooltip).toHaveCount(0);
    }
  });

  test('a tooltip whose element is scrolled out of sight inside a scrolling panel waits unseen, and comes back with it', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-tooltip-clipped');
    const body = '<div id="panel" style="height:300px;overflow:auto;margin:40px;width:500px"><div style="height:120px"></div><button id="inner">Inner</button><div style="height:1200px"></div></div>';
    await publishGuide(serverUrl, apiKey, { id: 'tip', name: 'Tip', launchMethod: 'auto', steps: [{ id: 'tip-1', type: 'tooltip', elementPathRule: '#inner', domJson: content('About this button') }] });
    await openHostPage(`/e2e/step-fields/${apiKey}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v-clipped' } });`, body }));
    const tip = page.locator(`${overlay} .wm-tooltip`);
    await expect(tip).toBeVisible();
    await page.evaluate(() => (document.getElementById('panel')!.scrollTop = 160));
    await expect(tip).toBeHidden();
    await expect(tip).toHaveCount(1); // still the shown step, only out of sight
    await page.evaluate(() => (document.getElementById('panel')!.scrollTop = 0));
    await expect(tip).toBeVisible();
  });

  test('an embedded guide whose element the page re-renders is drawn in the new element', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-embedded-rerender');
    await publishGuide(serverUrl, apiKey, {
      id: 'inline', name: 'Inline', launchMethod: 'auto', attributes: { embedConfig: { selector: '#news' } },
      steps: [{ id: 'inline-1', type: 'lightbox', domJson: content('Embedded news') }],
    });
    await openHostPage(`/e2e/step-fields/${apiKey}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v-embed-rerender' } });`, body: '<main><section id="news"><p>Old render</p></section></main>' }));
    await expect(page.locator('#news .wm-embedded')).toContainText('Embedded news');
    await page.evaluate(() => {
      const fresh = document.createElement('section');
      fresh.id = 'news';
      fresh.innerHTML = '<p id="fresh">New render</p>';
      document.getElementById('news')!.replaceWith(fresh);
    });
    await expect(page.locator('#news .wm-embedded')).toContainText('Embedded news');
    await expect(page.locator('#news #fresh')).toHaveText('New render');
    await expect(page.locator('[data-waymark-embedded]')).toHaveCount(1);
  });

  test('a tooltip whose element the page re-renders moves onto the new element, its element-click advance with it', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-tooltip-rerender');
    const body = '<div id="app"><button id="target" style="margin:40px">Target</button></div>';
    await publishGuide(serverUrl, apiKey, {
      id: 'tip', name: 'Tip', launchMethod: 'auto',
      steps: [
        { id: 'tip-1', type: 'tooltip', elementPathRule: '#target', advanceMethod: 'element click', domJson: content('Click the target') },
        { id: 'tip-2', type: 'lightbox', domJson: content('Step two') },
      ],
    });
    await openHostPage(`/e2e/step-fields/${apiKey}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v-rerender' } });`, body }));
    const tip = page.locator(`${overlay} .wm-tooltip`);
    await expect(tip).toContainText('Click the target');
    const before = (await tip.boundingBox())!;
    // A framework re-render: the element is replaced by a new one, 200 px lower.
    await page.evaluate(() => {
      const old = document.getElementById('target')!;
      const fresh = old.cloneNode(true) as HTMLElement;
      fresh.style.marginTop = '240px';
      old.replaceWith(fresh);
    });
    await expect.poll(async () => ((await tip.boundingBox())?.y ?? 0) - before.y).toBe(200);
    await expect(tip).toBeVisible();
    await page.locator('#target').click();
    await expect(page.locator(`${overlay} .wm-lightbox`)).toContainText('Step two');
  });

  test('guides §8: a step whose confirmation element is not on the page is a critical error, in the console and the collector\'s error log', async ({ page, serverUrl, openHostPage, allowAgentErrors, consoleLines }) => {
    allowAgentErrors.push(/confirmation element #nowhere not found/);
    const apiKey = uniqueId('e2e-confirm-missing');
    await publishGuide(serverUrl, apiKey, { id: 'ask', name: 'Ask', launchMethod: 'auto', steps: [{ id: 'ask-1', type: 'lightbox', confirmationElementPathRule: '#nowhere', domJson: content('Do it, then we go on') }] });
    await open(page, openHostPage, apiKey, 'v-confirm');
    await expect(page.locator(`${overlay} .wm-lightbox`)).toContainText('Do it, then we go on');
    const message = 'confirmation element #nowhere not found for guide ask step ask-1';
    await expect.poll(() => consoleLines.join('\n')).toContain(message);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await expect
      .poll(async () => ((await (await adminFetch(`${serverUrl}/api/logs?apiKey=${apiKey}&kind=error`)).json()) as { logs: Array<{ message: string }> }).logs.map((l) => l.message).join('\n'))
      .toContain(message);
  });
});
