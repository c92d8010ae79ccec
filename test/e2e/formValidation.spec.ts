/**
 * analytics §2, §3, §5, §9 form validation in Chromium against the reference server: the app's settings name the
 * fields (PUT /api/apps/{apiKey}/settings), guide.json serves them, the forms chunk loads only then and validates
 * the page's inputs: gray before validation, a red border and the 300 px tooltip when invalid, still red after
 * blur, the field record on a `waymark:formvalidation` event; inputs in a shadow root and inputs added later too.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId } from './fixtures';

const FIELDS = [
  { id: 'work-email', context: { selector: '#email' }, rules: [{ type: 'email', id: 'email', ruleText: 'Enter your work email, like ana@example.com' }] },
  { id: 'phone', context: { selector: 'input[name=phone]' }, rules: [{ type: 'phone', id: 'phone', ruleText: 'A phone number: 555 123 4567' }] },
  { id: 'start', context: { selector: '#start' }, rules: [{ type: 'date', id: 'date', ruleText: 'A date as DD-MM-YYYY', options: { format: 'DD-MM-YYYY' } }] },
  {
    id: 'seats',
    context: { selector: '.seats' },
    rules: [
      { type: 'number', id: 'n', ruleText: 'Seats: a number from 1 to 500', options: { min: 1, max: 500 } },
      { type: 'characterLength', id: 'len', ruleText: 'At most 3 digits', options: { max: 3 } },
    ],
  },
  { id: 'elsewhere', context: { selector: '#site', url: '/billing' }, rules: [{ type: 'url', id: 'url', ruleText: 'A web address' }] },
];

const FORM = `
<form id="signup" onsubmit="event.preventDefault(); window.submitted = true">
  <p><label>Email <input id="email" style="border: 2px solid #333"></label></p>
  <p><label>Phone <input name="phone" style="border: 2px solid #333"></label></p>
  <p><label>Start <input id="start" style="border: 2px solid #333"></label></p>
  <p><label>Website <input id="site" style="border: 2px solid #333"></label></p>
  <div id="shadow-host"></div>
  <button>Sign up</button>
</form>
<script>
  const root = document.getElementById('shadow-host').attachShadow({ mode: 'open' });
  root.innerHTML = '<label>Seats <input class="seats" style="border: 2px solid #333"></label>';
  window.validations = [];
  document.addEventListener('waymark:formvalidation', (e) => window.validations.push(e.detail));
</script>`;

const GRAY = 'rgb(154, 160, 166)';
const RED = 'rgb(217, 48, 37)';

async function putSettings(serverUrl: string, apiKey: string, body: object): Promise<void> {
  const response = await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(response.status, await response.clone().text()).toBe(200);
}

const borderOf = (page: Page, selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).borderTopColor);
const tooltip = (page: Page) => page.locator('[data-waymark-validation-tooltip]');

test.describe('analytics §2 form validation', () => {
  test('gray before validation, red with the tooltip when invalid, red after blur, the record on each validation', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-forms');
    await putSettings(serverUrl, apiKey, { formValidation: { enabled: true, fields: FIELDS } });
    await openHostPage('/e2e/forms/signup', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v1' } });`, body: FORM }));
    await agentReady(page);

    // Before validation: gray, the host's own style otherwise; a field of another page is left alone.
    await expect(page.locator('#email')).toHaveAttribute('data-waymark-validation', 'unknown');
    expect(await borderOf(page, '#email')).toBe(GRAY);
    await expect(page.locator('#site')).not.toHaveAttribute('data-waymark-validation');
    expect(await borderOf(page, '#site')).toBe('rgb(51, 51, 51)');

    // Typing something invalid: red border and the tooltip, 300 px wide, once the visitor pauses (100 ms).
    await page.locator('#email').pressSequentially('ana@');
    await expect(page.locator('#email')).toHaveAttribute('data-waymark-validation', 'invalid');
    expect(await borderOf(page, '#email')).toBe(RED);
    await expect(page.locator('#email')).toHaveAttribute('aria-invalid', 'true');
    await expect(tooltip(page)).toHaveText('Enter your work email, like ana@example.com');
    expect((await tooltip(page).boundingBox())?.width).toBe(300);
    const emailBox = (await page.locator('#email').boundingBox())!;
    const tipBox = (await tooltip(page).boundingBox())!;
    expect(tipBox.y).toBeGreaterThanOrEqual(emailBox.y + emailBox.height);
    // The tooltip describes the field.
    const describedBy = await page.locator('#email').getAttribute('aria-describedby');
    expect(await tooltip(page).getAttribute('id')).toBe(describedBy);
    await page.screenshot({ path: 'test-results/form-validation-invalid.png' });

    // Leaving it invalid: still red; the tooltip goes (it would cover the next field) and comes back with the visitor.
    await page.keyboard.press('Tab');
    await expect(tooltip(page)).toHaveCount(0);
    expect(await borderOf(page, '#email')).toBe(RED);
    await expect(page.locator('input[name=phone]')).toBeFocused();
    await page.locator('#email').focus();
    await expect(tooltip(page)).toHaveText('Enter your work email, like ana@example.com');

    // Fixed: valid, no tooltip, no aria-invalid; the host's border is back.
    await page.locator('#email').fill('ana@example.com');
    await expect(page.locator('#email')).toHaveAttribute('data-waymark-validation', 'valid');
    await expect(tooltip(page)).toHaveCount(0);
    await expect(page.locator('#email')).not.toHaveAttribute('aria-invalid');
    expect(await borderOf(page, '#email')).toBe('rgb(51, 51, 51)');
    const last = await page.evaluate(() => (window as any).validations.at(-1));
    expect(last).toEqual({ ...FIELDS[0], isValid: true, brokenRules: [] });

    // Phone and date rules as the spec gives them.
    await page.locator('input[name=phone]').fill('+1 (555) 123-4567');
    await expect(page.locator('input[name=phone]')).toHaveAttribute('data-waymark-validation', 'valid');
    await page.locator('#start').fill('12-31-2024');
    await expect(page.locator('#start')).toHaveAttribute('data-waymark-validation', 'invalid');
    await page.locator('#start').fill('31-12-2024');
    await expect(page.locator('#start')).toHaveAttribute('data-waymark-validation', 'valid');

    // A field in a shadow root, with two rules: both texts while both break.
    // (Inside a shadow root the page is not searched up front: the field turns gray when the visitor gets to it.)
    const seats = page.locator('#shadow-host .seats');
    await expect(seats).not.toHaveAttribute('data-waymark-validation');
    await seats.focus();
    await expect(seats).toHaveAttribute('data-waymark-validation', 'unknown');
    expect(await seats.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(GRAY);
    await seats.fill('1000');
    await expect(seats).toHaveAttribute('data-waymark-validation', 'invalid');
    await expect(tooltip(page)).toHaveText('Seats: a number from 1 to 500At most 3 digits');
    expect(await seats.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(RED);
    const record = await page.evaluate(() => (window as any).validations.at(-1));
    expect(record).toMatchObject({ id: 'seats', isValid: false, brokenRules: ['n', 'len'] });

    // Validation never blocks the host's submit.
    await page.locator('button').click();
    expect(await page.evaluate(() => (window as any).submitted)).toBe(true);
  });

  test('an input added later is validated; a page of another app (no fields) never loads the chunk', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-forms-late');
    await putSettings(serverUrl, apiKey, { formValidation: { enabled: true, fields: [FIELDS[0]] } });
    await openHostPage('/e2e/forms/late', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => r.name.includes('/waymark.forms.js')));
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<input id="email">'));
    await page.locator('#email').fill('nope');
    await expect(page.locator('#email')).toHaveAttribute('data-waymark-validation', 'invalid');

    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const other = uniqueId('e2e-forms-none');
    await putSettings(serverUrl, other, { formValidation: { enabled: false, fields: [FIELDS[0]] } });
    await openHostPage('/e2e/forms/none', hostPage({ init: `waymark.initialize({ apiKey: '${other}', visitor: { id: 'v1' } });`, body: '<input id="email">' }));
    await agentReady(page);
    await expect.poll(() => requests.some((u) => u.includes('/data/guide.json/'))).toBe(true);
    await page.locator('#email').fill('nope');
    await page.waitForTimeout(300);
    expect(requests.some((u) => u.includes('/waymark.forms.js'))).toBe(false);
    await expect(page.locator('#email')).not.toHaveAttribute('data-waymark-validation');
  });

  test('a product team sets a field up in the console\'s Settings; a bad selector or a missing text is refused by name; the page validates it', async ({ page, serverUrl, openHostPage, allowAgentErrors }) => {
    allowAgentErrors.push(/status of 400 \(Bad Request\)/);
    const apiKey = uniqueId('e2e-forms-console');
    expect((await page.context().request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } })).status()).toBe(204);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/settings`);
    const section = page.getByRole('region', { name: 'Form validation' });
    await section.getByRole('button', { name: 'Add a field' }).click();
    const field = section.getByRole('group', { name: 'Field 1' });
    await field.getByLabel('Name').fill('phone');
    await field.getByLabel('Input (CSS selector)').fill('input[name=phone]]');
    await field.getByRole('combobox').first().selectOption({ label: 'Phone number' });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(field.getByRole('alert')).toHaveText('"input[name=phone]]" is not a CSS selector');
    await field.getByLabel('Input (CSS selector)').fill('input[name=phone]');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(field.getByRole('alert')).toHaveText('formValidation.fields[0].rules[0].ruleText must say what the visitor should type');
    await field.getByLabel('What the visitor reads when it breaks').fill('A phone number, like 555 123 4567');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    // A Length rule (four inputs in its row) wraps inside its field instead of pushing the field past the card.
    await field.getByRole('button', { name: 'Add a rule' }).click();
    await field.locator('[aria-label="Rule 2"] select').selectOption({ label: 'Length' });
    await expect(field.getByLabel('Most characters')).toBeVisible();
    const [card, group] = [await section.boundingBox(), await field.boundingBox()];
    expect(group!.x + group!.width).toBeLessThanOrEqual(card!.x + card!.width);
    await page.screenshot({ path: 'test-results/form-validation-console.png', fullPage: true });
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`)).json();
    expect(stored.formValidation).toEqual({
      enabled: true,
      fields: [{ id: 'phone', context: { selector: 'input[name=phone]' }, rules: [{ type: 'phone', id: expect.stringMatching(/^rule-/), ruleText: 'A phone number, like 555 123 4567' }] }],
    });

    await openHostPage('/e2e/forms/console', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v1' } });`, body: '<input name="phone">' }));
    await agentReady(page);
    await page.locator('input[name=phone]').fill('12345');
    await expect(tooltip(page)).toHaveText('A phone number, like 555 123 4567');
  });

  test('analytics §5 a number takes decimals only where the console\'s rule allows them, never exponents; a web address starts with http or https', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('e2e-forms-rules');
    expect((await page.context().request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } })).status()).toBe(204);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/settings`);
    const section = page.getByRole('region', { name: 'Form validation' });
    const setUp = async (n: number, name: string, rule: string, text: string) => {
      await section.getByRole('button', { name: 'Add a field' }).click();
      const field = section.getByRole('group', { name: `Field ${n}` });
      await field.getByLabel('Name').fill(name);
      await field.getByLabel('Input (CSS selector)').fill(`#${name}`);
      await field.getByRole('combobox').first().selectOption({ label: rule });
      await field.getByLabel('What the visitor reads when it breaks').fill(text);
      return field;
    };
    const price = await setUp(1, 'price', 'Number', 'A price, like 12.50');
    await price.getByLabel('Decimals allowed').check();
    const seats = await setUp(2, 'seats', 'Number', 'Whole seats, like 12');
    await expect(seats.getByLabel('Decimals allowed')).not.toBeChecked();
    await setUp(3, 'site', 'Web address', 'A web address, like https://acme.test');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const stored = await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`)).json();
    expect(stored.formValidation.fields.map((f: { rules: Array<{ options?: unknown }> }) => f.rules[0]!.options)).toEqual([{ decimals: true }, undefined, undefined]);

    await openHostPage('/e2e/forms/rules', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v1' } });`, body: '<input id="price"><input id="seats"><input id="site">' }));
    await agentReady(page);
    const check = async (selector: string, value: string, verdict: 'valid' | 'invalid') => {
      await page.locator(selector).fill(value);
      await expect(page.locator(selector), `${selector} ${value}`).toHaveAttribute('data-waymark-validation', verdict);
    };
    await check('#price', '12.5', 'valid');
    await check('#price', '1e1', 'invalid');
    await check('#seats', '12.5', 'invalid');
    await expect(tooltip(page)).toHaveText('Whole seats, like 12');
    await check('#seats', '12', 'valid');
    await check('#seats', '1e1', 'invalid');
    await check('#site', 'example.com', 'invalid');
    await check('#site', 'localhost:3000', 'invalid');
    await check('#site', 'https://example.com', 'valid');
  });

  test('the demo app\'s settings (server/demo/settings.json, seeded for demo-app by npm start) validate its Settings page', async ({ page, serverUrl }) => {
    // The e2e server seeds no app (the test guides replace the demo's): the demo's settings are put here, and taken back.
    await putSettings(serverUrl, 'demo-app', JSON.parse(readFileSync('server/demo/settings.json', 'utf8')));
    try {
      await demoWalk(page, serverUrl);
    } finally {
      await putSettings(serverUrl, 'demo-app', {});
    }
  });
});

async function demoWalk(page: Page, serverUrl: string): Promise<void> {
  await page.goto(`${serverUrl}/settings?visitor=${uniqueId('forms-demo')}`);
  await expect(page.locator('#settings-email')).toHaveAttribute('data-waymark-validation', 'valid');
  await page.locator('#settings-email').fill('dana@');
  await expect(tooltip(page)).toHaveText('An email address, like dana@acme.test');
  await page.screenshot({ path: 'test-results/form-validation-demo.png' });
  await page.locator('#settings-email').fill('dana@acme.test');
  await expect(tooltip(page)).toHaveCount(0);
}
