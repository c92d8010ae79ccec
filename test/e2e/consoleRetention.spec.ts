/**
 * Issue #35, retention in the console, in Chromium against the real server: page loads and clicks of five visitors
 * over the last weeks are sent through the collector's beacon (ptm.gif, their browser_time weeks in the past: the
 * agent on a page stamps now, and a cohort needs weeks behind it), then the Retention screen shows the cells a hand
 * count gives: all cohorts, by account, a start feature and a return page made afterwards, and the empty state.
 * WAYMARK_SHOTS=1 writes docs/console/retention.png.
 *
 * Times are whole weeks before this week's Monday (UTC) plus a few ms, so which weeks are over does not depend on
 * the day the test runs: cohort A (4 weeks back) has weeks 0-3 over, cohort B (2 weeks back) weeks 0-1.
 */
import { weekOf, WEEK_MS } from '../../shared/analytics/utcWeek';
import { shoot } from './docShots';
import { defineRule, expect, logInAsAdmin, sendEvents, test, uniqueId } from './fixtures';

const D = 86_400_000;
const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };

test.describe('issue #35 retention in the console', () => {
  test('cohorts by week of first use, shaded shares, the curve; by account; a start feature and a return page; no cohort', async ({ page, context, serverUrl }) => {
    test.setTimeout(60_000);
    const apiKey = uniqueId('e2e-retention');
    const A = weekOf(Date.now()) - 4 * WEEK_MS;
    const B = A + 2 * WEEK_MS;
    const url = (path: string) => `${serverUrl}/e2e/retention${path}`;
    const load = (t: number, visitor: string, account: string, path = '/home') => ({ type: 'load', browser_time: t, visitor_id: visitor, account_id: account, url: url(path), props: {} });
    const click = (t: number, visitor: string, account: string) => ({ type: 'click', browser_time: t, visitor_id: visitor, account_id: account, url: url('/home'), props: { target: EXPORT } });
    // Week A: v1 back in weeks 1 and 2 (a report), v2 on day 6 (week 0) and clicks Export in week 3, v3 never.
    // Week B: v4 clicks Export first, back in week 1; v5 never.
    await sendEvents(serverUrl, apiKey, [
      load(A + 1, 'v1', 'acme'), load(A + 7 * D + 1, 'v1', 'acme'), load(A + 14 * D + 1, 'v1', 'acme', '/reports/1'),
      load(A + 2, 'v2', 'acme'), load(A + 6 * D, 'v2', 'acme'), click(A + 21 * D + 2, 'v2', 'acme'),
      load(A + 3, 'v3', 'globex'),
      click(B + 1, 'v4', 'globex'), load(B + 7 * D + 1, 'v4', 'globex'),
      load(B + 2, 'v5', 'initech'),
    ]);
    // Defined after the fact: they count what is stored.
    await defineRule(serverUrl, apiKey, 'features', { name: 'Export', rule: { selector: 'button.export' } });
    await defineRule(serverUrl, apiKey, 'pages', { name: 'Reports', rule: { url: '/e2e/retention/reports/:id' } });

    await logInAsAdmin(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}`);
    await page.getByRole('link', { name: 'Retention', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/retention$`));
    const table = page.getByRole('table', { name: 'Retention by cohort' });
    const cells = (week: number | 'All cohorts') => table.getByRole('row', { name: typeof week === 'number' ? new Date(week).toISOString().slice(0, 10) : week, exact: true }).locator('td');
    const blank = (n: number) => new Array<string>(n).fill('');

    // Visitors, any event: A 3 (v1 weeks 1, 2; v2 week 3), B 2 (v4 week 1); all cohorts: week 1 2 of 5, week 2 1 of 3.
    await expect(cells(A)).toHaveText([new Date(A).toISOString().slice(0, 10), '3', '100%', '33%', '33%', '33%', ...blank(5)]);
    await expect(cells(B)).toHaveText([new Date(B).toISOString().slice(0, 10), '2', '100%', '50%', ...blank(7)]);
    await expect(cells('All cohorts')).toHaveText(['All cohorts', '5', '100%', '40%', '33%', '33%', ...blank(5)]);
    await expect(cells(A).nth(3)).toHaveAttribute('title', '1 of 3 visitors back in week 1');
    await expect(cells(B).nth(4)).toHaveAttribute('title', 'week 2 is not over for every visitor of this cohort yet');
    // Shaded by the share: the full cohort darker than a third of it.
    const shade = (i: number) => cells(A).nth(i).evaluate((td) => getComputedStyle(td).backgroundColor);
    expect(await shade(2)).not.toBe(await shade(3));
    const chart = page.getByRole('img', { name: 'Retention curve' });
    await expect(chart.locator('canvas')).toHaveCount(1);
    await expect(chart.locator('.u-legend')).toContainText('Back, all cohorts');
    await shoot(page, 'docs/console/retention.png');

    const form = page.getByRole('form', { name: 'Retention question' });
    // By account: acme (v1, v2) and globex (v3 first, v4 back in weeks 1 and 2) in A; initech in B.
    await form.getByLabel('Count').selectOption('account');
    await form.getByLabel('Weeks').selectOption('4');
    await form.getByRole('button', { name: 'Show retention' }).click();
    await expect(cells(A)).toHaveText([new Date(A).toISOString().slice(0, 10), '2', '100%', '100%', '100%', '50%', '']);
    await expect(cells(B)).toHaveText([new Date(B).toISOString().slice(0, 10), '1', '100%', '0%', '', '', '']);

    // First use of Export: v4 in week B (back in week 1), v2 in the week before this one (no week over yet).
    await form.getByLabel('Count').selectOption('visitor');
    await form.getByLabel('First use: kind').selectOption('feature');
    await expect(form.getByLabel('First use: feature')).toHaveValue(/.+/);
    await form.getByRole('button', { name: 'Show retention' }).click();
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(cells(B)).toHaveText([new Date(B).toISOString().slice(0, 10), '1', '100%', '100%', '', '', '']);
    await expect(cells(B + WEEK_MS)).toHaveText([new Date(B + WEEK_MS).toISOString().slice(0, 10), '1', '100%', '', '', '', '']);

    // Back on the Reports page, from any first use: only v1, in week 2.
    await form.getByLabel('First use: kind').selectOption('any');
    await form.getByLabel('Coming back: kind').selectOption('page');
    await form.getByRole('button', { name: 'Show retention' }).click();
    await expect(cells(A)).toHaveText([new Date(A).toISOString().slice(0, 10), '3', '100%', '0%', '33%', '0%', '']);

    // A track event no one sent: no cohort; an empty name is refused beside its field first.
    await form.getByLabel('First use: kind').selectOption('track');
    await form.getByRole('button', { name: 'Show retention' }).click();
    await expect(form.getByRole('alert')).toHaveText('Name a track event');
    await form.getByLabel('First use: track event name').fill('never sent');
    await form.getByRole('button', { name: 'Show retention' }).click();
    await expect(page.getByRole('heading', { name: 'No cohort in these weeks' })).toBeVisible();
  });
});
