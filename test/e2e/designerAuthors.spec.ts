/**
 * Issue #33, the designer signs in as its author: an editor and a viewer made through the API with the admin token
 * (POST /api/users with a password); in the designer on a host page the editor types their email and password, is
 * shown as signed in with their role, saves and publishes a guide (read back through /api); a viewer is refused with
 * the server's 403 naming the role; on another origin the editor's sign-in crosses too. The admin token's way in
 * stays (designer.spec.ts, designerCrossOrigin.spec.ts).
 */
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId } from './fixtures';
import { startHostServer } from './hostServer';

const body = '<main style="padding:200px 0 0 480px"><button id="one">Export</button></main>';
const password = 'correct horse battery staple';

/** A user of the console with `role`, made with the admin token: their email. */
async function createUser(serverUrl: string, role: 'editor' | 'viewer'): Promise<string> {
  const email = `${uniqueId(role)}@example.com`;
  const made = await adminFetch(`${serverUrl}/api/users`, { method: 'POST', body: JSON.stringify({ email, role, password }), headers: { 'content-type': 'application/json' } });
  expect(made.status, await made.clone().text()).toBe(201);
  return email;
}

/** Every value of the page's storage, to show what the designer keeps. */
const allStorage = () => JSON.stringify({ ...sessionStorage, ...localStorage });

test.describe('issue #33 the designer signs in as its author', () => {
  // A wrong password and the viewer's refusal: Chromium logs their 401 and 403 as failed loads.
  test.use({ allowAgentErrors: [/status of 40[13] \((Unauthorized|Forbidden)\)/] });

  test('an editor types their email and password, is shown with their role, saves and publishes a guide', async ({ page, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-editor');
    const email = await createUser(serverUrl, 'editor');
    await openHostPage('/e2e/designer-authors?waymark-designer=e30', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'author' } });`, body }));
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');

    await designer.getByLabel('Email').fill(email);
    await designer.getByLabel('Password').fill('not the password at all');
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await expect(designer.getByRole('alert')).toHaveText('wrong email or password');
    await designer.getByLabel('Password').fill(password);
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await expect(designer.getByTestId('designer-author')).toHaveText(`Signed in as ${email} · editor Sign out`);
    await page.screenshot({ path: 'test-results/screens/designer-author-editor.png' });

    await designer.getByRole('button', { name: 'New guide on this page' }).click();
    await designer.getByLabel('Name', { exact: true }).fill('Written by an editor');
    await designer.getByLabel('Element', { exact: true }).fill('#one');
    await designer.getByLabel('Title', { exact: true }).fill('Export your report');
    await designer.getByRole('button', { name: 'Save' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    await designer.getByRole('button', { name: 'Publish' }).click();
    await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();

    const [listed] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${listed.id}`)).json();
    expect(stored.state).toBe('public');
    expect(stored.guide.name).toBe('Written by an editor');
    expect(JSON.stringify(stored.guide.steps[0])).toContain('Export your report');

    // The tab keeps a designer session, never the password; signing out ends it and asks again.
    const kept = await page.evaluate(allStorage);
    expect(kept).toContain('wmd_');
    expect(kept).not.toContain(password);
    await designer.getByRole('button', { name: 'Sign out' }).click();
    await expect(designer.getByLabel('Email')).toBeVisible();
    expect(await page.evaluate(allStorage)).not.toContain('wmd_');
  });

  test("a viewer's sign-in is refused with the server's 403 naming the role; a viewer's console login is not enough either", async ({ page, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-viewer');
    const email = await createUser(serverUrl, 'viewer');
    const html = hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body });
    await openHostPage('/e2e/designer-viewer?waymark-designer=e30', html);
    await agentReady(page);
    const designer = page.getByTestId('waymark-designer');
    await designer.getByLabel('Email').fill(email);
    await designer.getByLabel('Password').fill(password);
    await designer.getByRole('button', { name: 'Sign in' }).click();
    await expect(designer.getByRole('alert')).toHaveText('this needs the editor role; you are a viewer');
    await expect(designer.getByRole('button', { name: 'New guide on this page' })).toHaveCount(0);
    expect(await page.evaluate(allStorage)).not.toContain('wmd_');
    await page.screenshot({ path: 'test-results/screens/designer-author-viewer.png' });

    // Signed in to the console as the viewer (same origin): the designer still asks for an editor.
    expect((await context.request.post(`${serverUrl}/api/login`, { data: { email, password } })).status()).toBe(204);
    await openHostPage('/e2e/designer-viewer?waymark-designer=e30', html);
    await agentReady(page);
    await expect(designer.getByRole('alert')).toHaveText(`${email} is signed in to the console as a viewer: the designer needs the editor role. Sign in as an editor or admin.`);
    await expect(designer.getByLabel('Email')).toBeVisible();
  });

  test('on another origin than the console the editor signs in too, and publishes', async ({ page, serverUrl }) => {
    const apiKey = uniqueId('e2e-designer-editor-cross');
    const email = await createUser(serverUrl, 'editor');
    const host = await startHostServer({ '/app': { type: 'text/html; charset=utf-8', body: hostPage({ scriptUrl: `${serverUrl}/waymark.js`, init: `waymark.initialize({ apiKey: '${apiKey}' });`, body }) } });
    try {
      await page.goto(`${host.origin}/app?waymark-designer=e30`);
      await agentReady(page);
      const designer = page.getByTestId('waymark-designer');
      await expect(designer.getByText('The console is on another origin')).toBeVisible();
      await designer.getByLabel('Email').fill(email);
      await designer.getByLabel('Password').fill(password);
      await designer.getByRole('button', { name: 'Sign in' }).click();
      await expect(designer.getByTestId('designer-author')).toContainText(`Signed in as ${email} · editor`);
      await designer.getByRole('button', { name: 'New guide on this page' }).click();
      await designer.getByRole('combobox', { name: /^Type/ }).selectOption('lightbox');
      await designer.getByLabel('Title', { exact: true }).fill('Saved by an editor from another origin');
      await designer.getByRole('button', { name: 'Publish' }).click();
      await expect(designer.getByRole('status').filter({ hasText: 'Published' })).toBeVisible();
      const [saved] = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides`)).json();
      expect(saved).toMatchObject({ state: 'public' });
      const kept = await page.evaluate(allStorage);
      expect(kept).not.toContain(password);
      expect(kept).not.toContain(E2E_ADMIN_TOKEN);
    } finally {
      await host.close();
    }
  });
});
