/**
 * issue #32, the console in Firefox ESR and WebKitGTK (the Chromium specs: test/e2e/console.spec.ts,
 * recordingsConsole.spec.ts): the admin token typed on the login page, a demo page's event arriving in the live
 * view without reload, a guide written, saved and published in the console then shown to a visitor of the demo
 * page, and that visitor's recording replayed in the console's player. Against a server of this file's own
 * (authorPages.ts: the journeys save guides for the demo app).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { E2E_ADMIN_TOKEN } from '../e2e/adminToken';
import { launchEngines } from './eachEngine';
import { adminOf, clickOn, mark, pixelAt, read, retype, shot, startOwnServer, until, waitUntil } from './authorPages';

const API_KEY = 'demo-app';
let serverUrl = '';
let stopServer: () => Promise<void> = async () => undefined;
let admin: ReturnType<typeof adminOf>;
const engines = launchEngines();

beforeAll(async () => {
  const server = await startOwnServer();
  serverUrl = server.url;
  stopServer = server.stop;
  admin = adminOf(serverUrl);
  const put = await admin(`/api/apps/${API_KEY}/settings`, { method: 'PUT', body: JSON.stringify({ recording: { enabled: true, sampleRate: 1 } }) });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await stopServer();
});

engines.describeEach(({ engine, page }) => {
  const visitor = (what: string) => `console-${engine.name}-${what}-${Date.now().toString(36)}`;

  it('the login page takes the admin token typed with real keys, Enter submits, and goes where the visitor was going (issue #14)', async () => {
    await page.goto(`${serverUrl}/console/apps/${API_KEY}/events`);
    await page.waitFor("return location.pathname === '/console/login' && !!document.querySelector('#token')");
    await shot(page, engine.name, 'console-login');
    await page.type('#token', 'not-the-admin-token');
    await page.press('Enter');
    await waitUntil(page, "byName(/./, '[role=alert]')");
    expect(await read(page, "document.querySelector('[role=alert]').textContent")).toBe('wrong token');
    await retype(page, "document.querySelector('#token')", E2E_ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor(`return location.pathname === '/console/apps/${API_KEY}/events'`);
    await waitUntil(page, "[...document.querySelectorAll('h1')].some((h) => h.textContent === 'Live events')");
  });

  it("a demo page's event appears in the live view without reload (issue #14 live events)", async () => {
    const id = visitor('live');
    await page.goto(`${serverUrl}/console/apps/${API_KEY}/events?visitor=${id}`);
    await waitUntil(page, "[...document.querySelectorAll('h2')].some((h) => h.textContent === 'Waiting for events…')");
    await shot(page, engine.name, 'console-events-empty');
    await page.run('window.notReloaded = true');
    // The demo page in a frame of the console page: its agent sends the page's load as any visitor's would.
    await page.run(`const frame = document.createElement('iframe'); frame.id = 'visitor-frame'; frame.src = '/?visitor=${id}'; frame.style.cssText = 'width:600px;height:300px'; document.body.append(frame);`);
    await waitUntil(page, `[...document.querySelectorAll('tbody tr')].some((tr) => tr.textContent.includes(${JSON.stringify(id)}))`, 20_000);
    const load = await read<string[] | null>(
      page,
      `(() => { const tr = [...document.querySelectorAll('tbody tr')].find((r) => r.querySelector('.type')?.textContent === 'load'); return tr && [...tr.cells].map((c) => c.textContent); })()`,
    );
    expect(load?.slice(1, 4)).toEqual(['load', id, `/?visitor=${id}`]);
    expect(await page.run('return window.notReloaded')).toBe(true);
    await shot(page, engine.name, 'console-events');
    // The app switcher reads light on dark in every engine: WebKitGTK drew its GTK box under our white text.
    const box = await read<{ x: number; y: number; width: number; height: number; page: number }>(
      page,
      "(() => { const r = byLabel('App').getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height, page: innerWidth }; })()",
    );
    const background = pixelAt(`test-results/engines/${engine.name}-console-events.png`, box.x + box.width * 0.7, box.y + box.height / 2, box.page);
    expect(Math.max(...background), `the switcher's background ${background}`).toBeLessThan(80);
  });

  /** The visitor the guide journey recorded, whose recording the replay journey opens. */
  let recorded = '';

  it('a guide written, saved and published in the console shows to a visitor of the demo page, whose dismissal is stored though the page is left at once (issue #14, #32)', async () => {
    const guideId = `hello-${engine.name}`;
    const id = visitor('guided');
    recorded = id;
    await page.goto(`${serverUrl}/console/apps/${API_KEY}/guides`);
    await clickOn(page, "byName('New guide')");
    await page.waitFor(`return location.pathname === '/console/apps/${API_KEY}/guides/new'`);
    await retype(page, "byLabel('Id')", guideId);
    await retype(page, "byLabel('Name')", `Hello from ${engine.name}`);
    await retype(page, "byLabel('Title')", `Hello from ${engine.name}`);
    await retype(page, "byLabel('Text')", 'Written and published without a file.');
    // This engine's visitors only: the other engine's guide is public on the same server.
    await retype(page, "byLabel('Page rule (regexUrlRule)')", `engine=${engine.name}`);
    const json = () => read<string>(page, "byLabel('Guide JSON').value");
    await waitUntil(page, "byLabel('Guide JSON').value.includes('Written and published without a file.')");
    expect(await json()).toContain(`"id": "${guideId}-1"`);
    await waitUntil(page, "document.querySelector('.ok-note')?.textContent.includes('The agent accepts this guide.')");
    await shot(page, engine.name, 'console-guide-editor');
    await clickOn(page, "byName('Save')");
    await waitUntil(page, "document.querySelector('h1')?.textContent.includes('Draft')");
    expect(await read(page, "location.pathname")).toBe(`/console/apps/${API_KEY}/guides/${guideId}`);
    await clickOn(page, "byName('Publish')");
    await waitUntil(page, "document.querySelector('h1')?.textContent.includes('Public')");
    await waitUntil(page, "document.querySelector('[data-testid=guide-published]')");
    await shot(page, engine.name, 'console-guide');
    const stored = await (await admin(`/api/apps/${API_KEY}/guides/${guideId}`)).json();
    expect(stored).toMatchObject({ state: 'public', guide: { name: `Hello from ${engine.name}` } });

    // A visitor of the demo page: the guide shows (the demo's folder guides no longer: the database owns the app).
    await page.goto(`${serverUrl}/?visitor=${id}&engine=${engine.name}`);
    await page.waitFor('return window.waymark?.isReady?.() === true', 15_000);
    await page.waitFor("return deepQuery('.wm-lightbox')?.textContent.includes('Written and published without a file.')");
    await shot(page, engine.name, 'demo-console-guide');
    await clickOn(page, "byName('Got it')");
    await page.waitFor("return !deepQuery('.wm-lightbox')");
    // Something the recording holds after its first moment: the tour's list, drawn by the demo on a click.
    await page.click('#take-tour');
    await page.waitFor("return !!document.querySelector('#tour-steps')");
    // Leaving right away: the guide events and the recording's open chunk leave from the page (the worker ends
    // with it in Firefox and WebKit).
    await page.goto(`${serverUrl}/console/apps/${API_KEY}/recordings?visitor=${id}`);
    const events = await until(
      async () => (await (await admin(`/api/events?${new URLSearchParams({ apiKey: API_KEY, visitorId: id })}`)).json()).events as Array<{ type: string; props: Record<string, unknown> }>,
      (list) => list.some((e) => e.type === 'guideDismissed') && list.some((e) => e.type === 'click'),
    );
    expect(events.filter((e) => e.type === 'guideSeen' && e.props.guide_id === guideId)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'guideDismissed' && e.props.guide_id === guideId)).toHaveLength(1);
  });

  it("that visitor's recording is listed and replays: the demo page at its start, then what the visitor opened (issue #18)", async () => {
    const id = recorded;
    expect(id).not.toBe('');
    const recordings = await until(
      async () => ((await (await admin(`/api/apps/${API_KEY}/recordings`)).json()).recordings as Array<{ visitorId: string }>).filter((r) => r.visitorId === id),
      (list) => list.length > 0,
    );
    expect(recordings).toHaveLength(1);
    await page.goto(`${serverUrl}/console/apps/${API_KEY}/recordings?visitor=${id}`);
    await mark(page, `byName(/^Replay the recording of ${id} /)`);
    await shot(page, engine.name, 'console-recordings');
    await clickOn(page, `byName(/^Replay the recording of ${id} /)`);
    const replayed = "document.querySelector('.replayer-wrapper iframe')?.contentDocument";
    await waitUntil(page, `${replayed}?.body?.textContent.includes('See how your customers use your product')`, 15_000);
    expect(await read(page, `!!${replayed}.querySelector('#tour-steps')`)).toBe(false);
    await clickOn(page, "document.querySelector('.rr-controller__btns button')");
    await waitUntil(page, `${replayed}.querySelector('#tour-steps')`);
    await shot(page, engine.name, 'console-replay');
  });
});
