/**
 * Issue #35 "Done when", as a newcomer does it, in Chromium: the reference server started as `npm start` starts it
 * (embedded PGlite in a data folder of its own, the demo's guides seeded for demo-app, an admin token it makes and
 * keeps there), the demo host app "Acme Analytics" opened as three fresh visitors (a new browser context each,
 * `?visitor=NAME` as the demo identifies them), who click around it by hand: Home (the welcome lightbox, Got it),
 * Reports by the top navigation (its tooltip, Next), then its buttons. Only after that, signed in to the console with
 * the admin token, two features are tagged in the Features form (the Create report and Export CSV buttons), their
 * past use counted (the background backfill), and the console's Funnels, Paths and Retention screens show what a hand
 * count of the walk gives. WAYMARK_SHOTS=1 writes docs/console/walk-funnel.png.
 *
 * The walk, on the Reports page (Create report: #create-report; Export CSV: #export-csv):
 * - ann: Create report, then Export CSV.
 * - bob: Create report, then the Settings page by its address typed in the address bar (a new page load, without
 *   `?visitor`: the demo keeps the visitor chosen before).
 * - cat: Export CSV, then Create report (out of order).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/createServer';
import { WEEK_MS, weekOf } from '../../shared/analytics/utcWeek';
import { shoot } from './docShots';
import { agentReady, expect, test, uniqueId, type StoredEvent } from './fixtures';

const APP = 'demo-app';

let server: RunningServer;
let dataDir: string;

test.beforeAll(async ({}, testInfo) => {
  // PGlite boots a WebAssembly PostgreSQL and runs initdb in a new folder: seconds under load.
  testInfo.setTimeout(120_000);
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-walk-'));
  // As server/main.ts starts it for `npm start`: its data folder, the demo's guides, demo-app seeded, its own token.
  server = await startServer({ port: 0, dataDir, seedApp: APP });
});
test.afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Reads demo-app's stored events back with the server's admin token. */
async function storedEvents(): Promise<StoredEvent[]> {
  const response = await fetch(`${server.url}/api/events?${new URLSearchParams({ apiKey: APP })}`, { headers: { authorization: `Bearer ${server.admin.token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: StoredEvent[] }).events;
}

/** One move of a walk: a path is typed into the address bar (a new page load), anything else is a selector clicked. */
async function move(host: Page, step: string): Promise<void> {
  if (step.startsWith('/')) {
    await host.goto(`${server.url}${step}`);
    await agentReady(host);
  } else {
    await host.locator(step).click();
  }
}

/**
 * One visitor's walk in a fresh browser context: Home (the welcome lightbox dismissed), Reports by the top
 * navigation (its tooltip dismissed), then `moves` in order (move); what the agent holds is sent at the end.
 */
async function walk(browser: Browser, visitor: string, moves: string[]): Promise<string[]> {
  const context = await browser.newContext();
  const host = await context.newPage();
  const problems: string[] = [];
  host.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  host.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  await host.goto(`${server.url}/?visitor=${visitor}`);
  const welcome = host.locator('[data-waymark-overlay] [role="dialog"]', { hasText: 'Welcome to Acme Analytics' });
  await welcome.getByRole('button', { name: 'Got it' }).click();
  await expect(welcome).toHaveCount(0);
  await host.locator('#nav-reports').click();
  await expect(host.getByRole('heading', { level: 1 })).toHaveText('Reports');
  const tip = host.locator('[data-waymark-overlay]', { hasText: 'Create your first report' });
  await tip.getByRole('button', { name: 'Next' }).click();
  await expect(tip).toHaveCount(0);
  for (const step of moves) await move(host, step);
  await host.evaluate(() => (window as any).waymark.flushNow());
  await context.close();
  return problems;
}

test.describe('issue #35 done when: a newcomer walks the demo, tags two features, reads funnel, paths and retention', () => {
  // The console asks who is signed in before the login screen: Chromium logs the 401 as a failed load.
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test('three visitors click around the demo; two features tagged afterwards; the console shows the hand count', async ({ browser, page }) => {
    test.setTimeout(120_000);
    const ann = uniqueId('ann');
    const bob = uniqueId('bob');
    const cat = uniqueId('cat');
    expect(await walk(browser, ann, ['#create-report', '#export-csv'])).toEqual([]);
    expect(await walk(browser, bob, ['#create-report', '/settings'])).toEqual([]);
    expect(await walk(browser, cat, ['#export-csv', '#create-report'])).toEqual([]);

    // Stored before anything is tagged: 5 clicks on the two buttons, and each visitor's loads of /, /reports (and bob's /settings).
    const onButton = (e: StoredEvent) => e.type === 'click' && ['create-report', 'export-csv'].includes(e.props.target?.id);
    await expect.poll(async () => (await storedEvents()).filter(onButton).length, { timeout: 15_000 }).toBe(5);
    // Bob's typed address is still bob's page load: the demo kept his ?visitor (it used to start visitor-demo there).
    const walked = await storedEvents();
    expect(walked.filter((e) => e.type === 'load' && new URL(e.url).pathname === '/settings').map((e) => e.visitor_id)).toEqual([bob]);
    expect(new Set(walked.map((e) => e.visitor_id))).toEqual(new Set([ann, bob, cat]));

    // The console, signed in as a newcomer is: the login screen, with the token the server made at its first start.
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('Admin token').fill(server.admin.token);
    await page.getByRole('form', { name: "The owner's key" }).getByRole('button').click();
    await page.getByRole('link', { name: APP }).first().click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${APP}`));

    // Two features tagged afterwards, in the Features form; each counts the walk once its past use is counted.
    await page.getByRole('link', { name: 'Features', exact: true }).click();
    for (const [name, selector] of [['Create report', '#create-report'], ['Export CSV', '#export-csv']]) {
      await page.getByRole('button', { name: 'New feature' }).click();
      const form = page.getByRole('form', { name: 'New feature' });
      await form.getByLabel('Name').fill(name!);
      await form.getByLabel('CSS selector').fill(selector!);
      await form.getByRole('button', { name: 'Add feature' }).click();
      await expect(form).toHaveCount(0);
    }
    // Visitors, accounts (all of the demo's visitors are in acme), clicks: ann, bob, cat clicked Create report once
    // each; ann and cat Export CSV once each.
    await expect(page.getByRole('status').filter({ hasText: 'Counting past use' })).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('row', { name: 'Create report' }).locator('td.num')).toHaveText(['3', '1', '3']);
    await expect(page.getByRole('row', { name: 'Export CSV' }).locator('td.num')).toHaveText(['2', '1', '2']);

    // The funnel Create report -> Export CSV: ann converts, bob drops, cat exported before creating (a step done before
    // the step ahead of it does not count: cat reached step 1 only).
    await page.getByRole('link', { name: 'Funnels', exact: true }).click();
    const funnel = page.getByRole('form', { name: 'Funnel question' });
    await funnel.getByLabel('Step 1: kind').selectOption('feature');
    await funnel.getByLabel('Step 1: feature').selectOption({ label: 'Create report' });
    await funnel.getByLabel('Step 2: feature').selectOption({ label: 'Export CSV' });
    await funnel.getByRole('button', { name: 'Show funnel' }).click();
    const steps = page.getByRole('region', { name: 'Funnel steps' });
    await expect(steps.locator('.funnel-step-name')).toHaveText(['1. Create report', '2. Export CSV']);
    await expect(steps.locator('.funnel-step-count')).toHaveText(['3', '1']);
    await expect(steps.getByRole('heading')).toHaveText('3 visitors entered; 33% reached the last step');
    // The median of one visitor's time: ann's, from her Create report click to her Export CSV click, as stored.
    const annClicks = (await storedEvents()).filter((e) => e.visitor_id === ann && onButton(e)).map((e) => Number(e.browser_time));
    const gap = annClicks[1]! - annClicks[0]!;
    expect(gap).toBeLessThan(60_000);
    await expect(steps.locator('.funnel-step-figures')).toHaveText([`33% of step 1 · median ${gap < 1000 ? `${gap} ms` : `${Math.round(gap / 1000)} s`} from step 1`]);
    await steps.getByText('2 visitors dropped here').click();
    await expect(steps.getByRole('list', { name: 'Dropped at step 2' }).getByRole('link')).toHaveText([bob, cat].sort());
    const bobsPage = `/console/apps/${APP}/visitors/${bob}`;
    await expect(steps.getByRole('link', { name: bob })).toHaveAttribute('href', bobsPage);
    await shoot(page, 'docs/console/walk-funnel.png');

    // The demo's own guide as a step: each of them went Next on the Reports tooltip before clicking anything there.
    await funnel.getByRole('button', { name: 'Add a step' }).click();
    await funnel.getByLabel('Step 1: kind').selectOption('guide');
    await funnel.getByLabel('Step 1: guide', { exact: true }).selectOption({ label: 'Create your first report' });
    await funnel.getByLabel('Step 1: guide event').selectOption('completed');
    await funnel.getByLabel('Step 2: feature').selectOption({ label: 'Create report' });
    await funnel.getByLabel('Step 3: feature').selectOption({ label: 'Export CSV' });
    await funnel.getByRole('button', { name: 'Show funnel' }).click();
    await expect(steps.locator('.funnel-step-name')).toHaveText(['1. Create your first report completed', '2. Create report', '3. Export CSV']);
    await expect(steps.locator('.funnel-step-count')).toHaveText(['3', '3', '1']);
    // By account: all three are acme's, and ann took acme through.
    await funnel.getByLabel('Count').selectOption('account');
    await funnel.getByRole('button', { name: 'Show funnel' }).click();
    await expect(steps.locator('.funnel-step-count')).toHaveText(['1', '1', '1']);
    await expect(steps.getByRole('heading')).toHaveText('1 account entered; 100% reached the last step');

    // The paths after Create report: ann to Export CSV, then the end of her session; bob to the Settings page (no page
    // is defined: its address), then the end; cat nothing after it.
    await page.getByRole('link', { name: 'Paths', exact: true }).click();
    const paths = page.getByRole('form', { name: 'Paths question' });
    await paths.getByRole('combobox', { name: /^Start from/ }).selectOption('feature');
    await paths.getByRole('combobox', { name: /^Feature/ }).selectOption({ label: 'Create report' });
    await paths.getByRole('button', { name: 'Show paths' }).click();
    const flow = page.getByRole('group', { name: 'Paths after Create report' });
    await expect(page.getByRole('region', { name: 'Totals' }).locator('.stat-value')).toHaveText(['3', '3']);
    await expect(flow.locator('.paths-label')).toHaveText(['Create report', 'Export CSV', '/settings', '(end)', '(end)']);
    await expect(flow.locator('.paths-count')).toHaveText(['3', '1', '1', '1', '2']);
    // Before Export CSV: ann's Create report, then Reports and Home (the top navigation's page loads, by address);
    // cat's Reports, then Home, then the start of his session. Ties in a level in key order (features before
    // addresses), the session's start last.
    await paths.getByRole('combobox', { name: /^Feature/ }).selectOption({ label: 'Export CSV' });
    await paths.getByRole('combobox', { name: /^Direction/ }).selectOption('previous');
    await paths.getByRole('button', { name: 'Show paths' }).click();
    const before = page.getByRole('group', { name: 'Paths before Export CSV' });
    await expect(before.locator('.paths-label')).toHaveText(['Export CSV', 'Create report', '/reports', '/', '/reports', '/', '(session start)']);
    await expect(before.locator('.paths-count')).toHaveText(['2', '1', '1', '1', '1', '1', '1']);

    // Retention: every visitor's first use is this week, week 0 of one cohort of 3; no later week is over yet, so a
    // same-day walk shows week 0 only (the other cells blank).
    await page.getByRole('link', { name: 'Retention', exact: true }).click();
    const table = page.getByRole('table', { name: 'Retention by cohort' });
    const week = new Date(weekOf(Date.now())).toISOString().slice(0, 10);
    const blank = new Array<string>(8).fill('');
    await expect(table.getByRole('row', { name: week, exact: true }).locator('td')).toHaveText([week, '3', '100%', ...blank]);
    await expect(table.getByRole('row', { name: 'All cohorts', exact: true }).locator('td')).toHaveText(['All cohorts', '3', '100%', ...blank]);
    await expect(table.getByRole('row', { name: week, exact: true }).locator('td').nth(3)).toHaveAttribute('title', 'week 1 is not over for every visitor of this cohort yet');
    // Said in words, with the day it changes by (a first use on Sunday has its week 1 over three Mondays on), no curve.
    const by = new Date(weekOf(Date.now()) + 3 * WEEK_MS).toISOString().slice(0, 10);
    await expect(page.getByRole('status', { name: 'No week over yet' })).toContainText(`The oldest cohort here, ${week}, has week 1 over for all of its visitors by ${by}.`);
    await expect(page.getByRole('img', { name: 'Retention curve' })).toHaveCount(0);

    // Bob, who dropped, from the funnel's link: his timeline has his Create report click (by its element: the timeline
    // does not name features) and his typed /settings, in one session.
    await page.goto(`${server.url}${bobsPage}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Visitors / ${bob}`);
    const sessions = page.getByRole('list', { name: 'Sessions' });
    await expect(sessions.getByRole('listitem').filter({ hasText: /^\d\d:\d\d:\d\d click \/reports button#create-report$/ })).toHaveCount(1);
    await expect(sessions.getByRole('listitem').filter({ hasText: /^\d\d:\d\d:\d\d load \/settings $/ })).toHaveCount(1);
    await expect(sessions.locator('> li')).toHaveCount(1);
  });
});
