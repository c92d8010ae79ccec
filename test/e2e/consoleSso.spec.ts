/**
 * Issue #33 "Single sign-on", in Chromium: the console's login page offers "Sign in with SSO"; the visitor goes to
 * a real OpenID provider (oidc-provider, started here on 127.0.0.1: test/server/startOidcProvider.ts), types the
 * account in its sign-in form, consents, and lands back in the console where they were going, signed in, their name
 * and role shown. A stranger of an unlisted domain lands on the login page with the refusal in words. This file
 * starts a server of its own (the e2e server of globalSetup has no SSO), with the provider as its issuer.
 */
import type { Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/createServer';
import { SSO_REFUSALS } from '../../shared/auth/ssoRefusals';
import { createOidcProvider, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } from '../server/startOidcProvider';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { shoot } from './docShots';
import { expect, test } from './fixtures';

let provider: Awaited<ReturnType<typeof createOidcProvider>>;
let server: RunningServer;

test.beforeAll(async ({}, testInfo) => {
  // PGlite boots a WebAssembly PostgreSQL: seconds under a loaded parallel run.
  testInfo.setTimeout(120_000);
  provider = await createOidcProvider({
    grace: { email: 'grace@example.com', email_verified: true, name: 'Grace at the provider' },
    linus: { email: 'linus@corp.example', email_verified: true, name: 'Linus Listed' },
    mallory: { email: 'mallory@elsewhere.example', email_verified: true, name: 'Mallory' },
  });
  server = await startServer({
    port: 0,
    dataDir: 'memory://',
    adminToken: E2E_ADMIN_TOKEN,
    sso: { issuer: provider.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, domains: ['corp.example'] },
  });
  provider.register(`${server.url}/api/sso/callback`);
  await provider.listen();
  // Grace is invited as an editor (no password: she will only ever sign in by SSO).
  const invited = await fetch(`${server.url}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'grace@example.com', role: 'editor', name: 'Grace Hopper' }),
  });
  expect(invited.status).toBe(201);
});
test.afterAll(async () => {
  await provider?.close();
  await server?.close();
});

/**
 * The provider's development pages ask for a web font and a favicon it does not serve; this machine is offline.
 * Answered empty here, so the console error guard of fixtures.ts keeps watching the console's own requests.
 */
async function quietProvider(page: Page): Promise<void> {
  await page.context().route((url) => url.origin !== server.url && url.origin !== provider.issuer, (route) => route.fulfill({ status: 200, body: '' }));
  await page.context().route(`${provider.issuer}/favicon.ico`, (route) => route.fulfill({ status: 204, body: '' }));
}

/** At the provider: the account typed in its sign-in form, and the consent given when it asks. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByPlaceholder('Enter any login').pressSequentially(login);
  await page.getByPlaceholder('and password').pressSequentially('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  await Promise.race([consent.waitFor(), page.waitForURL(`${server.url}/console/**`)]);
  if (page.url().startsWith(provider.issuer)) await consent.click();
}

test.describe('issue #33 single sign-on in the console', () => {
  test.describe.configure({ timeout: 60_000 });
  // The console asks /api/me before anyone signs in: Chromium logs its 401.
  test.use({ allowAgentErrors: [/status of 401/] });
  test.beforeEach(async ({ page }) => quietProvider(page));

  test('an invited editor signs in with SSO and lands where they were going, their name and role shown; the designer session the console hands over acts as her', async ({ page }) => {
    await page.goto(`${server.url}/console/me`);
    await expect(page).toHaveURL(/\/console\/login\?next=/);
    const sso = page.getByRole('link', { name: 'Sign in with SSO' });
    await expect(sso).toBeVisible();
    await sso.click();
    await signInAtProvider(page, 'grace');
    await expect(page).toHaveURL(`${server.url}/console/me`);
    await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByLabel('Signed in')).toHaveText(/Grace Hopper\s*editor/);
    // An editor: no Users page for her (admins only), but the apps.
    await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
    // The session is the console's own cookie: a reload keeps her signed in.
    await page.reload();
    await expect(page.getByLabel('Signed in')).toHaveText(/Grace Hopper\s*editor/);
    // The designer as the author who signed in by SSO (she has no password): the console hands it a designer
    // session, as its Open in designer does, which acts with her role, not the admin token's.
    const designer = await page.evaluate(async () => {
      const made = await fetch('/api/designer-sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-waymark-console': '1' },
        body: JSON.stringify({ apiKey: 'demo-app' }),
      });
      const { token } = (await made.json()) as { token: string };
      const me = await fetch('/api/me', { headers: { authorization: `Bearer ${token}` }, credentials: 'omit' });
      return { status: made.status, me: (await me.json()) as { role: string; via: string; user: { email: string } } };
    });
    expect([designer.status, designer.me.role, designer.me.via, designer.me.user.email]).toEqual([201, 'editor', 'designer', 'grace@example.com']);
  });

  test('someone of a listed domain comes in as a viewer, named as the provider says', async ({ page }) => {
    await page.goto(`${server.url}/console/login`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await signInAtProvider(page, 'linus');
    await expect(page).toHaveURL(`${server.url}/console/`);
    await expect(page.getByLabel('Signed in')).toHaveText(/Linus Listed\s*viewer/);
  });

  test('a stranger is refused and told why on the login page', async ({ page }) => {
    await page.goto(`${server.url}/console/login`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await signInAtProvider(page, 'mallory');
    await expect(page).toHaveURL(`${server.url}/console/login?error=sso_not_invited`);
    await expect(page.getByRole('alert')).toHaveText(SSO_REFUSALS.sso_not_invited);
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await shoot(page, 'docs/console/login-sso.png');
    // A code the page does not know shows nothing: no text of the URL reaches the page.
    await page.goto(`${server.url}/console/login?error=${encodeURIComponent('Your account is locked: call +1 555 0100')}`);
    await expect(page.getByRole('link', { name: 'Sign in with SSO' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
