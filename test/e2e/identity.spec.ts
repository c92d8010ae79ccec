/**
 * Issue #4 (identity part), analytics §3-§5: anonymous visitors, identify and remap at the collector,
 * invalid ids, clearSession, campaign attribution, signed metadata.
 */
import { inflateSync } from 'node:zlib';
import { MESSAGES } from '../../shared/messages';
import { adminFetch, agentReady, expect, hostPage, publishGuide, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

test.describe('analytics §3, §5 identity', () => {
  test("an anonymous visitor: 'Missing visitor id.', a generated id kept in a cookie across reloads", async ({ page, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('anon');
    await openHostPage('/e2e/anon', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });` }));
    await agentReady(page);
    // An info line of the start is printed once the logger has read its switch, in idle time (issue #16).
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.missingVisitorId))).toBe(true);
    const id = await page.evaluate(() => (window as any).waymark.getVisitorId());
    expect(id).toMatch(/^_WM_[A-Za-z0-9]{11}$/);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === `_wm_visitorId.${apiKey}`)?.value).toBe(id);
    const days = (cookies.find((c) => c.name === `_wm_visitorId.${apiKey}`)!.expires * 1000 - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(100);
    await page.reload();
    await agentReady(page);
    expect(await page.evaluate(() => (window as any).waymark.getVisitorId())).toBe(id);
  });

  test('identify from anonymous to known reaches the collector with old and new ids; later events carry the new visitor', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('remap');
    const known = uniqueId('known');
    await openHostPage('/e2e/remap', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });`, body: '<button id="go">Go</button>' }));
    await agentReady(page);
    const anon = await page.evaluate(() => (window as any).waymark.getVisitorId());
    await page.evaluate((v) => (window as any).waymark.identify({ visitor: { id: v }, account: { id: 'acme' }, parentAccount: { id: 'holding' } }), known);
    await page.click('#go');
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: known }, (e) => e.some((x) => x.type === 'click'));
    expect(events[0]!.type).toBe('identify');
    expect(events[0]!.props).toEqual({ old_visitor_id: anon, old_account_id: '', visitor_id: known, account_id: 'holding::acme' });
    expect(events.find((e) => e.type === 'click')!.account_id).toBe('holding::acme');
    // The anonymous visitor's events stay his: identify, meta, load before the switch.
    const before = await storedEvents(serverUrl, { apiKey, visitorId: anon });
    expect(before.map((e) => e.type)).toEqual(['identify', 'meta', 'load']);
  });

  test('invalid ids are ignored and logged; an invalid account clears the account', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('invalid');
    await openHostPage('/e2e/invalid', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'vis-1' }, account: { id: 'acc-1' } });` }));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.identify('a::b'));
    await page.evaluate(() => (window as any).waymark.identify('   '));
    expect(await page.evaluate(() => (window as any).waymark.getVisitorId())).toBe('vis-1');
    expect(consoleLines.some((l) => l.includes(MESSAGES.invalidVisitorId('"a::b"')))).toBe(true);
    await page.evaluate(() => (window as any).waymark.identify({ visitor: { id: 'vis-1' }, account: { id: true } }));
    expect(consoleLines.some((l) => l.includes(MESSAGES.invalidAccountId('true')))).toBe(true);
    expect(await page.evaluate(() => (window as any).waymark.getAccountId())).toBeNull();
    await page.evaluate(() => (window as any).waymark.flushNow());
    const identifies = await storedEvents(serverUrl, { apiKey, type: 'identify' });
    expect(identifies.map((e) => [e.props.visitor_id, e.props.account_id])).toEqual([['vis-1', 'acc-1'], ['vis-1', '']]);
  });

  test('clearSession starts a new anonymous visitor and a new session', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('clear');
    await openHostPage('/e2e/clear', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'signed-in' } });` }));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.clearSession());
    const fresh = await page.evaluate(() => (window as any).waymark.getVisitorId());
    expect(fresh).toMatch(/^_WM_[A-Za-z0-9]{11}$/);
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: fresh }, (e) => e.length > 0);
    expect(events[0]!.props).toMatchObject({ old_visitor_id: 'signed-in', visitor_id: fresh });
    const old = await storedEvents(serverUrl, { apiKey, visitorId: 'signed-in' });
    expect(events[0]!.sessionId).toHaveLength(16);
    expect(events[0]!.sessionId).not.toBe(old[0]!.sessionId);
  });

  test('clearSession while the worker is still starting: the first events keep the session they were captured under', async ({ page, serverUrl, openHostPage }) => {
    // The worker script is held back, so the shim's calls wait in its queue when clearSession replaces the session.
    await page.context().route('**/waymark.worker.js*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    const apiKey = uniqueId('clearearly');
    await openHostPage('/e2e/clear-early', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'signed-in' } });` }));
    await agentReady(page);
    expect(await page.evaluate(() => (window as any).waymark.getWorkerMode())).toBeNull();
    await page.evaluate(() => (window as any).waymark.clearSession());
    const fresh = await page.evaluate(() => (window as any).waymark.getVisitorId());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: fresh }, (e) => e.length > 0);
    const old = await waitForEvents(serverUrl, { apiKey, visitorId: 'signed-in' }, (e) => e.length === 3);
    expect(old.map((e) => e.type)).toEqual(['identify', 'meta', 'load']);
    expect(new Set(old.map((e) => e.sessionId)).size).toBe(1);
    expect(events[0]!.sessionId).not.toBe(old[0]!.sessionId);
  });
});

test.describe('analytics §4 channel attribution', () => {
  test('campaign parameters classify the session, and the session keeps its source on later pages', async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('utm');
    const html = hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'utm-v' } });` });
    await openHostPage('/e2e/utm?utm_source=Newsletter&utm_medium=email&utm_campaign=Spring%20Launch', html);
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await openHostPage('/e2e/utm-next', html);
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const loads = await storedEvents(serverUrl, { apiKey, type: 'load' });
    expect(loads).toHaveLength(2);
    for (const load of loads) {
      expect(load.utm).toEqual({ channel: 'Email', source: 'newsletter', medium: 'email', campaign: 'Spring Launch' });
    }
  });
});

test.describe('analytics §5 signed metadata', () => {
  test.use({ allowAgentErrors: [/jwt must be three dot-separated/] });

  test('a malformed jwt is refused with its message and events go unsigned', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('jwt');
    const urls: string[] = [];
    page.on('request', (r) => r.url().includes('/data/ptm.gif/') && urls.push(r.url()));
    await openHostPage('/e2e/jwt', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'j' }, jwt: 'only.two', signingKeyName: 'key-1' });` }));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    // Logged by the worker, whose log callback travels apart from flushNow's answer.
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.invalidJwt))).toBe(true);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((u) => !u.includes('jwt='))).toBe(true);
    await waitForEvents(serverUrl, { apiKey }, (e) => e.length >= 3);
  });

  test('a well-formed jwt and its key name travel with every beacon', async ({ page, openHostPage }) => {
    const apiKey = uniqueId('jwt-ok');
    const urls: string[] = [];
    page.on('request', (r) => r.url().includes('/data/ptm.gif/') && urls.push(r.url()));
    await openHostPage('/e2e/jwt-ok', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'j' }, jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJ2aXNpdG9yIjp7ImlkIjoiaiJ9fQ.c2lnbmF0dXJl', signingKeyName: 'key-1' });` }));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) {
      const q = new URL(u).searchParams;
      expect(q.get('signingKeyName')).toBe('key-1');
      expect(q.get('jwt')).toMatch(/^eyJ/);
    }
  });
});

test.describe('analytics §4, §5 signed metadata required', () => {
  test.use({ allowAgentErrors: [/Signed metadata is required/] });

  test("'required' without signed metadata refuses: the spec's message, and nothing reaches the collector", async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const apiKey = uniqueId('jwt-required');
    const dataRequests: string[] = [];
    page.on('request', (r) => r.url().includes('/data/ptm.gif/') && dataRequests.push(r.url()));
    await openHostPage(
      '/e2e/jwt-required',
      hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'j' }, signedMetadata: 'required' });`, body: '<button id="b">B</button>' }),
    );
    await agentReady(page);
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await expect.poll(() => consoleLines.some((l) => l.includes(MESSAGES.signedMetadataRequired))).toBe(true);
    await page.waitForTimeout(1500);
    expect(dataRequests).toEqual([]);
    expect(await storedEvents(serverUrl, { apiKey })).toEqual([]);
  });

  test("'required' with valid signed metadata sends, signed", async ({ page, serverUrl, openHostPage }) => {
    const apiKey = uniqueId('jwt-required-ok');
    await openHostPage('/e2e/jwt-required-ok', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'j' }, signedMetadata: 'required', jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJ2aXNpdG9yIjp7ImlkIjoiaiJ9fQ.c2lnbmF0dXJl', signingKeyName: 'key-1' });` }));
    await agentReady(page);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey }, (e) => e.some((x) => x.type === 'load'));
  });
});

test.describe('analytics §7 segment flags', () => {
  test('flags come from the collector for the visitor and page, and follow identify', async ({ page, openHostPage }) => {
    const apiKey = uniqueId('flags');
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/data/segmentflag.json/') && requests.push(r.url()));
    await openHostPage(
      '/e2e/reports-flags',
      hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: 'flag-v', plan: 'pro' }, account: { id: 'other' } });` }),
    );
    await agentReady(page);
    await expect.poll(() => page.evaluate(() => (window as any).waymark.getSegmentFlags())).toEqual(expect.arrayContaining(['beta-tester', 'everyone']));
    expect(await page.evaluate(() => (window as any).waymark.getSegmentFlags())).not.toContain('acme-staff');
    const before = requests.length;
    await page.evaluate(() => {
      (window as any).waymark.identify('flag-v', 'acme');
      (window as any).waymark.identify('flag-v2', 'acme');
    });
    await expect.poll(() => page.evaluate(() => (window as any).waymark.getSegmentFlags())).toContain('acme-staff');
    // Two identify calls in a row: one request (debounced 50 ms).
    expect(requests.length - before).toBe(1);
  });
});

/** A public lightbox 'hello' saying `text`, with an OK button that dismisses it. */
function helloGuide(text: string) {
  const ok = { action: 'dismissGuide', eventType: 'click', parameters: [], source: 'ok', destination: 'Global' };
  const content = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: text }, { type: 'button', props: { id: 'ok' }, content: 'OK', actions: [ok] }] };
  return { id: 'hello', name: 'Hello', launchMethod: 'auto', steps: [{ id: 'hello-1', type: 'lightbox', domJson: content }] };
}

test('a welcome dismissed before signing in stays dismissed after identify, on the visitor\'s later pages (the collector carries the anonymous history over)', async ({ page, serverUrl, openHostPage }) => {
  const apiKey = uniqueId('e2e-merge');
  const known = uniqueId('known');
  await publishGuide(serverUrl, apiKey, helloGuide('Hello before signing in'));
  const dialog = page.locator('[data-waymark-overlay] [role="dialog"]', { hasText: 'Hello before signing in' });

  await openHostPage('/e2e/merge-anonymous', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });` }));
  await expect(dialog).toBeVisible();
  const anonymous = await page.evaluate(() => (window as any).waymark.getVisitorId());
  await dialog.getByRole('button', { name: 'OK' }).click();
  await page.evaluate(() => (window as any).waymark.flushNow());
  await waitForEvents(serverUrl, { apiKey, visitorId: anonymous }, (e) => e.some((x) => x.type === 'guideDismissed'));
  await page.evaluate((v) => (window as any).waymark.identify(v), known);
  await page.evaluate(() => (window as any).waymark.flushNow());
  await waitForEvents(serverUrl, { apiKey, visitorId: known }, (e) => e.some((x) => x.type === 'identify'));

  // A later page of the signed-in visitor, this browser's own record of the dismissal gone: the collector's answer alone.
  await page.evaluate((key) => localStorage.removeItem(`_wm_guides.${key}`), apiKey);
  await openHostPage('/e2e/merge-known', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${known}' } });` }));
  await agentReady(page);
  await expect.poll(() => page.evaluate(async () => (await (window as any).waymark.debugGuides()).guides.find((g: { id: string }) => g.id === 'hello')?.reason)).toBe('notDismissed: guide was dismissed');
  await expect(dialog).toHaveCount(0);
});

test('guides follow identify and clearSession without a page load: another person sees their own guides, never the one before\'s; an anonymous visitor signing in keeps the guide shown', async ({ page, serverUrl, openHostPage }) => {
  const apiKey = uniqueId('e2e-switch');
  const [dana, sam, lee] = [uniqueId('dana'), uniqueId('sam'), uniqueId('lee')];
  await publishGuide(serverUrl, apiKey, helloGuide('Hello, whoever you are'));
  const dialog = page.locator('[data-waymark-overlay] [role="dialog"]', { hasText: 'Hello, whoever you are' });
  const asked: string[] = [];
  page.on('request', (r) => r.url().includes('/guide.json/') && asked.push(r.url()));
  const visitorId = () => page.evaluate(() => (window as any).waymark.getVisitorId() as string);

  // Dana dismissed the guide on an earlier page.
  await openHostPage('/e2e/switch-dana', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${dana}' } });` }));
  await dialog.getByRole('button', { name: 'OK' }).click();
  await page.evaluate(() => (window as any).waymark.flushNow());
  await waitForEvents(serverUrl, { apiKey, visitorId: dana }, (e) => e.some((x) => x.type === 'guideDismissed'));

  // Sam uses the same tab; Dana signs in (an SPA login, no page load): the guide list is hers, without the guide.
  await openHostPage('/e2e/switch-sam', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${sam}' } });` }));
  await expect(dialog).toBeVisible();
  const before = asked.length;
  await page.evaluate((v) => (window as any).waymark.identify(v), dana);
  await expect(dialog).toHaveCount(0);
  // The guide goes at once; the list is asked for after identify's debounce (50 ms), so it may come after.
  await expect.poll(() => asked.length).toBeGreaterThan(before);

  // Dana signs out: the next person (anonymous) gets the guide. They dismiss it and sign out at once, well within
  // the 10 s this browser keeps step changes for: the person after them is not held to that dismissal.
  await page.evaluate(() => (window as any).waymark.clearSession());
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toHaveCount(0);
  const first = await visitorId();
  // The dismissal is stored before the sign-out (a second or so, well within the 10 s): the collector must not carry
  // it to the next anonymous person, whose agent names this one as its old visitor.
  await page.evaluate(() => (window as any).waymark.flushNow());
  await waitForEvents(serverUrl, { apiKey, visitorId: first }, (e) => e.some((x) => x.type === 'guideDismissed'));
  await page.evaluate(() => (window as any).waymark.clearSession());
  await expect(dialog).toBeVisible();
  expect(await visitorId()).not.toBe(first);

  // This anonymous visitor signs in as Lee: the same person, the guide stays up, and the list is asked for Lee.
  const asking = page.waitForRequest((r) => r.url().includes('/guide.json/'));
  await page.evaluate((v) => (window as any).waymark.identify(v), lee);
  await asking;
  await page.waitForTimeout(1000); // a loop tick or two after the answer
  await expect(dialog).toBeVisible();
  expect(await visitorId()).toBe(lee);
});

test('identify with fields (a sign-in\'s user record) makes them the visitor\'s metadata: a meta event stores them, and a guide for that audience shows without a page load', async ({ page, serverUrl, openHostPage }) => {
  const apiKey = uniqueId('e2e-identify-fields');
  const known = uniqueId('pro');
  const guide = {
    id: 'pro-tip', name: 'Pro tip', launchMethod: 'auto', audience: { when: { 'visitor.plan': { in: ['pro'] } } },
    steps: [{ id: 'pro-tip-1', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: 'Only for pro' }] } }],
  };
  await publishGuide(serverUrl, apiKey, guide);
  const dialog = page.locator('[data-waymark-overlay] [role="dialog"]', { hasText: 'Only for pro' });

  await openHostPage('/e2e/identify-fields', hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}' });` }));
  await agentReady(page);
  await page.waitForTimeout(1000); // the first guide list answered, without the guide
  await expect(dialog).toHaveCount(0);
  // The app signs the visitor in: the ids and the user record in one call.
  await page.evaluate((v) => (window as any).waymark.identify({ visitor: { id: v, plan: 'pro', email: 'dana@acme.test', save() {} }, account: { id: 'acme', tier: 2 } }), known);
  await expect(dialog).toBeVisible();
  // The same ids with changed fields: a meta event of their own, no identify.
  await page.evaluate((v) => (window as any).waymark.identify({ visitor: { id: v, plan: 'team', email: 'dana@acme.test' }, account: { id: 'acme', tier: 2 } }), known);
  await page.evaluate(() => (window as any).waymark.flushNow());
  const events = await waitForEvents(serverUrl, { apiKey, visitorId: known }, (e) => e.filter((x) => x.type === 'meta').length >= 2);
  const metas = events.filter((e) => e.type === 'meta');
  expect(metas[0]!.props).toMatchObject({ visitor: { id: known, plan: 'pro', email: 'dana@acme.test' }, account: { id: 'acme', tier: 2 } });
  expect((metas[0]!.props as { visitor: Record<string, unknown> }).visitor.save).toBeUndefined();
  expect(metas[1]!.props).toMatchObject({ visitor: { id: known, plan: 'team' } });
  expect(events.filter((e) => e.type === 'identify')).toHaveLength(1);
  // The console's visitor record has the latest fields.
  await expect.poll(async () => ((await (await adminFetch(`${serverUrl}/api/apps/${apiKey}/visitors/${known}`)).json()) as { metadata?: { plan?: string } }).metadata?.plan).toBe('team');

  // Signing out: the next person (anonymous) carries none of Dana's fields to the collector, and her guide goes.
  // The guide load of the next person: one for Dana's changed fields may still be on its way out (a slow worker).
  const payloadOf = (url: string) => {
    const jzb = new URL(url).searchParams.get('jzb')!;
    return JSON.parse(inflateSync(Buffer.from(jzb, 'base64url')).toString()) as { visitorId: string; metadata: { visitor: object; account: object } };
  };
  const asking = page.waitForRequest((r) => r.url().includes('/guide.json/') && payloadOf(r.url()).visitorId !== known);
  await page.evaluate(() => (window as any).waymark.clearSession());
  const payload = payloadOf((await asking).url());
  expect(payload.visitorId).toBe(await page.evaluate(() => (window as any).waymark.getVisitorId() as string));
  expect([payload.metadata.visitor, payload.metadata.account]).toEqual([{}, {}]);
  await expect(dialog).toHaveCount(0);
});
