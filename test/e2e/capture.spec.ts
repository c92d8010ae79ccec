/**
 * Issue #4 (capture part), analytics §1, §9: focus, submit, change, unload and hidden events, and a
 * single-page app's page changes counted once each.
 */
import { agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

test.describe('analytics §1 capture of form and page events', () => {
  test('focus, change and submit on the demo form carry the element, never a typed value', async ({ page, serverUrl }) => {
    const visitor = uniqueId('form');
    await page.goto(`${serverUrl}/settings?visitor=${visitor}`);
    await agentReady(page);
    await page.fill('#settings-name', 'Typed Name Secret');
    await page.selectOption('#settings-timezone', { index: 0 });
    await page.fill('#settings-password', 'pw-never-sent');
    await page.click('#save-settings');
    const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor }, (e) => e.some((x) => x.type === 'submit'));
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.props.target.id);
    expect(of('focus')).toEqual(expect.arrayContaining(['settings-name', 'settings-password', 'save-settings']));
    expect(of('change')).toEqual(expect.arrayContaining(['settings-name', 'settings-timezone']));
    expect(of('submit')).toEqual(['settings-form']);
    const text = JSON.stringify(events);
    expect(text).not.toContain('Typed Name Secret');
    expect(text).not.toContain('pw-never-sent');
  });

  test('an SPA page change is one load event, whichever way the URL changed', async ({ page, serverUrl }) => {
    const visitor = uniqueId('spa');
    // Not the home page: its welcome lightbox is modal and would take the clicks.
    await page.goto(`${serverUrl}/settings?visitor=${visitor}`);
    await agentReady(page);
    await page.locator('nav').getByText('Reports').click();
    await expect(page).toHaveURL(/\/reports/);
    await page.waitForTimeout(700); // past one URL poll, which must not count it again
    await page.goBack();
    await expect(page).toHaveURL(/\/settings\?visitor=/);
    await page.evaluate(() => (location.hash = 'section-2'));
    await page.evaluate(() => history.replaceState(null, '', location.href)); // same URL: no page change
    await page.waitForTimeout(700);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const loads = (await storedEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor, type: 'load' })).map((e) => new URL(e.url));
    expect(loads.map((u) => u.pathname + u.hash)).toEqual(['/settings', '/reports', '/settings', '/settings#section-2']);
  });

  test('a checkbox toggled three times in a row is one change event; a toggle 5000 ms after the last is another', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('change');
    // The page clock: the shim reads Date.now() (the worker's clock is not faked, and need not be).
    await page.clock.install();
    await openHostPage(
      '/e2e/change',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`,
        body: '<label><input type="checkbox" id="opt-in"> Opt in</label><label><input type="checkbox" id="other"> Other</label>',
      }),
    );
    await agentReady(page);
    for (let i = 0; i < 3; i++) await page.click('#opt-in');
    await page.click('#other');
    // Page time also flows on its own between the steps, so a margin below the 5,000 ms window.
    await page.clock.fastForward(4000);
    await page.click('#opt-in'); // about 4 s after the last: still a repeat, and the window starts again
    await page.clock.fastForward(5000);
    await page.click('#opt-in');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const changes = await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'change' });
    expect(changes.map((e) => e.props.target.id)).toEqual(['opt-in', 'other', 'opt-in']);
    // Every click is still a click.
    expect(await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'click' })).toHaveLength(6);
  });

  test('leaving the page records hidden and unload, delivered with the page-hide beacon', async ({ page, serverUrl }) => {
    const visitor = uniqueId('unload');
    await page.route(`${serverUrl}/elsewhere-static`, (route) => route.fulfill({ contentType: 'text/html', body: 'bye' }));
    await page.goto(`${serverUrl}/reports?visitor=${visitor}`);
    await agentReady(page);
    await page.goto(`${serverUrl}/elsewhere-static`);
    const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor }, (e) => e.some((x) => x.type === 'unload'));
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'unload')).toHaveLength(1);
    expect(types.indexOf('unload')).toBeGreaterThan(types.indexOf('load'));
  });
});

test.describe('analytics §4 frustration', () => {
  test('six quick clicks on one spot are one rage click, the one that makes the burst (the console counts bursts)', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('rage-burst');
    await openHostPage(
      '/e2e/rage-burst',
      `<!doctype html><html><head><script src="/waymark.js"></script><script>waymark.initialize({ apiKey: 'e2e-frustration', visitor: { id: '${visitor}' }, initializeImmediately: true });</script></head><body><button id="stuck" style="margin:40px">Stuck</button></body></html>`,
    );
    await agentReady(page);
    for (let i = 0; i < 6; i++) await page.click('#stuck', { delay: 0 });
    await page.waitForTimeout(1000);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const clicks = await storedEvents(serverUrl, { apiKey: 'e2e-frustration', visitorId: visitor, type: 'click' });
    expect(clicks.map((c) => (c.props.frustrationTypes ?? []).includes('rageClick'))).toEqual([false, false, false, true, false, false]);
  });

  test('four quick clicks on one spot are rage clicks; a slower fifth is not', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('rage');
    await openHostPage(
      '/e2e/rage',
      `<!doctype html><html><head><script src="/waymark.js"></script><script>waymark.initialize({ apiKey: 'e2e-frustration', visitor: { id: '${visitor}' }, initializeImmediately: true });</script></head><body><button id="stuck" style="margin:40px">Stuck</button></body></html>`,
    );
    await agentReady(page);
    for (let i = 0; i < 4; i++) await page.click('#stuck', { delay: 0 });
    await page.waitForTimeout(1100);
    await page.click('#stuck');
    await page.waitForTimeout(1000); // past the 500 ms dead-click watch and the tick that tells it (a flush would release it unjudged)
    await page.evaluate(() => (window as any).waymark.flushNow());
    const clicks = await storedEvents(serverUrl, { apiKey: 'e2e-frustration', visitorId: visitor, type: 'click' });
    // The button does nothing, so every click is also a dead click; rage marks only the 4th.
    expect(clicks.map((c) => (c.props.frustrationTypes ?? []).includes('rageClick'))).toEqual([false, false, false, true, false]);
    expect(clicks.every((c) => c.props.frustrationTypes.includes('deadClick'))).toBe(true);
    expect(typeof clicks[0]!.props.x).toBe('number');
  });

  test('leaving a page and coming back within 7 s is a U-turn, in an SPA and across full page loads', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('uturn');
    const html = `<!doctype html><html><head><script src="/waymark.js"></script><script>waymark.initialize({ apiKey: 'e2e-frustration', visitor: { id: '${visitor}' }, initializeImmediately: true });</script></head><body>page</body></html>`;
    await openHostPage('/e2e/uturn-a', html);
    await agentReady(page);
    await page.evaluate(() => history.pushState(null, '', '/e2e/uturn-b'));
    await page.waitForTimeout(600);
    await page.evaluate(() => history.back());
    await page.waitForTimeout(600);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await openHostPage('/e2e/uturn-c', html);
    await agentReady(page);
    await openHostPage('/e2e/uturn-a', html);
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const loads = await storedEvents(serverUrl, { apiKey: 'e2e-frustration', visitorId: visitor, type: 'load' });
    expect(loads.map((l) => [new URL(l.url).pathname, l.props.frustrationTypes ?? []])).toEqual([
      ['/e2e/uturn-a', []],
      ['/e2e/uturn-b', []],
      ['/e2e/uturn-a', ['uTurn']],
      ['/e2e/uturn-c', []],
      ['/e2e/uturn-a', ['uTurn']],
    ]);
  });
});

test.describe('analytics §4 dead and error clicks', () => {
  test.use({ allowAgentErrors: [/the host handler broke/] });

  test('a click with no effect in 500 ms is dead; one that changes the page is not; one followed by an error is an error click', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('dead');
    await openHostPage(
      '/e2e/dead',
      `<!doctype html><html><head><script src="/waymark.js"></script><script>waymark.initialize({ apiKey: 'e2e-frustration', visitor: { id: '${visitor}' }, initializeImmediately: true });</script></head>
      <body><div id="nothing" style="padding:20px">Looks clickable</div>
      <button id="works" onclick="document.getElementById('out').textContent = 'done'">Works</button><p id="out"></p>
      <button id="broken" onclick="throw new Error('the host handler broke')">Broken</button></body></html>`,
    );
    await agentReady(page);
    await page.click('#nothing');
    await page.waitForTimeout(700);
    await page.click('#works');
    await page.waitForTimeout(700);
    await page.click('#broken');
    // The verdict is told on the agent's first tick (250 ms) after the 500 ms watch.
    await page.waitForTimeout(1000);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const clicks = await storedEvents(serverUrl, { apiKey: 'e2e-frustration', visitorId: visitor, type: 'click' });
    const byId = Object.fromEntries(clicks.map((c) => [c.props.target.id, c.props]));
    expect(byId.nothing.frustrationTypes).toEqual(['deadClick']);
    expect(byId.works.frustrationTypes).toBeUndefined();
    expect(byId.broken.frustrationTypes).toEqual(['deadClick', 'errorClick']);
    expect(byId.broken.errorMessage).toBe('the host handler broke');
  });
});

test.describe('analytics §3 event property rules', () => {
  test('a click on a feature carries its event properties from the page; a password value never', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('props');
    await openHostPage(
      '/e2e/props',
      hostPage({
        init: `window.e2eApp = { account: { tier: 'gold' } }; waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`,
        body: `<input id="e2e-seats" value="12"> <input id="e2e-secret" type="password" value="hunter2">
          <button class="e2e-buy" data-plan="pro"><span id="buy-label">Buy</span></button> <button id="other">Other</button>`,
      }),
    );
    await agentReady(page);
    await page.waitForTimeout(800); // the first guide load brings the rules
    await page.click('#buy-label');
    await page.click('#other');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'click' }, (e) => e.length >= 2);
    const buy = events.find((e) => e.props.target?.parentElem?.cls === 'e2e-buy' || e.props.target?.cls === 'e2e-buy')!;
    expect(buy.props.event_properties).toEqual({ plan: 'pro', seats: '12', tier: 'gold' });
    expect(JSON.stringify(events)).not.toContain('hunter2');
    expect(events.find((e) => e !== buy)!.props.event_properties).toBeUndefined();
  });

  test.describe('slow', () => {
    test.use({ allowAgentErrors: [/Event property collection took/] });

    test('a collection over 50 ms is disabled with a critical error', async ({ page, serverUrl, openHostPage, consoleLines }) => {
      const visitor = uniqueId('props-slow');
      await openHostPage(
        '/e2e/props-slow',
        hostPage({
          init: `window.e2eSlow = { get value() { const t = performance.now(); while (performance.now() - t < 80); return 'late'; } };
            waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`,
          body: '<button class="e2e-slow" id="slow">Slow</button>',
        }),
      );
      await agentReady(page);
      await page.waitForTimeout(800);
      await page.click('#slow');
      await expect.poll(() => consoleLines.some((l) => /Event property collection took \d+ ms, over 50 ms: disabled/.test(l))).toBe(true);
      await page.click('#slow');
      await page.evaluate(() => (window as any).waymark.flushNow());
      const clicks = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'click' }, (e) => e.length >= 2);
      // The first click still carries what it collected; the second, after the disable, nothing.
      expect(clicks.map((c) => c.props.event_properties)).toEqual([{ slow: 'late' }, undefined]);
    });
  });
});

test.describe('analytics §9 element data limits', () => {
  // A button 25 levels deep with 70 long attributes and 2,000 characters of text.
  const body = `<main id="limits"></main><script>
    let parent = document.getElementById('limits');
    for (let i = 1; i <= 25; i++) { const d = document.createElement('div'); d.id = 'level-' + i; parent.appendChild(d); parent = d; }
    const b = document.createElement('button');
    b.id = 'deep';
    for (let i = 0; i < 70; i++) b.setAttribute('data-a' + i, 'v'.repeat(300));
    b.textContent = 't'.repeat(2000);
    b.style.cssText = 'max-width:300px;overflow:hidden;white-space:nowrap';
    parent.appendChild(b);
  </script>`;

  for (const [captureText, limit] of [[true, 128], ['extended', 1024]] as const) {
    test(`a click keeps 64 attributes of 256 characters, 20 levels, and ${limit} characters of text with captureText: ${JSON.stringify(captureText)}`, async ({ page, serverUrl, openHostPage }) => {
      const visitor = uniqueId('limits');
      await openHostPage('/e2e/limits', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-limits', visitor: { id: '${visitor}' }, captureText: ${JSON.stringify(captureText)} });`, body }));
      await agentReady(page);
      await page.click('#deep');
      await page.evaluate(() => (window as any).waymark.flushNow());
      const events = await waitForEvents(serverUrl, { apiKey: 'e2e-limits', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
      const target = events.find((e) => e.type === 'click')!.props.target;
      expect(target.id).toBe('deep');
      expect(target.txt).toBe('t'.repeat(limit));
      const values = Object.values(target.attrs as Record<string, string>);
      expect(values).toHaveLength(64);
      expect(values.every((v) => v === 'v'.repeat(256))).toBe(true);
      const levels: string[] = [];
      for (let e = target; e; e = e.parentElem) levels.push(e.id);
      // The button and 19 ancestors: level-25 up to level-7; the rest of the walk is cut.
      expect(levels).toHaveLength(20);
      expect(levels.at(-1)).toBe('level-7');
    });
  }
});

test.describe('analytics §5 host data that JSON cannot carry as it is', () => {
  test('metadata with a method and a cycle, and track properties with a function: every event arrives, as plain data, and the page sees no error', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('plain');
    // A user model as apps keep one: a method, a BigInt, a store entry that points back at itself.
    const init = `var prefs = { theme: 'dark' }; prefs.owner = prefs;
      waymark.initialize({ apiKey: 'e2e-plain', visitor: { id: '${visitor}', plan: 'pro', seats: BigInt(12), prefs: prefs, save: function () {} } });`;
    await openHostPage('/e2e/plain', hostPage({ init, body: '<button id="go">Go</button>' }));
    await agentReady(page);
    await page.evaluate(() => {
      const w = (window as any).waymark;
      w.track('before', { n: 1 });
      w.track('with a function', { n: 2, onDone: () => 'x' });
      w.track('after', { n: 3 });
    });
    await page.click('#go');
    expect(await page.evaluate(() => (window as any).waymark.flushNow())).toMatchObject({ pending: 0, errors: [] });
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-plain', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
    expect(events.map((e) => e.type)).toEqual(['identify', 'meta', 'load', 'track', 'track', 'track', 'focus', 'click']);
    expect(events.filter((e) => e.type === 'track').map((e) => e.props)).toEqual([
      expect.objectContaining({ n: 1 }),
      expect.objectContaining({ n: 2 }),
      expect.objectContaining({ n: 3 }),
    ]);
    expect(events.find((e) => e.type === 'meta')!.props.visitor).toMatchObject({ id: visitor, plan: 'pro', seats: '12', prefs: { theme: 'dark', owner: '[Circular]' } });
  });
});
