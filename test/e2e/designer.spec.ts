/**
 * Issue #15, the designer in Chromium against the real reference server: an author signs in from the page,
 * picks two elements, writes two tooltip steps (seen live on the page), saves, previews, publishes; a visitor then
 * sees the guide. The server's stored guide is read back.
 */
import { DESIGNER_CONTAINER } from '../../shared/constants';
import { encodeDesignerToken } from '../../shared/authoring/designerLaunch';
import { MESSAGES } from '../../shared/messages';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const tooltip = '[data-waymark-overlay] .wm-tooltip';
const body = '<main style="padding:200px 0 0 480px"><button id="one">Export</button> <button id="two" data-testid="share">Share</button></main>';

test.describe('issue #15 the designer', () => {
  // The designer asks the console whether this browser is signed in: Chromium logs the 401 as a failed load.
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test('an author builds a two-step tooltip guide by picking elements, sees it live, saves, previews and publishes; a visitor sees it', async ({ page, browser, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer');
    const init = `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'author' } });`;
    await openHostPage('/e2e/designer?waymark-designer=e30', hostPage({ init, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await expect(designer).toBeVisible();
    // It slides in: measured once it is in place.
    await expect.poll(async () => Math.round((await designer.boundingBox())?.x ?? -1)).toBe(0);
    expect(Math.round((await designer.boundingBox())!.width)).toBe(DESIGNER_CONTAINER.width);
    expect(await designer.evaluate((el) => getComputedStyle(el).zIndex)).toBe(String(DESIGNER_CONTAINER.zIndex));

    // Not signed in to the console yet: the designer asks for an email and password, or the owner's admin token.
    await designer.getByRole('button', { name: 'Use the admin token instead' }).click();
    await designer.getByLabel('Admin token', { exact: true }).fill('not-the-token');
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await expect(designer.getByRole('alert')).toHaveText('wrong token');
    await designer.getByLabel('Admin token', { exact: true }).fill(E2E_ADMIN_TOKEN);
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await expect(designer.getByTestId('designer-author')).toHaveText('Signed in as the admin token · admin');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();

    await designer.getByLabel('Name', { exact: true }).fill('Export and share');
    // Step 1: picked on the page.
    await designer.getByRole('button', { name: 'Pick element' }).click();
    await expect(designer).toBeHidden();
    await page.locator('#one').click();
    await expect(designer).toBeVisible();
    await expect(designer.getByLabel('Element', { exact: true })).toHaveValue('#one');
    await expect(designer.getByTestId('rule-check')).toHaveText('Matches 1 element on this page');
    await designer.getByLabel('Title', { exact: true }).fill('Export your report');
    await designer.getByLabel('Text', { exact: true }).fill('Download it as CSV.');
    await expect(page.locator(tooltip)).toContainText('Export your report');
    await expect(page.locator(tooltip)).toContainText('Download it as CSV.');
    await page.screenshot({ path: 'test-results/screens/designer-live-step.png' });

    // Step 2, on the second button; an ambiguous rule typed by hand is warned about first.
    await designer.getByRole('button', { name: 'Add a step' }).click();
    await designer.getByLabel('Element', { exact: true }).fill('button');
    await expect(designer.getByTestId('rule-check')).toContainText('Ambiguous: matches 2 elements on this page');
    await designer.getByRole('button', { name: 'Pick element' }).click();
    await page.locator('#two').click();
    await expect(designer.getByLabel('Element', { exact: true })).toHaveValue('#two');
    await designer.getByLabel('Title', { exact: true }).fill('Share it');
    await designer.getByLabel('Label', { exact: true }).fill('Done');
    await expect(page.locator(tooltip)).toContainText('Share it');

    await designer.getByRole('button', { name: 'Save' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    const listed = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    expect(listed).toHaveLength(1);
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${listed[0].id}`)).json();
    expect(stored.state).toBe('draft');
    expect(stored.guide.name).toBe('Export and share');
    expect(stored.guide.steps.map((s: { elementPathRule: string }) => s.elementPathRule)).toEqual(['#one', '#two']);

    // Preview in the same tab: the bar, step 1 of 2, then back to the designer.
    await designer.getByRole('button', { name: 'Preview' }).click();
    const bar = page.frameLocator('iframe[data-waymark-preview-bar]');
    await expect(bar.getByText('Step 1 of 2')).toBeVisible();
    await expect(page.locator(tooltip)).toContainText('Export your report');
    await page.locator(tooltip).getByRole('button', { name: 'Next' }).click();
    await expect(bar.getByText('Step 2 of 2')).toBeVisible();
    await bar.getByRole('button', { name: 'Back to designer' }).click();
    await expect(page.getByTestId('waymark-designer')).toBeVisible();

    await page.getByTestId('waymark-designer').getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByTestId('waymark-designer').getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
    expect((await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${listed[0].id}`)).json()).state).toBe('public');

    // A visitor, in a browser of their own, gets the guide by itself.
    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    try {
      await visit.route(`${serverUrl}/e2e/designer`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'visitor-1' } });`, body }) }));
      await visit.goto(`${serverUrl}/e2e/designer`);
      await agentReady(visit);
      await expect(visit.locator(tooltip)).toContainText('Export your report');
      await visit.locator(tooltip).getByRole('button', { name: 'Next' }).click();
      await expect(visit.locator(tooltip)).toContainText('Share it');
      await visit.screenshot({ path: 'test-results/screens/designer-visitor.png' });
    } finally {
      await visitor.close();
    }
  });
});

test.describe('issue #15 the designer picks inside shadow roots and frames', () => {
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test("an element in an open shadow root gets the agent's host >>> inner rule; one in a same-origin iframe its frame's rule", async ({ page, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-deep');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    await page.route(`${serverUrl}/e2e/designer-frame`, (route) => route.fulfill({ contentType: 'text/html', body: '<button id="in-frame">In a frame</button>' }));
    const shadowHost = `<x-card id="card"></x-card><script>
      customElements.define('x-card', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button data-testid="inner-action">Inner</button>'; } });
    </script><iframe src="/e2e/designer-frame" style="width:300px;height:80px"></iframe>`;
    await openHostPage('/e2e/designer-deep?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body: `<main style="padding:200px 0 0 40px">${shadowHost}</main>` }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();

    await designer.getByRole('button', { name: 'Pick element' }).click();
    await page.locator('x-card').getByRole('button', { name: 'Inner' }).click();
    await expect(designer.getByLabel('Element', { exact: true })).toHaveValue('#card >>> [data-testid="inner-action"]');
    await expect(designer.getByTestId('rule-check')).toHaveText('Matches 1 element on this page');
    await expect(page.locator('[data-waymark-overlay] .wm-tooltip')).toBeVisible();

    await designer.getByRole('button', { name: 'Pick element' }).click();
    await page.frameLocator('iframe').getByRole('button', { name: 'In a frame' }).click();
    await expect(designer.getByLabel('Element', { exact: true })).toHaveValue('#in-frame');
    await expect(designer.getByTestId('rule-check')).toHaveText('Matches 1 element in a frame of this page: the agent in that frame shows the step');
  });
});

test.describe('issue #15 the designer writes polls', () => {
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test('an NPS lightbox built in the designer is answered by a visitor and counted in the console', async ({ page, browser, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-nps');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    await openHostPage('/e2e/designer-nps?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByRole('combobox', { name: /^Type/ }).selectOption('lightbox');
    await designer.getByLabel('Title', { exact: true }).fill('How likely are you to recommend us?');
    await designer.getByLabel('Text', { exact: true }).fill('');
    await designer.getByRole('button', { name: 'Remove button 1' }).click();
    await designer.getByRole('combobox', { name: /^Asks/ }).selectOption('nps');
    const live = page.locator('[data-waymark-overlay] .wm-lightbox');
    await expect(live.getByRole('radio')).toHaveCount(11);
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
    const [{ id: guideId }] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();

    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    try {
      await visit.route(`${serverUrl}/e2e/designer-nps`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'nps-visitor' } });`, body }) }));
      await visit.goto(`${serverUrl}/e2e/designer-nps`);
      await agentReady(visit);
      const box = visit.locator('[data-waymark-overlay] .wm-lightbox');
      await box.getByRole('radio', { name: '9' }).check();
      await box.getByPlaceholder('Optional').fill('Quick to set up');
      await box.getByRole('button', { name: 'Send' }).click();
      await visit.evaluate(() => (window as any).waymark.flushNow());
      await waitForEvents(serverUrl, { apiKey, visitorId: 'nps-visitor' }, (events) => events.filter((e) => e.type === 'pollResponse').length === 2);
    } finally {
      await visitor.close();
    }
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/${guideId}`);
    await expect(page.getByTestId('nps-score')).toHaveText('100');
  });
});

test.describe('issue #15 the designer writes other questions', () => {
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test("a multiple-choice lightbox built in the designer is answered by a visitor; the answer is in the guide's poll results", async ({ page, browser, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-choice');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    await openHostPage('/e2e/designer-choice?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByRole('combobox', { name: /^Type/ }).selectOption('lightbox');
    await designer.getByLabel('Title', { exact: true }).fill('A quick question');
    await designer.getByLabel('Text', { exact: true }).fill('');
    await designer.getByRole('button', { name: 'Remove button 1' }).click();
    await designer.getByRole('combobox', { name: /^Asks/ }).selectOption('choice');
    await designer.getByLabel('Question text', { exact: true }).fill('What do you use most?');
    await designer.getByLabel('Option 3', { exact: true }).fill('Dashboards');
    await designer.getByRole('button', { name: 'Add an option' }).click();
    await designer.getByLabel('Option 4', { exact: true }).fill('Alerts');
    const live = page.locator('[data-waymark-overlay] .wm-lightbox');
    await expect(live.getByRole('radio')).toHaveCount(4);
    await expect(live.getByRole('radiogroup', { name: 'What do you use most?' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/designer-choice-live.png' });
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
    const [{ id: guideId }] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    const stored = (await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guideId}`)).json()).guide;
    const pollId = `${stored.steps[0].id}-choice`;
    expect(stored.polls).toEqual([{ id: pollId, attributes: { type: 'PickList' } }]);

    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    try {
      await visit.route(`${serverUrl}/e2e/designer-choice`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'choice-visitor' } });`, body }) }));
      await visit.goto(`${serverUrl}/e2e/designer-choice`);
      await agentReady(visit);
      const box = visit.locator('[data-waymark-overlay] .wm-lightbox');
      await box.getByRole('radio', { name: 'Dashboards' }).check();
      await box.getByRole('button', { name: 'Send' }).click();
      await visit.evaluate(() => (window as any).waymark.flushNow());
      const events = await waitForEvents(serverUrl, { apiKey, visitorId: 'choice-visitor' }, (list) => list.some((e) => e.type === 'pollResponse'));
      expect(events.find((e) => e.type === 'pollResponse')?.props).toMatchObject({ poll_id: pollId, poll_response: 'Dashboards', poll_type: 'PickList' });
    } finally {
      await visitor.close();
    }
    // The console's poll results: the guide stats API, with the admin token.
    await expect
      .poll(async () => (await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guideId}/stats`)).json()).polls, { timeout: 10_000 })
      .toEqual([{ pollId, type: 'PickList', responses: [{ value: 'Dashboards', count: 1 }] }]);
  });

  test('steps reordered by dragging in the step list are saved in the new order', async ({ page, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-drag');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    await openHostPage('/e2e/designer-drag?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByLabel('Title', { exact: true }).fill('First');
    for (const title of ['Second', 'Third']) {
      await designer.getByRole('button', { name: 'Add a step' }).click();
      await designer.getByLabel('Title', { exact: true }).fill(title);
    }
    const items = designer.getByTestId('step-item');
    await expect(items).toHaveText([/1\. First/, /2\. Second/, /3\. Third/]);
    // Third dropped on First: it goes first, the others move down.
    await designer.getByRole('group', { name: 'Steps' }).scrollIntoViewIfNeeded();
    await items.nth(2).locator('.grip').dragTo(items.nth(0), { steps: 5 });
    await expect(items).toHaveText([/1\. Third/, /2\. First/, /3\. Second/]);
    await designer.getByRole('group', { name: 'Steps' }).screenshot({ path: 'test-results/screens/designer-steps.png' });
    // First dropped on Second: down one.
    await items.nth(1).locator('.grip').dragTo(items.nth(2), { steps: 5 });
    await expect(items).toHaveText([/1\. Third/, /2\. Second/, /3\. First/]);
    await designer.getByRole('button', { name: 'Save' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    const [{ id: guideId }] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    const stored = (await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guideId}`)).json()).guide;
    expect(stored.steps.map((s: { domJson: { children: Array<{ content?: string }> } }) => s.domJson.children[0]!.content)).toEqual(['Third', 'Second', 'First']);
  });

  test("a tooltip with an element contains rule written in the designer shows to a visitor only while the element's text passes; its caret turned off", async ({ page, browser, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-contains');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    const cart = (count: string) => `<main style="padding:200px 0 0 480px"><span id="cart-count">${count}</span></main>`;
    await openHostPage('/e2e/designer-contains?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body: cart('3') }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByLabel('Element', { exact: true }).fill('#cart-count');
    await designer.getByLabel('Title', { exact: true }).fill('A full cart');
    await designer.getByLabel(/^Caret gap/).fill('24');
    // The caret is drawn until the author turns it off.
    await expect(page.locator(`${tooltip} .wm-caret`)).toBeVisible();
    await designer.getByLabel(/^Draw the caret/).uncheck();
    await expect(page.locator(`${tooltip} .wm-caret`)).toBeHidden();
    await expect(page.locator(tooltip)).toBeVisible();
    await designer.getByRole('button', { name: 'Add a text rule' }).click();
    await designer.getByRole('combobox', { name: /^Rule 1/ }).selectOption('greaterThan');
    await designer.getByLabel('Value', { exact: true }).fill('5');
    await designer.getByRole('combobox', { name: /^Compared as/ }).selectOption('number');
    // The agent's own judge, on the element as it is now.
    await expect(designer.getByTestId('contains-check')).toHaveText('Not now: contains rule 1 (number greaterThan \'5\'): 3 is not greater than 5');
    await designer.getByRole('group', { name: "Show only when the element's text" }).screenshot({ path: 'test-results/screens/designer-contains.png' });
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
    const [{ id: guideId }] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    const stored = (await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guideId}`)).json()).guide;
    expect(stored.steps[0].elementContainsRulesList).toEqual([{ matchType: 'greaterThan', matchValue: '5', dataType: 'number' }]);
    expect(stored.steps[0].attributes).toMatchObject({ arrowSize: 24, caret: false });

    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    try {
      await visit.route(`${serverUrl}/e2e/designer-contains`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'contains-visitor' } });`, body: cart('3') }) }));
      await visit.goto(`${serverUrl}/e2e/designer-contains`);
      await agentReady(visit);
      // 3 items: the rule fails, the step waits; 7 items (the page changes): it shows.
      await visit.waitForTimeout(1500);
      await expect(visit.locator(tooltip)).toHaveCount(0);
      await visit.locator('#cart-count').evaluate((el) => (el.textContent = '7'));
      await expect(visit.locator(tooltip)).toContainText('A full cart');
      await expect(visit.locator(`${tooltip} .wm-caret`)).toBeHidden();
    } finally {
      await visitor.close();
    }
  });

  test("a what's-new item written in the designer is in the visitor's launcher feed, with its title, date and text", async ({ page, browser, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-whatsnew');
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    // The app's launcher, with its what's-new feed on (console settings).
    const put = await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ launcher: { enabled: true, data: { whatsnew: true } } }),
    });
    expect(put.status).toBe(200);
    await openHostPage('/e2e/designer-whatsnew?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByLabel('Name', { exact: true }).fill('March release');
    await designer.getByRole('combobox', { name: /^Type/ }).selectOption('whatsnew');
    await expect(designer.getByText("A what's-new item is listed by the launcher")).toBeVisible();
    await designer.getByRole('combobox', { name: /^Shows/ }).selectOption('launcher');
    await expect(designer.getByText("A what's-new item is listed by the launcher")).toHaveCount(0);
    await designer.getByLabel('Title', { exact: true }).fill('Exports are faster');
    await designer.getByLabel(/^Date/).fill('2026-03-01');
    await designer.getByLabel('Text', { exact: true }).fill('Up to ten times on large reports.');
    await designer.getByRole('button', { name: 'Remove button 1' }).click();
    await designer.getByRole('group', { name: 'Step', exact: true }).screenshot({ path: 'test-results/screens/designer-whatsnew.png' });
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();

    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    try {
      await visit.route(`${serverUrl}/e2e/designer-whatsnew`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'news-visitor' } });`, body }) }));
      await visit.goto(`${serverUrl}/e2e/designer-whatsnew`);
      await agentReady(visit);
      await visit.locator('[data-waymark-overlay] .wm-launcher-badge').click();
      const item = visit.locator('[data-waymark-overlay] .wm-launcher .wm-whatsnew-item');
      await expect(item).toHaveAttribute('aria-label', /^March release/);
      await expect(item.getByRole('heading', { name: 'Exports are faster' })).toBeVisible();
      await expect(item).toContainText('2026-03-01');
      await expect(item).toContainText('Up to ten times on large reports.');
    } finally {
      await visitor.close();
    }
  });

});

test.describe('issue #15 designer plugins', () => {
  // The designer logs each refused plugin as an error (one pattern: a fixture's array value of two would read as [value, options]).
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)|Invalid module URL/] });

  test("a plugin of the guide folder adds its step templates; plugins a link names elsewhere are refused with 'Invalid module URL' and never fetched", async ({ page, context, openHostPage, serverUrl, consoleLines }) => {
    const apiKey = uniqueId('e2e-designer-plugins');
    const elsewhere: string[] = [];
    await context.route('https://plugins.example/**', (route) => {
      elsewhere.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: 'export default () => { window.stolen = true; };' });
    });
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    // A link anyone could send an author: the server's own plugin folder is the only place plugins load from.
    const token = encodeDesignerToken({ plugins: ['https://plugins.example/steal.js', '/data/designer-plugins/../guide.json', '/data/designer-plugins/demo-templates.js'] });
    await openHostPage(`/e2e/designer-plugins?waymark-designer=${token}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    const templates = designer.getByLabel('Add a step from a template');
    await expect(templates.locator('option')).toHaveText(['From a template…', 'Release note', 'Feature callout']);
    await templates.selectOption('Release note');
    await expect(designer.getByTestId('step-item')).toHaveText([/1\. Welcome/, /2\. What's new this week/]);
    await expect(designer.getByRole('combobox', { name: /^Type/ })).toHaveValue('lightbox');
    // The template's step is live on the page like any other.
    await expect(page.locator('[data-waymark-overlay] [role="dialog"]')).toContainText('Reports now refresh on their own.');
    await designer.getByRole('group', { name: 'Steps' }).screenshot({ path: 'test-results/screens/designer-step-template.png' });

    const refused = consoleLines.filter((l) => l.includes(MESSAGES.invalidModuleUrl));
    expect(refused).toHaveLength(2);
    expect(refused[0]).toContain('"https://plugins.example/steal.js"');
    expect(refused[1]).toContain('"/data/designer-plugins/../guide.json"');
    expect(elsewhere).toEqual([]);
    expect(await page.evaluate(() => (window as { stolen?: boolean }).stolen)).toBeUndefined();

    await designer.getByRole('button', { name: 'Save' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    const [{ id: guideId }] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    const stored = (await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guideId}`)).json()).guide;
    expect(stored.steps[1].domJson.children[0].content).toBe("What's new this week");
  });
});
