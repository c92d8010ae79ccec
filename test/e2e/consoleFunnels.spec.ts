/**
 * Issue #35, funnels in the console, in Chromium against the real server: four visitors' page loads, clicks, a track
 * event and metadata are sent through the collector's beacon (ptm.gif) two days back, a page and a feature are made
 * afterwards, and the Funnels screen builds Home -> Export -> "report shared" and shows what a hand count gives:
 * counts, conversions, medians, who dropped (links to their visitor or account pages), a breakdown by plan, and by account.
 * WAYMARK_SHOTS=1 writes docs/console/funnel.png.
 */
import { shoot } from './docShots';
import { defineRule, expect, logInAsAdmin, sendEvents, test, uniqueId } from './fixtures';

const H = 3_600_000;
const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };

test.describe('issue #35 funnels in the console', () => {
  test('three steps built in the form: counts, conversions, medians, dropped visitors as links, a breakdown, by account', async ({ page, context, serverUrl }) => {
    test.setTimeout(60_000);
    const apiKey = uniqueId('e2e-funnels');
    const t0 = Math.floor((Date.now() - 2 * 24 * H) / H) * H;
    const at = (t: number, visitor: string, account: string, fields: object) => ({ browser_time: t0 + t, visitor_id: visitor, account_id: account, url: `${serverUrl}/e2e/funnels/home`, ...fields });
    const home = (t: number, v: string, a: string) => at(t, v, a, { type: 'load', props: {} });
    const exportClick = (t: number, v: string, a: string) => at(t, v, a, { type: 'click', props: { target: EXPORT } });
    const shared = (t: number, v: string, a: string) => at(t, v, a, { type: 'track', track_event_name: 'report shared', props: {} });
    const plan = (t: number, v: string, a: string, value: string) => at(t, v, a, { type: 'meta', props: { visitor: { plan: value } } });
    // f1 (acme, pro): all three, 1 h then 2 h apart. f2 (acme, pro): Export 2 h after home. f3 (globex, free): home
    // only. f4 (globex, no plan): Export half an hour before home, so step 1 only.
    await sendEvents(serverUrl, apiKey, [
      plan(-H, 'f1', 'acme', 'pro'), home(0, 'f1', 'acme'), exportClick(H, 'f1', 'acme'), shared(3 * H, 'f1', 'acme'),
      plan(-H, 'f2', 'acme', 'pro'), home(5 * 60_000, 'f2', 'acme'), exportClick(5 * 60_000 + 2 * H, 'f2', 'acme'),
      plan(-H, 'f3', 'globex', 'free'), home(10 * 60_000, 'f3', 'globex'),
      exportClick(-H / 2, 'f4', 'globex'), home(H, 'f4', 'globex'),
    ]);
    await defineRule(serverUrl, apiKey, 'pages', { name: 'Home', rule: { url: '/e2e/funnels/home' } });
    await defineRule(serverUrl, apiKey, 'features', { name: 'Export', rule: { selector: 'button.export' } });

    await logInAsAdmin(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}`);
    await page.getByRole('link', { name: 'Funnels', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/funnels$`));
    const form = page.getByRole('form', { name: 'Funnel question' });
    // Step 1 starts as a page, step 2 as a feature, nothing picked: the form says so before asking.
    await form.getByRole('button', { name: 'Show funnel' }).click();
    await expect(form.getByRole('alert').first()).toHaveText('Pick a page (add one under Pages)');
    await form.getByLabel('Step 1: page').selectOption({ label: 'Home' });
    await form.getByLabel('Step 2: feature').selectOption({ label: 'Export' });
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByLabel('Step 3: kind').selectOption('track');
    await form.getByLabel('Step 3: track event name').fill('report shared');
    await form.getByLabel('Breakdown (optional)').fill('plan');
    await form.getByRole('button', { name: 'Show funnel' }).click();

    const steps = page.getByRole('region', { name: 'Funnel steps' });
    await expect(steps.locator('.funnel-step-name')).toHaveText(['1. Home', '2. Export', '3. “report shared”']);
    await expect(steps.locator('.funnel-step-count')).toHaveText(['4', '2', '1']);
    await expect(steps.locator('.funnel-step-figures')).toHaveText([
      // f1 1 h, f2 2 h: median 1 h 30 min; then f1 2 h.
      '50% of step 1 · 50% of step 1 · median 1 h 30 min from step 1',
      '50% of step 2 · 25% of step 1 · median 2 h 0 min from step 2',
    ]);
    await expect(steps.getByRole('heading')).toHaveText('4 visitors entered; 25% reached the last step');
    const breakdown = page.getByRole('table', { name: 'By plan' });
    await expect(breakdown.getByRole('row', { name: 'pro' }).locator('td')).toHaveText(['pro', '2', '2', '1', '50%']);
    await expect(breakdown.getByRole('row', { name: 'free' }).locator('td')).toHaveText(['free', '1', '0', '0', '0%']);
    await expect(breakdown.getByRole('row', { name: '(none)' }).locator('td')).toHaveText(['(none)', '1', '0', '0', '0%']);

    // Who dropped: f3 and f4 at Export, f2 at the track event; each a link to the visitor's page.
    await steps.getByText('2 visitors dropped here').click();
    await expect(steps.getByRole('list', { name: 'Dropped at step 2' }).getByRole('link')).toHaveText(['f3', 'f4']);
    await steps.getByText('1 visitor dropped here').click();
    await expect(steps.getByRole('list', { name: 'Dropped at step 3' }).getByRole('link')).toHaveText(['f2']);
    await expect(steps.getByRole('link', { name: 'f3' })).toHaveAttribute('href', `/console/apps/${apiKey}/visitors/f3`);
    await shoot(page, 'docs/console/funnel.png');

    // By account: acme reaches all three; globex enters with f3 and never exports after (f4's click came first).
    await form.getByLabel('Count').selectOption('account');
    await form.getByLabel('Breakdown (optional)').fill('');
    await form.getByRole('button', { name: 'Show funnel' }).click();
    await expect(steps.locator('.funnel-step-count')).toHaveText(['2', '1', '1']);
    await steps.getByText('1 account dropped here').click();
    await expect(steps.getByRole('list', { name: 'Dropped at step 2' }).getByRole('link')).toHaveText(['globex']);
    await expect(page.getByRole('table', { name: 'By plan' })).toHaveCount(0);
    await steps.getByRole('link', { name: 'globex' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/accounts/globex$`));
  });
});
