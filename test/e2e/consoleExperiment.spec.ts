/**
 * Issue #35 "Did the guide work?" in the console, in Chromium against the real server: a published guide's goal (a
 * track event within 3 days) and experiment (20% held back) are set in the guide editor; the guide events of 40
 * visitors who saw it and of 40 in the control group (their agent's `control` event) and the goal's track events
 * (20 and 8 of them) are sent through the collector's beacons; the guide page's Goal panel shows each group's counts,
 * the lift with its interval drawn, and the sentence.
 * WAYMARK_SHOTS=1 writes docs/console/guide-experiment.png.
 */
import { deflateSync } from 'node:zlib';
import { shoot } from './docShots';
import { adminFetch, expect, logInAsAdmin, sendEvents, test, uniqueId } from './fixtures';

const H = 3_600_000;

/** Stores guide events of `apiKey` through guide.gif, as the agent sends them. */
async function sendGuideEvents(serverUrl: string, apiKey: string, events: object[]): Promise<void> {
  const jzb = deflateSync(Buffer.from(JSON.stringify(events))).toString('base64url');
  expect((await fetch(`${serverUrl}/data/guide.gif/${apiKey}?v=1&ct=1&jzb=${jzb}`)).status).toBe(200);
}

test.describe('issue #35 a guide\'s goal and experiment in the console', () => {
  test('goal and control share set in the editor; the Goal panel shows both groups, the lift and its interval', async ({ page, context, serverUrl }) => {
    test.setTimeout(60_000);
    const apiKey = uniqueId('e2e-experiment');
    const guide = {
      id: 'onboarding',
      name: 'Share your first report',
      launchMethod: 'auto',
      state: 'public',
      steps: [{ id: 'onboarding-1', type: 'lightbox', domJson: { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Share a report' }] } }],
    };
    const put = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/onboarding`, { method: 'PUT', body: JSON.stringify(guide), headers: { 'content-type': 'application/json' } });
    expect(put.status).toBe(201);
    const t0 = Date.now() - 2 * 24 * H;
    const event = (visitor: string, t: number, fields: object) => ({ browser_time: t0 + t, visitor_id: visitor, account_id: 'acme', url: `${serverUrl}/e2e/experiment`, ...fields });
    const exposure = (visitor: string, type: 'guideSeen' | 'control') => event(visitor, 0, { type, props: { guide_id: 'onboarding', guide_step_id: 'onboarding-1' } });
    const goal = (visitor: string) => event(visitor, 2 * H, { type: 'track', track_event_name: 'report shared', props: {} });
    const treatment = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const control = Array.from({ length: 40 }, (_, i) => `c${i}`);
    await sendGuideEvents(serverUrl, apiKey, [...treatment.map((v) => exposure(v, 'guideSeen')), ...control.map((v) => exposure(v, 'control'))]);
    await sendEvents(serverUrl, apiKey, [...treatment.slice(0, 20), ...control.slice(0, 8)].map(goal));

    await logInAsAdmin(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/onboarding/edit`);
    const fields = page.getByRole('group', { name: 'Goal and experiment' });
    await fields.getByRole('combobox', { name: 'Goal', exact: true }).selectOption('track');
    await fields.getByLabel('Track event name').fill('report shared');
    await fields.getByLabel('Within (days)').fill('3');
    // A share over 50% is refused at its field before saving.
    await fields.getByLabel('Control group (%)').fill('60');
    await expect(fields.getByText(/experiment\.controlShare must be a number from 0\.01 to 0\.5/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await fields.getByLabel('Control group (%)').fill('20');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/apps/${apiKey}/guides/onboarding$`));

    const panel = page.getByRole('region', { name: 'Goal' });
    await expect(panel).toContainText('Visitors who send the track event “report shared” within 3 days of first seeing the guide; 20% of its audience is held back');
    await expect(panel.getByTestId('goal-treatment').locator('td')).toHaveText(['Saw the guide', '40', '20', /50\.0%/]);
    await expect(panel.getByTestId('goal-control').locator('td')).toHaveText(['Control group', '40', '8', /20\.0%/]);
    // Newcombe's interval of 20/40 - 8/40: 9.1 to 47.6 points (the server test checks it against the paper).
    await expect(panel.getByTestId('goal-sentence')).toHaveText(
      'The guide helped: those who saw it reached the goal within 3 days 30.0 points more often than the control group (95% interval +9.1 points to +47.6 points).',
    );
    await expect(panel.getByRole('img', { name: 'Lift +30.0 pts, 95% interval +9.1 pts to +47.6 pts' })).toBeVisible();
    await expect(panel).toContainText('Newcombe\'s hybrid score method');
    await panel.scrollIntoViewIfNeeded();
    await shoot(page, 'docs/console/guide-experiment.png');

    // The guide as stored carries both fields: reopened, the editor shows them.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/onboarding/edit`);
    await expect(fields.getByLabel('Control group (%)')).toHaveValue('20');
    await expect(fields.getByLabel('Track event name')).toHaveValue('report shared');
  });
});
