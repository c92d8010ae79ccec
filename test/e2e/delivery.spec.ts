/**
 * Issue #3: every event delivered exactly once. Faults are injected with Playwright routes (STYLE §6):
 * the page's and the worker's requests to the collector pass through them.
 */
import type { Page, Route } from '@playwright/test';
import { agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

const BUTTONS = '<button id="a">A</button><button id="b">B</button><button id="c">C</button><a id="leave" href="/e2e/elsewhere">Leave</a>';

function page(visitor: string): string {
  return hostPage({ init: `waymark.initialize({ apiKey: 'e2e-delivery', visitor: { id: '${visitor}' } });`, body: BUTTONS });
}

/** Event types these tests follow (a real click also yields a focus event; leaving yields hidden/unload). */
const FOLLOWED = new Set(['identify', 'meta', 'load', 'click', 'track']);
const followed = (types: string[]) => types.filter((t) => FOLLOWED.has(t));

/** Every stored event of the visitor, checked to be unique by (frameId, sequence). */
async function exactlyOnce(serverUrl: string, visitor: string) {
  const events = await storedEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor });
  const keys = events.map((e) => `${e.frameId}/${e.sequence}`);
  expect(new Set(keys).size, `no duplicates among ${keys.join(' ')}`).toBe(keys.length);
  return events;
}

async function clickAll(p: Page): Promise<void> {
  for (const id of ['a', 'b', 'c']) await p.click(`#${id}`);
}

test.describe('analytics §7, §9 delivery under faults', () => {
  test.use({ allowAgentErrors: [] });

  test('20 consecutive 5xx, then recovery: every event stored once, rt counting the retries', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('5xx');
    const retries: string[] = [];
    let failures = 0;
    await p.route('**/data/ptm.gif/**', (route: Route) => {
      retries.push(new URL(route.request().url()).searchParams.get('rt') ?? '0');
      if (failures < 20) {
        failures++;
        // 500, not 503: a 503 asks for a pause (the next test), which flushNow respects.
        return route.fulfill({ status: 500, body: 'collector failed' });
      }
      return route.continue();
    });
    await openHostPage('/e2e/faults', page(visitor));
    await agentReady(p);
    await clickAll(p);
    // The back-off would wait up to 64 s between tries; flushNow tries at once, as a host would after a
    // reconnect. Bounded: at most 30 attempts.
    for (let i = 0; i < 30 && failures < 20; i++) await p.evaluate(() => (window as any).waymark.flushNow());
    expect(failures).toBe(20);
    const report = await p.evaluate(() => (window as any).waymark.flushNow());
    expect(report.pending).toBe(0);
    const events = await exactlyOnce(serverUrl, visitor);
    expect(followed(events.map((e) => e.type))).toEqual(['identify', 'meta', 'load', 'click', 'click', 'click']);
    expect(events.filter((e) => e.type === 'click').map((e) => e.props.target.id)).toEqual(['a', 'b', 'c']);
    // The same batch was retried with rt = 1, 2, ... 20 and then went through.
    const firstBatch = retries.slice(0, 21);
    expect(firstBatch).toEqual(['0', ...Array.from({ length: 20 }, (_, i) => String(i + 1))]);
  });

  test('a 503 with Retry-After pauses every beacon of the agent (flushNow included) that long, then all is stored once', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('pause');
    const tries: Array<{ at: number; path: string }> = [];
    let answered503At = 0;
    await p.route(/\/data\/(?:ptm|guide)\.gif\//, (route: Route) => {
      const path = new URL(route.request().url()).pathname.split('/')[2]!;
      tries.push({ at: Date.now(), path });
      if (!answered503At && path === 'ptm.gif') {
        answered503At = Date.now();
        return route.fulfill({ status: 503, headers: { 'retry-after': '3', 'access-control-allow-origin': '*' }, body: 'busy' });
      }
      return route.continue();
    });
    await openHostPage('/e2e/pause', page(visitor));
    await agentReady(p);
    await clickAll(p);
    await expect.poll(() => answered503At).toBeGreaterThan(0);
    // flushNow during the pause sends nothing and says what waits.
    const report = await p.evaluate(() => (window as any).waymark.flushNow());
    expect(report.sent).toBe(0);
    expect(report.pending).toBeGreaterThan(0);
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor }, (e) => e.filter((x) => x.type === 'click').length === 3);
    expect(events.filter((e) => e.type === 'click').map((e) => e.props.target.id)).toEqual(['a', 'b', 'c']);
    // Nothing went to the collector before the 3 s it asked for (back-off alone would have asked again after 1 s).
    const during = tries.filter((t) => t.at > answered503At && t.at < answered503At + 3000);
    expect(during).toEqual([]);
    await exactlyOnce(serverUrl, visitor);
  });

  test.describe('offline', () => {
    // The whole collector is unreachable, the guide.gif probe included: that refusal is logged as it should be.
    test.use({ allowAgentErrors: [/Guides disabled: unreachable endpoint guide\.gif/] });

    test('collector unreachable (simulated offline), then reachable: nothing lost, nothing doubled', async ({ page: p, serverUrl, openHostPage }) => {
      const visitor = uniqueId('offline');
      let offline = true;
      let refused = 0;
      await p.route('**/data/**', (route: Route) => {
        if (!offline) return route.continue();
        refused++;
        return route.abort('internetdisconnected');
      });
      await openHostPage('/e2e/offline', page(visitor));
      await agentReady(p);
      await clickAll(p);
      for (let i = 0; i < 5; i++) {
        const report = await p.evaluate(() => (window as any).waymark.flushNow());
        expect(report.pending).toBeGreaterThan(0);
        expect(report.errors[0].code).toBe('network');
      }
      expect(refused).toBeGreaterThanOrEqual(5);
      offline = false;
      await p.evaluate(() => (window as any).waymark.flushNow());
      const events = await waitForEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor }, (e) => e.filter((x) => x.type === 'click').length === 3);
      expect(events.filter((e) => e.type === 'click')).toHaveLength(3);
      await exactlyOnce(serverUrl, visitor);
    });
  });

  test('page hide with the worker unable to send: the page-hide beacon (source pagehide) delivers what the page holds', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('pagehide');
    await openHostPage('/e2e/pagehide', page(visitor));
    await agentReady(p);
    await p.evaluate(() => (window as any).waymark.flushNow());
    // The worker's beacons (GETs) fail; the page stays, so the route holds for the whole test. The event is
    // the one the browser fires when a visitor leaves (the leaving itself is the next test).
    await p.route('**/data/ptm.gif/**', (route: Route) =>
      route.request().method() === 'GET' ? route.abort('connectionrefused') : route.continue(),
    );
    await p.evaluate(() => {
      document.getElementById('b')!.click();
      setTimeout(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })), 30);
    });
    const clicks = await waitForEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'click', source: 'pagehide' }, (e) => e.length === 1);
    expect(clicks[0]!.props.target.id).toBe('b');
    expect((await storedEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'unload', source: 'pagehide' }))).toHaveLength(1);
    await exactlyOnce(serverUrl, visitor);
  });

  test.describe('transports in order', () => {
    // The page's own refused fetch is one line in its console, as Chromium writes any refused request.
    test.use({ allowAgentErrors: [/Failed to load resource: net::ERR_CONNECTION_REFUSED/] });

    test('page hide with fetch and sendBeacon refused: XHR, the last transport, delivers what the page holds', async ({ page: p, serverUrl, openHostPage }) => {
      const visitor = uniqueId('pagehide-xhr');
      await openHostPage('/e2e/pagehide-xhr', page(visitor));
      await agentReady(p);
      await p.evaluate(() => (window as any).waymark.flushNow());
      // analytics §7 transports in order: the worker's beacons fail, the page's keepalive fetch is refused and its
      // sendBeacon refuses (a full beacon quota answers false); only an XHR can bring the click.
      const tried: string[] = [];
      await p.route('**/data/ptm.gif/**', (route: Route) => {
        const request = route.request();
        if (request.method() === 'GET') return route.abort('connectionrefused');
        tried.push(request.resourceType());
        return request.resourceType() === 'xhr' ? route.continue() : route.abort('connectionrefused');
      });
      await p.evaluate(() => {
        const beacons: string[] = [];
        (window as any).refusedBeacons = beacons;
        navigator.sendBeacon = (url: string | URL) => (beacons.push(String(url)), false);
        document.getElementById('b')!.click();
        setTimeout(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })), 30);
      });
      const clicks = await waitForEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'click', source: 'pagehide' }, (e) => e.length === 1);
      expect(clicks[0]!.props.target.id).toBe('b');
      expect(tried).toEqual(['fetch', 'xhr']);
      expect(await p.evaluate(() => (window as any).refusedBeacons.length)).toBe(1);
      await exactlyOnce(serverUrl, visitor);
    });
  });

  test('click, then leave within 50 ms for a page without the agent: both clicks stored once (by the page-hide beacon or the worker)', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('leave');
    await p.route(`${serverUrl}/e2e/elsewhere`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>No agent here</p>' }));
    await openHostPage('/e2e/leave', page(visitor));
    await agentReady(p);
    await p.evaluate(() => (window as any).waymark.flushNow());
    // The worker's beacons fail while the page lives. As the page goes away, Playwright can no longer answer
    // the worker's requests (their target is gone) and lets them through, so the worker's copy may arrive
    // as well as the page-hide beacon's: whichever comes first is stored, once.
    await p.route('**/data/ptm.gif/**', (route: Route) =>
      route.request().method() === 'GET' ? route.abort('connectionrefused') : route.continue(),
    );
    await p.evaluate(() => {
      document.getElementById('b')!.click();
      setTimeout(() => document.getElementById('leave')!.click(), 30);
    });
    await p.waitForURL('**/e2e/elsewhere');
    await waitForEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'click' }, (e) => e.length >= 2);
    await p.waitForTimeout(1000);
    const clicks = await storedEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'click' });
    expect(clicks.map((e) => e.props.target.id)).toEqual(['b', 'leave']);
    await exactlyOnce(serverUrl, visitor);
  });

  test('events left in IndexedDB by a page whose beacons all failed are sent by the next load, once', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('idb');
    let firstLoad = true;
    // The first load's every beacon fails, its page-hide POST included; the reload's GETs go through.
    await p.route('**/data/ptm.gif/**', (route: Route) =>
      firstLoad || route.request().method() === 'POST' ? route.fulfill({ status: 503, body: 'down' }) : route.continue(),
    );
    await openHostPage('/e2e/idb', page(visitor));
    await agentReady(p);
    await clickAll(p);
    const report = await p.evaluate(() => (window as any).waymark.flushNow());
    // identify, meta, load, and a focus and a click for each of the three buttons.
    expect(report.pending).toBe(9);
    const stored = await p.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('waymark');
          open.onsuccess = () => {
            const req = open.result.transaction('unsent-events').objectStore('unsent-events').getAllKeys();
            req.onsuccess = () => resolve(req.result.length);
          };
        }),
    );
    expect(stored).toBeGreaterThan(0);
    expect(await storedEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor })).toEqual([]);

    firstLoad = false;
    await p.reload();
    await agentReady(p);
    const events = await waitForEvents(
      serverUrl,
      { apiKey: 'e2e-delivery', visitorId: visitor },
      (e) => e.filter((x) => x.type === 'click').length === 3 && e.filter((x) => x.type === 'load').length === 2,
    );
    // The first load's events (its frameId) and the reload's own.
    expect(new Set(events.map((e) => e.frameId)).size).toBe(2);
    await p.waitForTimeout(1500);
    const all = await exactlyOnce(serverUrl, visitor);
    expect(all.filter((e) => e.type === 'click')).toHaveLength(3);
    expect(followed(all.map((e) => e.type))).toEqual(['identify', 'meta', 'load', 'click', 'click', 'click', 'identify', 'meta', 'load']);
  });

  test('guide events whose beacons failed wait in IndexedDB and the next page sends them, once', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('guide-idb');
    // test/e2e/guides/e2e-banner.json shows on /e2e/banner.
    await openHostPage('/e2e/banner?first', bannerPage(visitor));
    const banner = p.locator('[data-waymark-overlay] .wm-banner');
    await expect(banner).toBeVisible();
    await p.route('**/data/guide.gif/**', (route: Route) => route.fulfill({ status: 503, body: 'down' }));
    await banner.getByRole('button', { name: 'close' }).click();
    await expect(banner).toHaveCount(0);
    const report = await p.evaluate(() => (window as any).waymark.flushNow());
    expect(report.pending).toBeGreaterThan(0);
    expect(await storedEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'guideDismissed' })).toEqual([]);

    // The page's own copy of the guide events (its page-hide beacon, issue #32) cannot go either: a route does not
    // hold a request the leaving page makes (it may go through unanswered), so the page's transports refuse it.
    await p.evaluate(() => {
      const down = (url: unknown) => String(url).includes('/data/guide.gif/');
      const fetched = window.fetch;
      window.fetch = (input, init) => (down(input) ? Promise.reject(new TypeError('collector down')) : fetched(input, init));
      const beacon = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, body) => !down(url) && beacon(url, body);
      const open = XMLHttpRequest.prototype.open as (this: XMLHttpRequest, ...args: unknown[]) => void;
      XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
        if (down(args[1])) throw new TypeError('collector down');
        open.apply(this, args);
      } as typeof XMLHttpRequest.prototype.open;
    });
    await p.goto('about:blank');
    await p.unroute('**/data/guide.gif/**');
    await openHostPage('/e2e/banner?second', bannerPage(visitor));
    await agentReady(p);
    await guideDismissedOnce(serverUrl, visitor, 'worker');
  });

  test('a guide dismissed 30 ms before leaving is stored exactly once (by the leaving page or from IndexedDB by the next)', async ({ page: p, serverUrl, openHostPage }) => {
    const visitor = uniqueId('guide-leave');
    await p.route(`${serverUrl}/e2e/elsewhere`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>No agent here</p>' }));
    await openHostPage('/e2e/banner?first', bannerPage(visitor));
    const banner = p.locator('[data-waymark-overlay] .wm-banner');
    await expect(banner).toBeVisible();
    // Guide beacons fail while the page lives. As the page goes away, an intercepted request may be let
    // through unanswered by the route (its target is gone), so either copy can be the one stored.
    await p.route('**/data/guide.gif/**', (route: Route) => route.abort('connectionrefused'));
    await banner.getByRole('button', { name: 'close' }).click();
    await p.waitForTimeout(30);
    await p.click('#leave');
    await p.waitForURL('**/e2e/elsewhere');
    await p.unroute('**/data/guide.gif/**');
    await openHostPage('/e2e/banner?second', bannerPage(visitor));
    await agentReady(p);
    await guideDismissedOnce(serverUrl, visitor, 'either');
  });
});

function bannerPage(visitor: string): string {
  return hostPage({
    init: `waymark.initialize({ apiKey: 'e2e-delivery', visitor: { id: '${visitor}' } });`,
    body: '<a id="leave" href="/e2e/elsewhere">Leave</a>',
  });
}

/**
 * The first page's guideDismissed, stored once with the first page's frameId: from the worker (restored by the next
 * page), or `either` from it or from the leaving page's copy (its page-hide beacon, issue #32).
 */
async function guideDismissedOnce(serverUrl: string, visitor: string, from: 'worker' | 'either'): Promise<void> {
  const query = { apiKey: 'e2e-delivery', visitorId: visitor, type: 'guideDismissed' };
  const [dismissed] = await waitForEvents(serverUrl, query, (e) => e.length > 0);
  const loads = await waitForEvents(serverUrl, { apiKey: 'e2e-delivery', visitorId: visitor, type: 'load' }, (e) => e.length === 2);
  expect(dismissed!.props.guide_id).toBe('e2e-banner');
  expect(dismissed!.frameId).toBe(loads[0]!.frameId);
  if (from === 'worker') expect(await storedEvents(serverUrl, { ...query, source: 'worker' })).toHaveLength(1);
  // Nothing more comes: the restored copy and any retry are the same event.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await storedEvents(serverUrl, query)).toHaveLength(1);
}
