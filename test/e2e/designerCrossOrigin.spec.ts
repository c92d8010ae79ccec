/**
 * Issue #15, the designer and the preview on a host page of another origin than the console (a customer's app on
 * app.example.com, the console elsewhere): no cookie reaches the console from there, so the designer works with a
 * designer session of the app (server/auth/registerLoginRoutes), got by signing in with the admin token or
 * handed over by the console's "Open in designer" / "Preview" through the opener's set-token message.
 */
import { untrustedConsoleMessage } from '../../shared/authoring/consoleOrigin';
import { encodeDesignerToken } from '../../shared/authoring/designerLaunch';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId } from './fixtures';
import { startHostServer } from './hostServer';

const html = 'text/html; charset=utf-8';
const bar = 'iframe[data-waymark-preview-bar]';
const body = '<main style="padding:40px"><h1>Orders</h1></main>';
const hosts: Array<{ close(): Promise<void> }> = [];
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A host app on its own origin (another loopback port) running the agent of the reference server. */
async function foreignApp(serverUrl: string, apiKey: string): Promise<string> {
  const host = await startHostServer({ '/app': { type: html, body: hostPage({ scriptUrl: `${serverUrl}/waymark.js`, init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }) } });
  hosts.push(host);
  return host.origin;
}

/** What the page's storage holds, every value, to show the admin token is in none of it. */
const allStorage = () => JSON.stringify({ ...sessionStorage, ...localStorage });

test.describe('issue #15 a designer on another origin than the console', () => {
  // The wrong admin token on purpose: Chromium logs its 401 as a failed load.
  test.use({ allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

  test('signs in with the admin token once, keeps only a session of the app, publishes a guide', async ({ page, serverUrl }) => {
    const apiKey = uniqueId('e2e-cross-designer');
    const origin = await foreignApp(serverUrl, apiKey);
    expect(origin).not.toBe(serverUrl);
    await page.goto(`${origin}/app?waymark-designer=e30`);
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await expect(designer.getByText('The console is on another origin')).toBeVisible();
    await designer.getByRole('button', { name: 'Use the admin token instead' }).click();
    await designer.getByLabel('Admin token').fill('not-the-token');
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await expect(designer.getByRole('alert')).toHaveText('the admin token is not valid');
    await designer.getByLabel('Admin token').fill(E2E_ADMIN_TOKEN);
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByRole('combobox', { name: /^Type/ }).selectOption('lightbox');
    await designer.getByLabel('Title', { exact: true }).fill('Saved from another origin');
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
    const [saved] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    expect(saved).toMatchObject({ name: 'New guide', state: 'public' });

    const stored = await page.evaluate(allStorage);
    expect(stored).toContain('wmd_');
    expect(stored).not.toContain(E2E_ADMIN_TOKEN);
    // The session survives the tab's page loads: the designer comes back signed in.
    await page.reload();
    await agentReady(page);
    await expect(designer.getByRole('button', { name: 'New guide on this page' })).toBeVisible();
  });

  test("the console's Open in designer and Preview hand the page a session: no sign-in, the preview endpoint answers", async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-cross-console');
    const origin = await foreignApp(serverUrl, apiKey);
    const guide = { id: 'cross-1', name: 'Cross-origin guide', launchMethod: 'api', steps: [{ id: 'cross-1-1', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h3', props: {}, content: 'From the console' }] } }] };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/cross-1`, { method: 'PUT', body: JSON.stringify(guide), headers: { 'content-type': 'application/json' } })).status).toBe(201);
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/cross-1`);
    await page.getByLabel('Page').fill(`${origin}/app`);

    const [designerTab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Open in designer' }).click()]);
    await agentReady(designerTab);
    const designer = designerTab.getByTestId('waymark-designer');
    // The guide opens in the editor without the sign-in form.
    await expect(designer.getByRole('heading', { name: 'Cross-origin guide' })).toBeVisible();
    expect(await designerTab.evaluate(allStorage)).not.toContain(E2E_ADMIN_TOKEN);
    // The page's address never carried the session.
    expect(designerTab.url()).not.toContain('wmd_');
    await designerTab.close();

    const [previewTab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Preview' }).click()]);
    await expect(previewTab.locator('[data-waymark-overlay] .wm-lightbox')).toContainText('From the console');
    await expect(previewTab.frameLocator(bar).getByText('Step 1 of 1')).toBeVisible();
    await previewTab.screenshot({ path: 'test-results/screens/preview-cross-origin.png' });
  });
});

test.describe('issue #31 a designer link signs in only at a console the agent server vouches for', () => {
  test('an unlisted console origin is refused with its name before anything is typed; a listed one asks to sign in', async ({ page, serverUrl }) => {
    const apiKey = uniqueId('e2e-console-origin');
    const origin = await foreignApp(serverUrl, apiKey);
    const port = new URL(serverUrl).port;
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));

    const evil = `http://127.0.0.2:${port}`;
    await page.goto(`${origin}/app?waymark-designer=${encodeDesignerToken({ baseUrl: evil })}`);
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await expect(designer.getByRole('alert')).toHaveText(untrustedConsoleMessage(evil, serverUrl));
    await expect(designer.getByLabel('Email')).toHaveCount(0);
    await expect(designer.getByLabel('Admin token')).toHaveCount(0);
    // Nothing was sent to the unlisted console.
    expect(requests.filter((u) => u.startsWith(evil))).toEqual([]);
    await page.screenshot({ path: 'test-results/screens/designer-untrusted-console.png' });

    // The same server under another host name, listed in WAYMARK_CONSOLE_ORIGINS (test/e2e/globalSetup.ts).
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${origin}/app?waymark-designer=${encodeDesignerToken({ baseUrl: `http://localhost:${port}` })}`);
    await agentReady(page);
    await expect(designer.getByLabel('Email')).toBeVisible();
    await expect(designer.getByText(`Sign in to the console at http://localhost:${port}`)).toBeVisible();
  });
});
