/**
 * Guide step surfaces in real Chromium (issue #6): the lightbox as a modal dialog (focus in and back, Tab
 * cycling, the page beside hidden from assistive technology, Escape), block-out regions around a tooltip's
 * target, the mobile lightbox on a phone-sized viewport, and right-to-left layout. Guides are
 * test/e2e/guides/e2e-surface-*.json, each on a path of its own.
 */
import type { Page, TestInfo } from '@playwright/test';
import { MESSAGES } from '../../shared/messages';
import { agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const overlay = '[data-waymark-overlay]';

/** A screenshot of the page, kept with the test's output and attached to its report. */
async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** What has focus inside the overlay's shadow root: an id, else 'close' for the close button, else the class. */
function focusedInOverlay(page: Page): Promise<string | null> {
  return page.evaluate((sel) => {
    const active = document.querySelector(sel)?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    return active ? active.id || (active.classList.contains('wm-close') ? 'close' : active.className) : null;
  }, overlay);
}

/** The attributes that hide an element, as a short string ('aria-hidden=true inert'), for top-level elements. */
function hiding(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    return [el.hasAttribute('aria-hidden') ? `aria-hidden=${el.getAttribute('aria-hidden')}` : '', el.hasAttribute('inert') ? 'inert' : '']
      .filter(Boolean)
      .join(' ');
  }, selector);
}

async function dismissedStored(page: Page, serverUrl: string, visitor: string, guideId: string): Promise<void> {
  await page.evaluate(() => (window as any).waymark.flushNow());
  await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed' && x.props.guide_id === guideId));
}

test.describe('guides §2 lightbox: a modal dialog', () => {
  test('focus moves into it and back to the host element, Tab cycles inside, the page beside is hidden while open, Escape dismisses', async ({
    page,
    serverUrl,
    openHostPage,
  }, testInfo) => {
    const visitor = uniqueId('surface-lightbox');
    await openHostPage(
      '/e2e/surface-lightbox',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' }, delayGuides: true });`,
        body: '<h1>Host</h1><button id="opener">Open settings</button>',
      }),
    );
    await agentReady(page);
    // Top-level siblings of the overlay's host element: one with an aria-hidden of its own (left alone), one
    // already inert (keeps it after).
    await page.evaluate(() => {
      const own = document.createElement('div');
      own.id = 'own-aria';
      own.setAttribute('aria-hidden', 'false');
      own.textContent = 'own aria';
      const inert = document.createElement('div');
      inert.id = 'was-inert';
      inert.setAttribute('inert', '');
      inert.textContent = 'was inert';
      document.documentElement.append(own, inert);
    });
    await page.focus('#opener');
    await page.evaluate(() => (window as any).waymark.startGuides());

    const dialog = page.locator(`${overlay} .wm-lightbox`);
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute('role', 'dialog');
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(page.getByRole('dialog', { name: 'Welcome aboard' })).toBeVisible();
    await expect.poll(() => focusedInOverlay(page)).toBe('wm-step wm-lightbox');

    // While open: the page is hidden and inert; what had an aria-hidden of its own is untouched.
    expect(await hiding(page, 'body')).toBe('aria-hidden=true inert');
    expect(await hiding(page, '#was-inert')).toBe('aria-hidden=true inert');
    expect(await hiding(page, '#own-aria')).toBe('aria-hidden=false');
    expect(await hiding(page, overlay)).toBe('');

    // Tab walks the dialog's controls and wraps; Shift+Tab goes back across the wrap.
    const order: Array<string | null> = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await focusedInOverlay(page));
    }
    expect(order).toEqual(['close', 'surface-more', 'surface-ok', 'close']);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInOverlay(page)).toBe('surface-ok');
    // A visible focus ring on the control the keyboard is on.
    const ring = await page.evaluate((sel) => {
      const active = document.querySelector(sel)!.shadowRoot!.activeElement!;
      const style = getComputedStyle(active);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    }, overlay);
    expect(ring).toBe('solid 3px');
    // LTR: the close button is in the right-hand corner.
    const box = (await dialog.boundingBox())!;
    const close = (await dialog.getByRole('button', { name: 'close' }).boundingBox())!;
    expect(close.x).toBeGreaterThan(box.x + box.width - 48);
    await snap(page, testInfo, 'lightbox-focus');

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('opener');
    expect(await hiding(page, 'body')).toBe('');
    expect(await hiding(page, '#was-inert')).toBe('inert');
    expect(await hiding(page, '#own-aria')).toBe('aria-hidden=false');
    await dismissedStored(page, serverUrl, visitor, 'e2e-surface-lightbox');
  });
});

test.describe('guides §2 lightbox: a modal tour', () => {
  test('from one modal step to the next focus goes straight from dialog to dialog, a span with an action is pressed with Enter, and focus returns to the host element', async ({
    page,
    serverUrl,
    openHostPage,
  }) => {
    const visitor = uniqueId('surface-tour');
    await openHostPage(
      '/e2e/surface-tour',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' }, delayGuides: true });`,
        body: `<button id="opener">Open settings</button>
<script>window.focusTrail = []; document.addEventListener('focusin', (e) => focusTrail.push(e.target.id || (e.target.hasAttribute('data-waymark-overlay') ? 'overlay' : e.target.tagName)));</script>`,
      }),
    );
    await agentReady(page);
    await page.focus('#opener');
    await page.evaluate(() => (window as any).waymark.startGuides());
    const dialog = page.locator(`${overlay} .wm-lightbox`);
    await expect(dialog).toContainText('Tour stop one');
    await expect.poll(() => focusedInOverlay(page)).toBe('wm-step wm-lightbox');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedInOverlay(page)).toBe('tour-next');
    await page.keyboard.press('Enter');
    await expect(dialog).toContainText('Tour stop two');
    await expect(page.getByRole('dialog', { name: 'Tour stop two' })).toBeVisible();
    await expect.poll(() => focusedInOverlay(page)).toBe('wm-step wm-lightbox');
    // 'Done' is a span with an action: the keyboard reaches it as a button and Enter presses it.
    const done = dialog.locator('#tour-done');
    await expect(done).toHaveAttribute('role', 'button');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedInOverlay(page)).toBe('tour-done');
    expect(await done.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('opener');
    // The host page saw focus leave once and come back once: never #opener between the two steps.
    const trail: string[] = await page.evaluate(() => (window as any).focusTrail);
    expect(trail.filter((id, i) => id !== trail[i - 1])).toEqual(['opener', 'overlay', 'opener']);
    await dismissedStored(page, serverUrl, visitor, 'e2e-surface-tour');
  });
});

test.describe('guides §9 autofocus retries', () => {
  test('a lightbox that cannot take focus when it appears gets it once it can (tried every 50 ms)', async ({ page, openHostPage }) => {
    const visitor = uniqueId('surface-autofocus');
    await openHostPage(
      '/e2e/surface-lightbox',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' }, delayGuides: true });`,
        body: '<button id="opener">Open settings</button>',
      }),
    );
    await agentReady(page);
    // The overlay's host element is kept invisible (so nothing in it can take focus) for 400 ms after it is
    // added, as a host's own transition or a late stylesheet would.
    await page.evaluate(() => {
      new MutationObserver((records, observer) => {
        for (const node of records.flatMap((r) => Array.from(r.addedNodes))) {
          if (!(node instanceof HTMLElement) || !node.hasAttribute('data-waymark-overlay')) continue;
          observer.disconnect();
          node.style.visibility = 'hidden';
          (window as any).shownAt = performance.now();
          setTimeout(() => {
            node.style.visibility = '';
            (window as any).visibleAt = performance.now();
          }, 400);
        }
      }).observe(document.documentElement, { childList: true });
    });
    await page.focus('#opener');
    await page.evaluate(() => (window as any).waymark.startGuides());
    await expect.poll(() => page.evaluate(() => (window as any).visibleAt !== undefined)).toBe(true);
    await expect.poll(() => focusedInOverlay(page), { timeout: 2000 }).toBe('wm-step wm-lightbox');
    // As the page sees it, focus is in our overlay: its host element is the document's active element.
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-waymark-overlay'))).toBe(true);
  });
});

test.describe('guides §2 block-out regions (blockOutUI)', () => {
  const body = `<div style="position:relative;height:2400px">
  <button id="bo-target" style="position:absolute;left:200px;top:300px;width:120px;height:40px">Target</button>
  <span id="bo-extra" style="position:absolute;left:360px;top:260px;width:80px;height:24px;background:#fde68a">Extra</span>
  <button id="bo-other" style="position:absolute;left:600px;top:600px;width:100px;height:40px">Other</button>
</div>
<script>window.clicks = []; document.addEventListener('click', (e) => clicks.push(e.target.id || (e.target.hasAttribute('data-waymark-overlay') ? 'overlay' : e.target.tagName)));</script>`;
  // No body margin: the positions above are viewport pixels.
  const head = '<style>body { margin: 0 }</style>';

  test('four panes dim the page around the target and the additional element (plus padding), follow scroll, and the target stays clickable', async ({
    page,
    serverUrl,
    openHostPage,
  }, testInfo) => {
    const visitor = uniqueId('surface-blockout');
    await openHostPage('/e2e/surface-blockout', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body, head }));
    const tooltip = page.locator(`${overlay} .wm-tooltip`);
    await expect(tooltip).toContainText('Start here');
    const panes = page.locator(`${overlay} .wm-blockout`);
    await expect(panes).toHaveCount(4);

    // The hole: the union of #bo-target (200,300 120x40) and #bo-extra (360,260 80x24), 8 px of padding.
    const hole = { left: 192, top: 252, right: 448, bottom: 348 };
    const viewport = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.clientHeight }));
    const expected = (top: number) => {
      const bottom = top + (hole.bottom - hole.top);
      return {
        top: { x: 0, y: 0, width: viewport.width, height: top },
        bottom: { x: 0, y: bottom, width: viewport.width, height: viewport.height - bottom },
        left: { x: 0, y: top, width: hole.left, height: bottom - top },
        right: { x: hole.right, y: top, width: viewport.width - hole.right, height: bottom - top },
      };
    };
    const measured = async () => {
      const out: Record<string, { x: number; y: number; width: number; height: number }> = {};
      for (const side of ['top', 'bottom', 'left', 'right']) {
        const b = (await page.locator(`${overlay} .wm-blockout[data-side=${side}]`).boundingBox())!;
        out[side] = { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
      }
      return out;
    };
    await expect.poll(measured).toEqual(expected(hole.top));
    const style = await page.evaluate((sel) => {
      const pane = document.querySelector(sel)!.shadowRoot!.querySelector('.wm-blockout')!;
      const s = getComputedStyle(pane);
      return { zIndex: s.zIndex, opacity: s.opacity, background: s.backgroundColor, position: s.position };
    }, overlay);
    expect(style).toEqual({ zIndex: '10000', opacity: '0.5', background: 'rgb(0, 0, 0)', position: 'fixed' });
    await snap(page, testInfo, 'blockout');

    // The highlighted element takes its clicks (Playwright's click checks nothing covers it); the rest of
    // the page does not: a click on #bo-other lands on a pane (our overlay's host element, seen from the page).
    await page.click('#bo-target');
    const other = (await page.locator('#bo-other').boundingBox())!;
    await page.mouse.click(other.x + other.width / 2, other.y + other.height / 2);
    expect(await page.evaluate(() => (window as any).clicks)).toEqual(['bo-target', 'overlay']);

    // The panes follow the page as it scrolls.
    await page.evaluate(() => window.scrollTo(0, 100));
    await expect.poll(measured).toEqual(expected(hole.top - 100));
    await snap(page, testInfo, 'blockout-scrolled');

    await tooltip.getByRole('button', { name: 'close' }).click();
    await expect(tooltip).toHaveCount(0);
    await expect(panes).toHaveCount(0);
    await dismissedStored(page, serverUrl, visitor, 'e2e-surface-blockout');
  });

  test('a lightbox with a block-out and an element: the panes replace its backdrop and leave the element clear', async ({ page, openHostPage }, testInfo) => {
    const visitor = uniqueId('surface-blockout-lightbox');
    await openHostPage('/e2e/surface-blockout-lightbox', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body, head }));
    const dialog = page.locator(`${overlay} .wm-lightbox`);
    await expect(dialog).toContainText('Meet the new menu');
    await expect(page.locator(`${overlay} .wm-blockout`)).toHaveCount(4);
    await expect(page.locator(`${overlay} .wm-backdrop`)).toHaveCount(0);
    // The hole is #bo-target (200,300 120x40) alone, 4 px of padding.
    const left = (await page.locator(`${overlay} .wm-blockout[data-side=left]`).boundingBox())!;
    const right = (await page.locator(`${overlay} .wm-blockout[data-side=right]`).boundingBox())!;
    expect([left.y, left.width, left.height, right.x]).toEqual([296, 196, 48, 324]);
    // A lightbox stays modal: the element is shown through the hole, not operable, until the step closes.
    expect(await hiding(page, 'body')).toBe('aria-hidden=true inert');
    await snap(page, testInfo, 'blockout-lightbox');
  });

  test.describe('a block-out that cannot be drawn', () => {
    test.use({ allowAgentErrors: [/^\[Waymark\] Failed to add BlockOut ui/] });

    test("logs 'Failed to add BlockOut ui' and the step still shows, without panes", async ({ page, serverUrl, openHostPage, consoleLines }, testInfo) => {
      const visitor = uniqueId('surface-blockout-bad');
      await openHostPage('/e2e/surface-blockout-bad', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body, head }));
      const tooltip = page.locator(`${overlay} .wm-tooltip`);
      await expect(tooltip).toContainText('Still here');
      await expect.poll(() => consoleLines.find((l) => l.includes(MESSAGES.blockOutFailed))).toMatch(/^\[Waymark\] Failed to add BlockOut ui for guide e2e-surface-blockout-bad step e2e-surface-blockout-bad-1: /);
      await expect(page.locator(`${overlay} .wm-blockout`)).toHaveCount(0);
      await page.click('#bo-other');
      expect(await page.evaluate(() => (window as any).clicks)).toEqual(['bo-other']);
      await snap(page, testInfo, 'blockout-failed');
      await page.evaluate(() => (window as any).waymark.flushNow());
      await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen' && x.props.guide_id === 'e2e-surface-blockout-bad'));
    });
  });
});

test.describe('guides §2 mobile lightbox', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('fits a 375 px viewport (at most 320 wide), scrolls its content under a close button that stays, and is a modal dialog', async ({
    page,
    serverUrl,
    openHostPage,
  }, testInfo) => {
    const visitor = uniqueId('surface-mobile');
    await openHostPage('/e2e/surface-mobile', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body: '<p>Host page</p>' }));
    const dialog = page.locator(`${overlay} .wm-mobile-lightbox`);
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'On the go' })).toHaveAttribute('aria-modal', 'true');
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(320);
    expect(box.width).toBeGreaterThanOrEqual(300);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(667);
    expect(await hiding(page, 'body')).toBe('aria-hidden=true inert');
    await expect.poll(() => focusedInOverlay(page)).toBe('wm-step wm-lightbox wm-mobile-lightbox');

    // Eight paragraphs do not fit: the content scrolls, the close button does not move.
    const content = dialog.locator('[data-waymark-step]');
    const sizes = await content.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    const close = dialog.getByRole('button', { name: 'close' });
    const closeBefore = (await close.boundingBox())!;
    await snap(page, testInfo, 'mobile-lightbox');
    await content.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(dialog.getByRole('button', { name: 'Got it' })).toBeInViewport();
    expect(await close.boundingBox()).toEqual(closeBefore);
    await snap(page, testInfo, 'mobile-lightbox-scrolled');

    // Narrower than 320 plus margins: the viewport's width less 16 px each side.
    await page.setViewportSize({ width: 300, height: 560 });
    await expect.poll(async () => Math.round((await dialog.boundingBox())!.width)).toBe(268);
    const narrow = (await dialog.boundingBox())!;
    expect(Math.round(narrow.x)).toBe(16);

    await close.click();
    await expect(dialog).toHaveCount(0);
    expect(await hiding(page, 'body')).toBe('');
    await dismissedStored(page, serverUrl, visitor, 'e2e-surface-mobile');
  });
});

test.describe('guides §2 right-to-left languages', () => {
  test('on a page in Hebrew the step is laid out right to left, its close button in the left-hand corner', async ({ page, serverUrl, openHostPage }, testInfo) => {
    const visitor = uniqueId('surface-rtl');
    const html = hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body: '<p>דף מארח</p>' }).replace('<html>', '<html lang="he">');
    await openHostPage('/e2e/surface-rtl', html);
    const dialog = page.locator(`${overlay} .wm-lightbox`);
    await expect(dialog).toContainText('ברוכים הבאים');
    expect(await dialog.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await expect(page.locator(`${overlay} [dir=rtl] .wm-lightbox`)).toHaveCount(1);
    const box = (await dialog.boundingBox())!;
    const close = (await dialog.getByRole('button', { name: 'close' }).boundingBox())!;
    expect(close.x).toBeLessThan(box.x + 48);
    // The heading starts at the right: its text ends near the dialog's right padding.
    const heading = (await dialog.locator('h2').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      return { left: r.left, right: r.right };
    }))!;
    expect(box.x + box.width - heading.right).toBeLessThan(40);
    await snap(page, testInfo, 'rtl-lightbox');
    await dialog.getByRole('button', { name: 'הבנתי' }).click();
    await expect(dialog).toHaveCount(0);
    await dismissedStored(page, serverUrl, visitor, 'e2e-surface-rtl');
  });
});

test.describe('guides §2, §9 a tooltip follows its target', () => {
  test('after the window scrolls, an inner container scrolls and the window is resized, it sits 15 px under the target again', async ({ page, openHostPage }, testInfo) => {
    const body = `<div style="height: 300px"></div>
      <div id="scroller" style="width: 600px; height: 300px; margin: 0 auto; overflow: auto; border: 1px solid #ccc">
        <div style="height: 150px"></div><button id="follow-target" style="margin-left: 200px">Follow me</button><div style="height: 900px"></div>
      </div><div style="height: 1500px"></div>`;
    await openHostPage('/e2e/surface-follow', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('follow')}' } });`, body }));
    const tooltip = page.locator(`${overlay} .wm-tooltip`);
    await expect(tooltip).toContainText('I stay with my button');
    // Under the target by the arrow size (15 px, guides §2), its caret over the target.
    const attached = async () => {
      const target = (await page.locator('#follow-target').boundingBox())!;
      const box = (await tooltip.boundingBox())!;
      return Math.abs(box.y - (target.y + target.height) - 15) <= 1 && box.x < target.x + target.width && box.x + box.width > target.x;
    };
    await expect.poll(attached).toBe(true);
    const before = (await tooltip.boundingBox())!;

    await page.evaluate(() => window.scrollBy(0, 120));
    await expect.poll(attached).toBe(true);
    expect(Math.round((await tooltip.boundingBox())!.y)).toBe(Math.round(before.y) - 120);

    await page.locator('#scroller').evaluate((el) => (el.scrollTop = 60));
    await expect.poll(attached).toBe(true);
    expect(Math.round((await tooltip.boundingBox())!.y)).toBe(Math.round(before.y) - 180);

    // The container is centred: a narrower window moves the target left, and the tooltip with it.
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(attached).toBe(true);
    expect(Math.round((await tooltip.boundingBox())!.x)).toBeLessThan(Math.round(before.x));
    await snap(page, testInfo, 'tooltip-followed');
  });
});

test.describe('issue #16 the overlay made ahead of a guide', () => {
  test("is made in idle time without drawing, focusing or hiding anything of the page, and without React", async ({ page, openHostPage }) => {
    const visitor = uniqueId('prewarm');
    // This browser's app has shown guides before: the overlay's chunk (the steps chunk since issue #34, with no
    // React) is fetched ahead of the guide list.
    await page.addInitScript(() => localStorage.setItem('_wm_overlay.e2e-prewarm', 'true'));
    await openHostPage(
      '/e2e/prewarm-no-guide-here',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e-prewarm', visitor: { id: '${visitor}' } });`, body: '<input id="field"> <button id="b">B</button>' }),
    );
    await agentReady(page);
    await page.focus('#field');
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('waymark.steps.js')))).toBe(true);
    // Idle time comes: nothing of the page changes.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 200))));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field');
    await expect(page.locator(overlay)).toHaveCount(0);
    expect(await page.evaluate(() => document.querySelectorAll('[inert], [aria-hidden]').length)).toBe(0);
    expect(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('waymark.overlay.js')))).toBe(false);
  });

  test('is asked for by the start itself where the app has drawn guides, not once the guides chunk runs; never with guides off', async ({ page, openHostPage }) => {
    // The guides chunk is held for 3 s: the overlay's request (its steps chunk) comes from the shim's start, not from it.
    let guidesAnswered = false;
    await page.route('**/waymark.guides.js*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      guidesAnswered = true;
      await route.continue();
    });
    const overlayAsked: boolean[] = [];
    page.on('request', (request) => request.url().includes('waymark.steps.js') && overlayAsked.push(guidesAnswered));
    await page.addInitScript(() => localStorage.setItem('_wm_overlay.e2e-early', 'true'));
    const visitor = uniqueId('early');
    await openHostPage('/e2e/early-overlay', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-early', visitor: { id: '${visitor}' } });` }));
    await expect.poll(() => overlayAsked.length).toBeGreaterThan(0);
    expect(overlayAsked[0]).toBe(false);

    // Guides off (disableGuides): the flag is there, no overlay is asked for.
    overlayAsked.length = 0;
    await page.unroute('**/waymark.guides.js*');
    await page.addInitScript(() => localStorage.setItem('_wm_overlay.e2e-early-off', 'true'));
    await openHostPage(
      '/e2e/early-overlay-off',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e-early-off', disableGuides: true, visitor: { id: '${visitor}' } });` }),
    );
    await agentReady(page);
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 500))));
    expect(overlayAsked).toEqual([]);
  });
});
