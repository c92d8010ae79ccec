/**
 * issue #33's console pages in Firefox ESR and WebKitGTK (the Chromium spec: test/e2e/consoleAudit.spec.ts): an
 * invitation the admin made through the API, its password typed with real keys, the invited editor signed in; the
 * editor's guide changes (made through the API from the signed-in page) on the admin's Audit page, narrowed by its
 * action filter (kept in the URL), a publish's before -> after; the guide's History tab, the change in words, and
 * a restore as a new draft, read back through /api; and Sign in with SSO (the Chromium spec: consoleSso.spec.ts)
 * against a real OpenID provider (oidc-provider, test/server/startOidcProvider.ts), its sign-in form typed with
 * real keys. Against servers of this file's own: the e2e server (authorPages.ts), and one with SSO.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/createServer';
import { E2E_ADMIN_TOKEN } from '../e2e/adminToken';
import { createOidcProvider, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } from '../server/startOidcProvider';
import type { EnginePage } from './engines';
import { launchEngines } from './eachEngine';
import { adminOf, clickOn, read, shot, startOwnServer, waitUntil } from './authorPages';

const API_KEY = 'demo-app';
let serverUrl = '';
let stopServer: () => Promise<void> = async () => undefined;
let admin: ReturnType<typeof adminOf>;
/** The provider and a server that signs in with it (the e2e server has no SSO). */
let provider: Awaited<ReturnType<typeof createOidcProvider>> | undefined;
let ssoServer: RunningServer | undefined;
const engines = launchEngines();

/** A lightbox guide whose step title (an h2, the History tab's "Title") is `title`. */
function guideTitled(id: string, title: string) {
  return {
    id,
    name: 'Export tips',
    launchMethod: 'auto',
    // No visitor of the demo page sees it.
    attributes: { regexUrlRule: 'never-shown-to-a-visitor' },
    steps: [
      {
        id: `${id}-1`,
        type: 'lightbox',
        domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: { id: `${id}-title` }, content: title }] },
      },
    ],
  };
}

/**
 * A screenshot once the page has painted what the journey just waited for: WebKitGTK's screenshot can be a frame
 * behind (its invitation page was shot still "Reading the invitation…" after its form was found).
 */
async function painted(page: EnginePage, engine: string, name: string): Promise<void> {
  await page.run('await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await shot(page, engine, name);
}

beforeAll(async () => {
  const server = await startOwnServer();
  serverUrl = server.url;
  stopServer = server.stop;
  admin = adminOf(serverUrl);
  provider = await createOidcProvider({ grace: { email: 'grace@example.com', email_verified: true, name: 'Grace at the provider' } });
  ssoServer = await startServer({
    port: 0,
    dataDir: 'memory://',
    adminToken: E2E_ADMIN_TOKEN,
    sso: { issuer: provider.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, domains: ['corp.example'] },
  });
  provider.register(`${ssoServer.url}/api/sso/callback`);
  await provider.listen();
  // Grace is invited as an editor, with no password: she signs in by SSO only.
  const invited = await adminOf(ssoServer.url)('/api/users', { method: 'POST', body: JSON.stringify({ email: 'grace@example.com', role: 'editor', name: 'Grace Hopper' }) });
  expect(invited.status, await invited.clone().text()).toBe(201);
});
afterAll(async () => {
  await provider?.close();
  await ssoServer?.close();
  await stopServer();
});

engines.describeEach(({ engine, page }) => {
  /** The editor the invitation journey signs in, whose guide changes the audit and history journeys read. */
  let editor = '';
  let guideId = '';

  it('an invitation made through the API: the page names the email and role, the password typed twice with real keys signs the editor in', async () => {
    editor = `team-${engine.name}-${Date.now().toString(36)}@example.com`;
    const made = await admin('/api/users', { method: 'POST', body: JSON.stringify({ email: editor, role: 'editor' }) });
    expect(made.status, await made.clone().text()).toBe(201);
    const { invitationUrl } = (await made.json()) as { invitationUrl: string };
    expect(invitationUrl).toMatch(/\/console\/invitation\/[\w-]{43}$/);

    await page.goto(invitationUrl);
    await waitUntil(page, `squash(document.querySelector('form[aria-label="Accept the invitation"]')?.textContent).includes(${JSON.stringify(`You were invited to the Waymark Console as ${editor}, with the editor role`)})`);
    await painted(page, engine.name, 'console-invitation');
    const password = `team password ${engine.name}`;
    await page.type('#new-password', password);
    await page.type('#repeat-password', password);
    // Send Keys may return before React renders the last key: wait for the state the button depends on.
    await waitUntil(page, `document.querySelector('#repeat-password').value === ${JSON.stringify(password)} && !byName('Set password and sign in').disabled`);
    await clickOn(page, "byName('Set password and sign in')");
    await waitUntil(page, "byName('Sign out')", 15_000);
    expect(await read(page, 'location.pathname')).not.toMatch(/invitation|login/);
    const me = await page.run<{ role: string; email?: string }>("return (await fetch('/api/me')).json()");
    expect(me).toMatchObject({ role: 'editor' });
    expect(JSON.stringify(me)).toContain(editor);
    await painted(page, engine.name, 'console-invited-signed-in');
  });

  it("the editor's guide changes on the admin's Audit page: the action filter narrows it and stays in the URL, a publish's before -> after", async () => {
    expect(editor).not.toBe('');
    guideId = `team-${engine.name}`;
    // Three changes as the editor, from the signed-in page: a draft, its title changed, then published.
    const answers = await page.run<number[]>(`
      const send = (path, method, body) => fetch(path, { method, headers: { 'content-type': 'application/json', 'x-waymark-console': '1' }, body: JSON.stringify(body) }).then((r) => r.status);
      const base = '/api/apps/${API_KEY}/guides/${guideId}';
      return [
        await send(base, 'PUT', ${JSON.stringify({ ...guideTitled(guideId, 'Export your report'), state: 'draft' })}),
        await send(base, 'PUT', ${JSON.stringify({ ...guideTitled(guideId, 'Export the monthly report'), state: 'draft' })}),
        await send(base + '/state', 'POST', { state: 'public' }),
      ];`);
    expect(answers.every((status) => status >= 200 && status < 300), String(answers)).toBe(true);

    // The admin signs in with the token (the editor signed out first).
    await clickOn(page, "byName('Sign out')");
    await page.waitFor("return location.pathname === '/console/login'");
    await page.goto(`${serverUrl}/console/audit`);
    await page.waitFor("return location.pathname === '/console/login' && !!document.querySelector('#token')");
    await page.type('#token', E2E_ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor("return location.pathname === '/console/audit'", 15_000);

    const rows = "[...document.querySelectorAll('table[aria-label=\"Audit trail\"] tbody tr[aria-label]')]";
    const ours = (action: string) => `${rows}.filter((tr) => tr.getAttribute('aria-label').startsWith('${action} ${guideId} '))`;
    await waitUntil(page, `${ours('guide.published')}.length === 1 && ${ours('guide.saved')}.length === 2`);
    expect(await read(page, `${ours('guide.published')}[0].cells[1].textContent`)).toContain(editor);
    await painted(page, engine.name, 'console-audit');

    // The action filter, a <select>: its value set as a choice does (the harness has no select-by-key).
    await read(page, `(() => {
      const select = byLabel('Action', document.querySelector('form[aria-label="Filter the audit trail"]'));
      Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, 'guide.published');
      select.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    })()`);
    await waitUntil(page, `new URLSearchParams(location.search).get('action') === 'guide.published'`);
    await waitUntil(page, `${rows}.length > 0 && ${rows}.every((tr) => tr.getAttribute('aria-label').startsWith('guide.published ')) && ${ours('guide.published')}.length === 1`);
    expect(await read(page, `${ours('guide.saved')}.length`)).toBe(0);

    await clickOn(page, `byName(/^Show changes of guide\\.published ${guideId} /)`);
    const changed = "[...document.querySelectorAll('table[aria-label=\"Changed fields\"] tbody tr')]";
    await waitUntil(page, `${changed}.some((tr) => tr.cells[0].textContent === 'state' && tr.textContent.includes('“draft”') && tr.textContent.includes('“public”'))`);
    await painted(page, engine.name, 'console-audit-changes');
    // The filter survives a reload: it lives in the URL.
    await page.goto(`${serverUrl}/console/audit?action=guide.published`);
    await waitUntil(page, `byLabel('Action', document.querySelector('form[aria-label="Filter the audit trail"]'))?.value === 'guide.published' && ${ours('guide.published')}.length === 1`);
  });

  it("the guide's History tab: the versions, what changed in words, a restore as a new draft read back through /api", async () => {
    expect(guideId).not.toBe('');
    // From the audit entry's link to the guide's history.
    await clickOn(page, `byName('${guideId} (version 3)', 'a[href]')`);
    await waitUntil(page, "new URLSearchParams(location.search).get('tab') === 'history'");
    const version = (n: number) => `document.querySelector('table[aria-label="Versions"] tr[aria-label="Version ${n}"]')`;
    await waitUntil(page, "document.querySelectorAll('table[aria-label=\"Versions\"] tbody tr').length === 3");
    for (const n of [1, 2, 3]) expect(await read(page, `${version(n)}.textContent`)).toContain(editor);
    await waitUntil(page, `squash(document.querySelector('[aria-label="Changes from version 2 to 3"]')?.textContent) === 'State changed from draft to public.'`);
    await clickOn(page, "byName('Compare version 1 with version 3')");
    const words = `squash(document.querySelector('[aria-label="Changes from version 1 to 3"]')?.textContent)`;
    await waitUntil(page, `${words}.includes('State changed from draft to public.') && ${words}.includes('Title: “Export your report” → “Export the monthly report”')`);
    await painted(page, engine.name, 'console-history');

    await clickOn(page, "byName('Restore version 1 as draft…')");
    await clickOn(page, "byName('Restore version 1 as a new draft')");
    await waitUntil(page, "document.querySelector('[role=status]')?.textContent === 'Version 1 restored as version 4, a draft: publish it when it is ready.'");
    await waitUntil(page, `${version(4)}?.textContent.includes('the admin token')`);
    await painted(page, engine.name, 'console-history-restored');
    const stored = (await (await admin(`/api/apps/${API_KEY}/guides/${guideId}`)).json()) as { state: string; guide: unknown };
    expect(stored.state).toBe('draft');
    expect(JSON.stringify(stored.guide)).toContain('Export your report');
    expect(JSON.stringify(stored.guide)).not.toContain('Export the monthly report');
    const { versions } = (await (await admin(`/api/apps/${API_KEY}/guides/${guideId}/versions`)).json()) as { versions: Array<{ version: number }> };
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
  });

  it('Sign in with SSO: the provider\'s form typed with real keys, back where the invited editor was going, signed in as her', async () => {
    const consoleUrl = ssoServer!.url;
    const issuer = provider!.issuer;
    await page.goto(`${consoleUrl}/console/me`);
    await page.waitFor("return location.pathname === '/console/login'");
    await clickOn(page, "byName('Sign in with SSO')");
    await page.waitFor(`return location.origin === ${JSON.stringify(issuer)} && !!document.querySelector('input[name=login]')`, 15_000);
    await painted(page, engine.name, 'sso-provider');
    await page.type('input[name=login]', 'grace');
    await page.type('input[name=password]', 'any password');
    await clickOn(page, "document.querySelector('button[type=submit]')");
    // The provider asks for consent the first time (not once given).
    await page.waitFor(`return location.origin === ${JSON.stringify(consoleUrl)} || /Continue/.test(document.querySelector('button[type=submit]')?.textContent ?? '')`, 15_000);
    if ((await read<string>(page, 'location.origin')) === issuer) await clickOn(page, "document.querySelector('button[type=submit]')");
    await page.waitFor(`return location.href === ${JSON.stringify(`${consoleUrl}/console/me`)}`, 15_000);
    await waitUntil(page, "/Grace Hopper\\s*editor/.test(document.querySelector('[aria-label=\"Signed in\"]')?.textContent ?? '')");
    await waitUntil(page, "byName('Sign out') && [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Your account')");
    const me = await page.run<{ role: string }>("return (await fetch('/api/me')).json()");
    expect(me).toMatchObject({ role: 'editor' });
    expect(JSON.stringify(me)).toContain('grace@example.com');
    await painted(page, engine.name, 'console-sso-signed-in');
  });
});
