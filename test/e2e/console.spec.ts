/**
 * Issue #14, the console in Chromium against the real reference server: login, live events arriving while a host
 * page is clicked, a guide created and published in the console shown on a host page with its dismissal counted,
 * a poll answered on a host page in the results, settings saved. Each test has an app (api key) of its own.
 */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const lightbox = '[data-waymark-overlay] .wm-lightbox';

/** Logs the browser context in through the API, as the login page does; its cookie then rides every console page. */
async function logIn(context: BrowserContext, serverUrl: string): Promise<void> {
  const response = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
  expect(response.status()).toBe(204);
}

/** A host page of `apiKey` for `visitor` in a new tab of the context, with the agent ready. */
async function openHost(context: BrowserContext, serverUrl: string, path: string, apiKey: string, visitor: string, body = ''): Promise<Page> {
  const host = await context.newPage();
  const target = new URL(path, serverUrl);
  await host.route(
    (url) => url.pathname === target.pathname,
    (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body }) }),
  );
  await host.goto(target.href);
  await agentReady(host);
  return host;
}

test.describe('issue #14 console access', () => {
  // The refusals this test asks for are logged by Chromium as failed loads.
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });
  test('the login page refuses a wrong token with the server\'s message, accepts the right one (Enter submits), and logout ends the session', async ({ page, serverUrl }) => {
    await page.goto(`${serverUrl}/console/apps/somewhere/events`);
    await expect(page).toHaveURL(/\/console\/login\?next=/);
    const token = page.getByLabel('Admin token');
    await token.fill('not-the-admin-token');
    await token.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('wrong token');
    await token.fill(E2E_ADMIN_TOKEN);
    await token.press('Enter');
    // Back where the visitor was going.
    await expect(page).toHaveURL(/\/console\/apps\/somewhere\/events$/);
    await expect(page.getByRole('heading', { name: 'Live events' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/console\/login/);
    const status = await page.evaluate(async () => (await fetch('/api/apps')).status);
    expect(status).toBe(401);
  });
});

test.describe('a new app', () => {
  test('added from the Apps page (a bad key refused), its Install page gives the snippet to copy and sees its first event arrive', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-install');
    await logIn(context, serverUrl);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${serverUrl}/console/`);
    const key = page.getByLabel('Add an app: its key (the apiKey its pages send with)');
    await expect(key).toHaveValue(/^app-[a-z0-9]+$/);
    await key.fill('my shop!');
    await page.getByRole('button', { name: 'Install it' }).click();
    await expect(page.getByRole('alert')).toHaveText("An app key is 1 to 64 letters, digits, '.', '-' or '_', starting with a letter or a digit");
    await expect(key).toHaveAccessibleDescription(/^An app key is/);
    await key.fill(apiKey);
    await page.getByRole('button', { name: 'Install it' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/install$`));
    // Made on the server (issue #31: what a WAYMARK_APPS=known collector accepts), listed before its first event.
    const apps = (await (await adminFetch(`${serverUrl}/api/apps`)).json()) as Array<{ apiKey: string; events: number }>;
    expect(apps.find((a) => a.apiKey === apiKey)).toMatchObject({ events: 0 });
    const snippet = page.getByLabel('Install snippet');
    await expect(snippet).toContainText(`'${serverUrl}/waymark.js'`);
    await expect(snippet).toContainText(`waymark.initialize({ apiKey: '${apiKey}' });`);
    const check = page.getByRole('status').filter({ hasText: /first event|Installed/ });
    await expect(check).toContainText(`Waiting for the first event from ${apiKey}`);
    await page.getByRole('button', { name: 'Copy' }).first().click();
    await expect(page.getByText('Copied.')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());

    // A page of the app with the copied snippet, as its developer pastes it.
    const host = await context.newPage();
    await host.route(`${serverUrl}/e2e/installed`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head>${copied}</head><body><h1>Shop</h1></body></html>` }));
    await host.goto(`${serverUrl}/e2e/installed`);
    await agentReady(host);
    await host.evaluate(() => (window as any).waymark.flushNow());
    await expect(check).toContainText(`Installed: ${apiKey} sent a load event`, { timeout: 15_000 });
    await expect(check).toContainText(`from ${serverUrl}/e2e/installed`);
    await page.screenshot({ path: 'test-results/screens/console-install.png', fullPage: true });
  });
});

test.describe('issue #14 live events', () => {
  test('a click on a host page appears in the live view within 5 s of being stored, without reload, and opens as JSON', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-live');
    const visitor = uniqueId('live');
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/events`);
    await expect(page.getByRole('heading', { name: 'Waiting for events…' })).toBeVisible();
    const host = await openHost(context, serverUrl, '/e2e/console-live', apiKey, visitor, '<button id="buy-now">Buy now</button>');
    await host.locator('#buy-now').click();
    await host.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (events) => events.some((e) => e.type === 'click'));
    const row = page.locator('tbody tr', { has: page.locator('.type', { hasText: /^click$/ }), hasText: 'button#buy-now' });
    await expect(row).toBeVisible({ timeout: 5000 });
    await expect(row).toContainText('click');
    await expect(row).toContainText(visitor);
    await expect(row).toContainText('/e2e/console-live');
    await row.locator('td').first().click();
    const drawer = page.getByRole('complementary', { name: 'Event' });
    await expect(drawer.getByLabel('Event JSON')).toContainText('"buy-now"');
    // The list as filtered, downloaded as a CSV file.
    await drawer.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Filter by type').fill('click');
    await page.getByLabel('Filter by type').press('Enter');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${apiKey}-events.csv`);
    const csv = readFileSync((await file.path())!, 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('id,received_at,time,kind,type,visitor_id,account_id,url,element_tag,element_id,element_text,name');
    expect(csv.slice(1).every((line) => line.includes(',analytics,click,'))).toBe(true);
    // The element's text is not captured unless the host asks (captureText): the cell is empty.
    expect(csv.some((line) => line.includes(`,${visitor},`) && line.endsWith(',BUTTON,buy-now,,'))).toBe(true);
    // The visitor filter keeps only that visitor's events.
    await page.getByLabel('Filter by visitor').fill('someone-else');
    await page.getByLabel('Filter by visitor').press('Enter');
    await expect(page.getByRole('heading', { name: 'Waiting for events…' })).toBeVisible();
  });
});

test.describe('issue #14 guide management', () => {
  test('a guide created and published in the console shows on a host page, and its funnel counts the dismissal', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-guide');
    const visitor = uniqueId('guided');
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides`);
    await page.getByRole('link', { name: 'New guide' }).click();
    await page.getByLabel('Id', { exact: true }).fill('hello-guide');
    await page.getByLabel('Name', { exact: true }).fill('Hello from the console');
    await page.getByLabel('Title', { exact: true }).fill('Hello from the console');
    await page.getByLabel('Text', { exact: true }).fill('Written and published without a file.');
    const json = page.getByLabel('Guide JSON');
    await expect(json).toHaveValue(/"content": "Hello from the console"/);
    // The agent's own check, as you type: a step without an id is refused with its message, and Save waits.
    const good = await json.inputValue();
    await json.fill(good.replace('"id": "hello-guide-1",', ''));
    await expect(page.getByRole('alert')).toContainText('a step of guide hello-guide has no string id');
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await json.fill(good);
    await expect(page.getByText('The agent accepts this guide.')).toBeVisible();
    // A page rule that does not compile and a target that is not a selector are named at their fields as typed.
    // Each field's name is its label; its hint, or its error, is its description.
    const pageRule = page.getByLabel('Page rule (regexUrlRule)', { exact: true });
    await expect(pageRule).toHaveAccessibleDescription('A regular expression of the page URL; empty for every page');
    await pageRule.click(); // leaving the JSON puts it back into the form first
    await pageRule.fill('([');
    await expect(page.getByText(/^step hello-guide-1: regexUrlRule '\(\[' is not a regular expression \(.+\)$/).first()).toBeVisible();
    await expect(pageRule).toHaveAccessibleDescription(/^step hello-guide-1: regexUrlRule '\(\[' is not a regular expression/);
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await pageRule.fill('');
    const target = page.getByLabel('Target element (elementPathRule)', { exact: true });
    await target.fill('main >>> div[[[');
    await expect(page.getByText('step hello-guide-1: elementPathRule "main >>> div[[[" is not a CSS selector').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await target.fill('');
    await expect(page.getByText('The agent accepts this guide.')).toBeVisible();
    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/apps/${apiKey}/guides/hello-guide`));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await put).headers()['x-waymark-console']).toBe('1');
    await expect(page.getByRole('heading', { name: /Hello from the console/ })).toContainText('Draft');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('heading', { name: /Hello from the console/ })).toContainText('Public');
    // issue #17 guides §3 publishedAt: set by the server when the guide went public.
    await expect(page.getByTestId('guide-published')).toContainText('published');

    const host = await openHost(context, serverUrl, '/e2e/console-guide', apiKey, visitor);
    const box = host.locator(lightbox);
    await expect(box).toContainText('Written and published without a file.');
    await box.getByRole('button', { name: 'Got it' }).click();
    await expect(box).toHaveCount(0);
    await host.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (events) => events.some((e) => e.type === 'guideDismissed'));

    await page.reload();
    const funnel = page.getByRole('list', { name: 'Funnel' });
    await expect(funnel.locator('li', { hasText: 'seen' })).toContainText('1');
    await expect(funnel.locator('li', { hasText: 'completed' })).toContainText('1');
    // What "completed" counts (guides §4 Guide completion): a dismissal of the last step completes the guide too.
    await expect(page.getByText('Completed: visitors who advanced or dismissed the last step.')).toBeVisible();
    await expect(page.getByTestId('dismissed')).toHaveText('1');
    // The visitor's page says where they stand with it (a one-step guide dismissed is complete, guides §4).
    await page.goto(`${serverUrl}/console/apps/${apiKey}/visitors/${visitor}`);
    const theirs = page.getByRole('list', { name: 'Guides of this visitor' });
    await expect(theirs.getByRole('listitem')).toHaveCount(1);
    await expect(theirs.getByRole('listitem')).toContainText('Hello from the console completed');
    // The overview lists it among the guides seen in its range.
    await page.goto(`${serverUrl}/console/apps/${apiKey}`);
    const seenHere = page.getByRole('table', { name: 'Guides seen in this range' });
    await expect(seenHere.getByRole('row', { name: /Hello from the console/ })).toHaveText(/Hello from the console\s*1\s*1\s*1/);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/hello-guide`);

    // Disabled: the next page load of the visitor gets no guide.
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByRole('heading', { name: /Hello from the console/ })).toContainText('Disabled');
    const served = await (await fetch(`${serverUrl}/data/guide.json/${apiKey}?jzb=${jzbOf({ visitorId: visitor, url: `${serverUrl}/` })}`)).json();
    expect(served.guides).toEqual([]);
  });

  test('a guide scheduled in the editor (show from, until) shows to visitors only inside its schedule; its page says where it is; an end before the start is refused at the field', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-schedule');
    const headers = { 'content-type': 'application/json' };
    const guide = { id: 'timed', name: 'Timed', launchMethod: 'auto', state: 'public', steps: [{ id: 'timed-1', type: 'lightbox', domJson: { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Only this week' }] } }] };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/timed`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
    await logIn(context, serverUrl);
    const local = (ms: number) => page.evaluate((t) => { const d = new Date(t); const p = (n: number) => String(n).padStart(2, '0'); return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`; }, ms);
    const day = 86_400_000;
    const served = async () => (await (await fetch(`${serverUrl}/data/guide.json/${apiKey}?jzb=${jzbOf({ visitorId: uniqueId('v'), url: `${serverUrl}/` })}`)).json()).guides as Array<{ id: string }>;

    // Ended yesterday: its page says so, and a visitor's page load gets nothing to show.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/timed/edit`);
    await page.getByLabel('Until', { exact: true }).fill(await local(Date.now() - day));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('guide-schedule')).toContainText('(ended: visitors no longer see it)');
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides`);
    await expect(page.getByTestId('guide-row-schedule')).toHaveText('schedule ended');
    const host = await openHost(context, serverUrl, '/e2e/console-schedule', apiKey, uniqueId('visitor'));
    await host.waitForTimeout(1500);
    await expect(host.locator(lightbox)).toHaveCount(0);

    // An end before the start: named at the field as it is typed, and Save waits.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/timed/edit`);
    await page.getByLabel('Show from', { exact: true }).fill(await local(Date.now() + day));
    await expect(page.getByText('expiresAfter is before showsAfter: the guide would never show').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

    // From yesterday until next week: showing now, and the visitor sees it.
    await page.getByLabel('Show from', { exact: true }).fill(await local(Date.now() - day));
    await page.getByLabel('Until', { exact: true }).fill(await local(Date.now() + 7 * day));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('guide-schedule')).toContainText('(showing now)');
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/timed`)).json();
    expect(stored.guide.expiresAfter - stored.guide.showsAfter).toBeGreaterThan(7 * day);
    expect((await served()).map((g) => g.id)).toEqual(['timed']);
    await host.reload();
    await expect(host.locator(lightbox)).toContainText('Only this week');
  });

  test('an account\'s page lists the guides its visitors saw, completed and dismissed', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-account');
    const headers = { 'content-type': 'application/json' };
    const guide = { id: 'hello', name: 'Hello, team', launchMethod: 'auto', state: 'public', steps: [{ id: 'hello-1', type: 'lightbox', domJson: { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Hello, team' }] } }] };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/hello`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
    const host = await context.newPage();
    const visitor = uniqueId('member');
    await host.route(`${serverUrl}/e2e/console-account`, (route) =>
      route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, account: { id: 'acme-corp' } });` }) }),
    );
    await host.goto(`${serverUrl}/e2e/console-account`);
    await agentReady(host);
    await host.locator(lightbox).getByRole('button', { name: 'close' }).click();
    await host.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (events) => events.some((e) => e.type === 'guideDismissed'));
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/accounts/acme-corp`);
    const figures = page.getByRole('table', { name: "Guides of this account's visitors" });
    await expect(figures.getByRole('row', { name: /Hello, team/ })).toHaveText(/Hello, team\s*1\s*1\s*1/);
  });

  test('an NPS answered on a host page shows in the guide\'s poll results with its score', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-nps');
    const visitor = uniqueId('promoter');
    const guide = JSON.parse(readFileSync('test/e2e/guides/e2e-nps.json', 'utf8'));
    const saved = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/e2e-nps`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...guide, state: 'public' }),
    });
    expect(saved.status).toBe(201);
    const host = await openHost(context, serverUrl, '/e2e/nps', apiKey, visitor);
    const box = host.locator(lightbox);
    await box.getByRole('radio', { name: '9' }).check();
    await box.getByPlaceholder('Tell us more').fill('Fast and friendly');
    await box.getByRole('button', { name: 'Submit' }).click();
    await host.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (events) => events.filter((e) => e.type === 'pollResponse').length === 2);

    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/e2e-nps`);
    const nps = page.getByRole('region', { name: 'Poll nps-1' });
    await expect(nps.getByTestId('nps-score')).toHaveText('100');
    await expect(nps).toContainText('Promoters 1');
    await expect(nps.getByRole('list', { name: 'Score distribution' }).locator('li').nth(9)).toContainText('1');
    await expect(page.getByRole('region', { name: 'Poll why-1' })).toContainText('Fast and friendly');
  });

  test('the guide list is searched by name or id and filtered by state, kept in the address; a guide duplicated opens as a new draft in the editor', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-list');
    const headers = { 'content-type': 'application/json' };
    const body = (id: string, name: string) => ({ id, name, launchMethod: 'api', steps: [{ id: `${id}-1`, type: 'lightbox', domJson: { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: name }] } }] });
    for (const [id, name, state] of [['welcome', 'Welcome tour', 'public'], ['exports', 'Exporting reports', 'draft'], ['billing', 'Billing changes', 'public']] as const) {
      expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${id}`, { method: 'PUT', body: JSON.stringify({ ...body(id, name), state }), headers })).status).toBe(201);
    }
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides`);
    const names = page.locator('table tbody tr td:first-child a');
    await expect(names).toHaveText(['Billing changes', 'Exporting reports', 'Welcome tour'].sort());
    await expect(page.getByRole('status')).toHaveText('3 guides');
    await page.getByLabel('Search guides').fill('REPORT');
    await expect(names).toHaveText(['Exporting reports']);
    await expect(page.getByRole('status')).toHaveText('1 of 3 guides');
    await page.getByLabel('Search guides').fill('');
    await page.getByLabel('State').selectOption('public');
    await expect(names).toHaveCount(2);
    await expect(page).toHaveURL(/\?state=public$/);
    await page.getByLabel('Search guides').fill('welc');
    await expect(names).toHaveText(['Welcome tour']);
    // Reloaded (or shared), the address keeps the search.
    await page.reload();
    await expect(page.getByLabel('Search guides')).toHaveValue('welc');
    await expect(names).toHaveText(['Welcome tour']);
    await page.getByLabel('State').selectOption('disabled');
    await expect(page.getByRole('heading', { name: 'No guide matches' })).toBeVisible();

    // Duplicate: a new draft, opened in the editor; the original is left as it was.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/welcome`);
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page).toHaveURL(/\/guides\/welcome-copy\/edit$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Copy of Welcome tour');
    const copy = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/welcome-copy`)).json();
    expect([copy.state, copy.guide.steps[0].guideId]).toEqual(['draft', 'welcome-copy']);
    expect((await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/welcome`)).json()).state).toBe('public');
  });

  test('settings saved in the console are stored, and a bad value is refused naming the field', async ({ page, context, serverUrl, allowAgentErrors }) => {
    allowAgentErrors.push(/status of 400 \(Bad Request\)/);
    const apiKey = uniqueId('e2e-console-settings');
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/settings`);
    await page.getByLabel('Record sessions').check();
    await page.getByLabel('Sample rate (0 to 1 of sessions)').fill('0.25');
    await page.getByLabel('Launcher JSON').fill('{ "enabled": true, "data": { "position": "middle" } }');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('alert')).toContainText('launcher.data.position must be one of');
    await page.getByLabel('Launcher JSON').fill('');
    // issue #31: the collector's quotas for the app (whole numbers from 0: the inputs refuse others before a save).
    await expect(page.getByLabel('Events a minute')).toHaveValue('60000');
    await page.getByLabel('Events a minute').fill('500');
    await page.getByLabel(/^Recording bytes a day/).fill('1000000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`)).json();
    expect(stored.recording).toEqual({ enabled: true, sampleRate: 0.25, viewersSeeRecordings: false });
    expect(stored.quotas).toEqual({ eventsPerMinute: 500, recordingBytesPerDay: 1_000_000 });
    // issue #33: viewers may watch recordings only when an admin says so; a later save of another field keeps it.
    await page.getByLabel('Viewers may watch recordings').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await page.reload();
    await expect(page.getByLabel('Viewers may watch recordings')).toBeChecked();
    await page.getByLabel('Events a minute').fill('600');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const kept = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`)).json();
    expect([kept.recording, kept.quotas.eventsPerMinute]).toEqual([{ enabled: true, sampleRate: 0.25, viewersSeeRecordings: true }, 600]);
  });

  test('unsaved edits are never dropped: a click elsewhere asks first (the editor, the settings, a translation), a save after the session ended keeps them', async ({ page, context, serverUrl, allowAgentErrors }) => {
    allowAgentErrors.push(/status of 401 \(Unauthorized\)/); // the save after the session ended
    const apiKey = uniqueId('e2e-console-unsaved');
    const headers = { 'content-type': 'application/json' };
    const content = (text: string) => ({ type: 'div', props: {}, children: [{ type: 'p', props: {}, content: text }] });
    const guide = {
      id: 'kept',
      name: 'Kept edits',
      launchMethod: 'auto',
      authoredLanguage: 'en',
      translations: { de: { steps: { 'kept-1': { domJson: content('Hallo') } } }, fr: { steps: { 'kept-1': { domJson: content('Bonjour') } } } },
      steps: [{ id: 'kept-1', type: 'lightbox', domJson: content('Hello') }],
    };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/kept`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
    await logIn(context, serverUrl);
    const leaving = page.getByRole('alertdialog', { name: 'Leave without saving?' });

    // The guide editor: a sidebar click asks; staying keeps the edit, and Save leaves without asking.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/kept/edit`);
    await page.getByLabel('Name', { exact: true }).fill('Renamed, unsaved');
    await page.getByRole('link', { name: 'Guides', exact: true }).first().click();
    await expect(leaving).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/console-unsaved.png' });
    await leaving.getByRole('button', { name: 'Stay and keep editing' }).click();
    await expect(leaving).toHaveCount(0);
    await expect(page).toHaveURL(/\/guides\/kept\/edit$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Renamed, unsaved');
    // Reloading or closing the tab gets the browser's own question.
    const unload = page.waitForEvent('dialog');
    void page.evaluate('location.reload()').catch(() => {});
    const question = await unload;
    expect(question.type()).toBe('beforeunload');
    await question.dismiss();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Renamed, unsaved');
    // The session ends before Save: the save is refused with what to do, and the edits stay on the page.
    await context.clearCookies();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').first()).toContainText('your session has ended: log in again in another tab (/console/login), then save again; your changes are kept here');
    await expect(page).toHaveURL(/\/guides\/kept\/edit$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Renamed, unsaved');
    await logIn(context, serverUrl);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/guides\/kept$/);
    await expect(leaving).toHaveCount(0);
    // Edited again and left on purpose: the stored guide keeps the saved name.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Dropped');
    await page.getByRole('link', { name: 'Overview' }).click();
    await leaving.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page).toHaveURL(new RegExp(`/apps/${apiKey}$`));
    expect((await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/kept`)).json()).guide.name).toBe('Renamed, unsaved');

    // The settings.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/settings`);
    await page.getByLabel('Record sessions').check();
    await page.getByRole('link', { name: 'Live events' }).click();
    await expect(leaving).toBeVisible();
    await leaving.getByRole('button', { name: 'Stay and keep editing' }).click();
    await expect(page.getByLabel('Record sessions')).toBeChecked();

    // A translation: another language's tab asks before the typed texts go.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/kept/translations`);
    await page.getByLabel('Step 1 text 1 in de').fill('Guten Tag');
    await page.getByRole('tab', { name: 'fr' }).click();
    await expect(leaving).toBeVisible();
    await leaving.getByRole('button', { name: 'Stay and keep editing' }).click();
    await expect(page.getByRole('tab', { name: 'de' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Step 1 text 1 in de')).toHaveValue('Guten Tag');
    await page.getByRole('tab', { name: 'fr' }).click();
    await leaving.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page.getByRole('tab', { name: 'fr' })).toHaveAttribute('aria-selected', 'true');
  });
});

/** jzb of a payload (base64url of zlib), as the agent sends guide.json's. */
function jzbOf(payload: unknown): string {
  return deflateSync(Buffer.from(JSON.stringify(payload))).toString('base64url');
}
