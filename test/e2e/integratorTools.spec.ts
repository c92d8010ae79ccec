/**
 * Issue #17 integrator tools in Chromium against the reference server (analytics §1 console tools, §4 debugging
 * toggles and their replies, §8 the debugger plugin and its handshake): what each prints to the console, what it
 * answers, the debugger as an integrator sees it. The tools chunk loads only when one is called.
 */
import type { Page } from '@playwright/test';
import { MESSAGES } from '../../shared/messages';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId } from './fixtures';

const CHILD = '<!doctype html><html><head><meta charset="utf-8"><title>Child</title></head><body><p>Child</p></body></html>';
const panel = '[data-waymark-debugger] .box';

const call = (page: Page, name: string, ...args: unknown[]) => page.evaluate(([n, a]) => (window as any).waymark[n as string](...(a as unknown[])), [name, args] as const);

/** A public guide of the app: `auto` on a path that is not this page (so the debugger says why not), or by API. */
async function publishGuide(serverUrl: string, apiKey: string, id: string, name: string, launchMethod: string, regexUrlRule?: string): Promise<void> {
  const guide = { id, name, launchMethod, steps: [{ id: `${id}-1`, type: 'lightbox', ...(regexUrlRule ? { regexUrlRule } : {}), domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h3', props: {}, content: name }] } }] };
  const headers = { 'content-type': 'application/json' };
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${id}`, { method: 'PUT', body: JSON.stringify(guide), headers })).status).toBe(201);
  expect((await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${id}/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers })).status).toBe(200);
}

test.describe('issue #17 console tools for integrators', () => {
  // The checks print their errors with console.error on purpose.
  test.use({ allowAgentErrors: [/✖ /] });

  test('validateInstall starts with the api key, visitor and account, then names the anonymous visitor, the missing account and metadata', async ({ page, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('e2e-tools-install');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await openHostPage('/e2e/tools-install', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });` }));
    await agentReady(page);
    // Nothing of the tools before a call.
    expect(requests.some((u) => u.includes('/waymark.tools.js'))).toBe(false);
    const report = await call(page, 'validateInstall');
    expect(requests.some((u) => u.includes('/waymark.tools.js'))).toBe(true);
    const visitorId = await page.evaluate(() => (window as any).waymark.getVisitorId());
    expect(report.findings.slice(0, 3).map((f: { message: string }) => f.message)).toEqual([`api key: ${apiKey}`, `visitor id: ${visitorId}`, 'account id: (none)']);
    expect(report.ok).toBe(false);
    await expect.poll(() => consoleLines.join('\n')).toContain('[Waymark] install: 0 errors, 3 warnings');
    const text = consoleLines.join('\n');
    expect(text).toContain(`▲ the visitor is anonymous (${visitorId})`);
    expect(text).toContain('▲ no account is set');
    expect(text).toContain('▲ the visitor has no metadata besides its id');
    expect(text).toContain('→ Pass the signed-in user as visitor: { id }');
  });

  test('validateInstall before initialize: an error, and what to call', async ({ page, openHostPage }) => {
    await openHostPage('/e2e/tools-uninitialized', hostPage({ init: '' }));
    await page.waitForFunction(() => typeof (window as any).waymark?.validateInstall === 'function');
    const report = await call(page, 'validateInstall');
    expect(report.findings.map((f: { level: string; message: string }) => `${f.level}: ${f.message}`)).toContain('error: waymark.initialize() has not been called on this page');
  });

  test('validateNativeMethods names JSON.stringify that the page wrapped, and Array.prototype.toJSON, with what the agent does', async ({ page, openHostPage, consoleLines }) => {
    const wrap = '<script>const s = JSON.stringify; JSON.stringify = function (v, r, i) { return s(v, r, i); }; Array.prototype.toJSON = function () { return "x"; };</script>';
    await openHostPage('/e2e/tools-natives', hostPage({ head: wrap, init: `waymark.initialize({ apiKey: '${uniqueId('e2e-tools-natives')}', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    const report = await call(page, 'validateNativeMethods');
    const lines = report.findings.map((f: { message: string }) => f.message);
    expect(lines).toEqual(['JSON.stringify has been replaced by the page', 'Array.prototype.toJSON is defined']);
    expect(report.findings[0].advice).toContain("events are serialized in the agent's worker");
    await expect.poll(() => consoleLines.join('\n')).toContain('▲ JSON.stringify has been replaced by the page');
    // The same page without the wrap: the natives are the browser's.
    await openHostPage('/e2e/tools-natives-clean', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-tools-clean', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    expect((await call(page, 'validateNativeMethods')).ok).toBe(true);
  });

  test('validateBuiltInGlobals: every global the agent needs is here; the page taking window.waymark over is an error', async ({ page, openHostPage }) => {
    await openHostPage('/e2e/tools-globals', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-tools-globals', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    const ok = await call(page, 'validateBuiltInGlobals');
    expect(ok.ok).toBe(true);
    const taken = await page.evaluate(async () => {
      const agent = (window as any).waymark;
      (window as any).waymark = { mine: true };
      const report = await agent.validateBuiltInGlobals();
      (window as any).waymark = agent;
      return report;
    });
    expect(taken.findings).toEqual([expect.objectContaining({ level: 'error', message: 'window.waymark is no longer the agent' })]);
  });

  test('validateUrl names a token in the address and the transform that removes it; validateEnvironment says the worker runs', async ({ page, openHostPage }) => {
    await openHostPage('/e2e/tools-url?tab=2&token=abc', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-tools-url', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    const url = await call(page, 'validateUrl');
    expect(url.findings[0].message).toContain('/e2e/tools-url?tab=2&token=abc');
    expect(url.findings.find((f: { level: string }) => f.level === 'warn')).toMatchObject({ message: 'its query has "token", which usually carries a secret or a person' });
    // Right after start the worker may still be "starting": ask again until it has answered.
    await expect
      .poll(async () => (await call(page, 'validateEnvironment')).findings.map((f: { message: string }) => f.message))
      .toContain("the agent's pipeline runs in a worker (worker)");
  });
});

test.describe('issue #17 debugging and the debugger', () => {
  test('enableDebugging opens the debugger with each guide and why it shows or not; the replies; it opens again on the next page; disableDebugging closes it', async ({ page, openHostPage, serverUrl, consoleLines }) => {
    const apiKey = uniqueId('e2e-tools-debug');
    await publishGuide(serverUrl, apiKey, 'elsewhere', 'Billing tour', 'auto', '^https?://[^/]+/billing');
    await publishGuide(serverUrl, apiKey, 'by-api', 'Export help', 'api');
    await openHostPage('/e2e/tools-debug', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    await page.evaluate(() => {
      (window as any).__ready = [];
      addEventListener('message', (e) => e.data?.type === 'ready' && (window as any).__ready.push(e.data));
    });
    expect(await call(page, 'enableDebugging')).toBe(MESSAGES.debuggingEnabled);
    const box = page.locator(panel);
    await expect(box.getByRole('heading', { name: 'Waymark debugger' })).toBeVisible();
    await expect(box.locator('header img')).toHaveAttribute('src', /^data:image\/svg\+xml/);
    await expect(box.getByRole('searchbox')).toHaveAttribute('placeholder', 'Type here to start looking...');
    await expect(box.locator('footer')).toHaveText('powered by Waymark');
    const billing = box.locator('li[data-guide-id="elsewhere"]');
    await expect(billing).toContainText('Billing tour');
    await expect(billing).toContainText('page');
    await expect(box.locator('li[data-guide-id="by-api"]')).toContainText('Export help');
    expect(await page.evaluate(() => (window as any).__ready)).toEqual([{ type: 'ready', apiKey, source: 'waymark-debugger' }]);
    await page.screenshot({ path: 'test-results/screens/debugger.png' });
    // The search, then the Show button shows the guide now.
    await box.getByRole('searchbox').fill('export');
    await expect(box.locator('li[data-guide-id]')).toHaveCount(1);
    await box.getByRole('button', { name: 'Show Export help' }).click();
    await expect(page.locator('[data-waymark-overlay] .wm-lightbox')).toContainText('Export help');
    expect(await call(page, 'enableDebugging')).toBe(MESSAGES.debuggingAlreadyEnabled);
    expect(consoleLines.join('\n')).toContain(`[Waymark] ${MESSAGES.debuggingEnabled}`);

    // Debugging stays on in this browser: the next page opens the debugger by itself.
    await page.reload();
    await agentReady(page);
    await expect(page.locator(panel)).toBeVisible();
    expect(await call(page, 'disableDebugging')).toBe(MESSAGES.debuggingDisabled);
    await expect(page.locator(panel)).toHaveCount(0);
    expect(await call(page, 'disableDebugging')).toBe(MESSAGES.debuggingAlreadyDisabled);
  });

  test("a 'debugger launch' message with the app's api key opens it and the debugger says 'ready'; another key does nothing", async ({ page, openHostPage }) => {
    const apiKey = uniqueId('e2e-tools-launch');
    await openHostPage('/e2e/tools-launch', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    const ready = page.evaluate(() => new Promise((resolve) => addEventListener('message', (e) => e.data?.type === 'ready' && resolve(e.data))));
    await page.evaluate(() => postMessage({ type: 'debugger launch', apiKey: 'someone-else' }, location.origin));
    await page.waitForTimeout(300);
    await expect(page.locator(panel)).toHaveCount(0);
    await page.evaluate((key) => postMessage({ type: 'debugger launch', apiKey: key }, location.origin), apiKey);
    expect(await ready).toEqual({ type: 'ready', apiKey, source: 'waymark-debugger' });
    await expect(page.locator(panel)).toBeVisible();
    await call(page, 'disableDebugging');
  });

  test('CSP violations that mention the agent are listed in the debugger, the last 10; others are not', async ({ page, openHostPage, serverUrl }) => {
    await openHostPage('/e2e/tools-csp', hostPage({ init: `waymark.initialize({ apiKey: '${uniqueId('e2e-tools-csp')}', visitor: { id: 'v1' } });` }));
    await agentReady(page);
    await call(page, 'enableDebugging');
    await expect(page.locator(panel)).toBeVisible();
    await page.evaluate((origin) => {
      const violation = (blockedURI: string) =>
        dispatchEvent(new SecurityPolicyViolationEvent('securitypolicyviolation', { blockedURI, violatedDirective: 'script-src', effectiveDirective: 'script-src', originalPolicy: "script-src 'self'", disposition: 'enforce', statusCode: 200 }));
      violation('https://ads.example/tracker.js');
      for (let i = 1; i <= 12; i++) violation(`${origin}/waymark.overlay.js?try=${i}`);
    }, serverUrl);
    const csp = page.locator(`${panel} .csp li`);
    await expect(csp).toHaveCount(10);
    await expect(csp.first()).toContainText('script-src blocked');
    await expect(csp.first()).toContainText('try=3');
    await expect(page.locator(`${panel} .csp`)).not.toContainText('ads.example');
    await call(page, 'disableDebugging');
  });

  test('only the leader (top) frame switches debugging: a child frame is told so', async ({ page, openHostPage, serverUrl }) => {
    await page.route((url) => url.pathname === '/e2e/tools-child', (route) => route.fulfill({ contentType: 'text/html', body: CHILD }));
    await openHostPage('/e2e/tools-frames', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-tools-frames', visitor: { id: 'v1' } });`, body: '<iframe src="/e2e/tools-child"></iframe>' }));
    await agentReady(page);
    let frame = page.frames().find((f) => f.url().includes('/e2e/tools-child'));
    await expect.poll(() => (frame = page.frames().find((f) => f.url().includes('/e2e/tools-child'))) !== undefined).toBe(true);
    await frame!.waitForFunction(() => (window as any).waymark?.isReady?.() === true);
    await expect.poll(() => frame!.evaluate(() => (window as any).waymark.enableDebugging())).toBe(MESSAGES.debuggingLeaderOnly);
    await expect(page.locator(panel)).toHaveCount(0);
    expect(serverUrl).toBeTruthy();
  });
});
