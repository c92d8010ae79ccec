/**
 * Issue #15, a guide's audience written in the designer, in Chromium against the reference server: the author
 * adds a condition on the visitor's metadata and publishes; a visitor in the audience sees the guide, one outside
 * it is never sent it (guide.json leaves it out).
 */
import type { Browser } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId } from './fixtures';

const body = '<main style="padding:40px"><h1>Billing</h1></main>';

/** Opens the page as a visitor with `role` in their metadata; resolves to what guide.json sent and the lightbox. */
async function visit(browser: Browser, serverUrl: string, apiKey: string, visitorId: string, role: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${serverUrl}/e2e/designer-audience`, (route) =>
    route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitorId}', role: '${role}' } });`, body }) }),
  );
  const guideJson = page.waitForResponse((r) => r.url().includes(`/data/guide.json/${apiKey}`));
  await page.goto(`${serverUrl}/e2e/designer-audience`);
  await agentReady(page);
  const guides = ((await (await guideJson).json()).guides as Array<{ id: string }>).map((g) => g.id);
  return { context, page, guides, lightbox: page.locator('[data-waymark-overlay] .wm-lightbox') };
}

test.describe('issue #15 the designer writes an audience', () => {
  // The designer asks the console whether this browser is signed in: Chromium logs the 401 as a failed load.
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test("a lightbox for visitors whose role is admin: an admin sees it, a viewer is never sent it", async ({ page, browser, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-audience');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    await openHostPage('/e2e/designer-audience?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByRole('combobox', { name: /^Type/ }).selectOption('lightbox');
    await designer.getByLabel('Title', { exact: true }).fill('New: invoices by email');
    await designer.getByRole('button', { name: 'Add a condition' }).click();
    const condition = designer.getByTestId('audience-rule');
    await expect(condition.getByText('Name the metadata field')).toBeVisible();
    await condition.getByLabel('Field').fill('role');
    await condition.getByLabel('Value', { exact: true }).fill('admin');
    await expect(designer.getByTestId('audience-summary')).toContainText("Only visitors where visitor's role is admin.");
    await expect(condition.locator('.warn')).toHaveCount(0);
    await designer.getByTestId('audience-summary').scrollIntoViewIfNeeded();
    await expect(page.locator('[data-waymark-overlay] .wm-lightbox')).toContainText('New: invoices by email');
    await page.screenshot({ path: 'test-results/screens/designer-audience.png' });
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
    const [{ id: guideId }] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    const stored = (await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guideId}`)).json()).guide;
    expect(stored.audience).toEqual({ when: { 'visitor.role': { equals: 'admin' } } });

    const admin = await visit(browser, serverUrl, apiKey, 'audience-admin', 'admin');
    try {
      expect(admin.guides).toEqual([guideId]);
      await expect(admin.lightbox).toContainText('New: invoices by email');
    } finally {
      await admin.context.close();
    }
    const viewer = await visit(browser, serverUrl, apiKey, 'audience-viewer', 'viewer');
    try {
      expect(viewer.guides).toEqual([]);
      await expect(viewer.lightbox).toHaveCount(0);
    } finally {
      await viewer.context.close();
    }
    // The console's guide page says who the guide is for.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/${guideId}`);
    await expect(page.getByTestId('guide-audience')).toHaveText('for visitors where visitor.role is admin');
  });
});
