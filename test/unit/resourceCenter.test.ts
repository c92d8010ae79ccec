import { describe, expect, it } from 'vitest';
import { blockText, chooseResourceCenter, isResourceCenterGuide, progressPercent } from '../../shared/surfaces/chooseResourceCenter';
import { ANNOUNCEMENT_SEEN_CHECK_MS, MODULE_SLIDE_MS, RESOURCE_CENTER_DEFAULTS, SEARCH_ANNOUNCE_DEBOUNCE_MS } from '../../shared/constants';
import type { DomNode, Guide, GuideLoadResponse, GuideStep, SeenState } from '../../shared/guides/guides';
import { MESSAGES } from '../../shared/messages';
import type { WorkerInit } from '../../shared/protocol';
import { isAnnouncementInView, mirroredCorner, resultsLabel, searchResourceCenter } from '../../shared/surfaces/resourceCenterPanel';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

const T = Date.UTC(2026, 10, 22, 15, 30);
const URL_ = 'https://app.example/reports';
const facts = { url: URL_, device: 'desktop' as const, now: T };

const text = (content: string): DomNode => ({ type: 'div', props: {}, children: [{ type: 'h2', props: {}, content }] });
const step = (id: string, extra: Partial<GuideStep> = {}): GuideStep => ({ id, guideId: id.split('#')[0]!, type: 'lightbox', domJson: text(`Body of ${id}`), ...extra });
const guide = (id: string, extra: Partial<Guide> = {}): Guide => ({ id, name: `Guide ${id}`, launchMethod: 'api', steps: [step(`${id}-1`)], ...extra });
const rc = (children: unknown, extra: Record<string, unknown> = {}): Guide =>
  guide('rc', { name: 'Help', launchMethod: 'badge', attributes: { resourceCenter: { isTopLevel: true, children, ...extra } } });
const mod = (id: string, moduleId: string, extra: Record<string, unknown> = {}, guideExtra: Partial<Guide> = {}): Guide =>
  guide(id, { name: `Module ${id}`, attributes: { resourceCenter: { isModule: true, moduleId, ...extra } }, ...guideExtra });
const states = (id: string, ...s: Array<SeenState | undefined>) => s.map((seenState, i) => step(`${id}-${i + 1}`, seenState ? { seenState } : {}));
const response = (guides: Guide[]): GuideLoadResponse => ({ guides, lastGuideStepSeen: {} });

describe('guides §8, §9 Resource center: the message and constants as the spec words them', () => {
  it('spells the module failure and the numbers exactly', () => {
    expect(MESSAGES.resourceCenterModulesFailed).toBe('Failed to load one or more Resource Center modules');
    expect(RESOURCE_CENTER_DEFAULTS).toEqual({ bubbleHeight: 26, badgeSize: 13, pulseMs: 2000, heightMargin: 10 });
    expect(SEARCH_ANNOUNCE_DEBOUNCE_MS).toBe(300);
    expect(ANNOUNCEMENT_SEEN_CHECK_MS).toBe(500);
    expect(MODULE_SLIDE_MS).toBe(200);
  });
});

describe('guides §2, §3, §4 Resource center: chooseResourceCenter', () => {
  const all = [
    rc(['m-list', 'm-onb', 'm-news']),
    mod('m-list', 'guideList', { children: ['a', 'b', 'elsewhere'] }),
    mod('m-onb', 'onboarding', { children: ['o'] }),
    mod('m-news', 'announcements', { children: ['n1', 'n2'] }),
    guide('a'),
    guide('b'),
    guide('elsewhere', { steps: [step('elsewhere-1', { regexUrlRule: '/settings$' })] }),
    guide('o', { steps: states('o', 'advanced', 'dismissed', undefined) }),
    guide('n1', { steps: [step('n1-1', { type: 'whatsnew', seenState: 'advanced' })] }),
    guide('n2', { steps: [step('n2-1', { type: 'whatsnew' })] }),
  ];

  it('the top-level guide with its modules in children order, each listing what is eligible here', () => {
    const choice = chooseResourceCenter(response(all), facts);
    expect(choice.moduleProblem).toBeUndefined();
    expect(choice.resourceCenter).toMatchObject({ guideId: 'rc', stepId: 'rc-1', title: 'Help', position: 'bottom-right', badge: true, unseenCount: 1 });
    expect(choice.resourceCenter!.modules.map((m) => [m.guideId, m.kind, m.items.map((i) => i.guideId)])).toEqual([
      ['m-list', 'guideList', ['a', 'b']],
      ['m-onb', 'onboarding', ['o']],
      ['m-news', 'announcements', ['n1', 'n2']],
    ]);
    expect(choice.skipped).toContainEqual({ guideId: 'elsewhere', reason: expect.stringContaining('resource center module m-list: regexUrlRule') });
  });

  it('onboarding: seen steps (advanced or dismissed) over all steps, rounded down to a whole number', () => {
    const onb = chooseResourceCenter(response(all), facts).resourceCenter!.modules[1]!;
    expect(onb.percent).toBe(66);
    expect(progressPercent([{ seenSteps: 1, totalSteps: 3 }])).toBe(33);
    expect(progressPercent([{ seenSteps: 3, totalSteps: 3 }])).toBe(100);
    expect(progressPercent([])).toBe(0);
  });

  it('announcements: unseen are those whose step is neither advanced nor dismissed; the badge count sums them', () => {
    const news = chooseResourceCenter(response(all), facts).resourceCenter!.modules[2]!;
    expect(news.unseen).toBe(1);
    const allSeen = all.map((g) => (g.id === 'n2' ? { ...g, steps: [{ ...g.steps[0]!, seenState: 'advanced' as const }] } : g));
    expect(chooseResourceCenter(response(allSeen), facts).resourceCenter!.unseenCount).toBe(0);
  });

  it("a child that is missing, not a module, or of an unknown kind: 'Failed to load one or more Resource Center modules' skips it", () => {
    for (const [children, extra] of [
      [['m-list', 'missing'], []],
      [['a'], []],
      [['m-bad'], [mod('m-bad', 'carousel')]],
      [['m-int'], [mod('m-int', 'integration', { integrationProvider: 'slack' })]],
      [['m-frame'], [mod('m-frame', 'iframe')]],
    ] as Array<[string[], Guide[]]>) {
      const choice = chooseResourceCenter(response([rc(children), ...all.slice(1), ...extra]), facts);
      expect(choice.resourceCenter, children.join()).toBeNull();
      expect(choice.moduleProblem, children.join()).toBeTruthy();
    }
    expect(chooseResourceCenter(response([rc(['missing'])]), facts).moduleProblem).toBe('module missing is not a loaded guide');
  });

  it('nothing eligible on the page: no resource center (the badge is hidden), and why', () => {
    const choice = chooseResourceCenter(response([rc(['m-list']), mod('m-list', 'guideList', { children: ['elsewhere'] }), all[6]!]), facts);
    expect(choice.resourceCenter).toBeNull();
    expect(choice.moduleProblem).toBeUndefined();
    expect(choice.skipped.at(-1)).toEqual({ guideId: 'rc', reason: 'resource center: nothing eligible on this page' });
    // The top-level guide's own page rule.
    const away = { ...rc(['m-list']), steps: [step('rc-1', { regexUrlRule: '/nowhere$' })] };
    expect(chooseResourceCenter(response([away, ...all.slice(1)]), facts).resourceCenter).toBeNull();
  });

  it('iframe, sandbox, custom and integration modules; a position; launch method without badge', () => {
    const guides = [
      rc(['f', 's', 'c', 'z'], { position: 'top-left' }),
      mod('f', 'iframe', {}, { steps: [step('f-1', { contentUrl: 'https://help.example/' })] }),
      mod('s', 'sandbox'),
      mod('c', 'custom'),
      mod('z', 'integration', { integrationProvider: 'Zendesk', integrationName: 'messaging' }),
    ];
    guides[0] = { ...guides[0]!, launchMethod: 'api' };
    const center = chooseResourceCenter(response(guides), facts).resourceCenter!;
    expect(center).toMatchObject({ position: 'top-left', badge: false });
    expect(center.modules).toMatchObject([
      { kind: 'iframe', contentUrl: 'https://help.example/' },
      { kind: 'sandbox', stepId: 's-1' },
      { kind: 'custom', stepId: 'c-1' },
      { kind: 'integration', integration: { provider: 'zendesk', name: 'messaging' } },
    ]);
  });

  it('launched by dom: the activation (event default click) goes with it; without a selector, or without dom, none', () => {
    const withActivation = (launchMethod: string, activation: unknown) => [
      { ...rc(['m-list']), launchMethod, attributes: { ...rc(['m-list']).attributes, activation } },
      ...all.slice(1),
    ];
    expect(chooseResourceCenter(response(withActivation('dom', { selector: '#help' })), facts).resourceCenter).toMatchObject({ badge: false, activation: { event: 'click', selector: '#help' } });
    expect(chooseResourceCenter(response(withActivation('badge,dom', { event: 'mouseover', selector: '.help' })), facts).resourceCenter).toMatchObject({
      badge: true,
      activation: { event: 'mouseover', selector: '.help' },
    });
    expect(chooseResourceCenter(response(withActivation('dom', { event: 'click' })), facts).resourceCenter!.activation).toBeUndefined();
    expect(chooseResourceCenter(response(withActivation('badge', { selector: '#help' })), facts).resourceCenter!.activation).toBeUndefined();
  });

  it('resource center guides are known as such (they are no badge-launched guides of their own)', () => {
    expect(isResourceCenterGuide(all[0]!)).toBe(true);
    expect(isResourceCenterGuide(all[1]!)).toBe(true);
    expect(isResourceCenterGuide(all[4]!)).toBe(false);
  });
});

describe('guides §2 Resource center search, results count, corners, announcements in view', () => {
  const items = [
    { name: 'Export to CSV', text: 'Download as a spreadsheet' },
    { name: 'Build a report', text: 'Pick a chart' },
  ];

  it('filters by name at any length; step content only from 3 characters on', () => {
    expect(searchResourceCenter(items, '')).toEqual(items);
    expect(searchResourceCenter(items, ' rep ').map((i) => i.name)).toEqual(['Build a report']);
    expect(searchResourceCenter(items, 'spreadsheet').map((i) => i.name)).toEqual(['Export to CSV']);
    // 'ch' is in "Pick a chart" but shorter than 3 characters: content is not searched.
    expect(searchResourceCenter(items, 'ch')).toEqual([]);
    expect(searchResourceCenter(items, 'cha').map((i) => i.name)).toEqual(['Build a report']);
  });

  it('announces results with a singular and a plural label', () => {
    expect(resultsLabel(0)).toBe('0 results');
    expect(resultsLabel(1)).toBe('1 result');
    expect(resultsLabel(2)).toBe('2 results');
  });

  it('mirrors the badge corner for right-to-left languages', () => {
    expect(mirroredCorner('bottom-right', false)).toBe('bottom-right');
    expect(mirroredCorner('bottom-right', true)).toBe('bottom-left');
    expect(mirroredCorner('top-left', true)).toBe('top-right');
  });

  it('an announcement is in view once its top third is inside the visible list', () => {
    const view = { top: 100, bottom: 400 };
    expect(isAnnouncementInView({ top: 120, bottom: 220 }, view)).toBe(true);
    expect(isAnnouncementInView({ top: 360, bottom: 480 }, view)).toBe(true);
    expect(isAnnouncementInView({ top: 380, bottom: 500 }, view)).toBe(false);
    expect(isAnnouncementInView({ top: 50, bottom: 150 }, view)).toBe(false);
  });

  it('the plain text of building blocks', () => {
    expect(blockText({ type: 'div', children: [{ type: 'h2', content: 'Title' }, { type: 'p', content: ' Body ' }] })).toBe('Title Body');
    expect(blockText(undefined)).toBe('');
  });
});

describe('guides §2, §8 Resource center in the guide engine', () => {
  const init: WorkerInit = engineInit(PROBED);
  async function engineWith(guides: Guide[]) {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ id: '1', guides, lastGuideStepSeen: {} }) });
    const logs: string[] = [];
    const engine = createGuideEngine({ config: init, ports: { clock: createFakeClock(), transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    const loaded = await engine.load('http://127.0.0.1:9/reports');
    if (!loaded.ok) throw new Error(loaded.error.message);
    return { engine, result: loaded.value, logs };
  }

  it('hands the shim the announcements with their content and searchable text; an announcement advanced lowers the count', async () => {
    const { engine, result } = await engineWith([
      rc(['m-news', 'm-frame']),
      mod('m-news', 'announcements', { children: ['n1'] }),
      mod('m-frame', 'iframe', {}, { steps: [step('m-frame-1', { contentUrl: 'http://127.0.0.1:9/help.html' })] }),
      guide('n1', { steps: [step('n1-1', { type: 'whatsnew', domJson: text('New: CSV exports') })] }),
    ]);
    expect(result.resourceCenter?.unseenCount).toBe(1);
    expect(result.resourceCenter?.modules[0]!.items[0]).toMatchObject({ guideId: 'n1', stepId: 'n1-1', text: 'New: CSV exports', content: text('New: CSV exports') });
    expect(result.resourceCenter?.modules[1]!.iframeSrc).toBe('http://127.0.0.1:9/help.html');
    // Resource center guides are not badge-launched guides of the page.
    expect(result.badges).toEqual([]);
    const advanced = await engine.stepAction({ guideId: 'n1', stepId: 'n1-1', action: 'advance', url: 'http://127.0.0.1:9/reports' });
    expect(advanced.ok).toBe(true);
    expect((await engine.resourceCenterView())?.unseenCount).toBe(0);
  });

  it('the top-level guide\'s own content, checked as any step\'s, is the home view\'s introduction', async () => {
    const { result } = await engineWith([{ ...rc(['m-list']), steps: [step('rc-1', { domJson: text('Answers in one place') })] }, mod('m-list', 'guideList', { children: ['a'] }), guide('a')]);
    expect(result.resourceCenter).toMatchObject({ badge: true, intro: text('Answers in one place') });
  });

  it('guides §4 content validation failing falls back to api launch: no badge, no activation, no introduction, said once', async () => {
    // An illegal building-block key fails the content check ('illegal building block key ...').
    const bad: DomNode = { type: 'div', props: { onclick: 'steal()' }, children: [] };
    const top = { ...rc(['m-list']), launchMethod: 'badge,dom', attributes: { ...rc(['m-list']).attributes, activation: { selector: '#help' } }, steps: [step('rc-1', { domJson: bad })] };
    const { engine, result, logs } = await engineWith([top, mod('m-list', 'guideList', { children: ['a'] }), guide('a')]);
    expect(result.resourceCenter).toMatchObject({ guideId: 'rc', badge: false, modules: [{ guideId: 'm-list' }] });
    expect(result.resourceCenter!.activation).toBeUndefined();
    expect(result.resourceCenter!.intro).toBeUndefined();
    expect(logs.some((l) => l.startsWith('illegal building block key onclick found on guide rc step rc-1'))).toBe(true);
    expect(logs.filter((l) => l.startsWith('resource center rc: its content failed validation') && l.endsWith('it opens by API only'))).toHaveLength(1);
    // Judged again after the visitor's actions: still api only, and not said again.
    expect(await engine.resourceCenterView()).toMatchObject({ badge: false });
    expect(logs.filter((l) => l.startsWith('resource center rc: its content failed validation'))).toHaveLength(1);
  });

  it("an iframe module from an origin that is not allowed fails the modules: logged, no resource center", async () => {
    const { result, logs } = await engineWith([
      rc(['m-frame']),
      mod('m-frame', 'iframe', {}, { steps: [step('m-frame-1', { contentUrl: 'https://evil.example/' })] }),
    ]);
    expect(result.resourceCenter).toBeUndefined();
    expect(logs.some((l) => l.startsWith(`${MESSAGES.resourceCenterModulesFailed}: iframe module m-frame`))).toBe(true);
  });
});
