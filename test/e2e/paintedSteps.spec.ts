/**
 * Issue #34 in real Chromium: a new visitor's first steps are painted from the nodes the worker rendered, and the
 * page never loads React for them (no request for waymark.overlay.js): the lightbox is still a modal dialog with its
 * buttons and Escape, a poll still sends its answers and thanks, a tooltip still sits by its element. A step the
 * worker cannot paint (block-out panes) still shows, through the React overlay loaded then.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const overlay = '[data-waymark-overlay]';

/** The agent files the page and its worker ask for, by name (waymark.overlay.js, waymark.render.js, ...). */
function agentFilesAskedFor(context: BrowserContext): Set<string> {
  const files = new Set<string>();
  context.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop() ?? '';
    if (name.startsWith('waymark.')) files.add(name);
  });
  return files;
}

async function flushed(page: Page): Promise<void> {
  await page.evaluate(() => (window as any).waymark.flushNow());
}

test('a new visitor\'s first lightbox is painted without React: modal, its button and Escape work, its events are stored', async ({ page, context, serverUrl, openHostPage }) => {
  const files = agentFilesAskedFor(context);
  const visitor = uniqueId('painted-lightbox');
  await openHostPage(
    '/e2e/surface-lightbox',
    hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body: '<h1>Host</h1><button id="opener">Open</button>' }),
  );
  await agentReady(page);
  const dialog = page.locator(`${overlay} .wm-lightbox`);
  await expect(page.getByRole('dialog', { name: 'Welcome aboard' })).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  // Its width came through the CSSOM (the worker's style text), and the page beside is inert.
  expect(await dialog.evaluate((el) => getComputedStyle(el).width)).toBe('500px');
  await expect.poll(() => page.evaluate(() => document.body.hasAttribute('inert'))).toBe(true);
  // Focus is inside, and Tab stays there.
  await expect.poll(() => page.evaluate((sel) => document.querySelector(sel)?.shadowRoot?.activeElement?.className ?? null, overlay)).toBe('wm-step wm-lightbox');
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  expect(await page.evaluate((sel) => !!document.querySelector(sel)?.shadowRoot?.activeElement, overlay)).toBe(true);
  expect([...files]).toContain('waymark.render.js');
  expect([...files]).toContain('waymark.steps.js');
  expect([...files]).not.toContain('waymark.overlay.js');

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await page.evaluate(() => document.body.hasAttribute('inert'))).toBe(false);
  await flushed(page);
  await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed' && x.props.guide_id === 'e2e-surface-lightbox'));
  expect([...files]).not.toContain('waymark.overlay.js');
});

test('a painted poll sends its answers and shows its thank-you', async ({ page, context, serverUrl, openHostPage }) => {
  const files = agentFilesAskedFor(context);
  const visitor = uniqueId('painted-nps');
  await openHostPage('/e2e/nps', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
  const dialog = page.getByRole('dialog', { name: 'How likely are you to recommend us?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: '9' }).check();
  await dialog.getByPlaceholder('Tell us more').fill('Fast & <simple>');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Thanks, that helps!');
  await flushed(page);
  const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.filter((x) => x.type === 'pollResponse').length >= 2);
  const answers = Object.fromEntries(events.filter((x) => x.type === 'pollResponse').map((x) => [x.props.poll_id, x.props.poll_response]));
  expect(answers).toEqual({ 'nps-1': 9, 'why-1': 'Fast & <simple>' });
  expect([...files]).not.toContain('waymark.overlay.js');
});

test('a painted tooltip sits 15 px under its element', async ({ page, context, openHostPage }) => {
  const files = agentFilesAskedFor(context);
  await openHostPage(
    '/e2e/surface-follow',
    hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('painted-tip')}' } });`, body: '<div style="height: 200px"></div><button id="follow-target" style="margin-left: 200px">Follow me</button>' }),
  );
  const tooltip = page.locator(`${overlay} .wm-tooltip`);
  await expect(tooltip).toContainText('I stay with my button');
  await expect
    .poll(async () => {
      const target = (await page.locator('#follow-target').boundingBox())!;
      const box = (await tooltip.boundingBox())!;
      return Math.round(box.y - (target.y + target.height));
    })
    .toBe(15);
  expect([...files]).not.toContain('waymark.overlay.js');
});

test('a painted tooltip stays centred under its element when the tooltip grows', async ({ page, openHostPage }) => {
  await openHostPage(
    '/e2e/surface-follow',
    hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('painted-grow')}' } });`, body: '<div style="height: 200px"></div><button id="follow-target" style="margin-left: 400px">Follow me</button>' }),
  );
  const tooltip = page.locator(`${overlay} .wm-tooltip`);
  const offCentre = async () => {
    const target = (await page.locator('#follow-target').boundingBox())!;
    const box = (await tooltip.boundingBox())!;
    // || 0: -0 is 0 here.
    return Math.round(box.x + box.width / 2 - (target.x + target.width / 2)) || 0;
  };
  await expect(tooltip).toContainText('I stay with my button');
  await expect.poll(offCentre).toBe(0);
  // What an image or a late font inside it does: the box changes size; its element does not move.
  await tooltip.evaluate((box: HTMLElement) => void (box.style.width = '400px'));
  await expect.poll(offCentre).toBe(0);
  expect(Math.round((await tooltip.boundingBox())!.width)).toBe(400);
});
