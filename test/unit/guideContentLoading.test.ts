// Guide content in the engine: cache, prefetch, step and global CSS and scripts, poll answers (guides §3, §5, §7, §8, §9).
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { WireGuideEvent } from '../../shared/events/events';
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import { decodeJzb } from '../../shared/wire/jzb';
import type { WorkerInit } from '../../shared/protocol';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED, queryOf } from './fakes';


const content = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', content: 'Hi' }] };
const step = (id: string, extra: Partial<Guide['steps'][number]> = {}) => ({ id, guideId: 'g', type: 'lightbox' as const, domJson: content, ...extra });
const guide = (id: string, extra: Partial<Guide> = {}): Guide => ({ id, launchMethod: 'auto', steps: [step(`${id}-1`)], ...extra });
const load = (guides: Guide[], lastGuideStepSeen = {}): GuideLoadResponse => ({ guides, lastGuideStepSeen });

describe('guides §7, §9 content cache, prefetch and cachedGuides', () => {
  const content = JSON.stringify({ type: 'div', props: {}, children: [] });
  const config: WorkerInit = engineInit(PROBED);
  const byUrl = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `t-${i + 1}`, guideId: 'tour', type: 'lightbox' as const, domUrl: `/c/t-${i + 1}.json` }));

  function setup(extra: Partial<WorkerInit['guides']> = {}) {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(load([guide('tour', { isMultiStep: true, steps: byUrl(12) })])) });
    transport.bodies.push({ match: '/c/', body: content });
    const engine = createGuideEngine({
      config: { ...config, guides: { ...config.guides, ...extra } },
      ports: { clock, transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true,
    });
    const contentRequests = () => transport.requests.filter((r) => r.url.includes('/c/')).map((r) => new URL(r.url).pathname);
    return { clock, transport, engine, contentRequests };
  }

  it('prefetches the later steps of a guide that may show, once each, and names it in cachedGuides', async () => {
    const { transport, engine, contentRequests } = setup();
    await engine.load('http://h/');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(contentRequests().sort()).toEqual(byUrl(12).map((s) => s.domUrl).sort());
    // Advancing needs no request: the next step comes from the cache.
    await engine.stepAction({ guideId: 'tour', stepId: 't-1', action: 'seen', reason: 'auto', url: 'http://h/' });
    const next = await engine.stepAction({ guideId: 'tour', stepId: 't-1', action: 'advance', url: 'http://h/' });
    expect(next.ok && next.value?.stepId).toBe('t-2');
    expect(contentRequests()).toHaveLength(12);
    await engine.load('http://h/again');
    const second = transport.requests.filter((r) => r.url.includes('/guide.json/'))[1]!;
    expect(decodeJzb(queryOf(second.url).get('jzb')!)).toMatchObject({ cachedGuides: ['tour'] });
  });

  it('fetches content again after the 10-minute cache timeout, and not at all with disablePrefetch until needed', async () => {
    const { clock, engine, contentRequests } = setup({ disablePrefetch: true });
    await engine.load('http://h/');
    await new Promise((resolve) => setImmediate(resolve));
    expect(contentRequests()).toEqual(['/c/t-1.json']);
    await clock.advance(599_999);
    await engine.load('http://h/2');
    expect(contentRequests()).toEqual(['/c/t-1.json']);
    await clock.advance(1);
    await engine.load('http://h/3');
    expect(contentRequests()).toEqual(['/c/t-1.json', '/c/t-1.json']);
  });
});

describe('guides §7 content prefetch in batches of 10', () => {
  it('never has more than 10 content requests in flight', async () => {
    const clock = createFakeClock();
    let inFlight = 0;
    let most = 0;
    let contentCount = 0;
    const steps = Array.from({ length: 25 }, (_, i) => ({ id: `b-${i + 1}`, guideId: 'big', type: 'lightbox' as const, domUrl: `/c/b-${i + 1}.json` }));
    const transport = {
      async request(req: { url: string }) {
        if (req.url.includes('/guide.json/')) {
          return { status: 200, statusText: 'OK', text: async () => JSON.stringify(load([guide('big', { isMultiStep: true, steps })])) };
        }
        contentCount++;
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return { status: 200, statusText: 'OK', text: async () => JSON.stringify({ type: 'div', props: {}, children: [] }) };
      },
    };
    const engine = createGuideEngine({
      config: engineInit(PROBED),
      ports: { clock, transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true,
    });
    await engine.load('http://h/');
    await expect.poll(() => contentCount, { timeout: 2000 }).toBe(25);
    expect(most).toBe(10);
  });
});

describe('guides §3, §8 step stylesheets and scripts', () => {
  const base: WorkerInit = engineInit({ ...PROBED, allowedOrigins: ['https://cdn.example'] });
  const digest = createHash('sha256').update('window.ran = 1;').digest('base64');

  function setup(stepExtra: Record<string, unknown>, cssAnswer?: 'hang') {
    const clock = createFakeClock();
    const logs: string[] = [];
    const guides = load([guide('g', { steps: [step('g-1', stepExtra)] })]);
    const transport = {
      requests: [] as string[],
      async request(req: { url: string }) {
        transport.requests.push(req.url);
        if (req.url.includes('/guide.json/')) return { status: 200, statusText: 'OK', text: async () => JSON.stringify(guides) };
        if (cssAnswer === 'hang') return new Promise<never>(() => undefined);
        return { status: 200, statusText: 'OK', text: async () => '.wm-step h2 { color: rgb(200, 0, 0); }' };
      },
    };
    const engine = createGuideEngine({ config: base, ports: { clock, transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    return { clock, engine, logs, transport };
  }

  it('hands the step its stylesheet text and its script with SRI integrity from the content hash', async () => {
    const { engine } = setup({ contentUrlCss: '/c/step.css', contentUrlJs: 'https://cdn.example/step.js', hashes: { contentJsHash: digest } });
    const result = await engine.load('http://h/');
    const shown = result.ok ? result.value.candidates[0] : undefined;
    expect(shown?.css).toBe('.wm-step h2 { color: rgb(200, 0, 0); }');
    expect(shown?.script).toEqual({ url: 'https://cdn.example/step.js', integrity: `sha256-${digest}` });
  });

  it("a stylesheet still loading after 10 seconds: 'Failed to load ... within 10 seconds', the step shows without it", async () => {
    const { clock, engine, logs } = setup({ contentUrlCss: '/c/slow.css' }, 'hang');
    const pending = engine.load('http://h/');
    await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(10_000);
    const result = await pending;
    expect(logs).toContain('Failed to load http://127.0.0.1:9/c/slow.css within 10 seconds');
    expect(result.ok && result.value.candidates[0]?.css).toBeUndefined();
    expect(result.ok && result.value.candidates.map((c) => c.stepId)).toEqual(['g-1']);
  });

  it('a script from an origin that is not allowed fails the guide, with the origin named', async () => {
    const { engine, logs } = setup({ contentUrlJs: 'https://evil.example/x.js' });
    const result = await engine.load('http://h/');
    expect(result.ok && result.value.candidates).toEqual([]);
    expect(logs.some((l) => l.includes('https://evil.example') && l.includes('not allowed'))).toBe(true);
  });
});

describe('guides §3, §8 the load response\'s global CSS and script', () => {
  function setup(extra: Record<string, unknown>, cssAnswer: 'ok' | 'hang' = 'ok') {
    const clock = createFakeClock();
    const logs: string[] = [];
    const body = { ...load([guide('g', { steps: [step('g-1', { contentUrlCss: '/c/step.css' })] })]), ...extra };
    const transport = {
      async request(req: { url: string }) {
        if (req.url.includes('/guide.json/')) return { status: 200, statusText: 'OK', text: async () => JSON.stringify(body) };
        if (req.url.endsWith('/c/global.css') && cssAnswer === 'hang') return new Promise<never>(() => undefined);
        const text = req.url.endsWith('/c/global.css') ? '.global{}' : '.step{}';
        return { status: 200, statusText: 'OK', text: async () => text };
      },
    };
    const engine = createGuideEngine({ config: engineInit(PROBED), ports: { clock, transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    return { clock, engine, logs };
  }

  it('puts guideCssUrl before each step\'s own stylesheet and hands over an allowed globalJsUrl', async () => {
    const { engine } = setup({ guideCssUrl: '/c/global.css', globalJsUrl: '/c/global.js' });
    const result = await engine.load('http://h/');
    expect(result.ok && result.value.candidates[0]?.css).toBe('.global{}\n.step{}');
    expect(result.ok && result.value.globalScript).toBe('http://127.0.0.1:9/c/global.js');
  });

  it("'Unable to find global css after delay' after 5 seconds; a global script from elsewhere is refused with 'Error loading global script'", async () => {
    const { clock, engine, logs } = setup({ guideCssUrl: '/c/global.css', globalJsUrl: 'https://elsewhere.example/g.js' }, 'hang');
    const pending = engine.load('http://h/');
    await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(5000);
    const result = await pending;
    expect(logs).toContain('Unable to find global css after delay: http://127.0.0.1:9/c/global.css');
    expect(logs.some((l) => l.startsWith('Error loading global script: ') && l.includes('https://elsewhere.example'))).toBe(true);
    expect(result.ok && result.value.globalScript).toBeUndefined();
    expect(result.ok && result.value.candidates[0]?.css).toBe('.step{}');
  });
});

describe('guides §5, §7 poll answers on the poll beacon', () => {
  it('parses numeric and yes/no answers as integers, keeps free text, skips a non-number, and sends them on poll.gif', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const polls = [
      { id: 'nps', numericResponses: [0, 10], attributes: { type: 'NPSRating' } },
      { id: 'yn', attributes: { type: 'YesNo' } },
      { id: 'text' },
    ];
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(load([guide('g', { polls })])) });
    const logs: string[] = [];
    const engine = createGuideEngine({ config: engineInit(PROBED), ports: { clock, transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    await engine.load('http://h/');
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', reason: 'auto', url: 'http://h/' });
    await clock.advance(1200);
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'poll', url: 'http://h/', pollAnswers: { nps: '8', yn: '1', text: 'nice', 'nps-typo': 'x', bad: 'n' } });
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'poll', url: 'http://h/', pollAnswers: { nps: 'ten' } });
    await clock.advance(1000);
    const beacons = transport.requests.filter((r) => r.url.includes('/data/poll.gif/k?'));
    expect(beacons).toHaveLength(1);
    const sent = (decodeJzb(queryOf(beacons[0]!.url).get('jzb')!) as WireGuideEvent[]).map((e) => [e.type, e.props.poll_id, e.props.poll_response, e.props.poll_type, e.props.duration]);
    expect(sent).toEqual([
      ['pollResponse', 'nps', 8, 'NPSRating', 1200],
      ['pollResponse', 'yn', 1, 'YesNo', 1200],
      ['pollResponse', 'text', 'nice', 'FreeForm', 1200],
      ['pollResponse', 'nps-typo', 'x', 'FreeForm', 1200],
      ['pollResponse', 'bad', 'n', 'FreeForm', 1200],
    ]);
    expect(logs).toContain("guide g poll nps: 'ten' is not a number; not recorded");
  });
});

describe('guides §2, §5 an answered poll on the last step completes its guide', () => {
  it('advances the step at once (guideAdvanced, the guide done for the next load); without completes the step stays', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const polls = [{ id: 'nps', attributes: { type: 'NPSRating' } }];
    const body = JSON.stringify(load([guide('g', { polls })]));
    transport.bodies.push({ match: '/data/guide.json/', body });
    const engine = createGuideEngine({ config: engineInit(PROBED), ports: { clock, transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true });
    await engine.load('http://h/');
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', reason: 'auto', url: 'http://h/' });
    // Answers alone (a middle step's poll, or a button that also moves the guide on): the step stays active.
    expect(await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'poll', url: 'http://h/', pollAnswers: { nps: '7' } })).toEqual({ ok: true, value: null });
    expect(await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'poll', url: 'http://h/', pollAnswers: { nps: '9' }, completes: true })).toEqual({ ok: true, value: null });
    await clock.advance(1000);
    const guideEvents = transport.requests
      .filter((r) => r.url.includes('/data/guide.gif/k?'))
      .flatMap((r) => (decodeJzb(queryOf(r.url).get('jzb')!) as WireGuideEvent[]).map((e) => e.type));
    expect(guideEvents).toEqual(['guideSeen', 'guideAdvanced']);
    // The collector has not stored it yet; the next load here does not show the guide again.
    transport.bodies.push({ match: '/data/guide.json/', body });
    const next = await engine.load('http://h/');
    expect(next.ok && next.value.candidates).toEqual([]);
  });
});

describe('issue #17 guides §3 content from domJsonpUrl and buildingBlocksUrl', () => {
  const blocks = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', props: {}, content: 'From a file' }] };
  const jsonp = `waymark.receiveDomStructureJson(${JSON.stringify(blocks)});`;
  const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

  async function firstCandidate(stepFields: Record<string, unknown>, files: Record<string, string>) {
    const transport = createFakeTransport();
    const tour = guide('tour', { steps: [{ id: 'tour-1', guideId: 'tour', type: 'lightbox', ...stepFields }] });
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(load([tour])) });
    for (const [match, body] of Object.entries(files)) transport.bodies.push({ match, body });
    const logs: string[] = [];
    const engine = createGuideEngine({ config: engineInit(PROBED), ports: { clock: createFakeClock(), transport }, log: (_l, m) => logs.push(m), nextSequence: () => 0, isSending: () => true });
    const result = await engine.load('http://h/');
    return { candidate: result.ok ? result.value.candidates[0] : undefined, skipped: result.ok ? result.value.skipped : [], logs };
  }

  it('reads the argument of a dom.jsonp file (never runs it), checked against domJsonpHash', async () => {
    const { candidate } = await firstCandidate({ domJsonpUrl: '/c/tour-1.dom.jsonp', hashes: { domJsonpHash: sha(jsonp) } }, { '/c/tour-1.dom.jsonp': jsonp });
    expect(candidate?.content).toEqual(blocks);
    const bad = await firstCandidate({ domJsonpUrl: '/c/tour-1.dom.jsonp', hashes: { domJsonpHash: sha('other') } }, { '/c/tour-1.dom.jsonp': jsonp });
    expect(bad.candidate).toBeUndefined();
    const notCall = await firstCandidate({ domJsonpUrl: '/c/tour-1.dom.jsonp' }, { '/c/tour-1.dom.jsonp': 'alert(1' });
    expect(notCall.candidate).toBeUndefined();
  });

  it('loads buildingBlocks.json when the step has no domJson nor domUrl', async () => {
    const { candidate } = await firstCandidate({ buildingBlocksUrl: '/c/tour-1.buildingBlocks.json' }, { '/c/tour-1.buildingBlocks.json': JSON.stringify(blocks) });
    expect(candidate?.content).toEqual(blocks);
  });
});
