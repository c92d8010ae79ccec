/**
 * The app's guide theme (ours; shared/surfaces/guideTheme): set in the console's Settings with a sample step
 * beside it, stored, and worn by the steps visitors see: colours, border, corners, and the tooltip's border
 * caret (guides §9 "border caret 10").
 */
import type { Locator } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, publishGuide, test, uniqueId } from './fixtures';

const THEME = { background: '#1e293b', text: '#f8fafc', accent: '#facc15', borderColor: '#f97316', borderWidth: 3, radius: 14 };

/** The computed look of a step box, its caret and its first button. */
const lookOf = (step: Locator) =>
  step.evaluate((el) => {
    const css = getComputedStyle(el);
    const caret = el.querySelector('.wm-caret');
    const c = caret ? getComputedStyle(caret) : null;
    const button = getComputedStyle(el.querySelector('button:not(.wm-close)')!);
    const box = el.getBoundingClientRect();
    const tip = caret?.getBoundingClientRect();
    return {
      background: css.backgroundColor,
      color: css.color,
      border: `${css.borderTopWidth} ${css.borderTopColor}`,
      radius: css.borderTopLeftRadius,
      button: [button.backgroundColor, button.color],
      side: (el as HTMLElement).dataset.side,
      caret: c && { size: c.width, top: c.borderTopWidth, left: c.borderLeftWidth, bottom: c.borderBottomWidth, right: c.borderRightWidth, color: c.borderTopColor, background: c.backgroundColor },
      // How far the caret's centre is from the box's outer top edge.
      caretCentreFromTop: tip ? Math.round((tip.top + tip.height / 2 - box.top) * 10) / 10 : null,
    };
  });

test.describe('the app\'s guide theme (ours)', () => {
  test('set in the console\'s Settings (a sample step beside, a bad colour refused naming the field), its steps wear it, the tooltip\'s caret carries the border', async ({ page, context, serverUrl, allowAgentErrors }) => {
    allowAgentErrors.push(/status of 400 \(Bad Request\)/);
    const apiKey = uniqueId('e2e-theme');
    expect((await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } })).status()).toBe(204);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/settings`);
    const sample = page.getByRole('figure', { name: 'Sample step' }).locator('.wm-step');
    await expect(sample).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await page.getByLabel('Background', { exact: true }).fill('navy');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('alert')).toHaveText('theme.background must be a colour written #rgb or #rrggbb');
    await page.getByLabel('Background', { exact: true }).fill(THEME.background);
    // Dark on dark until the text colour is set: the page says so.
    await expect(page.getByText('Text on this background is hard to read (contrast 1.1:1; aim for 4.5:1 or more).')).toBeVisible();
    await page.getByLabel('Text', { exact: true }).fill(THEME.text);
    await page.getByLabel('Buttons and links', { exact: true }).fill(THEME.accent);
    await page.getByLabel('Border', { exact: true }).fill(THEME.borderColor);
    await page.getByLabel('Border width (px)').fill(String(THEME.borderWidth));
    await page.getByLabel('Corner radius (px)').fill(String(THEME.radius));
    await expect(page.getByText(/hard to read|hardly stand out/)).toHaveCount(0);
    // The sample is drawn with the overlay's own stylesheet as the values are typed.
    await expect(sample).toHaveCSS('background-color', 'rgb(30, 41, 59)');
    await expect(sample).toHaveCSS('border-top-color', 'rgb(249, 115, 22)');
    await expect(page.getByLabel('Background colour picker')).toHaveValue(THEME.background);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    expect((await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`)).json()).theme).toEqual(THEME);

    // A tooltip and, after it, a lightbox whose own radius wins over the app's.
    await publishGuide(serverUrl, apiKey, {
      id: 'themed',
      name: 'Themed',
      launchMethod: 'auto',
      steps: [
        { id: 'themed-1', type: 'tooltip', elementPathRule: '#go', attributes: { layoutDir: 'bottom' }, domJson: { type: 'div', props: {}, children: [{ type: 'h2', props: {}, content: 'Start here' }, { type: 'button', props: {}, content: 'Next', actions: [{ action: 'advanceGuide' }] }] } },
        { id: 'themed-2', type: 'lightbox', attributes: { theme: { radius: 0 } }, domJson: { type: 'div', props: {}, children: [{ type: 'h2', props: {}, content: 'All set' }, { type: 'button', props: {}, content: 'Done', actions: [{ action: 'dismissGuide' }] }] } },
      ],
    });
    const host = await context.newPage();
    await host.route(`${serverUrl}/themed`, (route) =>
      route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${uniqueId('themed')}' } });`, body: '<div style="height:120px"></div><button id="go">Go</button>' }) }),
    );
    await host.goto(`${serverUrl}/themed`);
    await agentReady(host);
    const tooltip = host.locator('[data-waymark-overlay] .wm-tooltip');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toHaveAttribute('data-side', 'bottom');
    expect(await lookOf(tooltip)).toEqual({
      background: 'rgb(30, 41, 59)',
      color: 'rgb(248, 250, 252)',
      border: '3px rgb(249, 115, 22)',
      radius: '14px',
      // A light button colour: dark text on it.
      button: ['rgb(250, 204, 21)', 'rgb(17, 24, 39)'],
      side: 'bottom',
      // Pointing up: the border on the caret's top and left sides (the square turned 45 degrees), 10 px + 3.
      caret: { size: '13px', top: '3px', left: '3px', bottom: '0px', right: '0px', color: 'rgb(249, 115, 22)', background: 'rgb(30, 41, 59)' },
      // Its centre on the border's outer edge.
      caretCentreFromTop: 0,
    });
    await tooltip.getByRole('button', { name: 'Next' }).click();
    const lightbox = host.locator('[data-waymark-overlay] .wm-lightbox');
    await expect(lightbox).toBeVisible();
    expect(await lookOf(lightbox)).toMatchObject({ background: 'rgb(30, 41, 59)', border: '3px rgb(249, 115, 22)', radius: '0px', caret: null });

    // Back to Waymark's look: every field emptied, saved as no theme at all.
    await page.getByRole('button', { name: "Use Waymark's look" }).click();
    await expect(page.getByLabel('Background', { exact: true })).toHaveValue('');
    await expect(sample).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect((await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`)).json()).theme).toEqual({});
  });

  test('the launcher (guide center) and element badges wear it too: badges in the button colour, the panel in the background', async ({ page, serverUrl }) => {
    const apiKey = uniqueId('e2e-theme-launcher');
    const headers = { 'content-type': 'application/json' };
    const put = await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`, { method: 'PUT', body: JSON.stringify({ theme: THEME, launcher: { enabled: true, data: {} } }), headers });
    expect(put.status).toBe(200);
    const content = { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Listed' }] };
    await publishGuide(serverUrl, apiKey, { id: 'listed', name: 'Listed guide', launchMethod: 'launcher', steps: [{ id: 'listed-1', type: 'lightbox', domJson: content }] });
    await publishGuide(serverUrl, apiKey, { id: 'badged', name: 'Badged guide', launchMethod: 'badge', steps: [{ id: 'badged-1', type: 'tooltip', elementPathRule: '#help', domJson: content }] });
    await page.route(`${serverUrl}/themed-launcher`, (route) =>
      route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${uniqueId('themed')}' } });`, body: '<p style="margin:80px"><button id="help">Help</button></p>' }) }),
    );
    await page.goto(`${serverUrl}/themed-launcher`);
    const elementBadge = page.locator('[data-waymark-overlay] .wm-badge[data-guide-id="badged"]');
    await expect(elementBadge).toHaveCSS('background-color', 'rgb(250, 204, 21)');
    await agentReady(page);
    const badge = page.locator('[data-waymark-overlay] .wm-launcher-badge');
    await expect(badge).toHaveCSS('background-color', 'rgb(250, 204, 21)');
    await expect(badge).toHaveCSS('color', 'rgb(17, 24, 39)');
    await badge.click();
    const panel = page.locator('[data-waymark-overlay] .wm-launcher').and(page.getByRole('dialog'));
    await expect(panel).toHaveCSS('background-color', 'rgb(30, 41, 59)');
    await expect(panel).toHaveCSS('border-top-color', 'rgb(249, 115, 22)');
  });

  test.describe('in the designer', () => {
    // The designer asks the console whether this browser is signed in: Chromium logs the 401 as a failed load.
    test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

    test('the live step is drawn in the app\'s theme, as visitors will see it', async ({ page, openHostPage, serverUrl }) => {
      const apiKey = uniqueId('e2e-theme-designer');
      const put = await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`, { method: 'PUT', body: JSON.stringify({ theme: THEME }), headers: { 'content-type': 'application/json' } });
      expect(put.status).toBe(200);
      const init = `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'author' } });`;
      await openHostPage('/e2e/theme-designer?waymark-designer=e30', hostPage({ init, body: '<main style="padding:200px 0 0 480px"><button id="one">Export</button></main>' }));
      await agentReady(page);
      const designer = page.getByTestId('waymark-designer');
      await designer.getByRole('button', { name: 'Use the admin token instead' }).click();
      await designer.getByLabel('Admin token', { exact: true }).fill(E2E_ADMIN_TOKEN);
      await designer.getByRole('button', { name: 'Sign in' }).click();
      await designer.getByRole('button', { name: 'New guide on this page' }).click();
      await designer.getByLabel('Name', { exact: true }).fill('Themed live');
      await designer.getByLabel('Element', { exact: true }).fill('#one');
      await designer.getByLabel('Title', { exact: true }).fill('Export your report');
      const live = page.locator('[data-waymark-overlay] .wm-tooltip');
      await expect(live).toContainText('Export your report');
      await expect(live).toHaveCSS('background-color', 'rgb(30, 41, 59)');
      await expect(live).toHaveCSS('border-top-width', '3px');
      await expect(live).toHaveClass(/wm-bordered/);
    });
  });
});
