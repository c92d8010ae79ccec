/**
 * Frames (analytics §4 Frames, §7 child iframe installs and cross-window messages, §8 the debug message;
 * guides §4 frame visibility, §6 the leader frame's launcher) in Chromium against the reference server. The host
 * page and its iframe documents are routed on the server's origin, so the iframe is same-origin and the agent
 * installs itself into it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES } from '../../shared/messages';
import { childAgent, routeDocument } from './frameHelpers';
import { agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const CHILD = '<!doctype html><html><head><meta charset="utf-8"><title>Child</title></head><body><h1>Child frame</h1><button id="inner">Inner</button><p><span id="frame-target">Frame target</span></p></body></html>';

function launcherFor(config: unknown): string {
  const apiKey = uniqueId('e2e-frames-launcher');
  writeFileSync(join(process.env.WAYMARK_GUIDES_DIR!, `launcher.${apiKey}.json`), JSON.stringify(config));
  return apiKey;
}

function screenshotPath(name: string): string {
  mkdirSync('test-results/screens', { recursive: true });
  return `test-results/screens/${name}`;
}

const iframe = (path: string, attributes = '') => `<iframe id="child" src="${path}" ${attributes} style="width: 640px; height: 320px; border: 1px solid #999"></iframe>`;

test.describe('analytics §4 Frames, §7 installs into child iframes', () => {
  test('the agent installs itself into a same-origin iframe: a click there is stored once, with the iframe\'s URL, its own frameId, the tab\'s tabId and visitor', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('frames');
    await routeDocument(page, serverUrl, '/e2e/frames-child', CHILD);
    await openHostPage('/e2e/frames-host', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-frames', visitor: { id: '${visitor}' } });`, body: `<button id="outer">Outer</button>${iframe('/e2e/frames-child')}` }));
    await agentReady(page);
    const child = await childAgent(page, '/e2e/frames-child');
    // The same waymark.js, under the same global, with the same options.
    expect(await child.evaluate(() => (document.querySelector('script[data-waymark-global="waymark"]') as HTMLScriptElement).src)).toBe(`${serverUrl}/waymark.js`);
    expect(await child.evaluate(() => (window as any).waymark.getVisitorId())).toBe(visitor);

    await child.click('#inner');
    await page.click('#outer');
    await child.evaluate(() => (window as any).waymark.flushNow());
    await page.evaluate(() => (window as any).waymark.flushNow());
    const query = { apiKey: 'e2e-frames', visitorId: visitor };
    const events = await waitForEvents(serverUrl, query, (e) => e.some((x) => x.type === 'click' && x.url.includes('/e2e/frames-child')) && e.some((x) => x.type === 'click' && x.url.includes('/e2e/frames-host')));
    const inner = events.filter((e) => e.type === 'click' && e.url.includes('/e2e/frames-child'));
    const outer = events.filter((e) => e.type === 'click' && e.url.includes('/e2e/frames-host'));
    expect(inner).toHaveLength(1);
    expect(outer).toHaveLength(1);
    // One agent in the child: one page load from it.
    expect(events.filter((e) => e.type === 'load' && e.url.includes('/e2e/frames-child'))).toHaveLength(1);
    expect(inner[0]!.frameId).toEqual(expect.any(String));
    expect(inner[0]!.frameId).not.toBe(outer[0]!.frameId);
    expect(inner[0]!.tabId).toBe(outer[0]!.tabId);
    expect(inner[0]!.visitor_id).toBe(visitor);
    expect(new URL(inner[0]!.url).pathname).toBe('/e2e/frames-child');
    // The child did not take itself for a cloned tab (watchTabClones skips frames): the tab id stayed the top's.
    expect(await child.evaluate(() => sessionStorage.getItem('_wm_tabId'))).toBe(inner[0]!.tabId);

    // analytics §3 Frame record agentInstallType: each frame's record says how its agent came, and the environment
    // check lists the tab's frames with it, in either frame.
    const environment = (frame: typeof page | typeof child) => frame.evaluate(async () => ((await (window as any).waymark.validateEnvironment()) as { findings: Array<{ message: string }> }).findings.map((f) => f.message));
    await expect.poll(() => environment(page)).toEqual(expect.arrayContaining([
      "frame: top, leader; its agent came with the page's snippet",
      "the tab's frames running Waymark for this app: 2 (this one, top: came with the page's snippet; child: was installed by its parent frame's agent)",
    ]));
    await expect.poll(() => environment(child)).toEqual(expect.arrayContaining([
      "frame: child, follower; its agent was installed by its parent frame's agent",
      "the tab's frames running Waymark for this app: 2 (this one, child: was installed by its parent frame's agent; top: came with the page's snippet)",
    ]));
  });

  test('identify in the top frame (the leader) reaches the child: its later click carries the new visitor', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('frames-before');
    const after = uniqueId('frames-after');
    await routeDocument(page, serverUrl, '/e2e/frames-child', CHILD);
    await openHostPage('/e2e/frames-host', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-frames', visitor: { id: '${visitor}' } });`, body: iframe('/e2e/frames-child') }));
    await agentReady(page);
    const child = await childAgent(page, '/e2e/frames-child');
    await page.evaluate((id) => (window as any).waymark.identify(id), after);
    await expect.poll(() => child.evaluate(() => (window as any).waymark.getVisitorId())).toBe(after);
    await child.click('#inner');
    await child.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-frames', visitorId: after }, (e) => e.some((x) => x.type === 'click'));
    expect(events.filter((e) => e.type === 'click').map((e) => new URL(e.url).pathname)).toEqual(['/e2e/frames-child']);
  });

  test('guides §6: the launcher badge shows in the leader only: the top frame by default, the child when a leaderKeys option names its key', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = launcherFor({ enabled: true, data: { launchType: 'badge', hideCredits: true } });
    const badge = '[data-waymark-overlay] .wm-launcher-badge';
    await routeDocument(page, serverUrl, '/e2e/frames-child', CHILD);
    await openHostPage('/e2e/frames-host', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${uniqueId('frames-leader')}' } });`, body: iframe('/e2e/frames-child') }));
    let child = await childAgent(page, '/e2e/frames-child');
    await expect(page.locator(badge)).toBeVisible();
    // Long enough for the child's guide load and the election: still no badge there.
    await child.waitForTimeout(1500);
    await expect(child.locator(badge)).toHaveCount(0);

    await page.goto('about:blank');
    await openHostPage('/e2e/frames-host', hostPage({
      init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${uniqueId('frames-leader')}' }, frames: { leaderKeys: ['editor'] } });`,
      body: iframe('/e2e/frames-child', 'data-waymark-leader-key="editor"'),
    }));
    child = await childAgent(page, '/e2e/frames-child');
    await expect(child.locator(badge)).toBeVisible();
    await expect(page.locator(badge)).toHaveCount(0);
  });

  test('guides §4 frame visibility: a display:none iframe is hidden, and one out of view too: its guide waits; shown once the iframe is in view', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('frames-visibility');
    await routeDocument(page, serverUrl, '/e2e/frames-guide-child', CHILD);
    await openHostPage('/e2e/frames-guide-host', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-frames', visitor: { id: '${visitor}' } });`, body: `<h1>Host page</h1>${iframe('/e2e/frames-guide-child').replace('style="', 'style="display: none; ')}` }));
    await agentReady(page);
    const child = await childAgent(page, '/e2e/frames-guide-child');
    const history = () => child.evaluate(() => ((window as any).waymark.getLogHistory() as Array<{ message: string }>).map((e) => e.message));
    const activeGuide = () => child.evaluate(() => (window as any).waymark.getActiveGuide()?.guideId ?? null);
    await expect.poll(history).toContain('frame visibility: hidden');
    // Several guide loop ticks, past the wait for an unknown visibility: the guide is loaded, not shown.
    await child.waitForTimeout(2000);
    expect(await child.evaluate(() => (window as any).waymark.getActiveGuides().map((g: { guideId: string }) => g.guideId))).toEqual(['e2e-frames']);
    expect(await activeGuide()).toBeNull();

    // Displayed but below the fold: its target has a box now, yet the frame cannot be seen, so still nothing.
    await page.locator('#child').evaluate((el: HTMLElement) => Object.assign(el.style, { display: 'block', marginTop: '3000px' }));
    await expect.poll(() => child.evaluate(() => document.getElementById('frame-target')!.getBoundingClientRect().width)).toBeGreaterThan(0);
    await child.waitForTimeout(1500);
    expect(await activeGuide()).toBeNull();
    await expect(child.locator('[data-waymark-overlay] .wm-tooltip')).toHaveCount(0);
    expect(await history()).not.toContain('frame visibility: visible');

    await page.locator('#child').scrollIntoViewIfNeeded();
    await expect.poll(history).toContain('frame visibility: visible');
    await expect(child.locator('[data-waymark-overlay] .wm-tooltip')).toContainText('Inside the frame');
    expect(await activeGuide()).toBe('e2e-frames');
    await page.screenshot({ path: screenshotPath('frames-guide-in-iframe.png') });
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-frames', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.filter((e) => e.type === 'guideSeen').map((e) => new URL(e.url).pathname)).toEqual(['/e2e/frames-guide-child']);
  });

  test('teardown stops the rescan: an iframe added afterwards gets no agent', async ({ page, serverUrl, openHostPage }) => {
    await routeDocument(page, serverUrl, '/e2e/frames-child', CHILD);
    await routeDocument(page, serverUrl, '/e2e/frames-late', CHILD);
    await openHostPage('/e2e/frames-host', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-frames', visitor: { id: '${uniqueId('frames-teardown')}' } });`, body: iframe('/e2e/frames-child') }));
    await agentReady(page);
    await childAgent(page, '/e2e/frames-child');
    await page.evaluate(() => (window as any).waymark.teardown());
    await page.evaluate(() => {
      const late = document.createElement('iframe');
      late.src = '/e2e/frames-late';
      document.body.appendChild(late);
    });
    await expect.poll(() => page.frames().some((f) => f.url().includes('/e2e/frames-late'))).toBe(true);
    const late = page.frames().find((f) => f.url().includes('/e2e/frames-late'))!;
    await late.waitForLoadState('load');
    // Four rescans' worth.
    await page.waitForTimeout(1000);
    expect(await late.evaluate(() => 'waymark' in window)).toBe(false);
  });

  test('analytics §8: an npm install (its waymark.js unknown) installs into no frame and says so once, at debug, and nothing else', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    // The npm entry (dist/esm/waymark.js) at the server's root, so its files beside it are the server's dist/agent.
    await routeDocument(page, serverUrl, '/e2e/frames-child', CHILD);
    const entry = new URL('/waymark.npm-entry.js', serverUrl);
    await page.route((url) => url.href === entry.href, (route) => route.fulfill({ contentType: 'text/javascript', body: readFileSync('dist/esm/waymark.js', 'utf8') }));
    const visitor = uniqueId('frames-npm');
    await openHostPage('/e2e/frames-npm', `<!doctype html><html><head><meta charset="utf-8"><title>npm host</title>
<script type="module">import { waymark } from '/waymark.npm-entry.js'; window.npmAgent = waymark; waymark.initialize({ apiKey: 'e2e-frames', visitor: { id: '${visitor}' } });</script>
</head><body>${iframe('/e2e/frames-child')}</body></html>`);
    await page.waitForFunction(() => (window as any).npmAgent?.isReady?.() === true);
    const lines = () => page.evaluate(() => ((window as any).npmAgent.getLogHistory() as Array<{ level: string; message: string }>));
    await expect.poll(async () => (await lines()).some((l) => l.message === MESSAGES.noAgentUrl)).toBe(true);
    await page.waitForTimeout(1000);
    const history = await lines();
    expect(history.filter((l) => l.message === MESSAGES.noAgentUrl)).toEqual([{ level: 'debug', message: MESSAGES.noAgentUrl, time: expect.any(Number) }]);
    expect(history.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    expect(consoleLines.filter((l) => l.includes('[Waymark]') && /frame/i.test(l))).toEqual([]);
    const child = page.frames().find((f) => f.url().includes('/e2e/frames-child'))!;
    expect(await child.evaluate(() => 'waymark' in window)).toBe(false);
    await page.evaluate(() => (window as any).npmAgent.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e-frames', visitorId: visitor }, (e) => e.some((x) => x.type === 'load'));
  });
});
