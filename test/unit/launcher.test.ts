import { describe, expect, it } from 'vitest';
import { chooseLauncher, isLauncherGuide, onboardingPercent, readLauncherConfig, whatsnewUnseenCount } from '../../shared/surfaces/chooseLauncher';
import { LAUNCHER_CLOSED_MS, LAUNCHER_DEFAULTS, LAUNCHER_SEARCH_PLACEHOLDER, LAUNCHER_STOP_TUTORIAL } from '../../shared/constants';
import type { Guide, GuideLoadResponse, GuideStep, SeenState } from '../../shared/guides/guides';
import {
  filterLauncherGuides,
  isLauncherClosed,
  launcherClosedKey,
  launcherClosedRecord,
  launcherPanelSize,
  needsStopTutorialConfirm,
  shouldAutoOpenLauncher,
} from '../../shared/surfaces/launcherPanel';
import { MESSAGES } from '../../shared/messages';
import type { LauncherEntry, WorkerInit } from '../../shared/protocol';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

/** 2026-11-22 15:30:00.000 UTC. */
const T = Date.UTC(2026, 10, 22, 15, 30);
const URL_ = 'https://app.example/reports';

const step = (id: string, extra: Partial<GuideStep> = {}): GuideStep => ({ id, guideId: 'g', type: 'lightbox', ...extra });
const guide = (id: string, extra: Partial<Guide> = {}): Guide => ({ id, name: `Guide ${id}`, launchMethod: 'launcher', steps: [step(`${id}-1`)], ...extra });
const seen = (...states: Array<SeenState | undefined>) => states.map((seenState, i) => step(`s${i}`, seenState ? { seenState } : {}));
const response = (guides: Guide[], launcher: unknown = { enabled: true, data: {} }): GuideLoadResponse => ({ guides, lastGuideStepSeen: {}, launcher });
const facts = { url: URL_, device: 'desktop' as const, lastGuideStepSeen: {}, schedule: { now: T } };

describe('guides §2 Launcher: the messages and constants as the spec words them', () => {
  it('spells the placeholder, the confirm, the critical errors and the sizes exactly', () => {
    expect(LAUNCHER_SEARCH_PLACEHOLDER).toBe('Type here to start looking...');
    expect(LAUNCHER_STOP_TUTORIAL).toBe('Are you sure you want to stop this tutorial?');
    expect(MESSAGES.launcherBadgeImageFailed).toBe('ERROR in when attempting to render guide center badge image');
    expect(MESSAGES.launcherInitFailed).toBe('ERROR while initializing launcher');
    expect(LAUNCHER_DEFAULTS).toEqual({ width: 330, height: 310, searchHeight: 39, creditHeight: 40 });
    expect(LAUNCHER_CLOSED_MS).toBe(28_800_000);
  });
});

describe('guides §3 Launcher config', () => {
  it('no config, or enabled false: no launcher and no problem', () => {
    expect(readLauncherConfig(undefined)).toBeNull();
    expect(readLauncherConfig(null)).toBeNull();
    expect(readLauncherConfig({ enabled: false, data: { position: 'nowhere' } })).toBeNull();
    expect(readLauncherConfig({ data: {} })).toBeNull();
  });

  it('fills the defaults: badge at bottom-right, 330 x 310, no search, credit shown', () => {
    expect(readLauncherConfig({ enabled: true })).toEqual({
      settings: {
        launchType: 'badge',
        position: 'bottom-right',
        enableSearch: false,
        hideCredits: false,
        whatsnew: false,
        onboarding: false,
        autoOpen: false,
        width: 330,
        height: 310,
        iframe: false,
        device: { desktop: undefined, mobile: undefined },
      },
    });
  });

  it('reads every field of the spec list', () => {
    const read = readLauncherConfig({
      enabled: true,
      data: {
        launchType: 'element', elementPathRule: '#help', position: 'top-left', launcherBadgeUrl: 'https://cdn.example/b.png',
        enableSearch: true, whatsnew: true, onboarding: true, autoOpen: true, height: 400, width: 360, device: { desktop: true, mobile: false, iframe: true },
      },
    });
    expect(read).toMatchObject({
      settings: { launchType: 'element', elementPathRule: '#help', position: 'top-left', launcherBadgeUrl: 'https://cdn.example/b.png', enableSearch: true, whatsnew: true, onboarding: true, autoOpen: true, height: 400, width: 360, iframe: true, device: { desktop: true, mobile: false } },
    });
  });

  it.each([
    ['not an object', 'yes', 'launcher must be an object {enabled, data}'],
    ['enabled not a boolean', { enabled: 'yes' }, 'launcher.enabled must be true or false (got "yes")'],
    ['data not an object', { enabled: true, data: [] }, 'launcher.data must be an object'],
    ['a launchType of neither kind', { enabled: true, data: { launchType: 'menu' } }, "launcher.data.launchType must be 'badge' or 'element' (got \"menu\")"],
    ['a position off the list', { enabled: true, data: { position: 'middle' } }, 'launcher.data.position must be one of bottom-right, bottom-left, top-left, top-right (got "middle")'],
    ['element without its selector', { enabled: true, data: { launchType: 'element' } }, 'launcher.data.elementPathRule must be a CSS selector when launchType is element (got undefined)'],
    ['a non-boolean switch', { enabled: true, data: { enableSearch: 'on' } }, 'launcher.data.enableSearch must be true or false (got "on")'],
    ['an autoOpen that is no boolean', { enabled: true, data: { autoOpen: 'yes' } }, 'launcher.data.autoOpen must be true or false (got "yes")'],
    ['a size that is no size', { enabled: true, data: { height: -5 } }, 'launcher.data.height must be a positive number of px (got -5)'],
    ['a badge URL that is no string', { enabled: true, data: { launcherBadgeUrl: 3 } }, 'launcher.data.launcherBadgeUrl must be a URL string (got 3)'],
    ['a device flag that is no boolean', { enabled: true, data: { device: { mobile: 1 } } }, 'launcher.data.device.mobile must be true or false (got 1)'],
  ])('a malformed config (%s) is a problem, never a throw', (_name, raw, problem) => {
    expect(readLauncherConfig(raw)).toEqual({ problem });
    expect(chooseLauncher(response([], raw), { url: URL_, device: 'desktop', now: T })).toEqual({ launcher: null, problem, skipped: [] });
  });

  it('a launcher not for this device is not shown, with why', () => {
    const choice = chooseLauncher(response([], { enabled: true, data: { device: { desktop: true, mobile: false } } }), { url: URL_, device: 'mobile', now: T });
    expect(choice.launcher).toBeNull();
    expect(choice.problem).toBeUndefined();
    expect(choice.skipped).toEqual([{ guideId: '(launcher)', reason: 'device: launcher is not for mobile' }]);
  });
});

describe('guides §2 Launcher: which guides it lists', () => {
  it('lists guides whose launch method includes launcher, alone or combined', () => {
    expect(isLauncherGuide(guide('a'), facts)).toEqual({ pass: true, reason: 'ok' });
    expect(isLauncherGuide(guide('b', { launchMethod: 'api,launcher' }), facts).pass).toBe(true);
    expect(isLauncherGuide(guide('c', { launchMethod: 'auto-launcher' }), facts).pass).toBe(true);
    expect(isLauncherGuide(guide('d', { launchMethod: 'auto' }), facts)).toEqual({ pass: false, reason: "launchMethod: launchMethod 'auto' has no launcher" });
  });

  it('refuses, with the rule that refused: no steps, the page rule, the device, the timebox, the control group', () => {
    expect(isLauncherGuide(guide('e', { steps: [] }), facts).reason).toBe('firstStep: guide has no steps');
    expect(isLauncherGuide(guide('f', { steps: [step('f1', { regexUrlRule: '/settings$' })] }), facts).reason).toBe(`regexUrlRule: page ${URL_} does not match /settings$`);
    expect(isLauncherGuide(guide('g', { attributes: { device: { desktop: false, mobile: true } } }), facts).reason).toBe('device: guide is not for desktop');
    expect(isLauncherGuide(guide('h', { expiresAfter: T - 1 }), facts).reason).toMatch(/^timebox: outside timebox/);
    expect(isLauncherGuide(guide('i', { control: true }), facts).reason).toBe(`controlGroup: ${MESSAGES.controlGroup}`);
    expect(isLauncherGuide(guide('j', { steps: [step('j1', { pageId: 'p' })] }), facts).reason).toBe('pageIdNeedsRegexUrlRule: step j1 has pageId without regexUrlRule');
  });

  it('keeps guides the visitor already dismissed, completed or snoozed: the visitor asks for them', () => {
    expect(isLauncherGuide(guide('k', { steps: seen('dismissed') }), facts).pass).toBe(true);
    expect(isLauncherGuide(guide('l', { steps: seen('advanced', 'advanced') }), facts).pass).toBe(true);
    expect(isLauncherGuide(guide('m', { steps: [step('m1', { seenState: 'snoozed', snoozeEndTime: T + 1000 })] }), facts).pass).toBe(true);
  });

  it('judges on the first step, not the step the guide would continue at', () => {
    const g = guide('n', { steps: [step('n1', { regexUrlRule: '/reports$', seenState: 'advanced' }), step('n2', { regexUrlRule: '/settings$' })] });
    expect(isLauncherGuide(g, facts).pass).toBe(true);
  });

  it('a launcher with no guide to list on this page is not shown, with why', () => {
    const choice = chooseLauncher(response([guide('a', { launchMethod: 'auto' }), guide('d', { steps: [step('d1', { regexUrlRule: '/settings$' })] })]), { url: URL_, device: 'desktop', now: T });
    expect(choice.launcher).toBeNull();
    expect(choice.problem).toBeUndefined();
    expect(choice.skipped).toEqual([
      { guideId: 'd', reason: `launcher: regexUrlRule: page ${URL_} does not match /settings$` },
      { guideId: '(launcher)', reason: 'launcher: no guide to list on this page' },
    ]);
  });

  it('chooseLauncher lists names and completion in payload order and says why the others are not listed', () => {
    const choice = chooseLauncher(
      response([
        guide('a'),
        guide('b', { launchMethod: 'auto' }),
        guide('c', { name: undefined, steps: seen('advanced') }),
        guide('d', { steps: [step('d1', { regexUrlRule: '/settings$' })] }),
      ]),
      { url: URL_, device: 'desktop', now: T },
    );
    expect(choice.launcher?.guides).toEqual([
      { guideId: 'a', name: 'Guide a', isOnboarding: false, complete: false },
      { guideId: 'c', name: 'c', isOnboarding: false, complete: true },
    ]);
    // Guides that never meant to be in the launcher are not reported as skipped from it.
    expect(choice.skipped).toEqual([{ guideId: 'd', reason: `launcher: regexUrlRule: page ${URL_} does not match /settings$` }]);
    expect(choice.launcher).toMatchObject({ launchType: 'badge', position: 'bottom-right', width: 330, height: 310 });
    expect(choice.launcher?.onboarding).toBeUndefined();
    expect(choice.launcher?.whatsnewUnseen).toBeUndefined();
  });
});

describe('guides §2 Launcher: onboarding progress (seen steps over total steps, a whole number)', () => {
  const onboarding = (steps: GuideStep[]) => guide('o', { attributes: { isOnboarding: true }, steps });

  it('counts advanced and dismissed steps of onboarding guides only, rounded down', () => {
    expect(onboardingPercent([onboarding(seen(undefined, undefined, undefined))])).toBe(0);
    expect(onboardingPercent([onboarding(seen('advanced', undefined, undefined))])).toBe(33);
    expect(onboardingPercent([onboarding(seen('advanced', 'dismissed', undefined))])).toBe(66);
    expect(onboardingPercent([onboarding(seen('advanced', 'active', 'snoozed'))])).toBe(33);
    expect(onboardingPercent([onboarding(seen('advanced', 'advanced', 'advanced'))])).toBe(100);
    // 199 of 200 is not done: it stays under 100.
    expect(onboardingPercent([onboarding([...seen(...Array<SeenState>(199).fill('advanced')), step('last')])])).toBe(99);
    // Two onboarding guides count together; a guide that is not onboarding does not count.
    expect(onboardingPercent([onboarding(seen('advanced')), onboarding(seen(undefined, undefined, undefined)), guide('x', { steps: seen(undefined) })])).toBe(25);
  });

  it('is null without onboarding steps', () => {
    expect(onboardingPercent([])).toBeNull();
    expect(onboardingPercent([guide('x')])).toBeNull();
    expect(onboardingPercent([onboarding([])])).toBeNull();
  });

  it('rides on the launcher only when data.onboarding is on and onboarding guides are listed', () => {
    const guides = [onboarding(seen('advanced', undefined)), guide('w', { steps: [step('w1', { type: 'whatsnew' }), step('w2', { type: 'whatsnew', seenState: 'advanced' })] })];
    const on = chooseLauncher(response(guides, { enabled: true, data: { onboarding: true, whatsnew: true } }), { url: URL_, device: 'desktop', now: T });
    expect(on.launcher?.onboarding).toEqual({ percent: 50 });
    expect(on.launcher?.whatsnewUnseen).toBe(1);
    const off = chooseLauncher(response(guides), { url: URL_, device: 'desktop', now: T });
    expect(off.launcher?.onboarding).toBeUndefined();
    expect(off.launcher?.whatsnewUnseen).toBeUndefined();
  });

  it("what's-new unseen: whatsnew steps with no seen state", () => {
    expect(whatsnewUnseenCount([guide('a', { steps: [step('1', { type: 'whatsnew' }), step('2', { type: 'whatsnew', seenState: 'none' }), step('3', { type: 'whatsnew', seenState: 'active' }), step('4')] })])).toEqual({ steps: 3, unseen: 2 });
  });
});

describe('guides §2 Launcher: the panel size', () => {
  const size = (enableSearch: boolean, hideCredits: boolean, width = 330, height = 310) => launcherPanelSize({ width, height, enableSearch, hideCredits });

  it('is 330 x 310, +39 high with search, +40 with the credit line', () => {
    expect(size(false, true)).toEqual({ width: 330, height: 310 });
    expect(size(true, true)).toEqual({ width: 330, height: 349 });
    expect(size(false, false)).toEqual({ width: 330, height: 350 });
    expect(size(true, false)).toEqual({ width: 330, height: 389 });
  });

  it('adds the same to a configured size', () => {
    expect(size(true, false, 400, 500)).toEqual({ width: 400, height: 579 });
  });
});

describe('guides §2 Launcher: the search box', () => {
  const entries: LauncherEntry[] = ['Getting started', 'Create a report', 'Export to CSV'].map((name, i) => ({ guideId: `g${i}`, name, isOnboarding: false, complete: false }));

  it('keeps the guides whose name contains the text, ignoring case and surrounding spaces', () => {
    expect(filterLauncherGuides(entries, 'RE').map((g) => g.name)).toEqual(['Create a report']);
    expect(filterLauncherGuides(entries, '  csv ').map((g) => g.name)).toEqual(['Export to CSV']);
    expect(filterLauncherGuides(entries, 't').map((g) => g.name)).toEqual(['Getting started', 'Create a report', 'Export to CSV']);
    expect(filterLauncherGuides(entries, 'nothing like it')).toEqual([]);
    expect(filterLauncherGuides(entries, '   ')).toEqual(entries);
  });
});

describe('guides §2 Launcher: the launcher-closed flag (8 hours)', () => {
  it('is keyed per api key and visitor', () => {
    expect(launcherClosedKey('key-1', 'visitor-1')).toBe('_wm_launcher-closed.key-1.visitor-1');
    expect(launcherClosedKey('key-1', 'visitor-2')).not.toBe(launcherClosedKey('key-1', 'visitor-1'));
  });

  it('holds for 8 hours after closing, to the millisecond', () => {
    const stored = launcherClosedRecord(T);
    expect(JSON.parse(stored)).toEqual({ closed: true, until: T + 28_800_000 });
    expect(isLauncherClosed(stored, T)).toBe(true);
    expect(isLauncherClosed(stored, T + LAUNCHER_CLOSED_MS - 1)).toBe(true);
    expect(isLauncherClosed(stored, T + LAUNCHER_CLOSED_MS)).toBe(false);
    expect(isLauncherClosed(stored, T + 10 * LAUNCHER_CLOSED_MS)).toBe(false);
  });

  it('an absent or unreadable flag does not hold', () => {
    expect(isLauncherClosed(null, T)).toBe(false);
    expect(isLauncherClosed('', T)).toBe(false);
    expect(isLauncherClosed('{not json', T)).toBe(false);
    expect(isLauncherClosed('{"closed":true}', T)).toBe(false);
    expect(isLauncherClosed('{"closed":"yes","until":99999999999999}', T)).toBe(false);
  });

  it('the panel never opens by itself unless the settings say so (autoOpen, off unless set): a new visitor with a tutorial under way included', () => {
    expect(shouldAutoOpenLauncher({ onboarding: { percent: 0 } }, null, T)).toBe(false);
    expect(shouldAutoOpenLauncher({ autoOpen: false, onboarding: { percent: 40 } }, null, T)).toBe(false);
    expect(shouldAutoOpenLauncher({}, null, T)).toBe(false);
  });

  it('with autoOpen it opens by itself unless the closed flag holds, and not for a finished tutorial; closing a tutorial asks first', () => {
    const underway = { autoOpen: true, onboarding: { percent: 40 } };
    expect(shouldAutoOpenLauncher(underway, null, T)).toBe(true);
    expect(shouldAutoOpenLauncher(underway, launcherClosedRecord(T - 1000), T)).toBe(false);
    expect(shouldAutoOpenLauncher(underway, launcherClosedRecord(T - LAUNCHER_CLOSED_MS), T)).toBe(true);
    expect(shouldAutoOpenLauncher({ autoOpen: true, onboarding: { percent: 100 } }, null, T)).toBe(false);
    expect(shouldAutoOpenLauncher({ autoOpen: true }, null, T)).toBe(true);
    expect(needsStopTutorialConfirm(underway)).toBe(true);
    expect(needsStopTutorialConfirm({ onboarding: { percent: 100 } })).toBe(false);
    expect(needsStopTutorialConfirm({})).toBe(false);
  });
});

describe('guides §2 Launcher in the worker (guide load)', () => {
  const init: WorkerInit = engineInit(PROBED);
  async function loadWith(launcher: unknown, files: Array<{ match: string; body: string; status?: number }> = []) {
    const transport = createFakeTransport();
    transport.bodies.push(...files);
    const domJson = { type: 'div', props: {}, children: [] };
    const body: GuideLoadResponse = {
      id: '1',
      guides: [guide('a', { launchMethod: 'auto,launcher', steps: [step('a-1', { domJson })] }), guide('b', { launchMethod: 'auto', steps: [step('b-1', { domJson })] })],
      lastGuideStepSeen: {},
      launcher,
    };
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
    const logs: string[] = [];
    const engine = createGuideEngine({ config: init, ports: { clock: createFakeClock(), transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    const result = await engine.load('http://127.0.0.1:9/reports');
    if (!result.ok) throw new Error(result.error.message);
    return { result: result.value, logs };
  }

  it('hands the shim the launcher with its guides and the closed flag key of this api key and visitor', async () => {
    const { result } = await loadWith({ enabled: true, data: { launcherBadgeUrl: 'http://127.0.0.1:9/badge.png' } });
    expect(result.launcher).toMatchObject({ closedFlagKey: '_wm_launcher-closed.k.v', badgeImageUrl: 'http://127.0.0.1:9/badge.png', guides: [{ guideId: 'a', name: 'Guide a' }] });
    expect(result.launcherError).toBeUndefined();
  });

  it('a badge image from an origin that is not allowed is dropped with a warning: the badge shows its mark', async () => {
    const { result, logs } = await loadWith({ enabled: true, data: { launcherBadgeUrl: 'https://elsewhere.example/badge.png' } });
    expect(result.launcher).toBeDefined();
    expect(result.launcher?.badgeImageUrl).toBeUndefined();
    expect(logs.some((l) => l.startsWith('launcher badge image: '))).toBe(true);
  });

  it('guides §2 custom content, CSS and JS by URL: content checked like a step\'s, the sheet\'s text, the script\'s checked URL', async () => {
    const content = { type: 'div', props: { id: 'custom' }, children: [{ type: 'p', props: {}, content: 'Help desk hours: 9-5' }, { type: 'script', props: {}, children: [] }] };
    const { result } = await loadWith(
      { enabled: true, data: { contentUrl: '/c/launcher.json', contentUrlCss: '/c/launcher.css', contentUrlJs: '/c/launcher.js' } },
      [
        { match: '/c/launcher.json', body: JSON.stringify(content) },
        { match: '/c/launcher.css', body: '#custom { color: red; }' },
      ],
    );
    expect(result.launcher?.content).toMatchObject({ type: 'div', props: { id: 'custom' } });
    // A script node never survives the building-block check.
    expect(JSON.stringify(result.launcher?.content)).not.toContain('"type":"script"');
    expect(result.launcher?.css).toBe('#custom { color: red; }');
    expect(result.launcher?.scriptUrl).toBe('http://127.0.0.1:9/c/launcher.js');
  });

  it('custom content that is not building blocks, and a script from an origin not allowed, are left out; the launcher still shows', async () => {
    const { result, logs } = await loadWith(
      { enabled: true, data: { contentUrl: '/c/bad.json', contentUrlJs: 'https://elsewhere.example/x.js' } },
      [{ match: '/c/bad.json', body: JSON.stringify({ hello: 'world' }) }],
    );
    expect(result.launcher).toBeDefined();
    expect(result.launcher?.content).toBeUndefined();
    expect(result.launcher?.scriptUrl).toBeUndefined();
    expect(logs.some((l) => l.startsWith('launcher content /c/bad.json left out: '))).toBe(true);
    expect(logs.some((l) => l.startsWith(`${MESSAGES.scriptLoadFailed}: `))).toBe(true);
    expect(readLauncherConfig({ enabled: true, data: { contentUrlCss: 7 } })).toEqual({ problem: 'launcher.data.contentUrlCss must be a URL string (got 7)' });
  });

  it('a malformed config: no launcher, and why, for the shim to log as ERROR while initializing launcher; the guides still load', async () => {
    const { result } = await loadWith({ enabled: true, data: { launchType: 'menu' } });
    expect(result.launcher).toBeUndefined();
    expect(result.launcherError).toBe("launcher.data.launchType must be 'badge' or 'element' (got \"menu\")");
    expect(result.candidates.map((c) => c.guideId)).toEqual(['a', 'b']);
  });

  it('launcherView judges the launcher again on the guides as they stand: an advanced step moves the onboarding progress', async () => {
    const transport = createFakeTransport();
    const domJson = { type: 'div', props: {}, children: [] };
    const onboarding = guide('o', { isMultiStep: true, attributes: { isOnboarding: true }, steps: [step('o-1', { domJson }), step('o-2', { domJson })] });
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ id: '1', guides: [onboarding], lastGuideStepSeen: {}, launcher: { enabled: true, data: { onboarding: true } } }) });
    const engine = createGuideEngine({ config: init, ports: { clock: createFakeClock(), transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true });
    expect(await engine.launcherView()).toBeNull();
    const loaded = await engine.load('http://127.0.0.1:9/');
    expect(loaded.ok && loaded.value.launcher?.onboarding).toEqual({ percent: 0 });
    const at = { guideId: 'o', stepId: 'o-1', url: 'http://127.0.0.1:9/' };
    await engine.stepAction({ ...at, action: 'seen', reason: 'launcher' });
    expect((await engine.launcherView())?.onboarding).toEqual({ percent: 0 });
    await engine.stepAction({ ...at, action: 'advance' });
    expect((await engine.launcherView())?.onboarding).toEqual({ percent: 50 });
    expect((await engine.launcherView())?.guides[0]).toMatchObject({ guideId: 'o', complete: false });
  });

  it('no config: no launcher and no error', async () => {
    const { result } = await loadWith(undefined);
    expect(result.launcher).toBeUndefined();
    expect(result.launcherError).toBeUndefined();
  });
});
