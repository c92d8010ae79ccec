/**
 * Issue #7 install paths: the host page on one origin, the agent (waymark.js, its worker and chunks) and the
 * collector on the reference server's origin. The host origin is a small server of the test's own on
 * another port of 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { agentReady, expect, hostPage, SNIPPET, storedEvents, test, uniqueId, waitForEvents } from './fixtures';
import { startHostServer, type HostFiles } from './hostServer';

/** The snippet's JavaScript without its HTML comment and script tags, to serve as a file under CSP. */
const SNIPPET_JS = SNIPPET.replace(/<!--[\s\S]*?-->/, '').replace(/<\/?script>/g, '');

/** Serves `files` from a new host origin for the test, opens `path` there, and answers the origin. */
async function openForeignPage(page: Page, path: string, files: HostFiles): Promise<string> {
  const host = await startHostServer(files);
  hosts.push(host);
  await page.goto(`${host.origin}${path}`);
  return host.origin;
}

const hosts: Array<{ close(): Promise<void> }> = [];
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const html = 'text/html; charset=utf-8';
const js = 'text/javascript; charset=utf-8';

test.describe('issue #7 install from another origin', () => {
  test('waymark.js from the collector\'s origin, no workerUrl: a blob: worker imports the agent\'s worker; events are stored', async ({ page, serverUrl }) => {
    const visitor = uniqueId('blob');
    const origin = await openForeignPage(page, '/app', {
      '/app': {
        type: html,
        body: hostPage({ scriptUrl: `${serverUrl}/waymark.js`, init: `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });`, body: '<button id="b">B</button>' }),
      },
    });
    await agentReady(page);
    await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('blob');
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
    expect(new URL(events.find((e) => e.type === 'load')!.url).origin).toBe(origin);
  });

  test('with workerUrl, the host\'s own copy of the worker runs as a dedicated worker', async ({ page, serverUrl }) => {
    const visitor = uniqueId('worker-url');
    const workerRequests: string[] = [];
    page.on('request', (r) => r.url().endsWith('.worker.js') && workerRequests.push(r.url()));
    const origin = await openForeignPage(page, '/app', {
      '/app': {
        type: html,
        body: hostPage({
          scriptUrl: `${serverUrl}/waymark.js`,
          init: `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' }, workerUrl: '/static/waymark.worker.js' });`,
        }),
      },
      '/static/waymark.worker.js': { type: js, body: readFileSync('dist/agent/waymark.worker.js', 'utf8') },
    });
    await agentReady(page);
    await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('worker');
    expect(workerRequests).toEqual([`${origin}/static/waymark.worker.js`]);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'load'));
  });

  test.describe('CSP without blob: workers', () => {
    test.use({ allowAgentErrors: [/worker-src|Refused to create a worker/] });

    test('strict CSP (worker-src \'self\', no blob:) and no workerUrl: the worker code runs on the main thread, with a warning; events are stored and a guide shows', async ({ page, serverUrl, consoleLines }) => {
      const visitor = uniqueId('main-thread');
        const csp = [
        "default-src 'self'",
        `script-src 'self' ${serverUrl}`,
        `connect-src ${serverUrl}`,
        "style-src 'self'",
        "worker-src 'self'",
        `img-src 'self' ${serverUrl}`,
      ].join('; ');
      const init = `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });`;
      const origin = await openForeignPage(page, '/e2e/banner', {
        '/e2e/banner': {
          type: html,
          headers: { 'content-security-policy': csp },
          // No inline style either: style-src 'self' refuses style attributes; the button sits below the banner.
          body: `<!doctype html><html><head><meta charset="utf-8"><title>CSP host</title><script src="/app.js"></script></head><body>${'<p>Host content</p>'.repeat(8)}<button id="b">B</button></body></html>`,
        },
        '/app.js': {
          type: js,
          body: SNIPPET_JS.replace("waymark.initialize({ apiKey: 'YOUR_API_KEY' });", init).replace("'/waymark.js'", `'${serverUrl}/waymark.js'`),
        },
      });
      await agentReady(page);
      await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('main-thread');
      expect(consoleLines.some((l) => l.includes('Waymark runs its worker code on the main thread'))).toBe(true);
      // The banner guide of test/e2e/guides matches /e2e/banner on any origin.
      await expect(page.locator('[data-waymark-overlay] .wm-banner')).toContainText('Scheduled maintenance on Sunday');
      await page.click('#b');
      await page.evaluate(() => (window as any).waymark.flushNow());
      await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
      const seen = await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor, type: 'guideSeen' }, (e) => e.length === 1);
      expect(seen[0]!.props.guide_id).toBe('e2e-banner');
      expect(await storedEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor, type: 'load' })).toHaveLength(1);
    });
  });

  test.describe('same origin, strict CSP', () => {
    /** Serves `html` at `path` on the server's origin with `headers` (a CSP), and opens it. */
    async function openWithHeaders(page: Page, serverUrl: string, path: string, html: string, headers: Record<string, string>): Promise<void> {
      await page.route((url) => url.origin === serverUrl && url.pathname === path, (route) => route.fulfill({ contentType: html_, headers, body: html }));
      await page.goto(`${serverUrl}${path}`);
    }
    const html_ = 'text/html; charset=utf-8';

    /** The agent runs in its worker, the banner guide of /e2e/banner shows, and a click and the guideSeen are stored. */
    async function expectWorkerModeEventsAndBanner(page: Page, serverUrl: string, visitor: string): Promise<void> {
      await agentReady(page);
      await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('worker');
      await expect(page.locator('[data-waymark-overlay] .wm-banner')).toContainText('Scheduled maintenance on Sunday');
      await page.click('#b');
      await page.evaluate(() => (window as any).waymark.flushNow());
      await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'click') && e.some((x) => x.type === 'guideSeen'));
    }

    test("the issue's strict CSP (default-src, script-src, style-src and worker-src all 'self') with the agent on the page's origin: a dedicated worker, events, a guide", async ({ page, serverUrl }) => {
      const visitor = uniqueId('strict-self');
      const csp = "default-src 'self'; script-src 'self'; style-src 'self'; worker-src 'self'";
      const init = `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });`;
      await page.route(`${serverUrl}/e2e-static/snippet.js`, (route) => route.fulfill({ contentType: js, body: SNIPPET_JS.replace("waymark.initialize({ apiKey: 'YOUR_API_KEY' });", init) }));
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>strict</title><script src="/e2e-static/snippet.js"></script></head>
<body>${'<p>Host content</p>'.repeat(8)}<button id="b">B</button></body></html>`;
      await openWithHeaders(page, serverUrl, '/e2e/banner', html, { 'content-security-policy': csp });
      await expectWorkerModeEventsAndBanner(page, serverUrl, visitor);
    });

    test("a nonce CSP with 'strict-dynamic' (no unsafe-inline, no unsafe-eval, style-src 'self'): events flow and a guide renders", async ({ page, serverUrl }) => {
      const visitor = uniqueId('nonce');
      const csp = "default-src 'self'; script-src 'nonce-r4nd0m' 'strict-dynamic'; style-src 'self'; worker-src 'self'; connect-src 'self'; img-src 'self'";
      const html = hostPage({
        init: `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });`,
        body: `${'<p>Host content</p>'.repeat(8)}<button id="b">B</button>`,
      }).replace('<script>', '<script nonce="r4nd0m">');
      await openWithHeaders(page, serverUrl, '/e2e/banner', html, { 'content-security-policy': csp });
      await expectWorkerModeEventsAndBanner(page, serverUrl, visitor);
    });

    // The test's own refused assignment at the end is logged by the browser; until then there must be none.
    test.use({ allowAgentErrors: [/requires 'TrustedScriptURL' assignment/] });

    test("Trusted Types (require-trusted-types-for 'script'; trusted-types waymark): the worker starts and a step's script runs through the agent's policy", async ({ page, serverUrl, consoleLines }) => {
      const visitor = uniqueId('trusted-types');
      const csp = "require-trusted-types-for 'script'; trusted-types waymark";
      // Under Trusted Types the host loads waymark.js with a plain script tag (no script injection), after the queue stub.
      const stub = SNIPPET_JS.slice(0, SNIPPET_JS.indexOf('w.setTimeout(')) + '})(window, document, \'waymark\');';
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>TT host</title>
<script>${stub}
waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });</script>
<script async src="/waymark.js" data-waymark-global="waymark"></script></head><body><p>Host</p></body></html>`;
      await page.route(`${serverUrl}/e2e-content/assets.css`, (route) => route.fulfill({ contentType: 'text/css', body: '#assets-title { color: rgb(200, 0, 0); }' }));
      await page.route(`${serverUrl}/e2e-content/assets.js`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'window.__waymarkStepScript = (window.__waymarkStepScript || 0) + 1;' }),
      );
      // test/e2e/guides/e2e-assets.json: a step with its own stylesheet and script (SRI) on /e2e/assets.
      await openWithHeaders(page, serverUrl, '/e2e/assets', html, { 'content-security-policy': csp });
      await agentReady(page);
      await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('worker');
      await expect(page.locator('[data-waymark-overlay] #assets-title')).toHaveText('Styled by its own sheet');
      await expect.poll(() => page.evaluate(() => (window as any).__waymarkStepScript)).toBe(1);
      expect(consoleLines.filter((l) => l.includes('TrustedScriptURL'))).toEqual([]);
      // The policy makes nothing for anyone else.
      const refused = await page.evaluate(() => {
        const s = document.createElement('script');
        try {
          s.src = 'https://attacker.example/x.js';
          return 'assigned';
        } catch (err) {
          return (err as Error).name;
        }
      });
      expect(refused).toBe('TypeError');
      await page.evaluate(() => (window as any).waymark.flushNow());
      await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    });
  });
});

test.describe('issue #7 a lazy chunk whose fetch fails once', () => {
  // The browser itself logs each dropped fetch ('Failed to load resource'); the agent logs nothing.
  test.use({ allowAgentErrors: [/^Failed to load resource: net::ERR_CONNECTION_RESET$/] });

  test('the guides and steps chunks are asked again under a retry URL, and the guide shows', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('chunk-retry');
    const asked: string[] = [];
    const versions = new Set<string | null>();
    for (const name of ['guides', 'steps']) {
      await page.route(new RegExp(`/waymark\\.${name}\\.js(\\?.*)?$`), (route) => {
        const url = new URL(route.request().url());
        const retry = url.searchParams.get('waymark_retry');
        versions.add(url.searchParams.get('v'));
        asked.push(`${url.pathname}${retry ? `?waymark_retry=${retry}` : ''}`);
        return retry ? route.continue() : route.abort('connectionreset');
      });
    }
    await openHostPage('/e2e/banner', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });`, body: '<p>Host</p>' }));
    await expect(page.locator('[data-waymark-overlay] .wm-banner')).toContainText('Scheduled maintenance on Sunday');
    expect(asked).toEqual(['/waymark.guides.js', '/waymark.guides.js?waymark_retry=1', '/waymark.steps.js', '/waymark.steps.js?waymark_retry=1']);
    // Each try keeps the build's version beside its marker (issue #34: a returning visitor's copy is immutable).
    expect([...versions]).toEqual([readFileSync('dist/agent/.version', 'utf8')]);
    expect(consoleLines.filter((l) => /did not load/.test(l))).toEqual([]);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
  });
});

test.describe("issue #34 a returning visitor's copies of the agent's files", () => {
  test('the chunks carry the build version and come from the browser cache on the next page; waymark.js is revalidated', async ({ page, serverUrl }) => {
    // A new visitor on each page, so that the banner shows on both (the browser's cache is the browser's).
    const body = hostPage({ scriptUrl: `${serverUrl}/waymark.js`, init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: new URLSearchParams(location.search).get('visitor') } });`, body: '<p>Host</p>' });
    // Served by a host server of its own: a routed page would turn the browser's HTTP cache off.
    const origin = await openForeignPage(page, `/e2e/banner?visitor=${uniqueId('returning')}`, { '/e2e/banner': { type: html, body } });
    const banner = page.locator('[data-waymark-overlay] .wm-banner');
    await expect(banner).toContainText('Scheduled maintenance on Sunday');
    const version = readFileSync('dist/agent/.version', 'utf8');
    /** This page's loads of the agent's files: the file, its `v`, and whether the server sent anything for it. */
    const agentFiles = () =>
      page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .map((e) => ({ url: new URL(e.name), transferSize: e.transferSize }))
          .filter(({ url }) => url.pathname.split('/').pop()!.startsWith('waymark.'))
          .map(({ url, transferSize }) => ({ file: url.pathname.split('/').pop()!, v: url.searchParams.get('v'), fromServer: transferSize > 0 })),
      );
    const first = await agentFiles();
    expect(first.filter((f) => f.file !== 'waymark.js').map((f) => f.file).sort()).toEqual(['waymark.guides.js', 'waymark.steps.js']);
    for (const f of first) expect(f, f.file).toMatchObject({ v: f.file === 'waymark.js' ? null : version, fromServer: true });
    const answered = await page.request.get(`${serverUrl}/waymark.steps.js?v=${version}`);
    expect(answered.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

    await page.goto(`${origin}/e2e/banner?visitor=${uniqueId('returning')}`);
    await expect(banner).toContainText('Scheduled maintenance on Sunday');
    const again = await agentFiles();
    // waymark.js is asked again (a 304 at most: a new release must reach the page); the chunks never are.
    expect(again).toEqual(expect.arrayContaining([{ file: 'waymark.js', v: null, fromServer: true }]));
    expect(again.filter((f) => f.file !== 'waymark.js')).toEqual(
      expect.arrayContaining([{ file: 'waymark.guides.js', v: version, fromServer: false }, { file: 'waymark.steps.js', v: version, fromServer: false }]),
    );
  });
});

test.describe('issue #16 a cross-origin isolated host (COOP same-origin, COEP require-corp)', () => {
  const isolatedHeaders = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

  /** The host page on the server's origin with the isolation headers; `stripWorkerCoep` takes COEP off the worker file. */
  async function openIsolated(page: Page, serverUrl: string, visitor: string, stripWorkerCoep: boolean): Promise<void> {
    const target = `${serverUrl}/e2e/isolated-${stripWorkerCoep ? 'bare' : 'coep'}`;
    await page.route(
      (url) => url.href === target,
      (route) => route.fulfill({ contentType: 'text/html', headers: isolatedHeaders, body: hostPage({ init: `waymark.initialize({ apiKey: 'e2e-install', visitor: { id: '${visitor}' } });`, body: '<button id="b">B</button>' }) }),
    );
    if (stripWorkerCoep) {
      await page.route('**/waymark.worker.js*', async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['cross-origin-embedder-policy'];
        await route.fulfill({ response, headers });
      });
    }
    await page.goto(target);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await agentReady(page);
  }

  test('the reference server sends COEP on the worker file: the agent runs in a worker, and events are stored', async ({ page, serverUrl }) => {
    const visitor = uniqueId('isolated');
    await openIsolated(page, serverUrl, visitor, false);
    await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('worker');
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
  });

  test.describe('a worker file without COEP', () => {
    test.use({ allowAgentErrors: [/Cross-Origin-Embedder-Policy|worker/i] });

    test('the worker is blocked; the agent says why in the console (the header the worker file needs) and runs on the main thread', async ({ page, serverUrl, consoleLines }) => {
      const visitor = uniqueId('isolated-bare');
      await openIsolated(page, serverUrl, visitor, true);
      await expect.poll(() => page.evaluate(() => (window as any).waymark.getWorkerMode())).toBe('main-thread');
      const notice = consoleLines.find((l) => l.includes('Waymark runs its worker code on the main thread'));
      expect(notice).toContain("'Cross-Origin-Embedder-Policy: require-corp'");
      expect(notice).toContain('cross-origin isolated');
      await page.click('#b');
      await page.evaluate(() => (window as any).waymark.flushNow());
      await waitForEvents(serverUrl, { apiKey: 'e2e-install', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
    });
  });
});
