/**
 * Issue #16, startup: the agent's start touches none of the browser's stores (local and session storage, the
 * cookie for a given visitor, the tab-clone BroadcastChannel, the CSPRNG); they are read once the page is idle
 * (shim/whenIdle.ts), where their first touch is cheap. What they keep still works: the session across pages
 * (analytics §4), the tab id and its clone marker (analytics §3, §4, §9), the session's traffic source
 * (identity.spec), guide state, logging and debugging switches (their own specs).
 */
import { agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

/**
 * Records every touch of a store, and whether the page had run an idle callback yet. Installed before any
 * script of the page, so the agent's script evaluation and start are seen too.
 */
function watchStores(): void {
  const w = window as unknown as { __touches: Array<{ what: string; afterIdle: boolean }> };
  w.__touches = [];
  let afterIdle = false;
  const note = (what: string) => w.__touches.push({ what, afterIdle });
  const idle = window.requestIdleCallback.bind(window);
  window.requestIdleCallback = (cb, options) => idle((deadline) => ((afterIdle = true), cb(deadline)), options);
  for (const method of ['getItem', 'setItem', 'removeItem'] as const) {
    const original = Storage.prototype[method] as (...args: unknown[]) => unknown;
    (Storage.prototype as unknown as Record<string, unknown>)[method] = function (this: Storage, ...args: unknown[]) {
      note(`${method} ${String(args[0])}`);
      return original.apply(this, args);
    };
  }
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get() {
      note('cookie read');
      return cookie.get!.call(this);
    },
    set(value: string) {
      note('cookie write');
      cookie.set!.call(this, value);
    },
  });
  const Channel = window.BroadcastChannel;
  window.BroadcastChannel = class extends Channel {
    constructor(name: string) {
      note(`BroadcastChannel ${name}`);
      super(name);
    }
  };
  const random = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = ((array: ArrayBufferView) => (note('getRandomValues'), random(array as Uint32Array))) as typeof crypto.getRandomValues;
}

test.describe('issue #16 the start off the browser stores', () => {
  test('an identified visitor: no store is touched before idle time; then the session, tab and clone marker are kept, and events carry them', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('startup-stores');
    const visitor = uniqueId('startup-v');
    await page.addInitScript(watchStores);
    const html = hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });` });
    await openHostPage('/e2e/startup-stores', html);
    await agentReady(page);
    // Idle time comes within a second of the start (requestIdleCallback's timeout); the session is written then. Waited
    // for in the watch's own record: reading local storage here would be a touch of the store before idle time.
    await expect
      .poll(() => page.evaluate((key) => (window as unknown as { __touches: Array<{ what: string }> }).__touches.some((t) => t.what === `setItem _wm_session.${key}`), apiKey))
      .toBe(true);
    const touches = await page.evaluate(() => (window as unknown as { __touches: Array<{ what: string; afterIdle: boolean }> }).__touches);
    expect(touches.filter((t) => !t.afterIdle)).toEqual([]);
    const after = touches.map((t) => t.what);
    expect(after).toEqual(expect.arrayContaining([`getItem _wm_session.${apiKey}`, 'getItem _wm_tabId', 'setItem _wm_tabAlive', `BroadcastChannel waymark-${apiKey}`, 'getRandomValues']));

    const stored = await page.evaluate((key) => ({
      session: JSON.parse(localStorage.getItem(`_wm_session.${key}`)!) as { sessionId: string },
      tabId: sessionStorage.getItem('_wm_tabId'),
    }), apiKey);
    const first = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'load'));
    // The events captured before idle time (identify, meta, load) went with init, under the stored session and tab.
    expect(first.map((e) => e.type).slice(0, 3)).toEqual(['identify', 'meta', 'load']);
    for (const event of first) expect([event.sessionId, event.tabId]).toEqual([stored.session.sessionId, stored.tabId]);

    // analytics §4: the next page of the tab continues the session and the tab.
    await openHostPage('/e2e/startup-stores-2', html);
    await agentReady(page);
    const next = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.filter((x) => x.type === 'load').length >= 2);
    const last = next.filter((e) => e.type === 'load').at(-1)!;
    expect([last.sessionId, last.tabId]).toEqual([stored.session.sessionId, stored.tabId]);
  });

  test('events and an identify before idle time: init goes first, and every event keeps the visitor it was captured under', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('startup-early');
    const before = uniqueId('early-a');
    const after = uniqueId('early-b');
    // identify right after initialize, as many hosts do once their login state is known: it cannot wait for idle.
    const html = hostPage({
      init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${before}' } }); addEventListener('load', function () { waymark.track('early'); waymark.identify('${after}'); });`,
    });
    await openHostPage('/e2e/startup-early', html);
    await agentReady(page);
    const a = await waitForEvents(serverUrl, { apiKey, visitorId: before }, (e) => e.some((x) => x.track_event_name === 'early'));
    expect(a.map((e) => e.type)).toEqual(['identify', 'meta', 'load', 'track']);
    const b = await waitForEvents(serverUrl, { apiKey, visitorId: after }, (e) => e.some((x) => x.type === 'identify'));
    expect(b[0]!.props).toMatchObject({ old_visitor_id: before, visitor_id: after });
    expect(b[0]!.sessionId).toBeTruthy();
  });
  test("guide state an earlier page kept is read with the other stores and honoured: a 451 for this visitor stops tracking (guides §7, §8)", async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('startup-state');
    const visitor = uniqueId('startup-denied');
    await page.addInitScript(([key, id]) => localStorage.setItem(`_wm_guides.${key}`, JSON.stringify({ visitorId: id, denied: true })), [apiKey, visitor]);
    await openHostPage('/e2e/startup-state', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });` }));
    await agentReady(page);
    await expect.poll(() => consoleLines.some((l) => l.includes('tracking of this visitor is stopped'))).toBe(true);
    await page.evaluate(() => (window as any).waymark.track('after-451'));
    await page.evaluate(() => (window as any).waymark.flushNow());
    expect(await storedEvents(serverUrl, { apiKey, visitorId: visitor })).toEqual([]);
  });
});
