/**
 * Issue #35 "Fast at real volumes", in Chromium: while the server is still counting a new feature's past use (its
 * background backfill, `backfill: { state: 'counting', progress }` in the feature's answer), the features list
 * and the feature's view say "Counting past use… 40%" and read the feature again until it is ready, then show the
 * full counts. A click stored through the real beacon is counted; the feature's first two answers are held at 40%
 * by a Playwright route (a backfill of a small app ends within one read, too fast to see), later ones pass through.
 * WAYMARK_SHOTS=1 writes docs/console/feature-counting.png.
 */
import type { Route } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { shoot } from './docShots';
import { adminFetch, expect, test, uniqueId, waitForEvents } from './fixtures';
import { deflateSync } from 'node:zlib';

test('a feature still counting its past use says so, polls, then shows its counts', async ({ page, context, serverUrl }) => {
  test.setTimeout(60_000);
  const apiKey = uniqueId('e2e-backfill');
  const click = { type: 'click', browser_time: Date.now() - 60_000, visitor_id: 'ann', account_id: 'acme', url: `${serverUrl}/reports`, sequence: 1, tabId: 't', frameId: 'f', props: { target: { tag: 'BUTTON', id: 'export', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0 } } };
  const jzb = deflateSync(Buffer.from(JSON.stringify([click]))).toString('base64url');
  expect((await fetch(`${serverUrl}/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${jzb}`)).status).toBe(200);
  await waitForEvents(serverUrl, { apiKey }, (events) => events.length === 1);
  const made = await adminFetch(`${serverUrl}/api/apps/${apiKey}/features`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Export', rule: { selector: '#export' } }),
  });
  expect(made.status).toBe(201);
  const { id } = (await made.json()) as { id: string };

  // The feature's first answers: still counting, 40%, nothing counted yet.
  let held = 0;
  await page.route(new RegExp(`/api/apps/${apiKey}/features/${id}\\?`), async (route: Route) => {
    const response = await route.fetch();
    const body = await response.json();
    if (held++ >= 2) return route.fulfill({ response });
    return route.fulfill({ response, json: { ...body, events: 0, visitors: 0, accounts: 0, series: [], backfill: { state: 'counting', progress: 0.4 } } });
  });
  const login = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
  expect(login.status()).toBe(204);
  await page.goto(`${serverUrl}/console/apps/${apiKey}/features/${id}`);
  await expect(page.getByRole('status').filter({ hasText: 'Counting past use… 40%' })).toBeVisible();
  await shoot(page, 'docs/console/feature-counting.png');
  // Read again by itself (refetchInterval) until ready: the note goes, the counts come.
  await expect(page.getByRole('status').filter({ hasText: 'Counting past use' })).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByRole('region', { name: 'Totals' }).locator('.stat-value')).toHaveText(['1', '1', '1']);
  expect(held).toBeGreaterThanOrEqual(3);
});
