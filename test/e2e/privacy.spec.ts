/**
 * Issue #3, analytics §5 and §8: URL transforms, the custom URL source and the privacy filter apply before
 * anything leaves the page; logging and the error log.
 */
import { MESSAGES } from '../../shared/messages';
import { adminFetch, agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

function init(visitor: string, extra: string): string {
  return `waymark.initialize({ apiKey: 'e2e-privacy', visitor: { id: '${visitor}' }, ${extra} });`;
}

test.describe('analytics §5 URL transforms and custom URL source', () => {
  test('data transforms run in the worker: excluded keys and the hash never reach the collector', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('xform');
    await openHostPage(
      '/e2e/xform?token=s3cr3t&keep=1&session=abc#private',
      hostPage({
        init: init(visitor, `urlTransforms: [
          { attr: 'search', action: 'ExcludeKeys', data: ['token', 'session'] },
          { attr: 'hash', action: 'Clear' },
          { attr: 'protocol', action: 'ForceSecure' }]`),
        body: '<button id="go">Go</button>',
      }),
    );
    await agentReady(page);
    await page.click('#go');
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-privacy', visitorId: visitor, type: 'click' }, (e) => e.length > 0);
    const host = new URL(serverUrl).host;
    expect(events[0]!.url).toBe(`https://${host}/e2e/xform?keep=1`);
  });

  test('a transform with a host function runs on the page; the worker never sees the function', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('xfn');
    await openHostPage(
      '/e2e/xfn/42?q=1',
      hostPage({
        init: init(visitor, `urlTransforms: [{ attr: 'pathname', action: 'Replace', data: (p) => p.replace(/\\/\\d+/g, '/:id') }]`),
        body: '<button id="go">Go</button>',
      }),
    );
    await agentReady(page);
    await page.click('#go');
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-privacy', visitorId: visitor, type: 'click' }, (e) => e.length > 0);
    expect(events[0]!.url).toBe(`${serverUrl}/e2e/xfn/:id?q=1`);
  });

  test.describe('configuration errors', () => {
    test.use({ allowAgentErrors: [/Invalid transform action|missing required action property|Invalid URL attribute type|missing required attr property|Invalid type from custom URL source|Invalid privacy filter for agent/] });

    test('each invalid transform and source logs the spec message and is skipped', async ({ page, serverUrl, openHostPage, consoleLines }) => {
      const visitor = uniqueId('bad');
      await openHostPage(
        '/e2e/bad?x=1',
        hostPage({
          init: init(visitor, `urlTransforms: [
              { attr: 'hash', action: 'AddTo', data: 'x' },
              { attr: 'search' },
              { attr: 'port', action: 'Clear' },
              { action: 'Clear' },
              { attr: 'search', action: 'Clear' }],
            customUrl: 42,
            privacyFilter: 17`),
          body: '<button id="go">Go</button>',
        }),
      );
      await agentReady(page);
      await page.click('#go');
      for (const message of [
        MESSAGES.invalidTransformAction,
        MESSAGES.missingAction,
        MESSAGES.invalidUrlAttr,
        MESSAGES.missingAttr,
        MESSAGES.invalidCustomUrl,
        MESSAGES.invalidPrivacyFilter,
      ]) {
        expect(consoleLines.some((l) => l.includes(message)), message).toBe(true);
      }
      expect(MESSAGES.invalidTransformAction).toBe('Invalid transform action');
      expect(MESSAGES.invalidCustomUrl).toBe('Invalid type from custom URL source');
      expect(MESSAGES.invalidPrivacyFilter).toBe('Invalid privacy filter for agent');
      const events = await waitForEvents(serverUrl, { apiKey: 'e2e-privacy', visitorId: visitor, type: 'click' }, (e) => e.length > 0);
      // The one valid transform still applied; the invalid custom URL fell back to the page's URL.
      expect(events[0]!.url).toBe(`${serverUrl}/e2e/bad`);
    });
  });

  test('a custom URL source function names the page events report', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('custom');
    await openHostPage(
      '/e2e/custom',
      hostPage({ init: init(visitor, `customUrl: () => new URL('https://app.example/virtual/' + document.title)`), body: '<button id="go">Go</button>' }),
    );
    await agentReady(page);
    await page.click('#go');
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-privacy', visitorId: visitor, type: 'click' }, (e) => e.length > 0);
    expect(events[0]!.url).toBe('https://app.example/virtual/Host');
  });
});

test.describe("analytics §5 privacy filter ('redacted')", () => {
  test('matches are replaced before anything leaves the page, on the worker path and the page-hide path', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('redact');
    await page.route(`${serverUrl}/e2e/away`, (route) => route.fulfill({ contentType: 'text/html', body: 'bye' }));
    await openHostPage(
      '/e2e/redact?email=ann@example.com',
      hostPage({
        init: init(visitor, `privacyFilter: [/\\b\\d{4}-\\d{4}-\\d{4}-\\d{4}\\b/, '[\\\\w.]+@example\\\\.com']`),
        body: '<button id="go" data-card="4111-1111-1111-1111">Go</button>',
      }),
    );
    await agentReady(page);
    await page.click('#go');
    await page.evaluate(() => (window as any).waymark.track('Checkout', { card: '4111-1111-1111-1111', note: 'mail ann@example.com' }));
    await page.evaluate(() => (window as any).waymark.flushNow());
    // Page-hide path: only the page's own POST can deliver this one.
    await page.route('**/data/ptm.gif/**', (route) => (route.request().method() === 'GET' ? route.abort() : route.continue()));
    await page.evaluate(() => (window as any).waymark.track('Leaving', { card: '4111-1111-1111-1111' }));
    await page.goto(`${serverUrl}/e2e/away`);
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e-privacy', visitorId: visitor }, (e) => e.some((x) => x.track_event_name === 'Leaving'));
    const text = JSON.stringify(events);
    expect(text).not.toContain('4111-1111-1111-1111');
    expect(text).not.toContain('ann@example.com');
    const click = events.find((e) => e.type === 'click')!;
    expect(click.props.target.attrs['data-card']).toBe('redacted');
    expect(click.url).toBe(`${serverUrl}/e2e/redact?email=redacted`);
    expect(events.find((e) => e.track_event_name === 'Checkout')!.props).toEqual({ card: 'redacted', note: 'mail redacted' });
    expect(events.find((e) => e.track_event_name === 'Leaving')!.props).toEqual({ card: 'redacted' });
  });
});

test.describe('analytics §8, §9 logging and the error log', () => {
  test.use({ allowAgentErrors: [/internal error: host getter exploded/] });

  test('an internal error reaches the error log once, counted, with its stack; a failing error log falls back to log.gif', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('errlog');
    await openHostPage('/e2e/errlog', hostPage({ init: init(visitor, '') }));
    await agentReady(page);
    const boom = () =>
      page.evaluate(() => (window as any).waymark.track('x', { get boom() { throw new Error('host getter exploded'); } }));
    await boom();
    await boom();
    const logsOf = async (kind: string) =>
      ((await (await adminFetch(`${serverUrl}/api/logs?apiKey=e2e-privacy&kind=${kind}`)).json()) as { logs: Array<{ message: string; visitorId?: string }> }).logs;
    await expect.poll(async () => (await logsOf('error')).filter((l) => l.message.includes('host getter exploded')).length).toBe(1);
    const [entry] = (await logsOf('error')).filter((l) => l.message.includes('host getter exploded'));
    expect(entry!.message).toMatch(/internal error: host getter exploded\n.*at /s);
    expect(entry!.visitorId).toBe(visitor);

    await page.route('**/data/errorlog**', (route) => route.fulfill({ status: 500, body: 'no' }));
    await page.evaluate(() => (window as any).waymark.track('y', { get boom() { throw new Error('host getter exploded again'); } }));
    await expect.poll(async () => (await logsOf('log')).some((l) => l.message.includes('host getter exploded again'))).toBe(true);
  });

  test('in a production environment the console stays quiet, the history still records', async ({ page, openHostPage, consoleLines }) => {
    await page.route('**/data/ptm.gif/**', (route) => route.fulfill({ status: 502, body: 'down for maintenance' }));
    await openHostPage('/e2e/prod', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-privacy', environment: 'prod-eu' });` }));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    // Once the line is in the history (read without printing), the console must not have it.
    await expect
      .poll(() => page.evaluate(() => (window as any).waymark.getLogHistory().some((h: { message: string }) => h.message.startsWith('received status code 502'))))
      .toBe(true);
    expect(consoleLines.filter((l) => l.includes('[Waymark]'))).toEqual([]);
    const history = await page.evaluate(() => (window as any).waymark.showLogHistory());
    expect(history.map((h: { message: string }) => h.message)).toContain(MESSAGES.badStatus(502, 'down for maintenance'));
    await page.evaluate(() => (window as any).waymark.enableLogging());
    await page.evaluate(() => (window as any).waymark.flushNow());
    // The worker's log line reaches the page by its own callback, which may land just after flushNow's answer.
    await expect.poll(() => consoleLines.some((l) => l.includes('received status code 502: down for maintenance'))).toBe(true);
    await page.evaluate(() => (window as any).waymark.disableLogging());
  });
});
