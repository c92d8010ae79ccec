import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_HEADERS, guideEvent, nodeJzb, startTestServer, SERVER_TIMEOUT, wireEvent, type TestServer } from './testServer';

const lightbox = {
  id: 'welcome',
  name: 'Welcome',
  launchMethod: 'auto',
  steps: [
    {
      id: 'welcome-1',
      guideId: 'welcome',
      type: 'lightbox',
      domJson: { type: 'div', props: { id: 'guide-base' }, children: [] },
    },
  ],
};
const tour = {
  id: 'tour',
  launchMethod: 'auto',
  isMultiStep: true,
  // guideId left out on purpose: the server fills it in.
  steps: [
    { id: 'tour-1', type: 'tooltip', elementPathRule: '#a' },
    { id: 'tour-2', type: 'tooltip', elementPathRule: '#b' },
  ],
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ 'a-welcome.json': lightbox, 'b-tour.json': tour }, { guidelessApiKeys: ['no-guides-plan'] });
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);
afterEach(() => vi.restoreAllMocks());

async function loadGuides(apiKey: string, payload: Record<string, unknown>, id = '1') {
  const response = await server.app.inject({
    method: 'GET',
    url: `/data/guide.json/${apiKey}?id=${id}&jzb=${nodeJzb(payload)}&v=0.1.0&ct=${Date.now()}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function sendGuideEvents(apiKey: string, events: unknown[]) {
  const response = await server.app.inject({ method: 'GET', url: `/data/guide.gif/${apiKey}?jzb=${nodeJzb(events)}` });
  expect(response.statusCode).toBe(200);
}

const visitorPayload = (visitorId: string) => ({
  visitorId,
  accountId: 'acme',
  url: 'http://127.0.0.1:8080/?tab=1',
  oldVisitorId: null,
  metadata: {},
});

describe('wire-protocol "guide.json response"', () => {
  it('echoes the request id as a string, lists the guides and has an empty lastGuideStepSeen', async () => {
    const body = await loadGuides('guides', visitorPayload('fresh-visitor'), '17');
    expect(body.id).toBe('17');
    expect(body.normalizedUrl).toBe('http://127.0.0.1:8080/?tab=1');
    expect(body.lastGuideStepSeen).toEqual({});
    expect(body.guides.map((g: { id: string }) => g.id)).toEqual(['welcome', 'tour']);
    expect(body.guides[0]).toEqual(lightbox);
    expect(body.guides[1].steps.map((s: { guideId: string }) => s.guideId)).toEqual(['tour', 'tour']);
  });

  it('guides §5: an api key whose subscription lacks guides gets subscription.guides false and no guides', async () => {
    const body = await loadGuides('no-guides-plan', visitorPayload('someone'), '3');
    expect(body).toEqual({ id: '3', guides: [], lastGuideStepSeen: {}, subscription: { guides: false }, features: [] });
    const other = await loadGuides('guides', visitorPayload('someone'));
    expect(other.subscription).toBeUndefined();
  });

  it('rejects a payload that is not an object, and a missing jzb', async () => {
    const notObject = await server.app.inject({ method: 'GET', url: `/data/guide.json/guides?id=1&jzb=${nodeJzb([])}` });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json().error).toMatch(/payload must be an object/);
    const missing = await server.app.inject({ method: 'GET', url: '/data/guide.json/guides?id=1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^jzb is missing/);
  });

  it('answers the POST variant (guides §7) the same way', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/data/guide.json/guides?id=5&v=0.1.0',
      payload: { events: nodeJzb(visitorPayload('post-visitor')), jwt: 'a.b.c', signingKeyName: 'k' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: '5', lastGuideStepSeen: {} });
  });
});

describe('guides §4 "Step seenState" from the stored guide events', () => {
  it('marks a dismissed step dismissed, for that visitor and api key only', async () => {
    const props = { guide_id: 'welcome', guide_step_id: 'welcome-1' };
    const seen = guideEvent('guideSeen', { ...props, reason: 'auto' }, { visitor_id: 'v-dismiss', browser_time: 1000 });
    const dismissed = guideEvent('guideDismissed', { ...props, seen_reason: 'auto' }, { visitor_id: 'v-dismiss', browser_time: 2000 });
    await sendGuideEvents('state', [seen, dismissed]);

    const body = await loadGuides('state', visitorPayload('v-dismiss'));
    const step = body.guides[0].steps[0];
    expect(step).toMatchObject({ seenState: 'dismissed', lastSeenAt: 2000, seenReason: 'auto' });
    expect(body.lastGuideStepSeen).toEqual({
      guideId: 'welcome',
      guideStepId: 'welcome-1',
      time: 2000,
      state: 'dismissed',
      seenReason: 'auto',
      visitorId: 'v-dismiss',
      dismissCount: 1,
    });
    expect(body.guides[1].steps[0].seenState).toBeUndefined();

    const other = await loadGuides('state', visitorPayload('someone-else'));
    expect(other.guides[0].steps[0].seenState).toBeUndefined();
    expect(other.lastGuideStepSeen).toEqual({});
    const otherKey = await loadGuides('other-key', visitorPayload('v-dismiss'));
    expect(otherKey.lastGuideStepSeen).toEqual({});
  });

  it('takes the latest event by browser_time per step, whatever the arrival order', async () => {
    const visitor = { visitor_id: 'v-order' };
    const first = { guide_id: 'tour', guide_step_id: 'tour-1' };
    const second = { guide_id: 'tour', guide_step_id: 'tour-2' };
    // The advance arrives after the later guideSeen of step 2 (a retried batch), but happened before it.
    await sendGuideEvents('order', [
      guideEvent('guideSeen', { ...first, reason: 'auto' }, { ...visitor, browser_time: 100 }),
      guideEvent('guideSeen', { ...second, reason: 'continue' }, { ...visitor, browser_time: 300 }),
    ]);
    await sendGuideEvents('order', [
      guideEvent('guideAdvanced', { ...first, seen_reason: 'auto', destination_step_id: 'tour-2' }, { ...visitor, browser_time: 200 }),
    ]);
    const body = await loadGuides('order', visitorPayload('v-order'));
    const [step1, step2] = body.guides[1].steps;
    expect(step1).toMatchObject({ seenState: 'advanced', lastSeenAt: 200 });
    expect(step2).toMatchObject({ seenState: 'active', lastSeenAt: 300, seenReason: 'continue' });
    expect(body.lastGuideStepSeen).toMatchObject({ guideStepId: 'tour-2', state: 'active', time: 300 });

    await sendGuideEvents('order', [
      guideEvent('guideSnoozed', { ...second, seen_reason: 'auto', snooze_duration: 60_000 }, { ...visitor, browser_time: 400 }),
    ]);
    const snoozed = await loadGuides('order', visitorPayload('v-order'));
    expect(snoozed.guides[1].steps[1]).toMatchObject({ seenState: 'snoozed', snoozeEndTime: 60_400 });
    expect(snoozed.lastGuideStepSeen).toMatchObject({ state: 'snoozed', snoozeEndTime: 60_400 });
  });

  it('records the destination of an advance in lastGuideStepSeen', async () => {
    await sendGuideEvents('advance', [
      guideEvent(
        'guideAdvanced',
        { guide_id: 'tour', guide_step_id: 'tour-1', seen_reason: 'auto', destination_step_id: 'tour-2' },
        { visitor_id: 'v-adv', browser_time: 50 },
      ),
    ]);
    const body = await loadGuides('advance', visitorPayload('v-adv'));
    expect(body.lastGuideStepSeen).toEqual({
      guideId: 'tour',
      guideStepId: 'tour-1',
      time: 50,
      state: 'advanced',
      seenReason: 'auto',
      visitorId: 'v-adv',
      destinationStepId: 'tour-2',
    });
  });

  it('an identified visitor keeps the guide history of the anonymous visitor it was; a known visitor never passes on theirs', async () => {
    const anonymous = '_WM_anonymous01';
    const props = { guide_id: 'welcome', guide_step_id: 'welcome-1' };
    await sendGuideEvents('merge', [guideEvent('guideDismissed', { ...props, seen_reason: 'auto' }, { visitor_id: anonymous, browser_time: 2000 })]);
    // Right after identify the agent names the anonymous visitor in guide.json; its identify event may not be stored yet.
    const asked = await loadGuides('merge', { ...visitorPayload('dana'), oldVisitorId: anonymous });
    expect(asked.guides[0].steps[0]).toMatchObject({ seenState: 'dismissed', lastSeenAt: 2000 });
    expect(asked.lastGuideStepSeen).toMatchObject({ guideId: 'welcome', state: 'dismissed', visitorId: 'dana' });
    // On later pages the stored identify event says who the visitor was.
    expect((await loadGuides('merge', visitorPayload('dana'))).guides[0].steps[0].seenState).toBeUndefined();
    const identify = wireEvent({ type: 'identify', visitor_id: 'dana', props: { old_visitor_id: anonymous, old_account_id: '', visitor_id: 'dana', account_id: 'acme' } });
    const stored = await server.app.inject({ method: 'GET', url: `/data/ptm.gif/merge?jzb=${nodeJzb([identify])}&v=0.1.0&ct=${Date.now()}` });
    expect(stored.statusCode).toBe(200);
    expect((await loadGuides('merge', visitorPayload('dana'))).guides[0].steps[0]).toMatchObject({ seenState: 'dismissed', lastSeenAt: 2000 });
    // The visitor's own later history wins over the anonymous one's.
    await sendGuideEvents('merge', [guideEvent('guideSeen', { ...props, reason: 'api' }, { visitor_id: 'dana', browser_time: 3000 })]);
    expect((await loadGuides('merge', visitorPayload('dana'))).guides[0].steps[0]).toMatchObject({ seenState: 'active', lastSeenAt: 3000 });

    // A known visitor named as the old one (an account switch on a shared computer) passes on nothing.
    const switched = wireEvent({ type: 'identify', visitor_id: 'erin', props: { old_visitor_id: 'dana', old_account_id: 'acme', visitor_id: 'erin', account_id: 'acme' } });
    await server.app.inject({ method: 'GET', url: `/data/ptm.gif/merge?jzb=${nodeJzb([switched])}&v=0.1.0&ct=${Date.now()}` });
    expect((await loadGuides('merge', { ...visitorPayload('erin'), oldVisitorId: 'dana' })).guides[0].steps[0].seenState).toBeUndefined();
    expect((await loadGuides('merge', visitorPayload('erin'))).lastGuideStepSeen).toEqual({});
  });

  it('ignores guide events that do not set a state (guideActivity)', async () => {
    await sendGuideEvents('activity', [
      guideEvent('guideActivity', { guide_id: 'welcome', guide_step_id: 'welcome-1', ui_element_id: 'x' }, { visitor_id: 'v-act' }),
    ]);
    const body = await loadGuides('activity', visitorPayload('v-act'));
    expect(body.lastGuideStepSeen).toEqual({});
    expect(body.guides[0].steps[0].seenState).toBeUndefined();
  });
});

describe('guide definition files', () => {
  it('skips a malformed file with a logged warning and serves the others', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeFileSync(join(server.guidesDir, 'c-broken.json'), '{"id": "broken", "steps": [');
    writeFileSync(join(server.guidesDir, 'd-no-steps.json'), JSON.stringify({ id: 'no-steps', launchMethod: 'auto' }));
    writeFileSync(join(server.guidesDir, 'notes.txt'), 'not a guide');
    const body = await loadGuides('files', visitorPayload('v'));
    expect(body.guides.map((g: { id: string }) => g.id)).toEqual(['welcome', 'tour']);
    // Files are read concurrently, so the warnings may come in either order.
    const messages = warn.mock.calls.map((call) => String(call[0])).sort();
    expect(messages).toEqual([
      expect.stringMatching(/^skipping guide file .*c-broken\.json: /),
      expect.stringMatching(/^skipping guide file .*d-no-steps\.json: guide no-steps has no steps array/),
    ]);
    // Warned once per version of a file, not on every request.
    await loadGuides('files', visitorPayload('v'));
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('picks up an edited file without a restart', async () => {
    const path = join(server.guidesDir, 'c-broken.json');
    writeFileSync(path, JSON.stringify({ ...lightbox, id: 'fixed', steps: [{ ...lightbox.steps[0], guideId: 'fixed' }] }));
    // Some filesystems keep whole-second mtimes: set one clearly different from the broken version's.
    const later = new Date(Date.now() + 5000);
    utimesSync(path, later, later);
    const body = await loadGuides('files', visitorPayload('v'));
    expect(body.guides.map((g: { id: string }) => g.id)).toEqual(['welcome', 'tour', 'fixed']);
  });

  it('answers an empty list, with a warning, when the guide folder is missing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const lonely = await startTestServer({}, { guidesDir: join(server.guidesDir, 'does-not-exist') });
    try {
      const response = await lonely.app.inject({ method: 'GET', url: `/data/guide.json/k?id=2&jzb=${nodeJzb(visitorPayload('v'))}` });
      expect(response.json()).toEqual({ id: '2', guides: [], lastGuideStepSeen: {}, normalizedUrl: 'http://127.0.0.1:8080/?tab=1', features: [] });
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/guide folder .* cannot be read/);
    } finally {
      await lonely.close();
    }
  }, SERVER_TIMEOUT);
});

describe('guides §3 guideCssUrl and globalJsUrl from the guide folder', () => {
  it('names assets/global.css and assets/global.js in guide.json when present, and serves them under /data with CORS', async () => {
    const withAssets = await startTestServer({ 'a-welcome.json': lightbox, 'assets/global.css': '.wm-step { color: rgb(1, 2, 3); }' });
    try {
      const list = async () => (await withAssets.app.inject({ method: 'GET', url: `/data/guide.json/k?id=1&jzb=${nodeJzb(visitorPayload('v'))}` })).json();
      expect((await list()).guideCssUrl).toBe('/data/guide-assets/global.css');
      // The preview answer names it too (guides §7 Preview); '' where there is none.
      const preview = async (app: typeof server.app) =>
        (await app.inject({ method: 'GET', url: '/api/s/sub/guide/welcome/preview?apiKey=k', headers: ADMIN_HEADERS })).json().guideCssUrl;
      expect(await preview(withAssets.app)).toBe('/data/guide-assets/global.css');
      expect(await preview(server.app)).toBe('');
      expect((await list()).globalJsUrl).toBeUndefined();
      const css = await withAssets.app.inject({ method: 'GET', url: '/data/guide-assets/global.css' });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(css.headers['access-control-allow-origin']).toBe('*');
      expect(css.body).toBe('.wm-step { color: rgb(1, 2, 3); }');
      writeFileSync(join(withAssets.guidesDir, 'assets', 'global.js'), 'window.globalRan = true;');
      expect((await list()).globalJsUrl).toBe('/data/guide-assets/global.js');
      const js = await withAssets.app.inject({ method: 'GET', url: '/data/guide-assets/global.js' });
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    } finally {
      await withAssets.close();
    }
  }, SERVER_TIMEOUT);

  it('answers 404 for a file it does not serve, and for a missing one', async () => {
    const other = await server.app.inject({ method: 'GET', url: '/data/guide-assets/..%2Fa-welcome.json' });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('no guide asset ../a-welcome.json: only global.css and global.js');
    const missing = await server.app.inject({ method: 'GET', url: '/data/guide-assets/global.css' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('no guide asset global.css in this guide folder');
  });
});

describe('guides §3 Step dismissCount and §7 status 451', () => {
  it('counts every dismissal of a step, in the step and in the last-step-seen record', async () => {
    const props = { guide_id: 'welcome', guide_step_id: 'welcome-1' };
    const visitor = { visitor_id: 'v-count' };
    await sendGuideEvents('count', [
      guideEvent('guideSeen', { ...props, reason: 'auto' }, { ...visitor, browser_time: 1000 }),
      guideEvent('guideDismissed', { ...props, seen_reason: 'auto' }, { ...visitor, browser_time: 2000 }),
      guideEvent('guideSeen', { ...props, reason: 'auto' }, { ...visitor, browser_time: 3000 }),
      guideEvent('guideDismissed', { ...props, seen_reason: 'auto' }, { ...visitor, browser_time: 4000 }),
    ]);
    const body = await loadGuides('count', visitorPayload('v-count'));
    expect(body.guides[0].steps[0]).toMatchObject({ seenState: 'dismissed', lastSeenAt: 4000, dismissCount: 2 });
    expect(body.lastGuideStepSeen).toMatchObject({ state: 'dismissed', dismissCount: 2 });
    expect(body.guides[1].steps[0].dismissCount).toBeUndefined();
  });

  it('answers 451 with a reason for a blocked visitor, by GET and POST, and serves everyone else', async () => {
    const blocking = await startTestServer({ 'a-welcome.json': lightbox }, { blockedVisitors: ['legal-hold'] });
    try {
      const get = await blocking.app.inject({ method: 'GET', url: `/data/guide.json/k?id=1&jzb=${nodeJzb(visitorPayload('legal-hold'))}` });
      expect(get.statusCode).toBe(451);
      expect(get.json().error).toMatch(/legal-hold may not be tracked/);
      const post = await blocking.app.inject({ method: 'POST', url: '/data/guide.json/k?id=2', payload: { events: visitorPayload('legal-hold') } });
      expect(post.statusCode).toBe(451);
      const other = await blocking.app.inject({ method: 'GET', url: `/data/guide.json/k?id=3&jzb=${nodeJzb(visitorPayload('free'))}` });
      expect(other.statusCode).toBe(200);
    } finally {
      await blocking.close();
    }
  }, SERVER_TIMEOUT);
});

describe('analytics §3 event property rules in guide.json features', () => {
  it('serves the features file as it is now, [] when there is none', async () => {
    const body = await loadGuides('features', visitorPayload('v'));
    expect(body.features).toEqual([]);
    const features = [{ featureId: 'f', featureRules: ['#buy'], eventProperties: [{ name: 'plan', source: 'data-plan' }] }];
    writeFileSync(join(server.root, 'features.json'), JSON.stringify(features));
    expect((await loadGuides('features', visitorPayload('v'))).features).toEqual(features);
    writeFileSync(join(server.root, 'features.json'), '{"not": "an array"}');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await loadGuides('features', visitorPayload('v'))).features).toEqual([]);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/is not a JSON array/);
  });
});

describe('guides §3 Launcher config in guide.json (`launcher`, from launcher.json or launcher.{apiKey}.json)', () => {
  const all = { enabled: true, data: { position: 'bottom-left' } };
  const mine = { enabled: true, data: { launchType: 'badge', enableSearch: true } };

  it('serves launcher.json to every api key and launcher.{apiKey}.json to its own; neither is a guide', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeFileSync(join(server.guidesDir, 'launcher.json'), JSON.stringify(all));
    writeFileSync(join(server.guidesDir, 'launcher.key-with-launcher.json'), JSON.stringify(mine));
    try {
      const own = await loadGuides('key-with-launcher', visitorPayload('v-launcher'));
      expect(own.launcher).toEqual(mine);
      // Not read as guide files: no 'skipping guide file' warning for them.
      expect(own.guides.map((g: { id: string }) => g.id)).toEqual(expect.arrayContaining(['welcome', 'tour']));
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('launcher'))).toEqual([]);
      expect((await loadGuides('another-key', visitorPayload('v-launcher'))).launcher).toEqual(all);
    } finally {
      rmSync(join(server.guidesDir, 'launcher.json'));
      rmSync(join(server.guidesDir, 'launcher.key-with-launcher.json'));
    }
    expect((await loadGuides('key-with-launcher', visitorPayload('v-launcher'))).launcher).toBeUndefined();
  });

  it('a launcher file that is not JSON is warned about and served as no launcher', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    writeFileSync(join(server.guidesDir, 'launcher.broken-launcher.json'), '{ not json');
    try {
      expect((await loadGuides('broken-launcher', visitorPayload('v-launcher'))).launcher).toBeUndefined();
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/launcher config .*launcher\.broken-launcher\.json is not JSON/);
    } finally {
      rmSync(join(server.guidesDir, 'launcher.broken-launcher.json'));
    }
  });

  it('a malformed config is passed on as it is: the agent reports it (ERROR while initializing launcher)', async () => {
    writeFileSync(join(server.guidesDir, 'launcher.odd-launcher.json'), JSON.stringify({ enabled: true, data: { position: 'middle' } }));
    try {
      expect((await loadGuides('odd-launcher', visitorPayload('v-launcher'))).launcher).toEqual({ enabled: true, data: { position: 'middle' } });
    } finally {
      rmSync(join(server.guidesDir, 'launcher.odd-launcher.json'));
    }
  });
});

describe('the console: a visitor\'s guides (GET /api/apps/{apiKey}/visitors/{visitorId}/guides)', () => {
  it('says where the visitor stands with each guide they met, from the same history guide.json serves, the latest first', async () => {
    const visitor = { visitor_id: 'v-history' };
    const tour = (step: number) => ({ guide_id: 'tour', guide_step_id: `tour-${step}` });
    await sendGuideEvents('history', [
      guideEvent('guideSeen', { guide_id: 'welcome', guide_step_id: 'welcome-1', reason: 'auto' }, { ...visitor, browser_time: 1000 }),
      guideEvent('guideSnoozed', { guide_id: 'welcome', guide_step_id: 'welcome-1', snooze_duration: 3_600_000 }, { ...visitor, browser_time: 2000 }),
      guideEvent('guideSeen', { ...tour(1), reason: 'auto' }, { ...visitor, browser_time: 3000 }),
      guideEvent('guideAdvanced', { ...tour(1), seen_reason: 'auto' }, { ...visitor, browser_time: 4000 }),
      guideEvent('guideSeen', { ...tour(2), reason: 'auto' }, { ...visitor, browser_time: 5000 }),
      guideEvent('guideSeen', { guide_id: 'gone', guide_step_id: 'gone-1', reason: 'auto' }, { ...visitor, browser_time: 500 }),
    ]);
    const read = async (visitorId: string) => (await server.app.inject({ method: 'GET', url: `/api/apps/history/visitors/${visitorId}/guides`, headers: ADMIN_HEADERS })).json();
    expect(await read('v-history')).toEqual([
      { guideId: 'tour', name: 'tour', status: 'in progress', step: 2, steps: 2, at: 5000 },
      { guideId: 'welcome', name: 'Welcome', status: 'snoozed', step: 1, steps: 1, at: 2000, snoozedUntil: 3_602_000 },
      { guideId: 'gone', name: 'gone', status: 'in progress', step: 0, steps: 0, at: 500, deleted: true },
    ]);
    await sendGuideEvents('history', [guideEvent('guideAdvanced', { ...tour(2), seen_reason: 'auto' }, { ...visitor, browser_time: 6000 })]);
    expect((await read('v-history'))[0]).toMatchObject({ guideId: 'tour', status: 'completed', step: 2 });
    expect(await read('nobody')).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: '/api/apps/history/visitors/v-history/guides' })).statusCode).toBe(401);
  });
});
