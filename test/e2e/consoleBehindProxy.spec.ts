/**
 * Issue #31 "Behind a proxy", as a product team sees it: the console opened in Chromium through a real
 * TLS-terminating nginx (test/server/startTlsProxy.ts, a throwaway self-signed certificate) in front of the
 * reference server, which trusts its first hop (WAYMARK_TRUST_PROXY=1, test/e2e/globalSetup.ts). The login sets a
 * Secure cookie, and the console saves and publishes a guide from its https origin (before issue #31 its own-origin
 * check built http:// and refused every save). The same run over several collectors on PostgreSQL is
 * test/server/postgres/behindProxy.test.ts.
 */
import { startTlsProxy, type TlsProxy } from '../server/startTlsProxy';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, expect, test, uniqueId } from './fixtures';

let proxy: TlsProxy;
test.beforeAll(async ({ serverUrl }) => {
  proxy = await startTlsProxy([new URL(serverUrl).host]);
});
test.afterAll(async () => {
  await proxy?.stop();
});
// The console asks /api/session before the login, which Chromium logs as a failed load.
test.use({ ignoreHTTPSErrors: true, allowAgentErrors: [/status of 401 \(Unauthorized\)/] });

test('issue #31 the console behind an https proxy: a Secure login, a guide saved and published from the https origin', async ({ page, context, serverUrl }) => {
  const apiKey = uniqueId('e2e-behind-proxy');
  await page.goto(`${proxy.origin}/console/apps/${apiKey}/guides`);
  await expect(page).toHaveURL(/\/console\/login\?next=/);
  const token = page.getByLabel('Admin token');
  await token.fill(E2E_ADMIN_TOKEN);
  await token.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/guides$`));
  const [cookie] = (await context.cookies(proxy.origin)).filter((c) => c.name === 'waymark_session');
  expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });

  await page.getByRole('link', { name: 'New guide' }).click();
  await page.getByLabel('Id', { exact: true }).fill('through-proxy');
  await page.getByLabel('Name', { exact: true }).fill('Saved through the proxy');
  await page.getByLabel('Title', { exact: true }).fill('Saved through the proxy');
  await page.getByLabel('Text', { exact: true }).fill('Written over https.');
  await expect(page.getByText('The agent accepts this guide.')).toBeVisible();
  const put = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/apps/${apiKey}/guides/through-proxy`));
  await page.getByRole('button', { name: 'Save' }).click();
  const saved = await put;
  expect(saved.status()).toBe(201);
  expect((await saved.request().allHeaders())['origin']).toBe(proxy.origin);
  await expect(page.getByRole('heading', { name: /Saved through the proxy/ })).toContainText('Draft');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('heading', { name: /Saved through the proxy/ })).toContainText('Public');
  await page.screenshot({ path: 'test-results/screens/console-behind-proxy.png' });

  // Read back from the server itself, past the proxy.
  const [stored] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
  expect(stored).toMatchObject({ id: 'through-proxy', state: 'public' });
});
