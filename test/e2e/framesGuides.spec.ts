/**
 * Guides across frames (issue #18 "frames complete"; analytics §7 receiveGuideList, showGuideStepInFrame, the frame
 * eligibility check, receiveOptions; guides §4, §6 the leader decides): a guide of the top page whose first step's
 * element lives in a same-origin iframe shows there, its actions go back to the top frame's worker (one guideSeen,
 * with the top page's URL), and its next step shows where its element is, in the top page. In Chromium against the
 * reference server (test/e2e/guides/e2e-frames-route.json).
 */
import { mkdirSync } from 'node:fs';
import type { Frame, Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';
import { childAgent, routeDocument } from './frameHelpers';

const CHILD = '<!doctype html><html><head><meta charset="utf-8"><title>Child</title></head><body style="font-family: sans-serif"><h1>Billing (an iframe)</h1><p style="margin: 40px 0"><button id="inner">Update card</button></p></body></html>';
const tooltip = '[data-waymark-overlay] .wm-tooltip';
const HOST_BODY = (child: string) =>
  `<h1 style="font-family: sans-serif">Account</h1><p style="margin: 90px 0 24px 320px"><button id="outer">Save account</button></p><iframe id="child" src="${child}" style="width: 640px; height: 280px; border: 1px solid #999"></iframe>`;

const json = { 'Content-Type': 'application/json' };

/** Saves `guide` for `apiKey` through the console API, published when `publish`. */
async function putGuide(serverUrl: string, apiKey: string, guide: { id: string } & Record<string, unknown>, publish: boolean): Promise<void> {
  const res = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guide.id}`, { method: 'PUT', headers: json, body: JSON.stringify(guide) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  if (!publish) return;
  const state = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guide.id}/state`, { method: 'POST', headers: json, body: JSON.stringify({ state: 'public' }) });
  expect(state.ok).toBe(true);
}

/** A two-step guide of `apiKey`: step 1 on the iframe's #inner, step 2 on the top's #outer. */
async function saveGuide(serverUrl: string, apiKey: string, guideId: string, launchMethod: string, publish: boolean): Promise<void> {
  const step = (n: number, selector: string, text: string) => ({
    id: `${guideId}-${n}`,
    guideId,
    type: 'tooltip',
    elementPathRule: selector,
    domJson: {
      type: 'div',
      props: { id: 'guide-base' },
      children: [
        { type: 'p', props: {}, content: text },
        { type: 'button', props: { id: `${guideId}-next-${n}` }, content: n === 1 ? 'Next' : 'Done', actions: [{ action: 'advanceGuide', eventType: 'click', parameters: [], source: `${guideId}-next-${n}`, destination: 'Global' }] },
      ],
    },
  });
  const guide = { id: guideId, name: 'Across frames', launchMethod, isMultiStep: true, steps: [step(1, '#inner', 'Step 1 in the iframe'), step(2, '#outer', 'Step 2 on the top page')] };
  await putGuide(serverUrl, apiKey, guide, publish);
}

async function openTour(page: Page, serverUrl: string, openHostPage: (path: string, html: string) => Promise<void>, visitor: string): Promise<Frame> {
  await routeDocument(page, serverUrl, '/e2e/frames-route-child', CHILD);
  await openHostPage(
    '/e2e/frames-route-host',
    hostPage({
      init: `waymark.initialize({ apiKey: 'e2e-frames-route', visitor: { id: '${visitor}' } });`,
      body: `<h1 style="font-family: sans-serif">Account</h1><p style="margin: 24px 0 24px 320px"><button id="outer">Save account</button></p><iframe id="child" src="/e2e/frames-route-child" style="width: 640px; height: 280px; border: 1px solid #999"></iframe>`,
    }),
  );
  await agentReady(page);
  return childAgent(page, '/e2e/frames-route-child');
}

test.describe('issue #18: a guide of the top page shows its step where the element is (the leader decides, the frame renders)', () => {
  test('step 1 shows in the iframe, once; Next goes back to the top frame, whose step 2 shows on the top page', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('frames-route');
    const child = await openTour(page, serverUrl, openHostPage, visitor);

    await expect(child.locator(tooltip)).toContainText('Inside the iframe, for the top page');
    await expect(page.locator(tooltip)).toHaveCount(0);
    // The frame shows it; the top frame knows (getActiveGuide is the frame's: it shows the step).
    expect(await child.evaluate(() => (window as any).waymark.getActiveGuide()?.stepId)).toBe('e2e-frames-route-1');
    mkdirSync('test-results/screens', { recursive: true });
    await page.screenshot({ path: 'test-results/screens/frames-route-step1-in-iframe.png' });

    // Recorded once, by the top frame's worker: with the top page's URL.
    await page.evaluate(() => (window as any).waymark.flushNow());
    const query = { apiKey: 'e2e-frames-route', visitorId: visitor };
    let events = await waitForEvents(serverUrl, query, (e) => e.some((x) => x.type === 'guideSeen'));
    const seen1 = events.filter((e) => e.type === 'guideSeen');
    expect(seen1).toHaveLength(1);
    expect(seen1[0]!.props).toMatchObject({ guide_id: 'e2e-frames-route', guide_step_id: 'e2e-frames-route-1', reason: 'auto' });
    expect(new URL(seen1[0]!.url).pathname).toBe('/e2e/frames-route-host');

    await child.click('#e2e-frames-next');
    await expect(page.locator(tooltip)).toContainText('Back on the top page');
    await expect(child.locator(tooltip)).toHaveCount(0);
    expect(await page.evaluate(() => (window as any).waymark.getActiveGuide()?.stepId)).toBe('e2e-frames-route-2');
    await page.screenshot({ path: 'test-results/screens/frames-route-step2-on-top.png' });

    await page.evaluate(() => (window as any).waymark.flushNow());
    await child.evaluate(() => (window as any).waymark.flushNow());
    events = await waitForEvents(serverUrl, query, (e) => e.filter((x) => x.type === 'guideSeen').length === 2 && e.some((x) => x.type === 'guideAdvanced'));
    const guideEvents = events.filter((e) => e.type.startsWith('guide')).map((e) => `${e.type}:${e.props.guide_step_id}:${new URL(e.url).pathname}`);
    expect(guideEvents.sort()).toEqual(
      [
        'guideSeen:e2e-frames-route-1:/e2e/frames-route-host',
        // The Next button's click on the step, as its activity.
        'guideActivity:e2e-frames-route-1:/e2e/frames-route-host',
        'guideAdvanced:e2e-frames-route-1:/e2e/frames-route-host',
        'guideSeen:e2e-frames-route-2:/e2e/frames-route-host',
      ].sort(),
    );
    // The child's own agent recorded no guide event: its click on Next is an ordinary click of its page.
    expect(events.filter((e) => e.type.startsWith('guide') && new URL(e.url).pathname === '/e2e/frames-route-child')).toEqual([]);
  });

  test('receiveOptions: stopGuides in the top frame hides the step shown in the iframe; startGuides brings it back', async ({ page, serverUrl, openHostPage }) => {
    const child = await openTour(page, serverUrl, openHostPage, uniqueId('frames-route-stop'));
    await expect(child.locator(tooltip)).toContainText('Inside the iframe');
    await page.evaluate(() => (window as any).waymark.stopGuides());
    await expect(child.locator(tooltip)).toHaveCount(0);
    // Several loop ticks later, still held in the frame.
    await page.waitForTimeout(1500);
    await expect(child.locator(tooltip)).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.startGuides());
    await expect(child.locator(tooltip)).toContainText('Inside the iframe');
  });
});

test.describe('issue #18 with #15: a step asked for by name, and a preview, show in the frame that has the element', () => {
  test('showGuideById in the top frame: the step whose element is in the iframe shows there', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-frames-api');
    const guideId = uniqueId('frames-api');
    await saveGuide(serverUrl, apiKey, guideId, 'api', true);
    await routeDocument(page, serverUrl, '/e2e/frames-api-child', CHILD);
    await openHostPage('/e2e/frames-api-host', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${uniqueId('frames-api')}' } });`, body: HOST_BODY('/e2e/frames-api-child') }));
    await agentReady(page);
    const child = await childAgent(page, '/e2e/frames-api-child');
    await page.evaluate(() => (window as any).waymark.loadGuides());
    // The frame's agent joined the top's (its record went both ways) before the top is asked.
    await expect.poll(() => page.evaluate((id) => (window as any).waymark.showGuideById(id), guideId)).toBe(true);
    await expect(child.locator(tooltip)).toContainText('Step 1 in the iframe');
    await expect(page.locator(tooltip)).toHaveCount(0);
  });

  test("receiveStartPreview: a preview's step shows in the iframe with the bar on top; the iframe's own guide is held meanwhile; Next goes on in the top page", async ({ page, context, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-frames-preview');
    const guideId = uniqueId('frames-preview');
    await saveGuide(serverUrl, apiKey, guideId, 'api', false);
    // The iframe's page has a published auto guide of its own.
    await putGuide(serverUrl, apiKey, {
      id: `${guideId}-own`,
      name: 'The iframe page\'s own',
      launchMethod: 'auto',
      steps: [{ id: `${guideId}-own-1`, guideId: `${guideId}-own`, type: 'tooltip', elementPathRule: '#frame-target', regexUrlRule: '/e2e/frames-preview-child', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: 'Inside the frame, its own' }] } }],
    }, true);
    const login = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    expect(login.status()).toBe(204);
    await routeDocument(page, serverUrl, '/e2e/frames-preview-child', CHILD.replace('</body>', '<p><span id="frame-target">Frame target</span></p></body>'));
    const link = Buffer.from(JSON.stringify({ apiKey, guideId, serverUrl, origin: serverUrl })).toString('base64url');
    await openHostPage(`/e2e/frames-preview-host?waymark-preview=${link}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'author' } });`, body: HOST_BODY('/e2e/frames-preview-child') }));
    await agentReady(page);
    const child = await childAgent(page, '/e2e/frames-preview-child');
    const bar = page.frameLocator('iframe[data-waymark-preview-bar]');
    await expect(child.locator(tooltip)).toContainText('Step 1 in the iframe');
    await expect(bar.getByText('Step 1 of 2')).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/frames-preview-step-in-iframe.png' });
    // Held: with the preview's step hidden (hideGuides in the top reaches every frame), the iframe's own auto guide
    // does not show, however many of its loop ticks pass.
    await page.evaluate(() => (window as any).waymark.hideGuides());
    await expect(child.locator(tooltip)).toHaveCount(0);
    await page.waitForTimeout(1500);
    await expect(child.locator(tooltip)).toHaveCount(0);
    // Restart shows the preview's first step there again.
    await bar.getByRole('button', { name: 'Restart' }).click();
    await expect(child.locator(tooltip)).toContainText('Step 1 in the iframe');

    await child.locator(tooltip).getByRole('button', { name: 'Next' }).click();
    await expect(page.locator(tooltip)).toContainText('Step 2 on the top page');
    await expect(bar.getByText('Step 2 of 2')).toBeVisible();
    await expect(child.locator(tooltip)).toHaveCount(0);

    // Exit: the iframe's own guide is let go.
    await bar.getByRole('button', { name: 'Exit preview' }).click();
    await expect(child.locator(tooltip)).toContainText('Inside the frame');
  });
});

test.describe('issue #18: what one frame did with a guide, the others know', () => {
  test('receiveLastGuideStepSeen: two iframes that both have the guide\'s element; dismissed in the one that shows it, the other does not show it after', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('frames-two');
    const apiKey = uniqueId('e2e-frames-two');
    // Both iframes' pages match the folder guide e2e-frames.json ('#frame-target' on /e2e/frames-guide-child).
    await routeDocument(page, serverUrl, '/e2e/frames-guide-child', CHILD.replace('</body>', '<p><span id="frame-target">Frame target</span></p></body>'));
    const frame = (q: string) => `<iframe src="/e2e/frames-guide-child?${q}" style="width: 600px; height: 240px; border: 1px solid #999"></iframe>`;
    await openHostPage('/e2e/frames-two-host', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body: frame('a') + frame('b') }));
    await agentReady(page);
    const a = await childAgent(page, '/e2e/frames-guide-child?a');
    const b = await childAgent(page, '/e2e/frames-guide-child?b');
    // One of them shows it (the other waits: a guide shows in one frame of the tab at a time).
    let showing: Frame | undefined;
    await expect.poll(async () => {
      for (const f of [a, b]) if ((await f.locator(tooltip).count()) > 0) showing = f;
      return showing !== undefined;
    }).toBe(true);
    const other = showing === a ? b : a;
    await expect(other.locator(tooltip)).toHaveCount(0);
    await showing!.locator(tooltip).getByRole('button', { name: 'close' }).click();
    await expect(showing!.locator(tooltip)).toHaveCount(0);
    // Several loop ticks of the other frame: it dropped the guide it had loaded too.
    await page.waitForTimeout(1500);
    await expect(other.locator(tooltip)).toHaveCount(0);
    expect(await other.evaluate(() => (window as any).waymark.getActiveGuides().map((g: { guideId: string }) => g.guideId))).toEqual([]);
    await showing!.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed'));
    expect(events.filter((e) => e.type === 'guideDismissed')).toHaveLength(1);
  });
});
