import { describe, expect, it } from 'vitest';
import type { WireGuideEvent } from '../../shared/events/events';
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import { decodeJzb } from '../../shared/wire/jzb';
import { MESSAGES } from '../../shared/messages';
import type { GuideState, GuideTailMessage, WorkerInit } from '../../shared/protocol';
import { ANONYMOUS_VISITOR_PREFIX } from '../../shared/constants';
import { AUTO_DISPLAY_RULES } from '../../shared/eligibility/autoDisplayRules';
import { chooseAutoSteps } from '../../shared/eligibility/chooseAutoSteps';
import { checkStepContent } from '../../shared/guides/validateGuidePayload';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED, queryOf } from './fakes';

/** The guide's own auto-display rules only (no clock rules), as chooseAutoSteps runs them. */
const selectAutoSteps = (response: GuideLoadResponse, url: string, device: 'desktop' | 'mobile') =>
  chooseAutoSteps(response, { url, device, rules: AUTO_DISPLAY_RULES, schedule: { now: Date.now() } });


const content = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', content: 'Hi' }] };
const step = (id: string, extra: Partial<Guide['steps'][number]> = {}) => ({ id, guideId: 'g', type: 'lightbox' as const, domJson: content, ...extra });
const guide = (id: string, extra: Partial<Guide> = {}): Guide => ({ id, launchMethod: 'auto', steps: [step(`${id}-1`)], ...extra });
const load = (guides: Guide[], lastGuideStepSeen = {}): GuideLoadResponse => ({ guides, lastGuideStepSeen });

describe('guides §4 auto display rules', () => {
  const url = 'https://app.example/reports?x=1';

  it('keeps auto guides whose page rule matches, ordered by priority, with reasons for the rest', () => {
    const choice = selectAutoSteps(
      load([
        guide('api-only', { launchMethod: 'api' }),
        guide('late', { attributes: { priority: 5 } }),
        guide('early', { attributes: { priority: 1 } }),
        guide('other-page', { steps: [step('o-1', { regexUrlRule: '^https://app\\.example/settings' })] }),
        guide('this-page', { steps: [step('t-1', { regexUrlRule: '^https://app\\.example/reports' })] }),
      ]),
      url,
      'desktop',
    );
    expect(choice.eligible.map((c) => c.guide.id)).toEqual(['early', 'late', 'this-page']);
    expect(choice.skipped).toEqual([
      { guideId: 'api-only', stepId: 'api-only-1', reason: "launchMethod: launchMethod 'api' has no auto" },
      { guideId: 'other-page', stepId: 'o-1', reason: `regexUrlRule: page ${url} does not match ^https://app\\.example/settings` },
    ]);
  });

  it('guides §5: drops a guide with a pageId step but no regexUrlRule', () => {
    const choice = selectAutoSteps(load([guide('p', { steps: [step('p-1', { pageId: 'page-1' })] })]), url, 'desktop');
    expect(choice.skipped[0]!.reason).toBe('pageIdNeedsRegexUrlRule: step p-1 has pageId without regexUrlRule');
  });

  it('does not show a guide dismissed in seenState or in lastGuideStepSeen, nor on the wrong device', () => {
    const choice = selectAutoSteps(
      load(
        [
          guide('a', { steps: [step('a-1', { seenState: 'dismissed' })] }),
          guide('b'),
          guide('c', { attributes: { device: { desktop: false, mobile: true } } }),
          guide('d', { steps: [step('d-1', { seenState: 'advanced' }), step('d-2')] }),
        ],
        { guideId: 'b', guideStepId: 'b-1', state: 'dismissed' },
      ),
      url,
      'desktop',
    );
    expect(choice.eligible.map((c) => `${c.guide.id}/${c.step.id}`)).toEqual(['d/d-2']);
    expect(choice.skipped.map((s) => s.reason.split(':')[0])).toEqual(['notDismissed', 'notDismissed', 'device']);
  });

  it('guides §3 attributes.type all/desktop/mobile says the device when attributes.device does not; attributes.device wins', () => {
    const guides = [
      guide('for-mobile', { attributes: { type: 'mobile' } }),
      guide('for-desktop', { attributes: { type: 'desktop' } }),
      guide('for-all', { attributes: { type: 'all' } }),
      guide('building-block', { attributes: { type: 'building-block' } }),
      guide('device-wins', { attributes: { type: 'mobile', device: { desktop: true, mobile: false } } }),
    ];
    const on = (device: 'desktop' | 'mobile') => selectAutoSteps(load(guides), url, device).eligible.map((c) => c.guide.id).sort();
    expect(on('desktop')).toEqual(['building-block', 'device-wins', 'for-all', 'for-desktop']);
    expect(on('mobile')).toEqual(['building-block', 'for-all', 'for-mobile']);
  });

  it("guides §5: content without type, children and props is 'Response from the guide was not in proper JSON format'", () => {
    expect(checkStepContent({ type: 'div', children: [] })).toBe(MESSAGES.contentNotJson);
    expect(MESSAGES.contentNotJson).toBe('Response from the guide was not in proper JSON format');
    expect(checkStepContent(content)).toBeNull();
  });
});

describe('guides §7 guide loading and guide events', () => {
  const config: WorkerInit = engineInit(PROBED);

  function setup(body: unknown) {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
    let seq = 0;
    const logs: string[] = [];
    const engine = createGuideEngine({ config, ports: { clock, transport }, log: (_l, m) => void logs.push(m), nextSequence: () => seq++, isSending: () => true });
    return { clock, transport, engine, logs };
  }

  it('requests guide.json with id and a jzb of visitorId, accountId, url, metadata', async () => {
    const { transport, engine } = setup({ ...load([guide('g')]), id: '1' });
    const result = await engine.load('http://h/');
    expect(result.ok && result.value.candidates.map((c) => c.stepId)).toEqual(['g-1']);
    const q = queryOf(transport.requests[0]!.url);
    expect(q.get('id')).toBe('1');
    expect(decodeJzb(q.get('jzb')!)).toEqual({ visitorId: 'v', accountId: 'a', url: 'http://h/', cachedGuides: [], metadata: config.metadata });
  });

  it('guides §3 Guide language: a step says the language its guide is served in, for the page to redraw it when a later load serves another (issue #36)', async () => {
    const { engine } = setup({ ...load([guide('fr', { language: 'fr' }), guide('plain')]), id: '1' });
    const result = await engine.load('http://h/');
    expect(result.ok && result.value.candidates.map((c) => [c.guideId, c.language])).toEqual([['fr', 'fr'], ['plain', undefined]]);
    const asked = await engine.stepForGuide('fr', 'fr-1', 'auto');
    expect(asked.ok && asked.value.language).toBe('fr');
  });

  it("guides §5: a response whose subscription lacks guides loads nothing: 'This functionality is not supported by your subscription.'", async () => {
    const { engine, logs } = setup({ ...load([guide('g')]), id: '1', subscription: { guides: false } });
    const result = await engine.load('http://h/');
    expect(result).toEqual({ ok: false, error: { code: 'not_in_subscription', message: 'This functionality is not supported by your subscription.' } });
    expect(logs).toContain(MESSAGES.notInSubscription);
    const shown = await engine.stepForGuide('g');
    expect(shown.ok).toBe(false);
    expect((await engine.guideDiagnostics()).loadError).toBe(MESSAGES.notInSubscription);
  });

  it('discards a response whose id is a different string (stale)', async () => {
    const { engine } = setup({ ...load([guide('g')]), id: '7' });
    const result = await engine.load('http://h/');
    expect(result).toEqual({ ok: false, error: { code: 'bad_payload', message: 'stale guide.json response 7 (expected 1)' } });
  });

  it("logs 'Post loadGuide request failed' when guide.json cannot be read", async () => {
    const { engine, logs } = setup('not json at all');
    (await engine.load('http://h/'));
    expect(logs[0]).toMatch(/^Post loadGuide request failed: /);
  });

  it('turns seen, activity and dismiss into guideSeen, guideActivity, guideDismissed on one guide beacon 500 ms after the last', async () => {
    const { clock, transport, engine } = setup(load([guide('g')]));
    await engine.load('http://h/');
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', reason: 'auto', url: 'http://h/' });
    await clock.advance(300);
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'activity', url: 'http://h/', uiElement: { id: 'close', type: 'BUTTON', actions: ['dismissGuide'] } });
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'dismiss', url: 'http://h/', duration: 300 });
    await clock.advance(499);
    expect(transport.requests.filter((r) => r.url.includes('/guide.gif/'))).toHaveLength(0);
    await clock.advance(1);
    const beacons = transport.requests.filter((r) => r.url.includes('/data/guide.gif/k?'));
    expect(beacons).toHaveLength(1);
    const events = decodeJzb(queryOf(beacons[0]!.url).get('jzb')!) as WireGuideEvent[];
    expect(events.map((e) => e.type)).toEqual(['guideSeen', 'guideActivity', 'guideDismissed']);
    expect(events[0]!.props).toMatchObject({ guide_id: 'g', guide_step_id: 'g-1', reason: 'auto' });
    expect(events[1]!.props).toMatchObject({ ui_element_id: 'close', ui_element_type: 'BUTTON', ui_element_actions: [{ action: 'dismissGuide' }] });
    expect(events[2]!.props).toEqual({ guide_id: 'g', guide_step_id: 'g-1', seen_reason: 'auto', duration: 300 });
  });

  it('issue #32: tells the page of each guide event written, as the beacon carries it, and of those sent; not before a send succeeds', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(load([guide('g')])) });
    let seq = 0;
    const told: GuideTailMessage[] = [];
    const engine = createGuideEngine({ config, ports: { clock, transport }, log: () => undefined, nextSequence: () => seq++, isSending: () => true, tail: (m) => void told.push(m) });
    await engine.load('http://h/');
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', reason: 'auto', url: 'http://h/' });
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'dismiss', url: 'http://h/', duration: 300 });
    expect(told.map((m) => [m.type, m.sequence, m.done])).toEqual([
      ['waymark:guideTail', 0, undefined],
      ['waymark:guideTail', 1, undefined],
    ]);
    // The first send fails: the page keeps its copies through the back-off.
    transport.statuses.push(500);
    await clock.advance(500);
    expect(transport.requests.filter((r) => r.url.includes('/data/guide.gif/k?'))).toHaveLength(1);
    expect(told).toHaveLength(2);
    await clock.advance(5000);
    const beacons = transport.requests.filter((r) => r.url.includes('/data/guide.gif/k?'));
    expect(beacons).toHaveLength(2);
    expect(decodeJzb(queryOf(beacons[1]!.url).get('jzb')!)).toEqual(told.slice(0, 2).map((m) => JSON.parse(m.json!)));
    expect(told[2]).toEqual({ type: 'waymark:guideTail', done: [0, 1] });
  });

  it('advance records guideAdvanced with the destination and returns the next step', async () => {
    const { engine } = setup(load([guide('m', { steps: [step('m-1'), step('m-2')] })]));
    await engine.load('http://h/');
    await engine.stepAction({ guideId: 'm', stepId: 'm-1', action: 'seen', url: 'http://h/' });
    const next = await engine.stepAction({ guideId: 'm', stepId: 'm-1', action: 'advance', url: 'http://h/' });
    expect(next.ok && next.value).toMatchObject({ stepId: 'm-2', stepIndex: 1, stepCount: 2, reason: 'continue' });
    const last = await engine.stepAction({ guideId: 'm', stepId: 'm-2', action: 'advance', url: 'http://h/' });
    expect(last).toEqual({ ok: true, value: null });
  });
});

describe('guides §5, §7, §8 guide loading refusals, probe, 451, POST and timeout', () => {
  const base: WorkerInit = engineInit();

  function setup(config: WorkerInit, extra: Partial<Parameters<typeof createGuideEngine>[0]> = {}) {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const logs: string[] = [];
    const saved: GuideState[] = [];
    let denied = 0;
    const engine = createGuideEngine({
      config, ports: { clock, transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true,
      saveState: (s) => void saved.push(s), onDenied: () => void denied++, ...extra,
    });
    return { clock, transport, engine, logs, saved, denied: () => denied };
  }

  it('issue #18 receiveThrottlingState: another frame\'s timestamps are merged where later, kept for the next page, and throttle the next load', async () => {
    const { clock, transport, engine, saved } = setup(engineInit(PROBED));
    const body = { ...load([guide('g')]), settings: { throttling: { enabled: true, interval: 30, unit: 'minute' } } };
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
    const before = await engine.load('http://h/');
    expect(before.ok && before.value.candidates.map((c) => c.guideId)).toEqual(['g']);
    const now = clock.now();
    const nextDisplayAt = now - 60_000 + 30 * 60_000;
    expect(await engine.throttling({ latestDismissedAutoAt: now - 60_000 })).toEqual({ timestamps: { latestDismissedAutoAt: now - 60_000 }, changed: true, nextDisplayAt });
    expect(saved.at(-1)).toMatchObject({ timestamps: { latestDismissedAutoAt: now - 60_000 } });
    // An earlier time than this worker's changes nothing (and saves nothing).
    const count = saved.length;
    expect(await engine.throttling({ latestDismissedAutoAt: now - 120_000 })).toEqual({ timestamps: { latestDismissedAutoAt: now - 60_000 }, changed: false, nextDisplayAt });
    expect(saved).toHaveLength(count);
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
    // The next load holds 'g' to the merged next display time (the page shows it once that passed).
    const after = await engine.load('http://h/');
    expect(after.ok && after.value.candidates.map((c) => [c.guideId, c.bypassesThrottling === true])).toEqual([['g', false]]);
    expect(after.ok && after.value.throttledUntil).toBe(nextDisplayAt);
  });

  it('guides §4 Throttling on the same page (issue #36): dismissing an auto guide answers the next display time the page holds its other candidates to; an override guide is marked to bypass it', async () => {
    const { clock, transport, engine } = setup(engineInit(PROBED));
    const guides = [guide('a', { attributes: { priority: 1 } }), guide('b', { attributes: { priority: 2 } }), guide('o', { attributes: { priority: 3, overrideAutoThrottling: true } })];
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ ...load(guides), settings: { throttling: { enabled: true, interval: 1, unit: 'minute' } } }) });
    const loaded = await engine.load('http://h/');
    expect(loaded.ok && loaded.value.candidates.map((c) => [c.guideId, c.bypassesThrottling === true])).toEqual([['a', false], ['b', false], ['o', true]]);
    expect((await engine.throttling()).nextDisplayAt).toBeNull();
    expect(await engine.stepAction({ guideId: 'a', stepId: 'a-1', action: 'seen', reason: 'auto', url: 'http://h/' })).toEqual({ ok: true, value: null });
    await clock.advance(5_000);
    const dismissedAt = clock.now();
    expect(await engine.stepAction({ guideId: 'a', stepId: 'a-1', action: 'dismiss', url: 'http://h/' })).toEqual({ ok: true, value: null });
    expect(await engine.throttling()).toEqual({ timestamps: { latestDismissedAutoAt: dismissedAt }, changed: false, nextDisplayAt: dismissedAt + 60_000 });
  });

  it('guides §4 Throttling at a load (issue #36): a guide held back only by throttling stays a candidate, with the next display time the page holds it to; the debugger names the hold', async () => {
    const { clock, transport, engine } = setup(engineInit(PROBED));
    const guides = [guide('b', { attributes: { priority: 2 } }), guide('o', { attributes: { priority: 3, overrideAutoThrottling: true } })];
    const body = JSON.stringify({ ...load(guides), settings: { throttling: { enabled: true, interval: 1, unit: 'minute' } } });
    const dismissedAt = clock.now() - 20_000;
    await engine.throttling({ latestDismissedAutoAt: dismissedAt });
    transport.bodies.push({ match: '/data/guide.json/', body });
    const held = await engine.load('http://h/');
    expect(held.ok && held.value.candidates.map((c) => [c.guideId, c.bypassesThrottling === true])).toEqual([['b', false], ['o', true]]);
    expect(held.ok && held.value.throttledUntil).toBe(dismissedAt + 60_000);
    const diagnostics = await engine.guideDiagnostics();
    expect(diagnostics.guides.find((g) => g.id === 'b')?.reason).toBe(`throttling: throttled until ${new Date(dismissedAt + 60_000).toISOString()}; then shows step b-1 (auto)`);
    await clock.advance(40_000);
    transport.bodies.push({ match: '/data/guide.json/', body });
    const free = await engine.load('http://h/');
    expect(free.ok && free.value.throttledUntil).toBeUndefined();
  });

  it("probes guide.gif once with the jzb of [], and on failure logs 'Guides disabled: unreachable endpoint guide.gif' and blocks for 4 hours", async () => {
    const { clock, transport, engine, logs, saved } = setup(base);
    transport.bodies.push({ match: '/data/guide.gif/', status: 503, body: 'down' });
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(load([guide('g')])) });
    const first = await engine.load('http://h/');
    // guide.json went beside the probe, and its answer (a guide) is not used: the probe failed.
    expect(first).toEqual({ ok: false, error: { code: 'bad_payload', message: 'error: guides are blocked' } });
    expect(logs).toContain('Guides disabled: unreachable endpoint guide.gif');
    const probe = transport.requests[0]!;
    expect(probe.url).toContain('/data/guide.gif/');
    expect(decodeJzb(queryOf(probe.url).get('jzb')!)).toEqual([]);
    expect(queryOf(probe.url).get('v')).toBe('t');
    expect(saved.at(-1)).toEqual({ visitorId: 'v', probe: { ok: false, until: clock.now() + 14_400_000 } });
    // Within the 4 hours no request at all: neither a probe nor guide.json.
    const asked = transport.requests.length;
    await clock.advance(14_400_000 - 1);
    expect(await engine.load('http://h/')).toMatchObject({ ok: false, error: { message: 'error: guides are blocked' } });
    expect(transport.requests).toHaveLength(asked);
  });

  it('issue #16: guide.json is asked while the probe is in flight, and its answer waits for the probe passing', async () => {
    const { transport, engine, saved } = setup(base);
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(load([guide('g')])) });
    // The probe's answer is held until released; guide.json answers at once.
    let release = () => {};
    const answered = transport.request.bind(transport);
    transport.request = async (req) => {
      const response = answered(req);
      if (req.url.includes('/data/guide.gif/')) await new Promise<void>((done) => (release = done));
      return response;
    };
    let settled = false;
    const loading = engine.load('http://h/').then((result) => ((settled = true), result));
    await new Promise((done) => setTimeout(done, 0));
    expect(transport.requests.map((r) => new URL(r.url).pathname.split('/')[2])).toEqual(['guide.gif', 'guide.json']);
    expect(settled).toBe(false);
    release();
    const result = await loading;
    expect(result.ok && result.value.candidates.map((c) => c.guideId)).toEqual(['g']);
    expect(saved.at(-1)).toMatchObject({ probe: { ok: true } });
  });

  it('a probe verdict kept by an earlier page is used until it expires', async () => {
    const now = createFakeClock().now();
    const { transport, engine } = setup({ ...base, guides: { state: { visitorId: 'v', probe: { ok: false, until: now + 1000 } } } });
    expect((await engine.load('http://h/')).ok).toBe(false);
    expect(transport.requests).toHaveLength(0);
  });

  it("refuses anonymous visitors with dropAnonymous, blocked guide events, and non-web URLs ('error: invalid url')", async () => {
    const anonymous = setup({ ...base, identity: { visitorId: '_WM_anon_abcdefghijk'.replace('_WM_anon_', ANONYMOUS_VISITOR_PREFIX), accountId: '' }, guides: { dropAnonymous: true } });
    expect(await anonymous.engine.load('http://h/')).toMatchObject({ ok: false, error: { message: MESSAGES.guidesBlocked } });
    const blocked = setup({ ...base, guides: { guideEventsBlocked: true } });
    expect(await blocked.engine.load('http://h/')).toMatchObject({ ok: false, error: { message: 'error: guides are blocked' } });
    const local = setup(base);
    expect(await local.engine.load('file:///C:/page.html')).toMatchObject({ ok: false, error: { message: 'error: invalid url' } });
    expect(local.transport.requests).toHaveLength(0);
  });

  it('451 stops tracking and denies every later load, kept for the next page', async () => {
    const { transport, engine, saved, denied } = setup({ ...base, guides: { state: { visitorId: 'v', probe: { ok: true, until: Number.MAX_SAFE_INTEGER } } } });
    transport.bodies.push({ match: '/data/guide.json/', status: 451, body: '{"error":"no"}' });
    expect((await engine.load('http://h/')).ok).toBe(false);
    expect(denied()).toBe(1);
    expect(saved.at(-1)).toMatchObject({ denied: true });
    const requests = transport.requests.length;
    expect(await engine.load('http://h/')).toMatchObject({ ok: false, error: { message: 'error: guides are blocked' } });
    expect(transport.requests).toHaveLength(requests);
  });

  it('POSTs {events: jzb, jwt, signingKeyName} when signed metadata is set, with acc', async () => {
    const { transport, engine } = setup(
      { ...base, guides: { state: { visitorId: 'v', probe: { ok: true, until: Number.MAX_SAFE_INTEGER } } } },
      { auth: () => ({ jwt: 'a.b.c', signingKeyName: 'key' }), params: () => ({ acc: 'YQ' }) },
    );
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ guides: [], lastGuideStepSeen: {} }) });
    expect((await engine.load('http://h/')).ok).toBe(true);
    const post = transport.requests.find((r) => r.url.includes('/guide.json/'))!;
    expect(post.method).toBe('POST');
    expect(queryOf(post.url).get('jzb')).toBeNull();
    expect(queryOf(post.url).get('acc')).toBe('YQ');
    const body = JSON.parse(post.body!);
    expect(body).toMatchObject({ jwt: 'a.b.c', signingKeyName: 'key' });
    expect(decodeJzb(body.events)).toMatchObject({ visitorId: 'v', url: 'http://h/' });
  });

  it('guideTimeout gives the load up: a late answer is ignored', async () => {
    const clock = createFakeClock();
    const logs: string[] = [];
    let answer: (value: { status: number; statusText: string; text: () => Promise<string> }) => void = () => undefined;
    const engine = createGuideEngine({
      config: { ...base, guides: { timeoutMs: 2000, state: { visitorId: 'v', probe: { ok: true, until: Number.MAX_SAFE_INTEGER } } } },
      ports: { clock, transport: { request: () => new Promise((resolve) => (answer = resolve)) } },
      log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true,
    });
    const pending = engine.load('http://h/');
    await new Promise((resolve) => setImmediate(resolve)); // the request (and its timer) is under way
    await clock.advance(2000);
    const result = await pending;
    expect(result).toMatchObject({ ok: false });
    expect(logs[0]).toBe('Post loadGuide request failed: guide.json did not answer within 2000 ms (guideTimeout)');
    answer({ status: 200, statusText: 'OK', text: async () => JSON.stringify({ guides: [], lastGuideStepSeen: {} }) });
  });
});

describe('guides §4 control group, step timeout, error rate and continuation expiry in the engine', () => {
  const config: WorkerInit = engineInit(PROBED);

  function setup(body: unknown | (() => unknown)) {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const logs: string[] = [];
    const engine = createGuideEngine({ config, ports: { clock, transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
    const sentEvents = async () => {
      await clock.advance(1000);
      return transport.requests
        .filter((r) => r.url.includes('/data/guide.gif/') && !queryOf(r.url).get('jzb')!.startsWith('eJyLjgUAARUAuQ'))
        .flatMap((r) => decodeJzb(queryOf(r.url).get('jzb')!) as WireGuideEvent[]);
    };
    return { clock, transport, engine, logs, sentEvents };
  }

  it("a control-group guide is never shown: the spec message, one control event, its steps notSeen", async () => {
    const { engine, logs, sentEvents } = setup(load([guide('exp', { control: true, steps: [step('exp-1'), step('exp-2')] })]));
    const first = await engine.load('http://h/');
    expect(first.ok && first.value.candidates).toEqual([]);
    expect(first.ok && first.value.skipped[0]!.reason).toBe(`controlGroup: ${MESSAGES.controlGroup}`);
    await engine.load('http://h/other');
    expect(logs.filter((l) => l.startsWith(MESSAGES.controlGroup))).toHaveLength(1);
    const events = await sentEvents();
    expect(events.map((e) => [e.type, e.props.guide_id, e.props.guide_step_id])).toEqual([['control', 'exp', 'exp-1']]);
  });

  it("a step not seen in time: 'Guide {id} timed out showing Step {id}' and a guideTimeout event with its reason", async () => {
    const { engine, logs, sentEvents } = setup(load([guide('g')]));
    await engine.load('http://h/');
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'timeout', timeoutReason: 'element', timeoutMs: 10_000, url: 'http://h/' });
    expect(logs).toContain('Guide g timed out showing Step g-1');
    const events = await sentEvents();
    expect(events.map((e) => e.type)).toEqual(['guideTimeout']);
    expect(events[0]!.props).toEqual({ guide_id: 'g', guide_step_id: 'g-1', reason: 'element', guideSeenTimeoutLength: 10_000 });
  });

  it("drops a guide whose content keeps failing: 'Exceeded error rate limit, dropping guide' at 5 errors in 10 s", async () => {
    const { clock, transport, engine, logs } = setup(load([guide('flaky', { steps: [{ id: 'flaky-1', guideId: 'flaky', type: 'lightbox', domUrl: '/c/flaky.json' }] })]));
    transport.bodies.push({ match: '/c/flaky.json', status: 503, body: 'down' });
    for (let i = 0; i < 5; i++) {
      await engine.load(`http://h/${i}`);
      await clock.advance(1000);
    }
    expect(logs.filter((l) => l.startsWith('Failed to load content'))).toHaveLength(5);
    expect(logs).toContain('Exceeded error rate limit, dropping guide flaky');
    const before = transport.requests.filter((r) => r.url.includes('/c/flaky.json')).length;
    const after = await engine.load('http://h/later');
    expect(after.ok && after.value.skipped[0]!.reason).toMatch(/failed earlier on this page: Exceeded error rate limit, dropping guide/);
    expect(transport.requests.filter((r) => r.url.includes('/c/flaky.json'))).toHaveLength(before);
  });

  it('the error-rate drop raises renderFail: one guideNotSeen with that reason', async () => {
    const { clock, transport, engine, sentEvents } = setup(load([guide('flaky', { steps: [{ id: 'flaky-1', guideId: 'flaky', type: 'lightbox', domUrl: '/c/flaky.json' }] })]));
    transport.bodies.push({ match: '/c/flaky.json', status: 503, body: 'down' });
    for (let i = 0; i < 7; i++) {
      await engine.load(`http://h/${i}`);
      await clock.advance(1000);
    }
    const events = await sentEvents();
    expect(events.map((e) => [e.type, e.props.guide_id, e.props.guide_step_id, e.props.reason])).toEqual([['guideNotSeen', 'flaky', 'flaky-1', 'renderFail']]);
  });

  it('guides §5: a step rendered where its page rule does not match is a page rule exception; the guide is failed for the page', async () => {
    const onReports = step('r-1', { regexUrlRule: '^http://h/reports' });
    const { engine, logs, sentEvents } = setup(load([guide('r', { steps: [onReports] })]));
    await engine.load('http://h/reports');
    // The page changed to /settings while the step was being rendered.
    const seen = await engine.stepAction({ guideId: 'r', stepId: 'r-1', action: 'seen', reason: 'auto', url: 'http://h/settings' });
    const message = `${MESSAGES.pageRuleException}: guide r step r-1: page http://h/settings does not match ^http://h/reports`;
    expect(seen).toEqual({ ok: false, error: { code: 'page_rule', message } });
    expect(logs).toContain(message);
    expect(MESSAGES.pageRuleException).toBe('Page rule exception');
    const again = await engine.stepForGuide('r', 'r-1', 'auto');
    expect(again.ok ? 'shown' : again.error.message).toBe(`guide r failed earlier on this page: ${message}`);
    const events = await sentEvents();
    expect(events.map((e) => [e.type, e.props.reason, e.url])).toEqual([['guideNotSeen', 'pageRule', 'http://h/settings']]);
  });

  it('the page rule holds for continued displays but not for a host\'s showGuideById or a permalink', async () => {
    const onReports = step('r-1', { regexUrlRule: '^http://h/reports' });
    const { engine, sentEvents } = setup(load([guide('r', { steps: [onReports] })]));
    await engine.load('http://h/reports');
    for (const reason of ['api', 'permalink'] as const) {
      expect(await engine.stepAction({ guideId: 'r', stepId: 'r-1', action: 'seen', reason, url: 'http://h/settings' })).toEqual({ ok: true, value: null });
    }
    const continued = await engine.stepAction({ guideId: 'r', stepId: 'r-1', action: 'seen', reason: 'continue', url: 'http://h/settings' });
    expect(continued.ok ? 'shown' : continued.error.code).toBe('page_rule');
    expect((await sentEvents()).map((e) => e.type)).toEqual(['guideSeen', 'guideSeen', 'guideNotSeen']);
  });

  it("an expired multi-step continuation logs 'Multi-step continuation has expired' once and starts over", async () => {
    const now = createFakeClock().now();
    const tour = guide('tour', { isMultiStep: true, steps: [step('tour-1'), step('tour-2')] });
    const { engine, logs } = setup(load([tour], { guideId: 'tour', guideStepId: 'tour-2', state: 'active', time: now - 43_200_001 }));
    const first = await engine.load('http://h/');
    expect(first.ok && first.value.candidates.map((c) => `${c.stepId}:${c.reason}`)).toEqual(['tour-1:auto']);
    await engine.load('http://h/again');
    expect(logs.filter((l) => l.startsWith(MESSAGES.continuationExpired))).toHaveLength(1);
  });
});

describe('guides §4 element activation in the guide load', () => {
  it('lists dom-launched guides with an activation whose rules pass, defaulting the event to click', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const activation = (id: string, extra: Partial<Guide> = {}) =>
      guide(id, { launchMethod: 'dom', attributes: { activation: { selector: `.${id}` } }, ...extra });
    transport.bodies.push({
      match: '/data/guide.json/',
      body: JSON.stringify(load([
        activation('help'),
        activation('hover', { attributes: { activation: { event: 'mouseover', selector: '.hover' } } }),
        activation('elsewhere', { steps: [step('e-1', { regexUrlRule: '/settings' })] }),
        activation('expired', { expiresAfter: clock.now() - 1 }),
        guide('auto-only', { attributes: { activation: { selector: '.x' } } }),
      ])),
    });
    const engine = createGuideEngine({
      config: engineInit(PROBED),
      ports: { clock, transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true,
    });
    const result = await engine.load('http://h/reports');
    expect(result.ok && result.value.activations).toEqual([
      { guideId: 'help', event: 'click', selector: '.help' },
      { guideId: 'hover', event: 'mouseover', selector: '.hover' },
    ]);
    // Not auto-displayed: their launch method has no auto.
    expect(result.ok && result.value.candidates.map((c) => c.guideId)).toEqual(['auto-only']);
  });

  it('issue #17: the first step\'s triggerElementPathRule when there is no activation; dom.isOnlyShowOnce once seen, and stayHidden, never', async () => {
    const transport = createFakeTransport();
    const dom = (id: string, extra: Partial<Guide> = {}, stepExtra = {}) => guide(id, { launchMethod: 'dom', steps: [step(`${id}-1`, { triggerElementPathRule: `#${id}`, ...stepExtra })], ...extra });
    transport.bodies.push({
      match: '/data/guide.json/',
      body: JSON.stringify(load([
        dom('trigger'),
        dom('once-unseen', { attributes: { dom: { isOnlyShowOnce: true } } }),
        dom('once-seen', { attributes: { dom: { isOnlyShowOnce: true } } }, { seenState: 'active' }),
        dom('again-seen', {}, { seenState: 'active' }),
        dom('hidden', { attributes: { stayHidden: true } }),
      ])),
    });
    const engine = createGuideEngine({ config: engineInit(PROBED), ports: { clock: createFakeClock(), transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true });
    const result = await engine.load('http://h/');
    expect(result.ok && result.value.activations.map((a) => `${a.guideId} ${a.event} ${a.selector}`)).toEqual(['trigger click #trigger', 'once-unseen click #once-unseen', 'again-seen click #again-seen']);
  });
});
