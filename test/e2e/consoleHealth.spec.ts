/**
 * The console's Agent health view in Chromium against the real reference server: two health reports
 * (POST /data/monitor, shared/wire/monitorReport.ts) and an error log posted straight to the collector, then the
 * Health page's tiles, version table and error row read back with the posted figures; an app without reports gets
 * the empty state that says when reports come and links to Install. Each test has an app of its own.
 */
import type { BrowserContext, Locator } from '@playwright/test';
import { AGENT_VERSION } from '../../shared/constants';
import type { MonitorReport } from '../../shared/wire/monitorReport';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { agentReady, expect, hostPage, test, uniqueId } from './fixtures';

/** Logs the browser context in through the API, as the login page does. */
async function logIn(context: BrowserContext, serverUrl: string): Promise<void> {
  const response = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
  expect(response.status()).toBe(204);
}

/** Posts to the collector as an agent does; the answer must be `{stored: 1}`. */
async function postData(url: string, body: unknown, contentType = 'application/json'): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(await response.json()).toEqual({ stored: 1 });
}

/** The tile labelled `label`. */
const tile = (totals: Locator, label: string) => totals.locator('.stat').filter({ has: totals.page().getByText(label, { exact: true }) });

test.describe('the console\'s agent health view', () => {
  test('shows two posted reports and an error log: the tiles, the version table and the error row', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-health');
    const monitor = `${serverUrl}/data/monitor?apiKey=${apiKey}`;
    const to = Date.now();
    const current: MonitorReport = {
      version: '0.1.0',
      visitorId: 'health-visitor-1',
      sessionId: 'health-session-1',
      from: to - 300_000,
      to,
      counts: { eventsSent: 120, beaconsFailed: 3, eventsDropped: 0, guideLoads: 4, guideLoadFailures: 1, errors: 2, warnings: 1 },
    };
    const older: MonitorReport = {
      version: '0.0.9',
      visitorId: 'health-visitor-2',
      sessionId: 'health-session-2',
      from: to - 60_000,
      to,
      counts: { eventsSent: 30, beaconsFailed: 0, eventsDropped: 2, guideLoads: 2, guideLoadFailures: 0, errors: 0, warnings: 0 },
    };
    await postData(monitor, current);
    // As sendBeacon sends it.
    await postData(monitor, older, 'text/plain;charset=UTF-8');
    await postData(`${serverUrl}/data/errorlog?apiKey=${apiKey}`, {
      error: 'TypeError: guide step has no target\n    at showStep (waymark.guides.js:1:2)',
      version: '0.1.0',
      visitorId: 'health-visitor-1',
    });

    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}`);
    await page.getByRole('link', { name: 'Health' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/health$`));
    await expect(page.getByRole('heading', { name: 'Agent health' })).toBeVisible();

    const totals = page.getByRole('region', { name: 'Agent health totals' });
    const figures: Array<[string, string, boolean]> = [
      ['Sessions reporting', '2', false],
      ['Events sent', '150', false],
      ['Failed beacon attempts', '3', true],
      ['Events given up', '2', true],
      ['Guide loads', '6', false],
      ['Guide load failures', '1', true],
      ['Errors', '2', true],
      ['Warnings', '1', false],
    ];
    for (const [label, value, warn] of figures) {
      await expect(tile(totals, label).locator('.stat-value'), label).toHaveText(value);
      // Figures that signal trouble are drawn as warnings, the others not.
      if (warn) await expect(tile(totals, label), label).toHaveClass(/\bwarn\b/);
      else await expect(tile(totals, label), label).not.toHaveClass(/\bwarn\b/);
    }
    await expect(page.getByText('2 reports from 2 visitors: 3 failed beacon attempts, 150 events sent, 2 events given up.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Events sent over time' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Failures over time' })).toBeVisible();

    const versions = page.getByRole('table', { name: 'Agent versions' });
    await expect(versions.locator('tbody tr')).toHaveCount(2);
    const cells = (version: string) => versions.locator('tbody tr', { hasText: version }).locator('td');
    // Version, sessions, events sent, failed attempts, given up, errors; then when it last reported.
    await expect(cells('0.1.0')).toHaveText(['0.1.0', '1', '120', '3', '0', '2', /s ago$/]);
    await expect(cells('0.0.9')).toHaveText(['0.0.9', '1', '30', '0', '2', '0', /s ago$/]);
    await expect(cells('0.1.0').nth(3)).toHaveClass(/warn-figure/);
    await expect(cells('0.0.9').nth(3)).not.toHaveClass(/warn-figure/);

    const errors = page.getByRole('table', { name: 'Agent errors' });
    const row = errors.locator('tbody tr');
    await expect(row).toHaveCount(1);
    await expect(row.locator('td').nth(0)).toContainText('TypeError: guide step has no target');
    await expect(row.locator('td').nth(1)).toHaveText('1');
    await expect(row.locator('td').nth(2)).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await expect(row.locator('td').nth(3)).toHaveText('0.1.0');
    // The stack opens under the message's first line.
    await row.getByText('TypeError: guide step has no target').click();
    await expect(row.getByText('at showStep (waymark.guides.js:1:2)')).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/console-health.png', fullPage: true });
  });

  test("the agent's own report (analytics §9 monitoring flush, sent at each flush): a page's clicks and its failed beacon, on the Health page", async ({ page, context, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-health-agent');
    const visitor = uniqueId('health-agent-visitor');
    await openHostPage('/e2e/health-agent', hostPage({
      init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, disableGuides: true });`,
      body: '<button id="a">A</button><button id="b">B</button>',
    }));
    await agentReady(page);
    // One beacon answered 500 once (a failed attempt, sent again), then the collector as it is.
    let failed = false;
    await page.route('**/data/ptm.gif/**', (route) => {
      if (failed) return route.continue();
      failed = true;
      return route.fulfill({ status: 500, body: 'collector hiccup' });
    });
    await page.click('#a');
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await page.evaluate(() => (window as any).waymark.flushNow());
    // The report goes after each flush's events: read back from the console's API until both sends are in it.
    await expect.poll(async () => {
      const health = await (await context.request.get(`${serverUrl}/api/apps/${apiKey}/health`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })).json();
      return { sessions: health.totals.sessions, failed: health.totals.beaconsFailed, sent: health.totals.eventsSent >= 2 };
    }, { timeout: 10_000 }).toEqual({ sessions: 1, failed: 1, sent: true });

    await logIn(context, serverUrl);
    // The Apps list says it at a glance, and leads to the Health page of the last 24 hours.
    await page.goto(`${serverUrl}/console/`);
    const row = page.locator('tbody tr', { has: page.getByRole('link', { name: apiKey, exact: true }) });
    await expect(row.locator('td').last()).toHaveText('1 failed beacon attempt');
    await row.getByRole('link', { name: '1 failed beacon attempt' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/health\\?range=24h$`));
    const totals = page.getByRole('region', { name: 'Agent health totals' });
    await expect(tile(totals, 'Sessions reporting').locator('.stat-value')).toHaveText('1');
    await expect(tile(totals, 'Failed beacon attempts').locator('.stat-value')).toHaveText('1');
    await expect(page.getByRole('table', { name: 'Agent versions' }).locator('tbody tr td').first()).toHaveText(AGENT_VERSION);
  });

  test('an app without reports in the range says when reports come and links to Install', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-health-none');
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/health?range=24h`);
    await expect(page.getByRole('heading', { name: 'No health report in this range' })).toBeVisible();
    await expect(page.getByText(/every 5 minutes while a page is open, and when a page is hidden/)).toBeVisible();
    await expect(page.getByText('No errors logged by the agent in this range.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Agent health totals' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Install or update the agent' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/install$`));
    await expect(page.getByRole('heading', { name: 'Install', exact: true })).toBeVisible();
  });
});
