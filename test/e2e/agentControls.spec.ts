/**
 * The agent's controls and checks that had no test yet (issue #17 "Smaller rows"), in Chromium against the
 * reference server: the lock (analytics §1), track validation (analytics §5), the selector-array checks of
 * initialize (analytics §8), disabled and disableGuides (analytics §8, guides §1), tab-clone detection
 * (analytics §4, §7, §9) and a badge's show-on-hover (guides §2). Each test has an api key of its own, so
 * neither guides, stored events nor the clone-detection broadcast channel are shared with other tests.
 */
import type { Page, Request } from '@playwright/test';
import { MESSAGES } from '../../shared/messages';
import { agentReady, expect, hostPage, publishGuide, storedEvents, test, uniqueId, waitForEvents, type StoredEvent } from './fixtures';

const overlay = '[data-waymark-overlay]';

/** Serves `html` at `path` of the server's origin on `p` (a page other than the fixture's) and opens it. */
async function openOn(p: Page, serverUrl: string, path: string, html: string): Promise<void> {
  const target = new URL(path, serverUrl);
  await p.route((url) => url.origin === target.origin && url.pathname === target.pathname, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await p.goto(target.href);
}

/** Stores `guide` for `apiKey` through the admin API and makes it public. */
/** Track event names (others by type), in stored order. */
const names = (events: StoredEvent[]) => events.map((e) => e.track_event_name ?? e.type);

const flush = (p: Page) => p.evaluate(() => (window as any).waymark.flushNow());

test.describe('analytics §1 lock: stopSendingEvents / startSendingEvents', () => {
  test('events captured while locked are never stored; after unlocking new events are stored again', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-lock');
    const visitor = uniqueId('lock');
    await openHostPage(
      '/e2e/controls-lock',
      hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body: '<button id="b">Press</button>' }),
    );
    await agentReady(page);
    expect(await page.evaluate(() => (window as any).waymark.isSendingEvents())).toBe(true);
    // Captured just before the lock, in the same task: it was captured unlocked, so it is written.
    const locked = await page.evaluate(() => {
      const w = (window as any).waymark;
      w.track('before lock');
      w.stopSendingEvents();
      w.track('while locked');
      return w.isSendingEvents();
    });
    expect(locked).toBe(false);
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.track('while locked, after a click'));
    await flush(page);

    await page.evaluate(() => {
      const w = (window as any).waymark;
      w.startSendingEvents();
      w.track('after unlock');
    });
    expect(await page.evaluate(() => (window as any).waymark.isSendingEvents())).toBe(true);
    await page.click('#b');
    await flush(page);

    // The queue is ordered: once the click after the unlock is stored, whatever came before it has arrived.
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));
    expect(names(events)).toEqual(['identify', 'meta', 'load', 'before lock', 'after unlock', 'click']);
  });
});

test.describe('analytics §5 track validation', () => {
  test.use({ allowAgentErrors: [new RegExp(`${MESSAGES.invalidTrackName}|${MESSAGES.invalidTrackType}`)] });

  test('an empty or non-string name and a non-string type log the spec messages and store nothing; a valid track is stored', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('e2e-track');
    const visitor = uniqueId('track');
    await openHostPage('/e2e/controls-track', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });` }));
    await agentReady(page);
    await page.evaluate(() => {
      const w = (window as any).waymark;
      w.track('');
      w.track(42, { bad: 'name' });
      w.track(undefined);
      w.track('Typed badly', { bad: 'type' }, 7);
      w.track('Typed empty', { bad: 'type' }, '');
      w.track('Report exported', { format: 'csv' }, 'feature');
    });
    await flush(page);
    const lines = () => consoleLines.filter((l) => l.includes(MESSAGES.invalidTrackName) || l.includes(MESSAGES.invalidTrackType));
    await expect.poll(() => lines().length).toBe(5);
    expect(lines().filter((l) => l.includes(MESSAGES.invalidTrackName))).toHaveLength(3);
    expect(lines().filter((l) => l.includes(MESSAGES.invalidTrackType))).toHaveLength(2);

    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor, type: 'track' }, (e) => e.length > 0);
    expect(events.map((e) => e.track_event_name)).toEqual(['Report exported']);
    expect(events[0]!.props).toEqual({ format: 'csv' });
    expect(events[0]!.track_event_type).toBe('feature');
  });
});

test.describe('analytics §8 initialize: inputCssSelectors and submitCssSelectors', () => {
  const body = `<div id="custom-input" class="fancy-input" tabindex="0" style="width:200px;height:30px;border:1px solid">pick</div>
    <div id="custom-submit" class="fancy-submit" role="button" style="width:120px;height:30px;background:#ddf">Send</div>
    <button id="elsewhere">Elsewhere</button>`;

  test.describe('not arrays', () => {
    test.use({ allowAgentErrors: [new RegExp(`${MESSAGES.inputSelectorsNotArray}|${MESSAGES.submitSelectorsNotArray}`)] });

    test('a selector option that is not an array logs the spec message and is ignored; the agent still runs', async ({ page, serverUrl, openHostPage, consoleLines }) => {
      const apiKey = uniqueId('e2e-selectors-bad');
      const visitor = uniqueId('selectors-bad');
      await openHostPage(
        '/e2e/controls-selectors-bad',
        hostPage({
          init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, inputCssSelectors: '.fancy-input', submitCssSelectors: { selector: '.fancy-submit' } });`,
          body,
        }),
      );
      await agentReady(page);
      expect(consoleLines.filter((l) => l.includes(MESSAGES.inputSelectorsNotArray))).toHaveLength(1);
      expect(consoleLines.filter((l) => l.includes(MESSAGES.submitSelectorsNotArray))).toHaveLength(1);
      await page.focus('#custom-input');
      await page.click('#custom-submit');
      await page.click('#elsewhere');
      await page.evaluate(() => (window as any).waymark.track('done'));
      await flush(page);
      const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.track_event_name === 'done'));
      expect(events.filter((e) => e.type === 'change' || e.type === 'submit')).toEqual([]);
      expect(events.filter((e) => e.type === 'click')).toHaveLength(2);
    });
  });

  test('arrays work: leaving a matched custom input stores a change event, a click on a matched custom button a submit event', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('e2e-selectors');
    const visitor = uniqueId('selectors');
    await openHostPage(
      '/e2e/controls-selectors',
      hostPage({
        init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, inputCssSelectors: ['.fancy-input'], submitCssSelectors: ['.fancy-submit'] });`,
        body,
      }),
    );
    await agentReady(page);
    await page.focus('#custom-input');
    await page.focus('#elsewhere');
    await page.click('#custom-submit');
    await page.evaluate(() => (window as any).waymark.track('done'));
    await flush(page);
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.track_event_name === 'done'));
    const change = events.filter((e) => e.type === 'change');
    expect(change).toHaveLength(1);
    expect(change[0]!.props.target).toMatchObject({ tag: 'DIV', id: 'custom-input' });
    const submit = events.filter((e) => e.type === 'submit');
    expect(submit).toHaveLength(1);
    expect(submit[0]!.props.target).toMatchObject({ tag: 'DIV', id: 'custom-submit' });
    // The submit follows the click it came from.
    expect(events.findIndex((e) => e.type === 'submit')).toBeGreaterThan(events.findIndex((e) => e.type === 'click'));
    expect(consoleLines.filter((l) => l.includes('must be an array'))).toEqual([]);
  });
});

test.describe('analytics §8 disabled', () => {
  test('initialize with disabled: true logs the disabled message, never starts, and sends nothing', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('e2e-disabled');
    const visitor = uniqueId('disabled');
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/data/') || r.url().includes('waymark.worker') || r.url().includes('waymark.guides')) requests.push(r.url());
    });
    await openHostPage(
      '/e2e/controls-disabled',
      hostPage({
        init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, disabled: true }); waymark.track('queued while disabled');`,
        body: '<button id="b">Press</button>',
      }),
    );
    await expect.poll(() => consoleLines.filter((l) => l.includes(MESSAGES.agentDisabled))).toHaveLength(1);
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.track('after disabled'));
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => (window as any).waymark.isReady())).toBe(false);
    expect(requests).toEqual([]);
    expect(await storedEvents(serverUrl, { apiKey })).toEqual([]);
  });
});

test.describe('guides §1 disableGuides', () => {
  test.use({ allowAgentErrors: [] });

  test('with disableGuides no guide.json is asked for, no guide shows and the guide API says so, while events are stored', async ({ page, serverUrl, openHostPage, browser, consoleLines }) => {
    const apiKey = uniqueId('e2e-noguides');
    await publishGuide(serverUrl, apiKey, {
      id: 'hello',
      name: 'Hello',
      launchMethod: 'auto',
      steps: [{ id: 'hello-1', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'Hello there' }] } }],
    });
    const html = (visitor: string, extra: string) => hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }${extra} });` });

    // Control: without the option the same page asks for guide.json and shows the guide. In a browser context of
    // its own: in this one its unsent guide events would be restored from IndexedDB and sent by the next page.
    const controlContext = await browser.newContext();
    const control = await controlContext.newPage();
    const controlRequests: string[] = [];
    control.on('request', (r: Request) => controlRequests.push(r.url()));
    await openOn(control, serverUrl, '/e2e/controls-guides', html(uniqueId('guides-on'), ''));
    await expect(control.locator(`${overlay} [role="dialog"]`)).toContainText('Hello there');
    expect(controlRequests.some((u) => u.includes('/data/guide.json/'))).toBe(true);
    await controlContext.close();

    const visitor = uniqueId('guides-off');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await openHostPage('/e2e/controls-guides', html(visitor, ', disableGuides: true'));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.track('still tracked'));
    await flush(page);
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.track_event_name === 'still tracked'));
    expect(names(events)).toEqual(['identify', 'meta', 'load', 'still tracked']);
    // The events went out through /data/ (so these requests are seen), guides did not.
    expect(requests.some((u) => u.includes('/data/ptm.gif/'))).toBe(true);

    const api = await page.evaluate(async () => {
      const w = (window as any).waymark;
      return { disabled: w.areGuidesDisabled(), shown: await w.showGuideById('hello'), active: w.getActiveGuide() };
    });
    expect(api).toEqual({ disabled: true, shown: false, active: null });
    expect(consoleLines.some((l) => l.includes('guides are disabled'))).toBe(true);
    await page.waitForTimeout(700);
    // The guides chunk still comes (it starts session recording when the app records, issue #18); no guide loop runs.
    expect(requests.filter((u) => /\/data\/guide\.(json|gif)\/|waymark\.overlay\.js/.test(u))).toEqual([]);
    await expect(page.locator(overlay)).toHaveCount(0);
  });
});

test.describe('analytics §4, §9 tab clones', () => {
  /** The page's session storage, every entry. */
  const sessionEntries = (p: Page) => p.evaluate(() => Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, sessionStorage.getItem(k)!])));
  const tabIdOf = (p: Page) => p.evaluate(() => sessionStorage.getItem('_wm_tabId'));

  /**
   * A duplicate of `original` as a browser makes one: a new page of the same browser whose session storage starts
   * as a copy of the original's (written before any script of the page runs), at the same URL.
   */
  async function duplicate(original: Page, serverUrl: string, path: string, html: string, keep: (key: string) => boolean): Promise<{ clone: Page; errors: string[] }> {
    const entries = Object.fromEntries(Object.entries(await sessionEntries(original)).filter(([k]) => keep(k)));
    const clone = await original.context().newPage();
    await clone.addInitScript((copied: Record<string, string>) => {
      if (sessionStorage.getItem('__e2e_duplicated')) return;
      for (const [k, v] of Object.entries(copied)) sessionStorage.setItem(k, v);
      sessionStorage.setItem('__e2e_duplicated', '1');
    }, entries);
    const errors: string[] = [];
    clone.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    clone.on('pageerror', (e) => errors.push(e.message));
    await openOn(clone, serverUrl, path, html);
    await agentReady(clone);
    return { clone, errors };
  }

  async function trackedTab(p: Page, serverUrl: string, apiKey: string, visitor: string, name: string): Promise<string> {
    await p.evaluate((n) => (window as any).waymark.track(n), name);
    await flush(p);
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor, type: 'track' }, (e) => e.some((x) => x.track_event_name === name));
    return events.find((x) => x.track_event_name === name)!.tabId as string;
  }

  for (const when of ['within 10 s (the clone marker copied)', 'later (the marker cleared, the broadcast channel decides)'] as const) {
    test(`a duplicated tab made ${when} takes a tab id of its own; the original keeps its own, also across a reload`, async ({ page, serverUrl, openHostPage }) => {
      const apiKey = uniqueId('e2e-clone');
      const visitor = uniqueId('clone');
      const path = '/e2e/controls-clone';
      const html = hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });` });
      await openHostPage(path, html);
      await agentReady(page);
      const original = await trackedTab(page, serverUrl, apiKey, visitor, 'original first');
      expect(original).toMatch(/^\w{16}$/);
      expect(await tabIdOf(page)).toBe(original);
      // The marker is there while the page lives (and for 10 s at most).
      expect(Object.keys(await sessionEntries(page))).toContain('_wm_tabAlive');

      const marked = when.startsWith('within');
      const { clone, errors } = await duplicate(page, serverUrl, path, html, (k) => marked || k !== '_wm_tabAlive');
      // The copy started with the original's tab id; the clone replaces it (at start from the marker, or once the
      // original answered its claim on the broadcast channel).
      await expect.poll(() => tabIdOf(clone)).not.toBe(original);
      const cloned = await trackedTab(clone, serverUrl, apiKey, visitor, 'in the clone');
      expect(cloned).not.toBe(original);
      expect(await tabIdOf(clone)).toBe(cloned);

      expect(await trackedTab(page, serverUrl, apiKey, visitor, 'original again')).toBe(original);
      expect(await tabIdOf(page)).toBe(original);
      expect(errors, 'no console errors in the clone').toEqual([]);

      // A reload is no clone: the page hide removes the marker first, and no other page holds the id.
      await page.reload();
      await agentReady(page);
      expect(await trackedTab(page, serverUrl, apiKey, visitor, 'original reloaded')).toBe(original);
      expect(await trackedTab(clone, serverUrl, apiKey, visitor, 'clone again')).toBe(cloned);
      await clone.close();
    });
  }
});

test.describe('guides §2 badge showOnHover', () => {
  test('a badge with showOnHover shows only while the pointer is over its target (or on the badge itself), and opens its guide', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-hover');
    const visitor = uniqueId('hover');
    await publishGuide(serverUrl, apiKey, {
      id: 'hover-help',
      name: 'Hover help',
      launchMethod: 'badge',
      attributes: { badge: { position: 'top-right', showOnHover: true, elementPathRule: '#hover-target' } },
      steps: [{ id: 'hover-help-1', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'Hover explained' }] } }],
    });
    await openHostPage(
      '/e2e/controls-hover',
      hostPage({
        init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`,
        body: '<div id="hover-target" style="margin:160px 0 0 240px;width:240px;height:60px;background:#eef">Revenue</div><p id="away" style="margin-top:200px">Away</p>',
      }),
    );
    await agentReady(page);
    const badge = page.locator(`${overlay} .wm-badge`);
    await page.mouse.move(5, 5);
    // Drawn (placed on the target) but hidden while the pointer is elsewhere.
    await expect(badge).toHaveCount(1);
    await expect(badge).toHaveAttribute('aria-label', 'Open guide: Hover help');
    await expect(badge).toBeHidden();

    const target = (await page.locator('#hover-target').boundingBox())!;
    await page.mouse.move(target.x + 40, target.y + target.height / 2);
    await expect(badge).toBeVisible();
    // Centred on the target's top-right corner.
    const b = (await badge.boundingBox())!;
    expect([Math.round(b.x + b.width / 2 - (target.x + target.width)), Math.round(b.y + b.height / 2 - target.y)]).toEqual([0, 0]);

    await page.mouse.move(5, 5);
    await expect(badge).toBeHidden();

    // From the target onto the badge (which sits on its corner): it stays, so it can be clicked.
    await page.mouse.move(target.x + target.width - 30, target.y + 10);
    await expect(badge).toBeVisible();
    await page.mouse.move(b.x + b.width / 2, b.y + 3, { steps: 5 });
    await page.waitForTimeout(100);
    await expect(badge).toBeVisible();
    // Off the badge to outside the target: hidden again.
    await page.mouse.move(b.x + b.width / 2, b.y - 40, { steps: 5 });
    await expect(badge).toBeHidden();

    await page.mouse.move(target.x + 40, target.y + target.height / 2);
    await expect(badge).toBeVisible();
    await badge.click();
    await expect(page.locator(`${overlay} [role="dialog"]`)).toContainText('Hover explained');
    await flush(page);
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: 'hover-help', reason: 'badge' });
  });
});
