/**
 * Issue #17 markdown plugin in Chromium against the reference server (analytics-spec: "Markdown plugin behaviour
 * (branching, required questions, step skipping, metadata substitution)"; our syntax: docs/markdown.md). A guide
 * written in markdown is published through the console API; the server converts it for each visitor, the agent
 * renders the building blocks it gets. With the site config guideMarkdown off, the source shows as plain text.
 */
import type { Browser } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const lightbox = '[data-waymark-overlay] .wm-lightbox';
const headers = { 'content-type': 'application/json' };

const guide = {
  id: 'md-welcome',
  name: 'Welcome, in markdown',
  launchMethod: 'auto',
  isMultiStep: true,
  steps: [
    {
      id: 'md-hello',
      type: 'lightbox',
      markdown: '# Welcome, {{visitor.firstName | there}}!\n\nYou are on the **{{account.plan | free}}** plan.\n\n[[Next: Show me around]] [[Go to step md-survey: Straight to the survey]]',
    },
    { id: 'md-reports', type: 'lightbox', markdown: '## Reports\n\nEvery report lives here.\n\n[[Back]] [[Next]]' },
    { id: 'md-setup', type: 'lightbox', markdown: '<!-- skip if visitor.role is "admin" -->\n## Ask your admin\n\nYour admin sets up the workspace.\n\n[[Back]] [[Next]]' },
    { id: 'md-survey', type: 'lightbox', markdown: '??? How did you hear about us? (required)\n- ( ) Search\n- ( ) A friend\n\n[[Back]] [[Next: Finish]]' },
    { id: 'md-thanks', type: 'lightbox', markdown: '## Thanks, {{visitor.firstName | friend}}!\n\n[[Dismiss: Close]]' },
  ],
};

/** Saves and publishes the markdown guide for `apiKey`. */
async function publishGuide(serverUrl: string, apiKey: string): Promise<void> {
  const saved = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guide.id}`, { method: 'PUT', body: JSON.stringify(guide), headers });
  expect(saved.status, await saved.clone().text()).toBe(201);
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guide.id}/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers })).status).toBe(200);
}

/** Opens a host page of `apiKey` as the visitor `init` names, in a context of its own. */
async function visit(browser: Browser, serverUrl: string, apiKey: string, identity: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${serverUrl}/e2e/markdown`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', ${identity} });`, body: '<main style="padding:40px"><h1>Reports</h1></main>' }) }));
  await page.goto(`${serverUrl}/e2e/markdown`);
  await agentReady(page);
  return { context, page, box: page.locator(lightbox) };
}

test.describe('issue #17 markdown plugin', () => {
  test("an admin sees their metadata, Next skips the step marked for non-admins, and the required question holds Finish until answered", async ({ browser, serverUrl }) => {
    const apiKey = uniqueId('e2e-markdown');
    await publishGuide(serverUrl, apiKey);
    const { context, page, box } = await visit(browser, serverUrl, apiKey, "visitor: { id: 'md-ada', firstName: 'Ada', role: 'admin' }, account: { id: 'acme', plan: 'Enterprise' }");
    try {
      // Metadata substitution.
      await expect(box.getByRole('heading', { level: 1 })).toHaveText('Welcome, Ada!');
      await expect(box).toContainText('You are on the Enterprise plan.');
      await page.screenshot({ path: 'test-results/screens/markdown-welcome.png' });
      await box.getByRole('button', { name: 'Show me around' }).click();
      await expect(box.getByRole('heading', { level: 2 })).toHaveText('Reports');
      // Step skipping: md-setup is not served to an admin, so Next goes straight to the survey.
      await box.getByRole('button', { name: 'Next', exact: true }).click();
      await expect(box).toContainText('How did you hear about us?');
      await expect(box).not.toContainText('Ask your admin');
      // A required question: Finish is refused until it is answered.
      await box.getByRole('button', { name: 'Finish' }).click();
      await expect(box.getByRole('alert')).toHaveText('Answer the question to go on.');
      await page.screenshot({ path: 'test-results/screens/markdown-required.png' });
      await box.getByRole('radio', { name: 'A friend' }).check();
      await box.getByRole('button', { name: 'Finish' }).click();
      await expect(box.getByRole('heading', { level: 2 })).toHaveText('Thanks, Ada!');
      await box.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(page.locator(lightbox)).toHaveCount(0);
      await page.evaluate(() => (window as any).waymark.flushNow());
      const events = await waitForEvents(serverUrl, { apiKey, visitorId: 'md-ada' }, (list) => list.some((e) => e.type === 'pollResponse'));
      expect(events.find((e) => e.type === 'pollResponse')?.props).toMatchObject({ guide_id: 'md-welcome', guide_step_id: 'md-survey', poll_id: 'md-survey-q1', poll_response: 'A friend' });
      expect(events.filter((e) => e.type === 'guideSeen').map((e) => e.props.guide_step_id)).not.toContain('md-setup');
    } finally {
      await context.close();
    }
  });

  test('a visitor without metadata sees the fallbacks, the branching button goes to the named step, and the step for non-admins is there', async ({ browser, serverUrl }) => {
    const apiKey = uniqueId('e2e-markdown-jump');
    await publishGuide(serverUrl, apiKey);
    const { context, box } = await visit(browser, serverUrl, apiKey, "visitor: { id: 'md-guest' }");
    try {
      await expect(box.getByRole('heading', { level: 1 })).toHaveText('Welcome, there!');
      await expect(box).toContainText('You are on the free plan.');
      // Branching: [[Go to step md-survey: ...]] jumps over two steps.
      await box.getByRole('button', { name: 'Straight to the survey' }).click();
      await expect(box).toContainText('How did you hear about us?');
      // Back from the survey is the step a non-admin is served before it.
      await box.getByRole('button', { name: 'Back' }).click();
      await expect(box.getByRole('heading', { level: 2 })).toHaveText('Ask your admin');
    } finally {
      await context.close();
    }
  });

  test('with the site config guideMarkdown off, the source shows as plain text', async ({ browser, serverUrl }) => {
    const apiKey = uniqueId('e2e-markdown-off');
    await publishGuide(serverUrl, apiKey);
    // PUT replaces every setting: the others stay at their defaults.
    const settings = await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`, { method: 'PUT', body: JSON.stringify({ guideMarkdown: false }), headers });
    expect(settings.status, await settings.clone().text()).toBe(200);
    const { context, page, box } = await visit(browser, serverUrl, apiKey, "visitor: { id: 'md-plain', firstName: 'Ada' }");
    try {
      await expect(box).toContainText('# Welcome, {{visitor.firstName | there}}!');
      await expect(box).toContainText('[[Next: Show me around]] [[Go to step md-survey: Straight to the survey]]');
      await expect(box.getByRole('heading')).toHaveCount(0);
      await expect(box.getByRole('button', { name: 'Show me around' })).toHaveCount(0);
      await page.screenshot({ path: 'test-results/screens/markdown-off.png' });
    } finally {
      await context.close();
    }
  });

  test('the console\'s guide editor writes a step in markdown and says which line of it is wrong, as it is typed', async ({ page, serverUrl }) => {
    const apiKey = uniqueId('e2e-md-console');
    const two = { id: 'md-two', name: 'Two', launchMethod: 'auto', steps: [{ id: 'md-two-1', type: 'lightbox', markdown: '# One\n\n[[Next]]' }, { id: 'md-two-2', type: 'lightbox', markdown: '# Two' }] };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/md-two`, { method: 'PUT', body: JSON.stringify(two), headers })).status).toBe(201);
    expect((await page.context().request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } })).status()).toBe(204);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/md-two/edit`);
    const second = page.getByRole('group', { name: 'Step 2' }).getByLabel('Markdown');
    await expect(second).toHaveValue('# Two');
    await second.fill('# Two\n\n[[Go to step 9]]');
    await expect(page.getByRole('group', { name: 'Step 2' }).getByRole('alert')).toContainText('markdown line 3: [[Go to step 9]]');
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await second.fill('# Two\n\nAll **done**.\n\n[[Back]]');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/guides\/md-two$/);
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/md-two`)).json();
    expect(stored.guide.steps[1].markdown).toBe('# Two\n\nAll **done**.\n\n[[Back]]');
  });
});
