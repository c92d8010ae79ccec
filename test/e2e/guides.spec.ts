/**
 * The guide engine against the real reference server (issue #5): continuation of a multi-step guide across a
 * reload, snooze kept across reloads, content that fails its hash never rendered, and a 451 that stops
 * tracking. Guides are test/e2e/guides/*.json, copied into the server's guide folder by the global setup.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeJzb } from '../../shared/wire/jzb';
import { MESSAGES } from '../../shared/messages';
import { agentReady, expect, hostPage, publishGuide, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

const lightbox = '[data-waymark-overlay] .wm-lightbox';

test.describe('guides §4 Continuation (multi-step)', () => {
  test('a 3-step guide advanced, reloaded mid-way, resumes at the step it was on, and Back goes back', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('resume');
    await openHostPage('/e2e/resume', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    const step = page.locator(lightbox);
    await expect(step).toContainText('Tour one');
    await expect(step).toContainText('Step 1 of 3');
    await step.getByRole('button', { name: 'Next' }).click();
    await expect(step).toContainText('Tour two');
    // The collector must hold the advance and the second guideSeen before the reload asks for guide.json.
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.filter((x) => x.type === 'guideSeen').length === 2);

    await page.reload();
    await expect(step).toContainText('Tour two');
    await expect(step).toContainText('Step 2 of 3');
    await step.getByRole('button', { name: 'Back' }).click();
    await expect(step).toContainText('Tour one');
    await step.getByRole('button', { name: 'Next' }).click();
    await expect(step).toContainText('Tour two');
    await step.getByRole('button', { name: 'Next' }).click();
    await expect(step).toContainText('Tour three');
    await step.getByRole('button', { name: 'Done' }).click();
    await expect(step).toHaveCount(0);

    const events = await waitForEvents(
      serverUrl,
      { apiKey: 'e2e', visitorId: visitor },
      (e) => e.some((x) => x.type === 'guideAdvanced' && x.props.guide_step_id === 'e2e-resume-3'),
    );
    const seen = events.filter((e) => e.type === 'guideSeen').map((e) => `${e.props.guide_step_id}:${e.props.reason}`);
    expect(seen).toEqual([
      'e2e-resume-1:auto',
      'e2e-resume-2:continue',
      'e2e-resume-2:continue', // after the reload: the continuation of the last-seen record
      'e2e-resume-1:continue',
      'e2e-resume-2:continue',
      'e2e-resume-3:continue',
    ]);
    const back = events.filter((e) => e.type === 'guideAdvanced' && e.props.guide_step_id === 'e2e-resume-2')[0]!;
    expect(back.props.destination_step_id).toBe('e2e-resume-1');

    // Finished: a later page shows nothing of it, and the debugger says why.
    await page.reload();
    await agentReady(page);
    await page.waitForTimeout(1500);
    await expect(step).toHaveCount(0);
    const diagnostics = await page.evaluate(() => (window as any).waymark.debugGuides());
    const resume = diagnostics.guides.find((g: { id: string }) => g.id === 'e2e-resume');
    expect(resume).toMatchObject({ candidate: false, completion: 'complete' });
  });
});

test.describe('guides §4 Snooze', () => {
  test('a snoozed guide hides, records guideSnoozed for a day, and is not shown again until its end time', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('snooze');
    await openHostPage('/e2e/snooze', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    const step = page.locator(lightbox);
    await expect(step).toContainText('Try this later');
    await step.getByRole('button', { name: 'Remind me tomorrow' }).click();
    await expect(step).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSnoozed'));
    expect(events.find((e) => e.type === 'guideSnoozed')!.props).toMatchObject({ guide_id: 'e2e-snooze', snooze_duration: 86_400_000 });

    await page.reload();
    await agentReady(page);
    await page.waitForTimeout(1500);
    await expect(step).toHaveCount(0);
    const diagnostics = await page.evaluate(() => (window as any).waymark.debugGuides());
    const snoozed = diagnostics.guides.find((g: { id: string }) => g.id === 'e2e-snooze');
    expect(snoozed.reason).toMatch(/^snoozed: step e2e-snooze-1 is snoozed until /);

    // A snooze that has ended: another visitor whose stored snooze (1 minute) ended a minute ago sees the
    // guide again. (The worker's clock cannot be moved from the test, so the history is moved instead.)
    const ended = uniqueId('snooze-ended');
    const snoozedAt = Date.now() - 120_000;
    const event = {
      type: 'guideSnoozed', browser_time: snoozedAt, visitor_id: ended, account_id: '', url: `${serverUrl}/e2e/snooze`,
      props: { guide_id: 'e2e-snooze', guide_step_id: 'e2e-snooze-1', seen_reason: 'auto', duration: 500, snooze_duration: 60_000 },
      sequence: 0, sessionId: 'S'.repeat(16), tabId: 'tab-snooze', frameId: 'f',
    };
    const stored = await fetch(`${serverUrl}/data/guide.gif/e2e?v=test&ct=${Date.now()}&jzb=${encodeJzb([event])}`);
    expect(stored.status).toBe(200);
    await openHostPage('/e2e/snooze', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${ended}' } });` }));
    await expect(step).toContainText('Try this later');
    const seen = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: ended }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(seen.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_step_id: 'e2e-snooze-1', reason: 'auto' });
  });
});

test.describe('guides §4 Throttling', () => {
  /** Two auto lightboxes for every page of a new app, 'First welcome' before 'Second welcome' (priority). */
  async function twoAutoGuides(serverUrl: string): Promise<string> {
    const apiKey = uniqueId('e2e-throttle');
    for (const [id, title, priority] of [['first', 'First welcome', 1], ['second', 'Second welcome', 2]] as const) {
      const domJson = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: title }] };
      await publishGuide(serverUrl, apiKey, { id, name: title, launchMethod: 'auto', attributes: { priority }, steps: [{ id: `${id}-1`, type: 'lightbox', domJson }] });
    }
    return apiKey;
  }
  const throttled = (apiKey: string, visitor: string, minutes: number) =>
    hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }, guides: { throttling: { enabled: true, interval: ${minutes}, unit: 'minute' } } });` });

  test('dismissing an auto guide holds the next one back on the same page (1 minute), and after a reload', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = await twoAutoGuides(serverUrl);
    await openHostPage('/e2e/throttle', throttled(apiKey, uniqueId('throttle'), 1));
    const step = page.locator(lightbox);
    await expect(step).toContainText('First welcome');
    await step.getByRole('button', { name: 'close' }).click();
    await expect(step).toHaveCount(0);
    await page.waitForTimeout(2000); // four loop ticks
    await expect(step).toHaveCount(0);

    await page.reload();
    await agentReady(page);
    await page.waitForTimeout(1500);
    await expect(step).toHaveCount(0);
    const diagnostics = await page.evaluate(() => (window as any).waymark.debugGuides());
    expect(diagnostics.guides.find((g: { id: string }) => g.id === 'second').reason).toMatch(/^throttling: throttled until /);
  });

  test('once the interval has passed, the next auto guide shows on the same page (reason auto)', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = await twoAutoGuides(serverUrl);
    const visitor = uniqueId('throttle-passes');
    // 0.05 minutes: 3 s.
    await openHostPage('/e2e/throttle', throttled(apiKey, visitor, 0.05));
    const step = page.locator(lightbox);
    await expect(step).toContainText('First welcome');
    await step.getByRole('button', { name: 'close' }).click();
    await expect(step).toHaveCount(0);
    await page.waitForTimeout(1500);
    await expect(step).toHaveCount(0);
    await expect(step).toContainText('Second welcome');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.filter((x) => x.type === 'guideSeen').length === 2);
    const dismissed = events.find((e) => e.type === 'guideDismissed')!;
    const second = events.find((e) => e.type === 'guideSeen' && e.props.guide_id === 'second')!;
    expect(second.props.reason).toBe('auto');
    expect(second.browser_time as number).toBeGreaterThanOrEqual((dismissed.browser_time as number) + 3000);
  });

  test('a page loaded while throttled shows the held guide there once the interval passes, without another load (issue #36)', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = await twoAutoGuides(serverUrl);
    const visitor = uniqueId('throttle-held');
    // 0.1 minutes: 6 s from the dismissal.
    await openHostPage('/e2e/throttle', throttled(apiKey, visitor, 0.1));
    const step = page.locator(lightbox);
    await expect(step).toContainText('First welcome');
    await step.getByRole('button', { name: 'close' }).click();
    await expect(step).toHaveCount(0);
    await page.reload();
    await agentReady(page);
    const reason = () => page.evaluate(async () => (await (window as any).waymark.debugGuides()).guides.find((g: { id: string }) => g.id === 'second')?.reason);
    await expect.poll(reason).toMatch(/^throttling: throttled until .*; then shows step second-1 \(auto\)$/);
    await expect(step).toHaveCount(0);
    const guideLoads: string[] = [];
    page.on('request', (r) => r.url().includes('/data/guide.json/') && guideLoads.push(r.url()));
    await expect(step).toContainText('Second welcome', { timeout: 15_000 });
    expect(guideLoads).toEqual([]);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.filter((x) => x.type === 'guideSeen').length === 2);
    const dismissed = events.find((e) => e.type === 'guideDismissed')!;
    const second = events.find((e) => e.type === 'guideSeen' && e.props.guide_id === 'second')!;
    expect(second.props.reason).toBe('auto');
    expect(second.browser_time as number).toBeGreaterThanOrEqual((dismissed.browser_time as number) + 6000);
  });
});

test.describe('guides §5 content hashes', () => {
  const authentic = '{"type":"div","props":{"id":"guide-base"},"children":[{"type":"h2","props":{},"content":"Verified content"}]}';

  test('content whose hash verifies renders', async ({ page, serverUrl, openHostPage }) => {
    await page.route(`${serverUrl}/e2e-content/verified.dom.json`, (route) => route.fulfill({ contentType: 'application/json', body: authentic }));
    await openHostPage('/e2e/verified', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('verified')}' } });` }));
    await expect(page.locator(lightbox)).toContainText('Verified content');
  });

  test('a step whose page changed while it was being rendered is withdrawn: a page rule exception and guideNotSeen, never guideSeen', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('page-rule');
    // The render chunk does not load (issue #34), so the step is drawn with React: the React overlay is fetched when
    // the step renders, after the worker judged it, and the SPA moves to another page meanwhile. (A painted step
    // leaves no such window to hold open: nothing is fetched between the worker's answer and the draw.)
    await page.route('**/waymark.render.js*', (route) => route.abort('failed'));
    await page.route('**/waymark.overlay.js*', async (route) => {
      await page.evaluate(() => history.pushState(null, '', '/e2e/elsewhere-in-app'));
      await route.continue();
    });
    await openHostPage('/e2e/page-rule', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    const [notSeen] = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'guideNotSeen' }, (e) => e.length > 0);
    expect(notSeen!.props).toEqual({ guide_id: 'e2e-page-rule', guide_step_id: 'e2e-page-rule-1', reason: 'pageRule' });
    expect(notSeen!.url).toMatch(/\/e2e\/elsewhere-in-app$/);
    await expect(page.locator(lightbox)).toHaveCount(0);
    expect(consoleLines.some((l) => l.includes(`${MESSAGES.pageRuleException}: guide e2e-page-rule step e2e-page-rule-1`))).toBe(true);
    await page.evaluate(() => (window as any).waymark.flushNow());
    expect(await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'guideSeen' })).toEqual([]);
  });

  test("a subscription without guides: nothing shows, and guide functions answer 'This functionality is not supported by your subscription.'", async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('no-guides');
    const guideList = page.waitForResponse((r) => r.url().includes('/data/guide.json/e2e-no-guides'));
    // The banner guide matches this page for every other api key (the test server lists e2e-no-guides as guideless).
    await openHostPage('/e2e/banner?plan', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-no-guides', visitor: { id: '${visitor}' } });` }));
    expect((await (await guideList).json()).subscription).toEqual({ guides: false });
    await agentReady(page);
    await expect.poll(() => consoleLines.filter((l) => l.includes(MESSAGES.notInSubscription)).length).toBe(1);
    expect(await page.evaluate(() => (window as any).waymark.showGuideById('e2e-banner'))).toBe(false);
    await page.evaluate(() => (window as any).waymark.startGuides());
    await expect.poll(() => consoleLines.filter((l) => l.includes('This functionality is not supported by your subscription.')).length).toBe(3);
    await expect(page.locator('[data-waymark-overlay] .wm-banner')).toHaveCount(0);
    // Analytics go on as before.
    await waitForEvents(serverUrl, { apiKey: 'e2e-no-guides', visitorId: visitor, type: 'load' }, (e) => e.length === 1);
  });

  test('the guide loop waits while the tab is in the background: the step shows once the tab is visible again', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('background');
    // The page starts as a background tab (no visibilitychange is sent: the agent's page-hide path stays out of it).
    await page.addInitScript(() => {
      (window as any).__visibility = 'hidden';
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (window as any).__visibility });
    });
    await openHostPage('/e2e/banner?background', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    await agentReady(page);
    await page.waitForTimeout(1500); // three loop ticks
    await expect(page.locator('[data-waymark-overlay] .wm-banner')).toHaveCount(0);
    await page.evaluate(() => ((window as any).__visibility = 'visible'));
    await expect(page.locator('[data-waymark-overlay] .wm-banner')).toContainText('Scheduled maintenance on Sunday');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor, type: 'guideSeen' }, (e) => e.length === 1);
  });

  test.describe('tampered', () => {
    test.use({ allowAgentErrors: [/Unable to verify content at /] });

    test("tampered content is never rendered: 'Unable to verify content at ...' and no guideSeen", async ({ page, serverUrl, openHostPage, consoleLines }) => {
      const visitor = uniqueId('tampered');
      const tampered = authentic.replace('Verified content', 'Tampered content');
      await page.route(`${serverUrl}/e2e-content/tampered.dom.json`, (route) => route.fulfill({ contentType: 'application/json', body: tampered }));
      await openHostPage('/e2e/tampered', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
      await agentReady(page);
      const message = MESSAGES.unableToVerifyContent(`${serverUrl}/e2e-content/tampered.dom.json`);
      await expect.poll(() => consoleLines.some((l) => l.includes(message))).toBe(true);
      await page.waitForTimeout(1000);
      await expect(page.locator('[data-waymark-overlay] .wm-lightbox')).toHaveCount(0);
      await page.evaluate(() => (window as any).waymark.flushNow());
      const events = await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor });
      expect(events.some((e) => e.type === 'load')).toBe(true);
      expect(events.filter((e) => e.type === 'guideSeen')).toEqual([]);
    });
  });
});

test.describe('guides §7 status 451', () => {
  test('a 451 on guide.json stops tracking of the visitor: no guide, and nothing more is stored', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    // The global setup starts the server with 'legal-hold-visitor' blocked.
    await openHostPage(
      '/e2e/legal',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e-451', visitor: { id: 'legal-hold-visitor' } });`, body: '<button id="b">Click</button>' }),
    );
    await agentReady(page);
    await expect.poll(() => consoleLines.some((l) => l.includes('guide.json answered 451'))).toBe(true);
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await page.waitForTimeout(1500);
    const after = await storedEvents(serverUrl, { apiKey: 'e2e-451', visitorId: 'legal-hold-visitor' });
    expect(after.filter((e) => e.type === 'click')).toEqual([]);
    // The next page remembers it: no guide.json request at all.
    const guideRequests: string[] = [];
    page.on('request', (r) => r.url().includes('/guide.json/') && guideRequests.push(r.url()));
    await page.reload();
    await agentReady(page);
    await page.waitForTimeout(1000);
    expect(guideRequests).toEqual([]);
    expect(await page.evaluate(() => (window as any).waymark.debugGuides().then((d: any) => d.loadError))).toContain(MESSAGES.guidesBlocked);
  });
});

test.describe('guides §7 availability probe beside guide.json (issue #16)', () => {
  const isProbe = (url: string) => url.includes('/data/guide.gif/') && new URL(url).searchParams.get('jzb') === encodeJzb([]);

  test("a new visitor's guide.json goes out while the probe is answered; the step shows once the probe passed", async ({ page, openHostPage }) => {
    const order: string[] = [];
    page.on('request', (r) => r.url().includes('/data/guide.json/') && order.push('guide.json asked'));
    await page.route('**/data/guide.gif/**', async (route) => {
      if (!isProbe(route.request().url())) return route.continue();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      order.push('probe answered');
      return route.continue();
    });
    const visitor = uniqueId('probe-beside');
    await openHostPage('/e2e/resume', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    await expect(page.locator(lightbox)).toContainText('Tour one');
    expect(order).toEqual(['guide.json asked', 'probe answered']);
  });

  test.describe('when it fails', () => {
    test.use({ allowAgentErrors: [new RegExp(`${MESSAGES.guidesUnreachable}|status of 503`)] });
    test("a failed probe: guide.json's answer is not used, the spec's message is logged, and the next page asks nothing", async ({ page, openHostPage, consoleLines }) => {
      await page.route('**/data/guide.gif/**', (route) => (isProbe(route.request().url()) ? route.fulfill({ status: 503, body: 'down' }) : route.continue()));
      const visitor = uniqueId('probe-failed');
      const html = hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` });
      await openHostPage('/e2e/resume', html);
      await agentReady(page);
      await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.guidesUnreachable))).toBe(true);
      await page.waitForTimeout(1000);
      await expect(page.locator(lightbox)).toHaveCount(0);
      // The verdict is kept for 4 hours: the next page asks neither the probe nor guide.json.
      const asked: string[] = [];
      page.on('request', (r) => (r.url().includes('/data/guide.json/') || isProbe(r.url())) && asked.push(r.url()));
      await openHostPage('/e2e/resume?again', html);
      await agentReady(page);
      await page.waitForTimeout(1000);
      expect(asked).toEqual([]);
      await expect(page.locator(lightbox)).toHaveCount(0);
    });
  });
});

test.describe('guides §4 element rules and step timeout', () => {
  test('a step whose element contains rule fails waits, and shows once the element text passes', async ({ page, openHostPage }) => {
    await openHostPage(
      '/e2e/contains',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('contains')}' } });`,
        body: '<p style="margin:80px">Items: <span id="e2e-count">3</span></p>',
      }),
    );
    await agentReady(page);
    await page.waitForTimeout(1500);
    const tip = page.locator('[data-waymark-overlay] .wm-tooltip');
    await expect(tip).toHaveCount(0);
    await page.evaluate(() => (document.getElementById('e2e-count')!.textContent = '7'));
    await expect(tip).toContainText('Over five');
  });

  test("a step whose element never appears times out: 'Guide {id} timed out showing Step {id}' and a stored guideTimeout", async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('timeout');
    await openHostPage('/e2e/timeout', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' }, guides: { seenTimeout: 1500 } });` }));
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.stepTimedOut('e2e-timeout', 'e2e-timeout-1')))).toBe(true);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideTimeout'));
    expect(events.find((e) => e.type === 'guideTimeout')!.props).toEqual({
      guide_id: 'e2e-timeout', guide_step_id: 'e2e-timeout-1', reason: 'element', guideSeenTimeoutLength: 1500,
    });
  });
});

test.describe('guides §4 element activation and §2 URL triggers', () => {
  test('a dom-launched guide shows when the visitor clicks one of its activation elements (reason dom)', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('activation');
    await openHostPage(
      '/e2e/activation',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`,
        body: '<button class="e2e-help">Help</button> <button class="e2e-help" id="second-help">More help</button>',
      }),
    );
    await agentReady(page);
    await page.waitForTimeout(1200);
    const box = page.locator(lightbox);
    await expect(box).toHaveCount(0);
    await page.click('#second-help');
    await expect(box).toContainText('Help on demand');
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: 'e2e-activation', reason: 'dom' });
  });

  test("an activated guide whose step cannot be placed gives up: 'Element activated guide timeout exceeded'", async ({ page, openHostPage, consoleLines }) => {
    await openHostPage(
      '/e2e/activation-missing',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('act-missing')}' }, guides: { seenTimeout: 1000 } });`,
        body: '<button class="e2e-help-missing" id="h">Help</button>',
      }),
    );
    await agentReady(page);
    await page.waitForTimeout(1000);
    await page.click('#h');
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.elementActivationTimeout))).toBe(true);
    await expect(page.locator('[data-waymark-overlay] .wm-tooltip')).toHaveCount(0);
  });

  test('a permalink shows its guide (reason permalink) and the once-parameter removes it from the address', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('permalink');
    await openHostPage(
      '/e2e/permalink?tab=2&waymark_guide=e2e-activation&waymark_once=1',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }),
    );
    await expect(page.locator(lightbox)).toContainText('Help on demand');
    await expect.poll(() => page.url()).toBe(`${serverUrl}/e2e/permalink?tab=2`);
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: 'e2e-activation', reason: 'permalink' });
  });
});

test.describe('guides §4 lifecycle hooks and subscriptions', () => {
  test('a before-hook returning false cancels; the after-hooks and onGuideAdvanced follow an advance', async ({ page, openHostPage }) => {
    await openHostPage(
      '/e2e/resume',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('hooks')}' } });` }),
    );
    // Hooks and subscriptions are registered once waymark.js is here (the snippet's stub queues only its own list).
    await agentReady(page);
    await page.evaluate(`
          window.calls = [];
          window.veto = true;
          for (const name of ['beforeAdvance', 'beforeUpdate', 'updated', 'advanced', 'beforeDismiss', 'beforeUnmount', 'unmounted', 'dismissed', 'hidden']) {
            waymark.addGuideHook(name, (g) => { window.calls.push(name + ':' + g.stepId); return name === 'beforeAdvance' && window.veto ? false : undefined; });
          }
          waymark.onGuideAdvanced((n) => window.calls.push('onGuideAdvanced:' + n.stepId + '>' + n.nextStepId));
          waymark.onGuideDismissed((n) => window.calls.push('onGuideDismissed:' + n.stepId));`);
    const step = page.locator(lightbox);
    await expect(step).toContainText('Tour one');
    await step.getByRole('button', { name: 'Next' }).click();
    await page.waitForTimeout(500);
    await expect(step).toContainText('Tour one');
    expect(await page.evaluate(() => (window as any).calls)).toEqual(['beforeAdvance:e2e-resume-1']);

    await page.evaluate(() => ((window as any).veto = false));
    await step.getByRole('button', { name: 'Next' }).click();
    await expect(step).toContainText('Tour two');
    await expect.poll(() => page.evaluate(() => (window as any).calls.slice(1))).toEqual([
      'beforeAdvance:e2e-resume-1',
      'beforeUpdate:e2e-resume-1',
      'onGuideAdvanced:e2e-resume-1>e2e-resume-2',
      'advanced:e2e-resume-1',
      'updated:e2e-resume-2',
    ]);
    expect(await page.evaluate(() => (window as any).waymark.getActiveGuide())).toMatchObject({ guideId: 'e2e-resume', stepId: 'e2e-resume-2', stepIndex: 1, stepCount: 3 });

    await page.keyboard.press('Escape');
    await expect(step).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => (window as any).calls.slice(6))).toEqual([
      'beforeDismiss:e2e-resume-2',
      'beforeUnmount:e2e-resume-2',
      'unmounted:e2e-resume-2',
      'onGuideDismissed:e2e-resume-2',
      'dismissed:e2e-resume-2',
      'hidden:e2e-resume-2',
    ]);
  });
});

test.describe('guides §3 step stylesheets and scripts', () => {
  const script = 'window.__waymarkStepScript = (window.__waymarkStepScript || 0) + 1;';
  const css = '#assets-title { color: rgb(200, 0, 0); }';

  test('a step brings its stylesheet into the overlay and runs its script once, checked by SRI', async ({ page, serverUrl, openHostPage }) => {
    await page.route(`${serverUrl}/e2e-content/assets.css`, (route) => route.fulfill({ contentType: 'text/css', body: css }));
    await page.route(`${serverUrl}/e2e-content/assets.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: script }));
    await openHostPage('/e2e/assets', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('assets')}' } });` }));
    const title = page.locator('[data-waymark-overlay] #assets-title');
    await expect(title).toHaveText('Styled by its own sheet');
    await expect.poll(() => title.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(200, 0, 0)');
    await expect.poll(() => page.evaluate(() => (window as any).__waymarkStepScript)).toBe(1);
  });

  test("the reference server's global guide CSS styles every step, and its global script runs once (guideCssUrl, globalJsUrl)", async ({ page, serverUrl, openHostPage }) => {
    const assets = join(process.env.WAYMARK_GUIDES_DIR!, 'assets');
    mkdirSync(assets, { recursive: true });
    writeFileSync(join(assets, 'global.css'), '.wm-banner h3 { color: rgb(0, 90, 40); }');
    writeFileSync(join(assets, 'global.js'), 'window.__waymarkGlobalScript = (window.__waymarkGlobalScript || 0) + 1;');
    try {
      const guideList = page.waitForResponse((r) => r.url().includes('/data/guide.json/'));
      await openHostPage('/e2e/banner?global', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('global')}' } });` }));
      expect(await (await guideList).json()).toMatchObject({ guideCssUrl: '/data/guide-assets/global.css', globalJsUrl: '/data/guide-assets/global.js' });
      const heading = page.locator('[data-waymark-overlay] .wm-banner h3');
      await expect(heading).toHaveText('Scheduled maintenance on Sunday');
      await expect.poll(() => heading.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(0, 90, 40)');
      await expect.poll(() => page.evaluate(() => (window as any).__waymarkGlobalScript)).toBe(1);
      // A later guide load on the same page does not run it again.
      await page.evaluate(() => (window as any).waymark.loadGuides());
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as any).__waymarkGlobalScript)).toBe(1);
    } finally {
      rmSync(assets, { recursive: true, force: true });
    }
  });

  test.describe('tampered script', () => {
    test.use({ allowAgentErrors: [/Failed to load script|integrity/i] });

    test("a script that does not match its hash never runs: 'Failed to load script'", async ({ page, serverUrl, openHostPage, consoleLines }) => {
      await page.route(`${serverUrl}/e2e-content/assets.css`, (route) => route.fulfill({ contentType: 'text/css', body: css }));
      await page.route(`${serverUrl}/e2e-content/bad.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: script.replace('+ 1', '+ 100') }));
      await openHostPage('/e2e/badscript', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('badscript')}' } });` }));
      await expect(page.locator('[data-waymark-overlay] #assets-title')).toHaveText('Styled by its own sheet');
      await expect.poll(() => consoleLines.some((l) => l.includes(`${MESSAGES.scriptLoadFailed}: ${serverUrl}/e2e-content/bad.js`))).toBe(true);
      expect(await page.evaluate(() => (window as any).__waymarkStepScript)).toBeUndefined();
    });
  });
});
