/**
 * Issue #17 localization in Chromium against the reference server: a guide written in English with French and
 * Brazilian Portuguese translations is shown to each visitor in their language (the visitor metadata's, else the
 * browser's), its guide events say which, and the preview bar offers the guide's languages (issue #15).
 */
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const words = (title: string, body: string) => ({ type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h3', props: {}, content: title }, { type: 'p', props: {}, content: body }] });
const lightbox = '[data-waymark-overlay] .wm-lightbox';
const bar = 'iframe[data-waymark-preview-bar]';

/** Saves the translated welcome guide of `apiKey`, public. */
async function saveTranslatedGuide(serverUrl: string, apiKey: string): Promise<void> {
  const guide = {
    id: 'welcome',
    name: 'Welcome',
    launchMethod: 'auto',
    authoredLanguage: 'en',
    steps: [{ id: 'welcome-1', type: 'lightbox', domJson: words('Welcome', 'Here is your dashboard.') }],
    translations: {
      fr: { name: 'Bienvenue', steps: { 'welcome-1': { domJson: words('Bienvenue', 'Voici votre tableau de bord.') } } },
      'pt-BR': { steps: { 'welcome-1': { domJson: words('Bem-vindo', 'Este é o seu painel.') } } },
    },
  };
  const headers = { 'content-type': 'application/json' };
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/welcome`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/welcome/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers })).status).toBe(200);
}

test.describe('issue #17 guides in several languages', () => {
  test("a visitor whose metadata says fr sees the French guide, and its guideSeen says fr; a browser in pt-BR gets Portuguese", async ({ browser, serverUrl }) => {
    const apiKey = uniqueId('e2e-i18n');
    await saveTranslatedGuide(serverUrl, apiKey);
    const visit = async (visitorJs: string, locale: string) => {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.route(`${serverUrl}/e2e/i18n`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: ${visitorJs} });` }) }));
      await page.goto(`${serverUrl}/e2e/i18n`);
      await agentReady(page);
      return { context, page };
    };
    const fr = await visit("{ id: 'i18n-fr', language: 'fr' }", 'en-US');
    try {
      await expect(fr.page.locator(lightbox)).toContainText('Voici votre tableau de bord.');
      await fr.page.screenshot({ path: 'test-results/screens/guide-french.png' });
      await fr.page.evaluate(() => (window as any).waymark.flushNow());
      const events = await waitForEvents(serverUrl, { apiKey, visitorId: 'i18n-fr' }, (list) => list.some((e) => e.type === 'guideSeen'));
      expect(events.find((e) => e.type === 'guideSeen')?.props).toMatchObject({ guide_id: 'welcome', language: 'fr' });
    } finally {
      await fr.context.close();
    }
    const pt = await visit("{ id: 'i18n-pt' }", 'pt-BR');
    try {
      await expect(pt.page.locator(lightbox)).toContainText('Este é o seu painel.');
    } finally {
      await pt.context.close();
    }
  });

  test('a language given while an English step is open: the step turns French, and its events from then on say fr', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-i18n-late');
    await saveTranslatedGuide(serverUrl, apiKey);
    const visitor = uniqueId('i18n-late');
    await openHostPage('/e2e/i18n-late', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });` }));
    const step = page.locator(lightbox);
    await expect(step).toContainText('Here is your dashboard.');
    await page.evaluate((id) => (window as any).waymark.identify({ visitor: { id, language: 'fr' } }), visitor);
    await expect(step).toContainText('Voici votre tableau de bord.');
    await expect(step).not.toContainText('Here is your dashboard.');
    await step.getByRole('button', { name: 'close' }).click();
    await expect(step).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (list) => list.some((e) => e.type === 'guideDismissed'));
    expect(events.filter((e) => e.type === 'guideSeen').map((e) => e.props.language)).toEqual(['en']);
    expect(events.find((e) => e.type === 'guideDismissed')?.props).toMatchObject({ guide_id: 'welcome', language: 'fr' });
  });

  test("the preview bar offers the guide's languages; choosing French shows the French guide", async ({ page, context, openHostPage, serverUrl }) => {
    const apiKey = uniqueId('e2e-i18n-preview');
    await saveTranslatedGuide(serverUrl, apiKey);
    await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
    const link = Buffer.from(JSON.stringify({ apiKey, guideId: 'welcome', serverUrl, origin: serverUrl, installType: 'web', stepIndex: 0 })).toString('base64url');
    await openHostPage(`/e2e/i18n-preview?waymark-preview=${link}`, hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'author' } });` }));
    await agentReady(page);
    await expect(page.locator(lightbox)).toContainText('Here is your dashboard.');
    const language = page.frameLocator(bar).getByRole('combobox', { name: 'Language' });
    await expect(language.locator('option')).toHaveText(['English (en)', 'French (fr)', 'Brazilian Portuguese (pt-BR)']);
    await language.selectOption('fr');
    await expect(page.locator(lightbox)).toContainText('Voici votre tableau de bord.');
    await expect(language).toHaveValue('fr');
    await page.screenshot({ path: 'test-results/screens/preview-language.png' });
    // The choice holds across the tab's page loads (the preview record).
    await page.reload();
    await agentReady(page);
    await expect(page.locator(lightbox)).toContainText('Voici votre tableau de bord.');
    // The console's guide page lists the guide's languages.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/welcome`);
    await expect(page.getByTestId('guide-languages')).toHaveText(' · in en, fr, pt-BR');
  });

  test('a product team translates a guide in the console, text by text; a German visitor then sees it in German', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-translate');
    const guide = {
      id: 'tour',
      name: 'Tour',
      launchMethod: 'auto',
      steps: [
        {
          id: 'tour-1',
          type: 'lightbox',
          domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h3', props: {}, content: 'Welcome' }, { type: 'p', props: {}, content: 'Here is your dashboard.' }] },
        },
      ],
    };
    const headers = { 'content-type': 'application/json' };
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
    expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers })).status).toBe(200);
    expect((await page.context().request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } })).status()).toBe(204);

    await page.goto(`${serverUrl}/console/apps/${apiKey}/guides/tour`);
    await page.getByRole('link', { name: 'Translations' }).click();
    await expect(page.getByText('No translations yet: add a language.')).toBeVisible();
    await page.getByLabel('New language').fill('german');
    await page.getByRole('button', { name: 'Add a language' }).click();
    await expect(page.getByRole('alert')).toHaveText('"german" is not a language tag (fr, pt-BR, zh-Hant)');
    await page.getByLabel('New language').fill('de');
    await page.getByRole('button', { name: 'Add a language' }).click();
    await expect(page.getByRole('tab', { name: 'de' })).toHaveAttribute('aria-selected', 'true');
    const form = page.getByRole('form', { name: 'Translation de' });
    await expect(form.getByRole('heading')).toHaveText('de: 0 of 2 texts translated');
    await form.getByLabel('Step 1 text 1 in de').fill('Willkommen');
    await form.getByLabel('Step 1 text 2 in de').fill('Hier ist Ihr Dashboard.');
    await expect(form.getByRole('heading')).toHaveText('de: 2 of 2 texts translated');
    await form.getByRole('button', { name: 'Save de' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await page.screenshot({ path: 'test-results/screens/console-translations.png', fullPage: true });

    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/tour`)).json();
    expect(stored.guide.authoredLanguage).toBe('en');
    expect(stored.guide.translations.de.steps['tour-1'].domJson.children.map((c: { content: string }) => c.content)).toEqual(['Willkommen', 'Hier ist Ihr Dashboard.']);

    await openHostPage('/e2e/i18n-de', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'i18n-de', language: 'de' } });` }));
    await agentReady(page);
    await expect(page.locator(lightbox)).toContainText('Hier ist Ihr Dashboard.');
  });
});
