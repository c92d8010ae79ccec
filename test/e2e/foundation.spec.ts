/**
 * Issue #2: the whole path end to end in Chromium against the reference server.
 * shim -> worker -> collector for clicks; guide.json -> tooltip -> guide events for guides.
 */
import { MESSAGES } from '../../shared/messages';
import { agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

test.describe('analytics §1 click capture reaches the collector', () => {
  test('a click on the demo is stored with its element data, after identify, meta and load', async ({ page, serverUrl, consoleLines }) => {
    const visitor = uniqueId('click');
    await page.goto(`${serverUrl}/settings?visitor=${visitor}`);
    await agentReady(page);
    await page.click('#settings-form button[type="submit"]');
    const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(['identify', 'meta', 'load']);
    const click = events.find((e) => e.type === 'click')!;
    expect(click.url).toBe(`${serverUrl}/settings?visitor=${visitor}`);
    expect(click.account_id).toBe('acme');
    expect(click.props.flags).toEqual(['left']);
    const target = click.props.target;
    expect(target.tag).toBe('BUTTON');
    expect(target.attrs.type).toBe('submit');
    // The ancestor path climbs to BODY through the form.
    const chain: string[] = [];
    for (let el = target; el; el = el.parentElem) chain.push(el.tag);
    expect(chain).toContain('FORM');
    expect(chain.at(-1)).toBe('BODY');
    expect(typeof click.sequence).toBe('number');
    expect(click.bytes).toBeGreaterThan(100);
    expect(consoleLines.filter((l) => l.startsWith('[Waymark]') && /error|fail/i.test(l))).toEqual([]);
  });

  test('a password field is never captured as a value', async ({ page, serverUrl }) => {
    const visitor = uniqueId('pw');
    await page.goto(`${serverUrl}/settings?visitor=${visitor}`);
    await agentReady(page);
    await page.fill('input[type="password"]', 'hunter2-secret');
    await page.click('input[type="password"]');
    const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor, type: 'click' }, (e) => e.length > 0);
    expect(JSON.stringify(events)).not.toContain('hunter2-secret');
  });
});

test.describe('guides §2 tooltip on the demo', () => {
  for (const how of ['Escape', 'close button'] as const) {
    test(`appears anchored to its target and is dismissed by the ${how}`, async ({ page, serverUrl }) => {
      const visitor = uniqueId('tip');
      await page.goto(`${serverUrl}/reports?visitor=${visitor}`);
      const tooltip = page.locator('[data-waymark-overlay] .wm-tooltip');
      await expect(tooltip).toBeVisible();
      await expect(tooltip).toContainText('Create your first report');
      await expect(tooltip.locator('button[aria-label="close"]')).toHaveText('\u00d7');

      // Anchored: the tooltip sits just above or below the button and overlaps it horizontally.
      const target = (await page.locator('#create-report').boundingBox())!;
      await expect.poll(async () => {
        const box = (await tooltip.boundingBox())!;
        const below = Math.abs(box.y - (target.y + target.height) - 15) <= 2;
        const above = Math.abs(target.y - (box.y + box.height) - 15) <= 2;
        const overlaps = box.x < target.x + target.width && box.x + box.width > target.x;
        return (below || above) && overlaps;
      }).toBe(true);
      await page.screenshot({ path: `test-results/screens/tooltip-${how.replace(' ', '-')}.png` });

      if (how === 'Escape') await page.keyboard.press('Escape');
      else await tooltip.locator('button[aria-label="close"]').click();
      await expect(tooltip).toHaveCount(0);

      const events = await waitForEvents(
        serverUrl,
        { apiKey: 'demo-app', visitorId: visitor },
        (e) => e.some((x) => x.type === 'guideDismissed'),
      );
      const guideEvents = events.filter((e) => e.type.startsWith('guide') && e.props.guide_id === 'reports-tip');
      const seen = guideEvents.findIndex((e) => e.type === 'guideSeen');
      const dismissed = guideEvents.findIndex((e) => e.type === 'guideDismissed');
      expect(seen).toBeGreaterThanOrEqual(0);
      expect(dismissed).toBeGreaterThan(seen);
      expect(guideEvents[seen]!.props).toMatchObject({ guide_id: 'reports-tip', guide_step_id: 'reports-tip-1', reason: 'auto' });
      expect(guideEvents[dismissed]!.props).toMatchObject({ guide_step_id: 'reports-tip-1', seen_reason: 'auto' });
      expect(guideEvents[dismissed]!.props.duration).toBeGreaterThanOrEqual(0);

      // A dismissed guide stays dismissed across a reload: the server answers with its seenState.
      await page.reload();
      await agentReady(page);
      await page.waitForTimeout(1200);
      await expect(tooltip).toHaveCount(0);
    });
  }

  test('the welcome lightbox shows on the home page and its button dismisses it', async ({ page, serverUrl }) => {
    const visitor = uniqueId('welcome');
    await page.goto(`${serverUrl}/?visitor=${visitor}`);
    const dialog = page.locator('[data-waymark-overlay] [role="dialog"]');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Welcome to Acme Analytics');
    await expect(dialog).toBeFocused();
    await page.screenshot({ path: 'test-results/screens/welcome-lightbox.png' });
    await dialog.getByRole('button', { name: 'Got it' }).click();
    await expect(dialog).toHaveCount(0);
    const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed'));
    const activity = events.find((e) => e.type === 'guideActivity')!;
    expect(activity.props).toMatchObject({ guide_id: 'welcome', ui_element_type: 'BUTTON', ui_element_actions: [{ action: 'dismissGuide' }] });
  });
});

test.describe('guides §4 multi-step tooltip', () => {
  test('Next advances to the second step, showing Step 1 of 2 then Step 2 of 2', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('steps');
    await openHostPage(
      '/e2e/steps',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`,
        body: `<p style="margin:80px"><button id="e2e-first">First</button></p><p style="margin:80px"><button id="e2e-second">Second</button></p>`,
      }),
    );
    const step = page.locator('[data-waymark-overlay] .wm-tooltip');
    await expect(step).toContainText('First stop');
    await expect(step).toContainText('Step 1 of 2');
    await step.getByRole('button', { name: 'Next' }).click();
    await expect(step).toContainText('Second stop');
    await expect(step).toContainText('Step 2 of 2');
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.filter((x) => x.type === 'guideSeen').length === 2);
    const advanced = events.find((e) => e.type === 'guideAdvanced')!;
    expect(advanced.props).toMatchObject({ guide_step_id: 'e2e-steps-1', destination_step_id: 'e2e-steps-2' });
  });
});

test.describe('guides §1 initialization', () => {
  test.use({ allowAgentErrors: [] });

  test('without an apiKey it logs the spec message and sends nothing', async ({ page, openHostPage, consoleLines }) => {
    const dataRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/data/')) dataRequests.push(r.url());
    });
    await openHostPage('/e2e/no-key', hostPage({ init: 'waymark.initialize({});', body: '<button id="b">Click</button>' }));
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.apiKeyMissing))).toBe(true);
    await page.click('#b');
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => (window as any).waymark.isReady())).toBe(false);
    expect(dataRequests).toEqual([]);
  });

  test('a second initialize logs that initialization is needed once only', async ({ page, openHostPage, consoleLines }) => {
    await openHostPage(
      '/e2e/twice',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: 'twice' } }); waymark.initialize({ apiKey: 'e2e' });` }),
    );
    await agentReady(page);
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.initializeOnce))).toBe(true);
  });

  test('commands called before the shim loaded are replayed in order', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('queued');
    // Hold waymark.js back so the page's calls certainly land in the snippet's queue first.
    await page.route(`${serverUrl}/waymark.js`, async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await openHostPage(
      '/e2e/queued',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}-anon' } });
          waymark.track('Queued one', { n: 1 });
          waymark.identify('${visitor}', 'acct-9');
          waymark.track('Queued two', { n: 2 });
          window.queuedBeforeLoad = typeof waymark.getVersion !== 'function';`,
      }),
    );
    expect(await page.evaluate(() => (window as any).queuedBeforeLoad)).toBe(true);
    await agentReady(page);
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.track_event_name === 'Queued two'));
    const before = await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: `${visitor}-anon` });
    expect(before.map((e) => e.track_event_name ?? e.type)).toEqual(['identify', 'meta', 'load', 'Queued one']);
    expect(events.map((e) => e.track_event_name ?? e.type)).toEqual(['identify', 'Queued two']);
    expect(events[0]!.props).toEqual({
      old_visitor_id: `${visitor}-anon`,
      old_account_id: '',
      visitor_id: visitor,
      account_id: 'acct-9',
    });
    expect(events[1]!.props).toEqual({ n: 2 });
    expect(events[1]!.account_id).toBe('acct-9');
  });
});

test.describe('guides §1 public API', () => {
  test('the global name is configurable through the snippet', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('global');
    const html = hostPage({ init: `acme.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } }); acme.track('Named global');` })
      .replace("})(window, document, 'waymark',", "})(window, document, 'acme',");
    await openHostPage('/e2e/global', html);
    await agentReady(page, 'acme');
    expect(await page.evaluate(() => ({ waymark: typeof (window as any).waymark, visitor: (window as any).acme.getVisitorId(), version: (window as any).acme.getVersion() })))
      .toEqual({ waymark: 'undefined', visitor, version: '0.1.0' });
    await page.evaluate(() => (window as any).acme.flushNow());
    const events = await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'track' });
    expect(events.map((e) => e.track_event_name)).toEqual(['Named global']);
  });

  test('showGuideById shows a loaded guide whatever its page rule, hideGuides hides it', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('api');
    await openHostPage('/e2e/api', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    await agentReady(page);
    const dialog = page.locator('[data-waymark-overlay] [role="dialog"]');
    await page.waitForTimeout(700);
    await expect(dialog).toHaveCount(0);
    expect(await page.evaluate(() => (window as any).waymark.showGuideById('welcome'))).toBe(true);
    await expect(dialog).toContainText('Welcome to Acme Analytics');
    expect(await page.evaluate(() => (window as any).waymark.showGuideById('no-such-guide'))).toBe(false);
    await page.evaluate(() => (window as any).waymark.hideGuides());
    await expect(dialog).toHaveCount(0);
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: 'welcome', reason: 'api' });
  });
});

test.describe('analytics §1 lock and unlock, §5 track validation', () => {
  test.use({ allowAgentErrors: [/Must provide valid (name|type) string for event tracking/] });

  test("track refuses a bad name or type with the spec's words; while locked nothing is written; unlocked, events flow again", async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('lock');
    await openHostPage('/e2e/lock', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    await agentReady(page);
    await page.evaluate(() => {
      const w = (window as any).waymark;
      w.track('');
      w.track('typed', {}, 42);
      w.track('before lock');
      w.stopSendingEvents();
      w.track('while locked');
    });
    expect(await page.evaluate(() => (window as any).waymark.isSendingEvents())).toBe(false);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await page.evaluate(() => {
      const w = (window as any).waymark;
      w.startSendingEvents();
      w.track('after unlock');
      return w.flushNow();
    });
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'track' }, (e) => e.some((x) => x.track_event_name === 'after unlock'));
    expect(events.map((e) => e.track_event_name)).toEqual(['before lock', 'after unlock']);
    expect(consoleLines.filter((l) => l.includes('Must provide valid'))).toEqual([
      expect.stringContaining(MESSAGES.invalidTrackName),
      expect.stringContaining(MESSAGES.invalidTrackType),
    ]);
    expect(MESSAGES.invalidTrackName).toBe('Must provide valid name string for event tracking');
  });
});
