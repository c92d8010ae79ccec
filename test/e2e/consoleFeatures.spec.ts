/**
 * Issue #35, features and pages in the console, in Chromium against the real server: clicks and page loads of two
 * visitors are stored first (by the agent on host pages); then a page and a feature limited to it are added through
 * the forms and show the counts a hand count gives, over what was stored before they existed; the feature's detail
 * draws its series; a selector the stored element path cannot answer is refused beside its field; the page a feature
 * is limited to cannot be deleted (the server's 409); the feature is renamed and deleted; a viewer reads both screens
 * and is offered no change. WAYMARK_SHOTS=1 writes the docs' screenshots (docs/console/features.png, feature.png).
 */
import type { BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { shoot } from './docShots';
import { clickAndClose, openClickHost } from './clickHosts';
import { adminFetch, expect, test, uniqueId, waitForEvents } from './fixtures';

/** Logs the browser context in through the API with `data` (the admin token, or an email and password). */
async function logIn(context: BrowserContext, serverUrl: string, data: Record<string, string> = { token: E2E_ADMIN_TOKEN }): Promise<void> {
  const response = await context.request.post(`${serverUrl}/api/login`, { data });
  expect(response.status()).toBe(204);
}

const BODY = '<main><button id="export-csv">Export CSV</button></main>';
const openHost = (context: BrowserContext, serverUrl: string, path: string, apiKey: string, visitor: string, account: string) =>
  openClickHost(context, serverUrl, path, { apiKey, visitor, account, body: BODY });
const clickExport = (host: Page, times: number) => clickAndClose(host, '#export-csv', times);

test.describe('issue #35 features and pages in the console', () => {
  // The refusals this test asks for (a bad selector, a page in use) are logged by Chromium as failed loads.
  test.use({ allowAgentErrors: [/status of (400|409) \(/] });

  test('a page and a feature limited to it, added after the fact, count what was stored; the feature is charted, renamed and deleted; a viewer only reads', async ({ browser, page, context, serverUrl }) => {
    test.setTimeout(60_000);
    const apiKey = uniqueId('e2e-features');
    const ann = uniqueId('ann');
    const bob = uniqueId('bob');
    // Ann clicks Export twice on the reports page and once on the home page; Bob once on the reports page.
    // Reports page: 2 loads, 2 visitors, 2 accounts. Export limited to it: 3 clicks, 2 visitors, 2 accounts.
    await clickExport(await openHost(context, serverUrl, '/e2e/features/reports', apiKey, ann, 'acme'), 2);
    await clickExport(await openHost(context, serverUrl, '/e2e/features/home', apiKey, ann, 'acme'), 1);
    await clickExport(await openHost(context, serverUrl, '/e2e/features/reports', apiKey, bob, 'globex'), 1);
    await waitForEvents(serverUrl, { apiKey }, (events) => events.filter((e) => e.type === 'click').length === 4 && events.filter((e) => e.type === 'load').length === 3);

    await logIn(context, serverUrl);
    await page.bringToFront();
    await page.goto(`${serverUrl}/console/apps/${apiKey}`);

    // A page, through its form.
    await page.getByRole('link', { name: 'Pages', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'No pages in this app yet' })).toBeVisible();
    await page.getByRole('button', { name: 'New page' }).click();
    const pageForm = page.getByRole('form', { name: 'New page' });
    await pageForm.getByLabel('Name').fill('Reports');
    await pageForm.getByLabel('URL rule').fill('/e2e/features/reports');
    await pageForm.getByRole('button', { name: 'Add page' }).click();
    await expect(page.getByRole('row', { name: 'Reports' }).locator('td.num')).toHaveText(['2', '2', '2']);

    // A feature limited to it: a selector the stored path cannot answer is refused beside its field first.
    await page.getByRole('link', { name: 'Features', exact: true }).click();
    await page.getByRole('button', { name: 'New feature' }).click();
    const form = page.getByRole('form', { name: 'New feature' });
    await form.getByLabel('Name').fill('Export CSV');
    const selector = form.getByLabel('CSS selector');
    await selector.fill('main > button + a');
    await form.getByLabel('Page (optional)').selectOption({ label: 'Reports' });
    await form.getByRole('button', { name: 'Add feature' }).click();
    await expect(selector).toHaveAccessibleDescription(/^rule\.selector .*\+/);
    await expect(form.locator('.field.invalid')).toHaveCount(1);
    await selector.fill('#export-csv');
    await form.getByRole('button', { name: 'Add feature' }).click();
    await expect(form).toHaveCount(0);
    const row = page.getByRole('row', { name: 'Export CSV' });
    await expect(row.locator('td.num')).toHaveText(['2', '2', '3']);
    await expect(row).toContainText('#export-csv');
    await expect(row.getByRole('link', { name: 'Reports' })).toBeVisible();
    await shoot(page, 'docs/console/features.png');

    // The page a feature is limited to is kept: the server's 409 names the feature.
    await page.getByRole('link', { name: 'Pages', exact: true }).click();
    await page.getByRole('button', { name: 'Delete Reports…' }).click();
    await page.getByRole('button', { name: 'Delete Reports', exact: true }).click();
    await expect(page.getByRole('row', { name: 'Reports' }).getByRole('alert')).toContainText("is the page of feature 'Export CSV': change or delete it first");

    // The feature's detail: its totals and its series on the overview's chart.
    await page.getByRole('link', { name: 'Features', exact: true }).click();
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/features/[^/]+$`));
    const totals = page.getByRole('region', { name: 'Totals' });
    await expect(totals.locator('.stat-value')).toHaveText(['2', '2', '3']);
    const chart = page.getByRole('img', { name: 'Export CSV per day' });
    await expect(chart.locator('canvas')).toHaveCount(1);
    await expect(chart.locator('.u-legend')).toContainText('Clicks');
    await shoot(page, 'docs/console/feature.png');

    // Renamed.
    await page.getByRole('button', { name: 'Rename Export CSV…' }).click();
    await page.getByLabel('New name of the feature').fill('Export to CSV');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Features / Export to CSV');

    // A viewer reads both screens and is offered no change.
    const email = `${uniqueId('viewer')}@example.com`;
    const made = await adminFetch(`${serverUrl}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, role: 'viewer', password: 'features viewer 12' }),
    });
    expect(made.status).toBe(201);
    const viewerContext = await browser.newContext();
    await logIn(viewerContext, serverUrl, { email, password: 'features viewer 12' });
    const viewer = await viewerContext.newPage();
    await viewer.goto(`${serverUrl}/console/apps/${apiKey}/features`);
    await expect(viewer.getByRole('row', { name: 'Export to CSV' }).locator('td.num')).toHaveText(['2', '2', '3']);
    await expect(viewer.getByRole('button', { name: 'New feature' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /Rename|Delete/ })).toHaveCount(0);
    await viewer.getByRole('link', { name: 'Pages', exact: true }).click();
    await expect(viewer.getByRole('row', { name: 'Reports' }).locator('td.num')).toHaveText(['2', '2', '2']);
    await expect(viewer.getByRole('button', { name: 'New page' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /Rename|Delete/ })).toHaveCount(0);
    await viewer.getByRole('link', { name: 'Reports' }).click();
    await expect(viewer.getByRole('img', { name: 'Reports per day' })).toBeVisible();
    await expect(viewer.getByRole('button', { name: /Rename|Delete/ })).toHaveCount(0);
    await viewerContext.close();

    // Deleted, after a confirmation: back to the list, empty.
    await page.getByRole('button', { name: 'Delete Export to CSV…' }).click();
    await page.getByRole('button', { name: 'Delete Export to CSV', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/features$`));
    await expect(page.getByRole('heading', { name: 'No features in this app yet' })).toBeVisible();
    expect(await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/features`)).json()).toEqual([]);
  });
});
