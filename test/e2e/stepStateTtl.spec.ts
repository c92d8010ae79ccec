/**
 * guides §9 "Step-state and throttling storage time-to-live: 10,000 ms" in Chromium against the reference server:
 * a step change is kept 10 s by this browser and laid over the next page's guide.json answer
 * (shared/guides/recentStepStates). The guide events are held on their way to the collector, as a busy or
 * distant collector holds them, so the next page's guide.json answer does not know of the change.
 */
import type { Page } from '@playwright/test';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

/** Holds every guide event request (`/data/guide.gif/`) of `page` from now until `release()`. */
async function holdGuideEvents(page: Page): Promise<{ release(): void; held(): number }> {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.context().route('**/data/guide.gif/**', async (route) => {
    held++;
    await gate;
    await route.continue().catch(() => undefined); // the page may have gone
  });
  return { release, held: () => held };
}

/** Waits until this browser keeps a step change of `state` for the app (the worker's guide state, via the shim). */
async function changeKept(page: Page, apiKey: string, state: string): Promise<void> {
  await expect.poll(() => page.evaluate((key) => localStorage.getItem(key) ?? '', `_wm_guides.${apiKey}`)).toContain(`"seenState":"${state}"`);
}

/** Waits until the page's guide load has been judged (debugGuides says when). */
async function guidesJudged(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(async () => (await (window as any).waymark.debugGuides()).loadedAt !== null)).toBe(true);
}

test('guides §9 a guide dismissed just before a page change stays dismissed on the next page, while the collector has not stored it', async ({ page, serverUrl }) => {
  const visitor = uniqueId('ttl-dismiss');
  const welcome = page.locator('[data-waymark-overlay] [role="dialog"]', { hasText: 'Welcome to Acme Analytics' });
  await page.goto(`${serverUrl}/?visitor=${visitor}`);
  await expect(welcome).toBeVisible();
  const hold = await holdGuideEvents(page);
  await welcome.getByRole('button', { name: 'Got it' }).click();
  await expect(welcome).toHaveCount(0);
  await changeKept(page, 'demo-app', 'dismissed');

  await page.goto(`${serverUrl}/?visitor=${visitor}`);
  await agentReady(page);
  await guidesJudged(page);
  await expect(welcome).toHaveCount(0);
  const verdict = await page.evaluate(async () => (await (window as any).waymark.debugGuides()).guides.find((g: { id: string }) => g.id === 'welcome'));
  expect(verdict).toMatchObject({ candidate: false, reason: 'notDismissed: guide was dismissed' });
  expect(hold.held()).toBeGreaterThan(0);

  // Nothing is lost: once the collector takes the held requests, it stores the dismissal.
  hold.release();
  await page.evaluate(() => (window as any).waymark.flushNow());
  const events = await waitForEvents(serverUrl, { apiKey: 'demo-app', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed'));
  expect(events.find((e) => e.type === 'guideDismissed')!.props).toMatchObject({ guide_id: 'welcome', guide_step_id: 'welcome-1' });
});

test('guides §9 a multi-step guide advanced just before a page change continues at the next step, not again at the first', async ({ page, openHostPage, serverUrl }) => {
  const apiKey = uniqueId('e2e-ttl');
  const stepOf = (n: number) => ({
    id: `tour-${n}`,
    type: 'lightbox',
    domJson: {
      type: 'div',
      props: { id: 'guide-base' },
      children: [
        { type: 'p', props: {}, content: `Tour step ${n}` },
        { type: 'button', props: { id: `next-${n}` }, content: 'Next', actions: [{ action: 'advanceGuide', eventType: 'click', parameters: [], source: `next-${n}`, destination: 'Global' }] },
      ],
    },
  });
  const guide = { id: 'tour', name: 'Tour', launchMethod: 'auto', steps: [stepOf(1), stepOf(2)] };
  const headers = { 'content-type': 'application/json' };
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
  await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers });
  const html = hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'ttl-visitor' } });`, body: '<main><h1>Host</h1></main>' });
  const dialog = page.locator('[data-waymark-overlay] [role="dialog"]');

  await openHostPage('/e2e/ttl-tour', html);
  await expect(dialog).toContainText('Tour step 1');
  // The first step's guideSeen is stored, so the collector's answer below resumes step 1 without the kept change.
  await page.evaluate(() => (window as any).waymark.flushNow());
  await waitForEvents(serverUrl, { apiKey, visitorId: 'ttl-visitor' }, (e) => e.some((x) => x.type === 'guideSeen'));
  const hold = await holdGuideEvents(page);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog).toContainText('Tour step 2');
  await changeKept(page, apiKey, 'advanced');

  await page.reload();
  await agentReady(page);
  await expect(dialog).toContainText('Tour step 2');
  await expect(dialog).not.toContainText('Tour step 1');
  hold.release();
});
