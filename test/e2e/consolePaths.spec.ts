/**
 * Issue #35 paths in the console, in Chromium against the real server: three visitors walk host pages (page loads
 * and one Export click, stored by the agent) before any page or feature exists; then two pages and a feature are
 * made through the API and the Paths screen draws the flow after Home and before Export with the counts a hand count
 * gives (labels and counts read from the SVG), a node links to its page's screen by keyboard, and a start that never
 * happened shows the empty state. WAYMARK_SHOTS=1 writes the docs' screenshot (docs/console/paths.png).
 */
import type { BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { shoot } from './docShots';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

/** Logs the browser context in through the API with the admin token. */
async function logIn(context: BrowserContext, serverUrl: string): Promise<void> {
  const response = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
  expect(response.status()).toBe(204);
}

/**
 * One visitor's walk in one tab: each path of `walk` loaded in turn (the agent's load event), `click` clicking the
 * Export button on that page; what the agent holds is sent before each next page.
 */
async function walk(context: BrowserContext, serverUrl: string, apiKey: string, visitor: string, steps: Array<{ path: string; click?: true }>): Promise<void> {
  const host: Page = await context.newPage();
  const init = `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, account: { id: 'acme' } });`;
  await host.route(
    (url) => url.pathname.startsWith('/e2e/paths/'),
    (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init, body: '<main><button id="export-csv">Export CSV</button></main>' }) }),
  );
  for (const step of steps) {
    await host.goto(new URL(step.path, serverUrl).href);
    await agentReady(host);
    if (step.click) await host.locator('#export-csv').click({ delay: 20 });
    await host.evaluate(() => (window as any).waymark.flushNow());
  }
  await host.close();
}

async function make(serverUrl: string, apiKey: string, kind: 'pages' | 'features', body: object): Promise<string> {
  const response = await adminFetch(`${serverUrl}/api/apps/${apiKey}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test.describe('issue #35 paths in the console', () => {
  test('the flow after Home and before Export, counted as by hand; a node links to its page; nothing is an empty state', async ({ page, context, serverUrl }) => {
    test.setTimeout(90_000);
    const apiKey = uniqueId('e2e-paths');
    // ann: Home, Reports (Export clicked there), Settings; bob: Home, Settings; cat: Home, Reports.
    await walk(context, serverUrl, apiKey, uniqueId('ann'), [{ path: '/e2e/paths/home' }, { path: '/e2e/paths/reports/1', click: true }, { path: '/e2e/paths/settings' }]);
    await walk(context, serverUrl, apiKey, uniqueId('bob'), [{ path: '/e2e/paths/home' }, { path: '/e2e/paths/settings' }]);
    await walk(context, serverUrl, apiKey, uniqueId('cat'), [{ path: '/e2e/paths/home' }, { path: '/e2e/paths/reports/2' }]);
    await waitForEvents(serverUrl, { apiKey }, (events) => events.filter((e) => e.type === 'load').length === 7 && events.filter((e) => e.type === 'click').length === 1);
    await make(serverUrl, apiKey, 'pages', { name: 'Home', rule: { url: '/e2e/paths/home' } });
    await make(serverUrl, apiKey, 'pages', { name: 'Reports', rule: { url: '/e2e/paths/reports/:id' } });
    await make(serverUrl, apiKey, 'features', { name: 'Export CSV', rule: { selector: '#export-csv' } });

    await logIn(context, serverUrl);
    await page.bringToFront();
    await page.goto(`${serverUrl}/console/apps/${apiKey}`);
    await page.getByRole('link', { name: 'Paths', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Pick where the paths start' })).toBeVisible();

    // After Home, 3 steps: the default start is the first page.
    const form = page.getByRole('form', { name: 'Paths question' });
    await expect(form.getByRole('combobox', { name: /^Page/ })).toHaveValue(/.+/);
    await form.getByRole('button', { name: 'Show paths' }).click();
    const flow = page.getByRole('group', { name: 'Paths after Home' });
    await expect(flow).toBeVisible();
    await expect(page.getByRole('region', { name: 'Totals' }).locator('.stat-value')).toHaveText(['3', '3']);
    await expect(flow.locator('.paths-label')).toHaveText(['Home', 'Reports', '/e2e/paths/settings', 'Export CSV', '(end)', '/e2e/paths/settings']);
    await expect(flow.locator('.paths-count')).toHaveText(['3', '2', '1', '1', '2', '1']);
    // Links as wide as their paths: Home -> Reports (2 paths) twice as wide as Home -> settings (1).
    const widths = await flow.locator('.paths-links path').evaluateAll((paths) => paths.map((p) => Number(p.getAttribute('stroke-width'))));
    expect(widths).toHaveLength(6);
    expect(widths[0]).toBeCloseTo(2 * widths[1]!, 5);
    await expect(flow.locator('.paths-links path title').first()).toHaveText('Home → Reports: 2 paths (66.7%), 2 visitors');
    await expect(page.getByRole('table', { name: 'Steps by level' }).getByRole('row', { name: '2: (end)' }).locator('td.num')).toHaveText(['2', '66.7%', '2']);
    await shoot(page, 'docs/console/paths.png');

    // Before Export, from the form: Reports, then Home, then the session's start (the answer's (end)).
    await form.getByRole('combobox', { name: /^Start from/ }).selectOption('feature');
    await expect(form.getByRole('combobox', { name: /^Feature/ })).toHaveValue(/.+/);
    await form.getByRole('combobox', { name: /^Direction/ }).selectOption('previous');
    await form.getByRole('button', { name: 'Show paths' }).click();
    const before = page.getByRole('group', { name: 'Paths before Export CSV' });
    await expect(before.locator('.paths-label')).toHaveText(['Export CSV', 'Reports', 'Home', '(session start)']);
    await expect(before.locator('.paths-count')).toHaveText(['1', '1', '1', '1']);

    // A page's node is a link, reached by keyboard, to its page's screen.
    const reports = before.getByRole('link', { name: /^Reports: 1 paths/ });
    await reports.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/pages/[^/]+$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pages / Reports');

    // A start that never happened: the empty state.
    await page.goBack();
    await form.getByRole('combobox', { name: /^Start from/ }).selectOption('track');
    await form.getByLabel('Track event name').fill('never tracked');
    await form.getByRole('button', { name: 'Show paths' }).click();
    await expect(page.getByRole('heading', { name: 'No paths in this range' })).toBeVisible();
  });
});
