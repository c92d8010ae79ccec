/**
 * Issue #7 "never hurt the host": no globals but the configured one, the history hooks undone by
 * teardown(), a second initialize after teardown, and guides that keep their looks and place on a page
 * whose CSS attacks everything.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminFetch, agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

/** Runs before the snippet: what the page had before the agent. */
const BEFORE = `<script>
  window.__hostKeys = Object.keys(window);
  window.__hostPushState = history.pushState;
  window.__hostReplaceState = history.replaceState;
  window.__hostFetch = window.fetch;
  window.__hostXhrOpen = XMLHttpRequest.prototype.open;
  window.__hostXhrSend = XMLHttpRequest.prototype.send;
</script>`;

test.describe('issue #7 never hurt the host', () => {
  test("one global, history hooks that behave like the browser's, and teardown() that takes everything back; initialize works again", async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('teardown');
    // promptCapture installs the documented fetch/XHR hooks too, so teardown must take those back as well.
    const init = `waymark.initialize({ apiKey: 'e2e-host', visitor: { id: '${visitor}' }, promptCapture: [{ agentId: 'bot', url: '/e2e/ai/chat' }] });`;
    await openHostPage('/e2e/teardown', hostPage({ head: BEFORE, init, body: '<button id="b">B</button>' }));
    await agentReady(page);
    const added = await page.evaluate(() => Object.keys(window).filter((k) => !(window as any).__hostKeys.includes(k) && !k.startsWith('__host')));
    expect(added).toEqual(['waymark']);
    // The fetch/XHR hooks come with the prompt-capture chunk, which loads after the agent is ready.
    await expect.poll(() => page.evaluate(() => window.fetch !== (window as any).__hostFetch)).toBe(true);

    // The hooked history methods answer and throw exactly as the browser's do.
    const behaviour = await page.evaluate(() => {
      const outcome = (fn: () => unknown) => {
        try {
          return { value: String(fn()) };
        } catch (err) {
          return { error: (err as DOMException).name };
        }
      };
      return {
        hooked: history.pushState !== (window as any).__hostPushState && window.fetch !== (window as any).__hostFetch,
        push: outcome(() => history.pushState({ n: 1 }, '', '/e2e/teardown?step=1')),
        replace: outcome(() => history.replaceState(null, '', '/e2e/teardown?step=2')),
        crossOrigin: outcome(() => history.pushState(null, '', 'https://elsewhere.example/')),
        state: JSON.stringify(history.state),
      };
    });
    expect(behaviour).toEqual({ hooked: true, push: { value: 'undefined' }, replace: { value: 'undefined' }, crossOrigin: { error: 'SecurityError' }, state: 'null' });

    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.teardown());
    await waitForEvents(serverUrl, { apiKey: 'e2e-host', visitorId: visitor, type: 'click' }, (e) => e.length === 1);
    const after = await page.evaluate(() => ({
      history: history.pushState === (window as any).__hostPushState && history.replaceState === (window as any).__hostReplaceState,
      network: window.fetch === (window as any).__hostFetch && XMLHttpRequest.prototype.open === (window as any).__hostXhrOpen &&
        XMLHttpRequest.prototype.send === (window as any).__hostXhrSend,
      ready: (window as any).waymark.isReady(),
      mode: (window as any).waymark.getWorkerMode(),
    }));
    expect(after).toEqual({ history: true, network: true, ready: false, mode: null });
    // Nothing is captured any more.
    await page.click('#b');
    await page.evaluate(() => history.pushState(null, '', '/e2e/teardown?step=3'));
    await page.waitForTimeout(800);
    expect(await storedEvents(serverUrl, { apiKey: 'e2e-host', visitorId: visitor, type: 'click' })).toHaveLength(1);

    // And it starts again.
    await page.evaluate((script) => new Function(script)(), init);
    await agentReady(page);
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const clicks = await waitForEvents(serverUrl, { apiKey: 'e2e-host', visitorId: visitor, type: 'click' }, (e) => e.length === 2);
    // A new start is a new frame: its sequence starts again, so the collector must not take it for a re-send.
    expect(new Set(clicks.map((e) => e.frameId)).size).toBe(2);
    const metas = await storedEvents(serverUrl, { apiKey: 'e2e-host', visitorId: visitor, type: 'meta' });
    expect(metas).toHaveLength(2);
  });

  test('a page whose CSS attacks everything: the tooltip keeps its look and sits under its target', async ({ page, openHostPage }, testInfo) => {
    const hostile = `<style>
      * { all: unset; box-sizing: content-box !important; font-family: "Comic Sans MS", cursive !important; }
      html, body { display: block; }
      body { transform: translateX(40px) scale(0.9); margin: 0; }
      div, p, button, h1, h2, h3, section { display: block; z-index: 2147483647 !important; position: relative; }
      #hostile-target { margin: 120px 0 0 200px; padding: 10px; width: 160px; background: orange; }
      style, script { display: none; }
    </style>`;
    await openHostPage('/e2e/hostile', hostPage({ head: hostile, init: `waymark.initialize({ apiKey: 'e2e-host', visitor: { id: '${uniqueId('hostile')}' } });`, body: '<button id="hostile-target">Target</button>' }));
    const tooltip = page.locator('[data-waymark-overlay] .wm-tooltip');
    await expect(tooltip).toContainText('Still readable');
    const target = (await page.locator('#hostile-target').boundingBox())!;
    const box = (await tooltip.boundingBox())!;
    // Below its target (layoutDir bottom), overlapping it horizontally, within the viewport.
    expect(box.y).toBeGreaterThanOrEqual(target.y + target.height);
    expect(box.y - (target.y + target.height)).toBeLessThan(40);
    expect(box.x).toBeLessThan(target.x + target.width);
    expect(box.x + box.width).toBeGreaterThan(target.x);
    // Our own font and layout, not the host's.
    const look = await page.locator('[data-waymark-overlay] .wm-tooltip h3').evaluate((el) => {
      const style = getComputedStyle(el);
      return { font: style.fontFamily, display: style.display };
    });
    expect(look.font).not.toContain('Comic Sans');
    expect(look.display).toBe('block');
    await page.screenshot({ path: testInfo.outputPath('hostile-page-tooltip.png') });
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(tooltip).toHaveCount(0);
  });

  test('open shadow roots: a click inside one is captured with its path through the boundary, and a guide targets an element inside (host >>> inner)', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('shadow');
    const widget = `<script>
      customElements.define('shadow-widget', class extends HTMLElement {
        connectedCallback() {
          const root = this.attachShadow({ mode: 'open' });
          root.innerHTML = '<div class="panel"><button id="inner-save" class="primary">Save</button><span id="status"></span></div>';
          root.getElementById('inner-save').addEventListener('click', () => (root.getElementById('status').textContent = 'Saved'));
        }
      });
    </script>`;
    await openHostPage('/e2e/shadow', hostPage({ head: widget, init: `waymark.initialize({ apiKey: 'e2e-host', visitor: { id: '${visitor}' } });`, body: '<main id="app"><shadow-widget id="w"></shadow-widget></main>' }));
    const tooltip = page.locator('[data-waymark-overlay] .wm-tooltip');
    await expect(tooltip).toContainText('Inside a web component');
    const inner = page.locator('shadow-widget #inner-save');
    const target = (await inner.boundingBox())!;
    const box = (await tooltip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(target.y + target.height);
    expect(box.x).toBeLessThan(target.x + target.width);
    expect(box.x + box.width).toBeGreaterThan(target.x);

    await inner.click();
    await page.waitForTimeout(600); // past the dead-click verdict
    await page.evaluate(() => (window as any).waymark.flushNow());
    const [click] = await waitForEvents(serverUrl, { apiKey: 'e2e-host', visitorId: visitor, type: 'click' }, (e) => e.length === 1);
    const chain: string[] = [];
    for (let el = click!.props.target; el; el = el.parentElem) chain.push(`${el.tag}${el.id ? `#${el.id}` : ''}`);
    expect(chain).toEqual(['BUTTON#inner-save', 'DIV', 'SHADOW-WIDGET#w', 'MAIN#app', 'BODY']);
    // The click changed the component's own DOM: an effect, so not a dead click.
    expect(click!.props.frustrationTypes ?? []).toEqual([]);
  });

  test('guides §9 a plain selector (a guide made for the original agent) finds its element inside nested open shadow roots', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-shadow-plain');
    const guide = {
      id: 'inner-tip', name: 'Inner tip', launchMethod: 'auto',
      steps: [{ id: 'inner-tip-1', type: 'tooltip', elementPathRule: '#deep-save', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: 'Two roots down' }] } }],
    };
    const headers = { 'content-type': 'application/json' };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/inner-tip`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
    await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/inner-tip/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers });
    // An app shell whose shadow root holds a panel whose own shadow root holds the button.
    const widgets = `<script>
      customElements.define('inner-panel', class extends HTMLElement {
        connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<button id="deep-save">Save</button>'; }
      });
      customElements.define('app-shell', class extends HTMLElement {
        connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<section style="padding:120px 0 0 200px"><inner-panel></inner-panel></section>'; }
      });
    </script>`;
    await openHostPage('/e2e/shadow-plain', hostPage({ head: widgets, init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'shadow-plain' } });`, body: '<app-shell></app-shell>' }));
    const tooltip = page.locator('[data-waymark-overlay] .wm-tooltip');
    await expect(tooltip).toContainText('Two roots down');
    const target = (await page.locator('app-shell inner-panel #deep-save').boundingBox())!;
    const box = (await tooltip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(target.y + target.height);
    expect(box.x).toBeLessThan(target.x + target.width);
    expect(box.x + box.width).toBeGreaterThan(target.x);
  });

  test('a browser that refuses storage (cookies blocked: local and session storage throw, no cookie is kept): the agent runs, shows guides, delivers, and the page sees no error', async ({ page, serverUrl }) => {
    await page.addInitScript(() => {
      for (const name of ['localStorage', 'sessionStorage']) {
        Object.defineProperty(window, name, { get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
      }
      Object.defineProperty(Document.prototype, 'cookie', { get: () => '', set: () => undefined });
    });
    const visitor = uniqueId('no-storage');
    await page.goto(`${serverUrl}/?visitor=${visitor}`);
    const welcome = page.locator('[data-waymark-overlay] [role="dialog"]', { hasText: 'Welcome to Acme Analytics' });
    await expect(welcome).toBeVisible();
    await welcome.getByRole('button', { name: 'Got it' }).click();
    await expect(welcome).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed'));
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(['identify', 'meta', 'load']);
  });

  test('a worker refused IndexedDB (the access throws, as in an opaque origin) still runs as a worker and delivers', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const prelude = "Object.defineProperty(self, 'indexedDB', { get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });\n";
    const worker = readFileSync(join(process.cwd(), 'dist/agent/waymark.worker.js'), 'utf8');
    await page.context().route(/\/waymark\.worker\.js(\?.*)?$/, (route) => route.fulfill({ contentType: 'text/javascript', body: prelude + worker }));
    const visitor = uniqueId('no-idb');
    await openHostPage('/e2e/no-idb', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-host', visitor: { id: '${visitor}' } });`, body: '<button id="go">Go</button>' }));
    await agentReady(page);
    await page.click('#go');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e-host', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
    expect(await page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('worker');
    expect(consoleLines.filter((l) => l.includes('runs its worker code on the main thread'))).toEqual([]);
  });
});
