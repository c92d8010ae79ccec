/**
 * guides §3 step advanceMethod in Chromium against the reference server: a tooltip whose step says `element click`
 * moves on when the visitor clicks its element, one that says `mouseover` when the visitor points at it; each
 * advance is stored as the step's guideAdvanced.
 */
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const tooltip = '[data-waymark-overlay] .wm-tooltip';
const body = '<main style="padding:220px 0 0 420px"><button id="one">Export</button> <button id="two" style="margin-left:200px">Share</button></main>';
const step = (guideId: string, n: number, selector: string, advanceMethod: string) => ({
  id: `${guideId}-${n}`,
  type: 'tooltip',
  elementPathRule: selector,
  advanceMethod,
  domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: `Step ${n}` }] },
});

test('a step advanced by clicking its element, the next by pointing at its element; both advances stored', async ({ page, openHostPage, serverUrl }) => {
  const apiKey = uniqueId('e2e-advance');
  const guide = { id: 'tour', name: 'Tour', launchMethod: 'auto', steps: [step('tour', 1, '#one', 'element click'), step('tour', 2, '#two', 'mouseover')] };
  const headers = { 'content-type': 'application/json' };
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
  await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers });
  await openHostPage('/e2e/advance', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'advance-visitor' } });`, body }));
  await agentReady(page);
  await expect(page.locator(tooltip)).toContainText('Step 1');
  // Pointing at step 1's element does nothing: it advances on a click.
  await page.hover('#one');
  await page.waitForTimeout(300);
  await expect(page.locator(tooltip)).toContainText('Step 1');
  await page.click('#one');
  await expect(page.locator(tooltip)).toContainText('Step 2');
  await page.hover('#two');
  await expect(page.locator(tooltip)).toHaveCount(0);
  await page.evaluate(() => (window as any).waymark.flushNow());
  const events = await waitForEvents(serverUrl, { apiKey, visitorId: 'advance-visitor' }, (list) => list.filter((e) => e.type === 'guideAdvanced').length === 2);
  expect(events.filter((e) => e.type === 'guideAdvanced').map((e) => e.props.guide_step_id).sort()).toEqual(['tour-1', 'tour-2']);
});
