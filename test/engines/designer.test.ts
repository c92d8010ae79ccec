/**
 * issue #32, the designer in Firefox ESR and WebKitGTK (the Chromium specs: test/e2e/designer.spec.ts,
 * designerCrossOrigin.spec.ts, designerAuthors.spec.ts): opened on the demo page by a designer link, the author, an
 * editor made through the API with the admin token, signs in with their email and password typed with real keys, picks an element with a real click, writes the step (seen live on the page) and saves; the
 * stored guide is read back through /api. Also in both engines: a link naming a console origin the server does not
 * list is refused before anything is sent there (issue #31), and a launcher without autoOpen does not open by
 * itself (issue #36). Against a server of this file's own (authorPages.ts: the journeys save guides for the demo app).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DESIGNER_CONTAINER } from '../../shared/constants';
import { untrustedConsoleMessage } from '../../shared/authoring/consoleOrigin';
import { encodeDesignerToken } from '../../shared/authoring/designerLaunch';
import { launchEngines } from './eachEngine';
import { adminOf, clickOn, mark, read, retype, shot, startOwnServer, waitUntil } from './authorPages';

const API_KEY = 'demo-app';
const designer = "deepAll('[data-testid=waymark-designer]')[0]";
let serverUrl = '';
let stopServer: () => Promise<void> = async () => undefined;
let admin: ReturnType<typeof adminOf>;
/** The author of the designer journey: an editor, made with the admin token (issue #33). */
const author = { email: 'designer-author@example.com', password: 'correct horse battery staple' };
const engines = launchEngines();
/** A console origin no one listed: a loopback server that notes every request it gets. */
let unlisted: { origin: string; requests: string[]; close(): Promise<void> };

/** A badge guide on `#{target}` (the demo has no such element until a journey adds it): drawn by a guide loop tick. */
function badgeGuide(target: string) {
  return {
    id: `badge-${target}`,
    name: `Badge on ${target}`,
    launchMethod: 'badge',
    attributes: { badge: { position: 'top-right', elementPathRule: `#${target}` } },
    steps: [{ id: `badge-${target}-1`, type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: target }] } }],
  };
}

beforeAll(async () => {
  const server = await startOwnServer();
  serverUrl = server.url;
  stopServer = server.stop;
  admin = adminOf(serverUrl);
  // Public guides of the demo app's own: two badges, and one the launcher lists (a launcher with nothing to list stays
  // off the page). The database owns the demo app from then on, so the demo's welcome lightbox (a folder guide) does
  // not cover the page the designer picks on.
  const listed = { ...badgeGuide('listed'), id: 'listed', name: 'How reports work', launchMethod: 'launcher', attributes: {} };
  for (const guide of [badgeGuide('late-1'), badgeGuide('late-2'), listed]) {
    const put = await admin(`/api/apps/${API_KEY}/guides/${guide.id}`, { method: 'PUT', body: JSON.stringify({ ...guide, state: 'public' }) });
    expect(put.status, await put.clone().text()).toBe(201);
  }
  const made = await admin('/api/users', { method: 'POST', body: JSON.stringify({ ...author, role: 'editor' }) });
  expect(made.status, await made.clone().text()).toBe(201);
  const requests: string[] = [];
  const http = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  unlisted = {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
});
afterAll(async () => {
  await unlisted?.close();
  await stopServer();
});

engines.describeEach(({ engine, page }) => {
  const visitor = (what: string) => `designer-${engine.name}-${what}-${Date.now().toString(36)}`;

  /** Opens `path` of the demo app for a new visitor and waits for the agent. */
  async function openDemo(path: string): Promise<void> {
    const url = new URL(path, serverUrl);
    url.searchParams.set('visitor', visitor('v'));
    await page.goto(url.href);
    await page.waitFor('return window.waymark?.isReady?.() === true', 15_000);
  }

  /**
   * The tab forgets a designer link it opened: the designer keeps its token in session storage for the tab's next
   * pages (even one cleared: it writes it again as the page hides) until the author closes it.
   */
  async function forgetDesigner(): Promise<void> {
    await page.goto(`${serverUrl}/settings`);
    await page.waitFor('return window.waymark?.isReady?.() === true', 15_000);
    // The designer may still be opening from the stored link (WebKitGTK once left it open): close it until it stays closed.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await page.run(`return sessionStorage.getItem('_wm_designer.${API_KEY}') !== null`)) await clickOn(page, "byName('Close the designer')");
      try {
        return await waitUntil(page, `!${designer} && sessionStorage.getItem('_wm_designer.${API_KEY}') === null`, 5_000);
      } catch (err) {
        if (attempt === 2) throw err;
      }
    }
  }

  it('opens on the demo page from a designer link; the author signs in as an editor with email and password (issue #33), picks an element, writes a step seen live, saves; /api reads it back (issue #15)', async () => {
    const name = `Start here (${engine.name})`;
    await openDemo('/?waymark-designer=e30');
    await waitUntil(page, designer, 15_000);
    // It slides in at the left, 400 px wide, over everything.
    await waitUntil(page, `Math.round(${designer}.getBoundingClientRect().x) === 0`);
    expect(await read(page, `[Math.round(${designer}.getBoundingClientRect().width), getComputedStyle(${designer}).zIndex]`)).toEqual([
      DESIGNER_CONTAINER.width,
      String(DESIGNER_CONTAINER.zIndex),
    ]);
    // Not signed in to the console in this browser: the designer asks for an email and password (issue #33); the
    // editor types theirs, a wrong password first.
    await retype(page, "byLabel('Email')", author.email);
    await retype(page, "byLabel('Password')", 'not the password at all');
    await clickOn(page, "byName('Sign in')");
    await waitUntil(page, `${designer}.querySelector('[role=alert]')?.textContent === 'wrong email or password'`);
    await retype(page, "byLabel('Password')", author.password);
    await clickOn(page, "byName('Sign in')");
    await waitUntil(page, `squash(${designer}.querySelector('[data-testid=designer-author]')?.textContent) === ${JSON.stringify(`Signed in as ${author.email} · editor Sign out`)}`);
    // The tab keeps a designer session, never the password.
    expect(await read(page, 'JSON.stringify({ ...sessionStorage, ...localStorage })')).not.toContain(author.password);
    await clickOn(page, "byName('New guide on this page')");
    await retype(page, "byLabel('Name')", name);

    // The element, picked with a real click on the page while the designer steps aside.
    await clickOn(page, "byName('Pick element')");
    await waitUntil(page, `getComputedStyle(${designer}).display === 'none'`);
    await page.click('#get-started');
    await waitUntil(page, `getComputedStyle(${designer}).display !== 'none'`);
    expect(await read(page, "byLabel('Element').value")).toBe('#get-started');
    expect(await read(page, `${designer}.querySelector('[data-testid=rule-check]').textContent`)).toBe('Matches 1 element on this page');
    // The demo's own handler did not run: the pick did not reach the page.
    expect(await read(page, 'location.pathname')).toBe('/');

    await retype(page, "byLabel('Title')", 'Start with a report');
    await retype(page, "byLabel('Text')", 'Pick the pages your customers visit most.');
    expect(await read(page, "byLabel('Text').value")).toBe('Pick the pages your customers visit most.');
    // The step as it will show, live on the page.
    await page.waitFor("return deepQuery('.wm-tooltip')?.textContent.includes('Pick the pages your customers visit most.')");
    expect(await page.run<string>("return deepQuery('.wm-tooltip h2, .wm-tooltip h3')?.textContent")).toBe('Start with a report');
    await shot(page, engine.name, 'designer-live-step');

    await clickOn(page, "byName('Save')");
    await waitUntil(page, `[...${designer}.querySelectorAll('[role=status]')].some((s) => s.textContent === 'Saved')`);
    const listed = (await (await admin(`/api/apps/${API_KEY}/guides`)).json()) as Array<{ id: string; name: string }>;
    const saved = listed.filter((g) => g.name === name);
    expect(saved).toHaveLength(1);
    const stored = await (await admin(`/api/apps/${API_KEY}/guides/${saved[0]!.id}`)).json();
    expect(stored.state).toBe('draft');
    expect(stored.guide.steps).toHaveLength(1);
    expect(stored.guide.steps[0]).toMatchObject({ type: 'tooltip', elementPathRule: '#get-started' });
    expect(JSON.stringify(stored.guide.steps[0].domJson)).toContain('Start with a report');
    await shot(page, engine.name, 'designer-saved');
    await clickOn(page, "byName('Close the designer')");
    await waitUntil(page, `!${designer}`);
  });

  it('tags a feature: "Tag a feature…", a real click on the page\'s element, its name typed, saved; /api reads it back (issue #35)', async () => {
    const name = `Get started (${engine.name})`;
    await openDemo('/?waymark-designer=e30');
    await waitUntil(page, designer, 15_000);
    // Signed in still, or asked again (the first journey closed the designer): the editor signs in when asked.
    await waitUntil(page, "byLabel('Email') || byName('Tag a feature…')");
    if (await read<boolean>(page, "!!byLabel('Email')")) {
      await retype(page, "byLabel('Email')", author.email);
      await retype(page, "byLabel('Password')", author.password);
      await clickOn(page, "byName('Sign in')");
    }
    await clickOn(page, "byName('Tag a feature…')");
    await waitUntil(page, `getComputedStyle(${designer}).display === 'none'`);
    await page.click('#get-started');
    await waitUntil(page, `getComputedStyle(${designer}).display !== 'none'`);
    expect(await read(page, "byLabel('CSS selector').value")).toBe('#get-started');
    await waitUntil(page, `${designer}.querySelector('[data-testid=tag-counts]')?.textContent.includes('1 element on this page matches now')`);
    await retype(page, "byLabel('Feature name')", name);
    // Back in place after the pick (it slides in again) before the picture.
    await waitUntil(page, `Math.round(${designer}.getBoundingClientRect().x) === 0 && byLabel('Feature name').value === ${JSON.stringify(name)}`);
    await shot(page, engine.name, 'designer-tag-feature');
    await clickOn(page, "byName('Save feature')");
    await waitUntil(page, `byName(${JSON.stringify(`Open ${name} in the console`)})`);
    const features = (await (await admin(`/api/apps/${API_KEY}/features`)).json()) as Array<{ name: string; rule: { selector: string } }>;
    expect(features.filter((f) => f.name === name).map((f) => f.rule)).toEqual([{ selector: '#get-started' }]);
    await clickOn(page, "byName('Close the designer')");
    await waitUntil(page, `!${designer}`);
  });

  it('refuses a link naming a console origin the server does not list, before anything is sent there; a listed one asks to sign in (issue #31)', async () => {
    await forgetDesigner();
    await openDemo(`/settings?waymark-designer=${encodeDesignerToken({ baseUrl: unlisted.origin })}`);
    await waitUntil(page, `${designer}?.querySelector('[role=alert]')`, 15_000);
    expect(await read(page, `${designer}.querySelector('[role=alert]').textContent`)).toBe(untrustedConsoleMessage(unlisted.origin, serverUrl));
    expect(await read(page, `[!!byLabel('Email', ${designer}), !!byLabel('Admin token', ${designer})]`)).toEqual([false, false]);
    expect(unlisted.requests).toEqual([]);
    await waitUntil(page, `Math.round(${designer}.getBoundingClientRect().x) === 0`);
    await shot(page, engine.name, 'designer-untrusted-console');

    // The same server under another host name, listed in the e2e setup's console origins.
    const listed = `http://localhost:${new URL(serverUrl).port}`;
    await clickOn(page, "byName('Close the designer')");
    await openDemo(`/settings?waymark-designer=${encodeDesignerToken({ baseUrl: listed })}`);
    await mark(page, `${designer} && byLabel('Email', ${designer})`, 15_000);
    expect(await read(page, `${designer}.textContent.includes(${JSON.stringify(`Sign in to the console at ${listed}`)})`)).toBe(true);
    await clickOn(page, "byName('Close the designer')");
  });

  it('a launcher without autoOpen stays closed through guide loop ticks with nothing to show; with autoOpen it opens by itself (issue #36)', async () => {
    const setLauncher = async (data: Record<string, unknown> | null) => {
      const put = await admin(`/api/apps/${API_KEY}/settings`, { method: 'PUT', body: JSON.stringify({ launcher: data && { enabled: true, data: { hideCredits: true, ...data } } }) });
      expect(put.status, await put.clone().text()).toBe(200);
    };
    await forgetDesigner();
    const panel = "deepAll('.wm-launcher')[0]";
    const launcherBadge = "deepAll('.wm-launcher-badge')[0]";
    try {
      // autoOpen on: the panel opens at the first tick with no step to show.
      await setLauncher({ autoOpen: true });
      await openDemo('/settings');
      await waitUntil(page, panel, 15_000);
      expect(await read(page, `${launcherBadge}.getAttribute('aria-expanded')`)).toBe('true');

      // autoOpen off (the default): the panel stays closed through two ticks that each drew a badge on an element
      // added after the page loaded; a tick draws the page's badges, then, with no step to show, would open it.
      await setLauncher({});
      await openDemo('/settings');
      await waitUntil(page, launcherBadge, 15_000);
      for (const [n, target] of ['late-1', 'late-2'].entries()) {
        await page.run(`const el = document.createElement('span'); el.id = '${target}'; el.textContent = ' ${target}'; document.querySelector('h1').append(el);`);
        await waitUntil(page, `deepAll('.wm-badge:not(.wm-launcher-badge)').length === ${n + 1}`);
      }
      expect(await read(page, `[!!${panel}, ${launcherBadge}.getAttribute('aria-expanded')]`)).toEqual([false, 'false']);
      await shot(page, engine.name, 'launcher-closed');
      // The visitor opens it.
      await page.click('.wm-launcher-badge');
      await waitUntil(page, panel);
      expect(await read(page, `${launcherBadge}.getAttribute('aria-expanded')`)).toBe('true');
    } finally {
      await setLauncher(null);
    }
  });
});
