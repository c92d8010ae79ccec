/**
 * Issue #15: the designer token and shortcuts (guides §2, §5, §6), the preview record (guides §3, §5) and the
 * worker's preview mode (guides §6 "guide requests ignore the guide or use the preview endpoint").
 */
import { describe, expect, it } from 'vitest';
import type { Guide } from '../../shared/guides/guides';
import { encodeDesignerToken, readDesignerToken, shortcutFlow } from '../../shared/authoring/designerLaunch';
import { checkPreviewRecord } from '../../shared/authoring/previewRecord';
import { MESSAGES } from '../../shared/messages';
import { restartPreviewAt } from '../../shared/guides/restartPreviewAt';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

const defaults = { serverUrl: 'http://127.0.0.1:8080/console/', crossOriginIsolated: false };

describe('guides §5 designer token', () => {
  it('reads base64url JSON with the server as base URL and host, in-app-designer and latest by default', () => {
    expect(readDesignerToken('e30', defaults)).toEqual({
      token: { baseUrl: 'http://127.0.0.1:8080', host: '127.0.0.1:8080', bucket: 'in-app-designer', target: 'latest' },
      logs: [],
    });
  });

  it('strict is the default target under cross-origin isolation', () => {
    expect(readDesignerToken('e30', { ...defaults, crossOriginIsolated: true }).token?.target).toBe('strict');
  });

  it('keeps a valid host, bucket, target (named or a semantic version) and the flags', () => {
    const raw = encodeDesignerToken({ host: 'designer.example.com:8443', bucket: 'adopt-studio', target: '2.14.1-rc.2', sidebar: true, allowChildFrame: true, guideId: 'g' });
    expect(readDesignerToken(raw, defaults)).toEqual({
      token: { baseUrl: 'http://127.0.0.1:8080', host: 'designer.example.com:8443', bucket: 'adopt-studio', target: '2.14.1-rc.2', sidebar: true, allowChildFrame: true, guideId: 'g' },
      logs: [],
    });
    for (const target of ['latest', 'strict', 'beta', 'via', 'mobile']) {
      expect(readDesignerToken(encodeDesignerToken({ target }), defaults).token?.target).toBe(target);
    }
  });

  it('an invalid host, bucket, target or base URL falls back, each with a log line', () => {
    const raw = encodeDesignerToken({ host: 'bad host/', bucket: 'nope', target: '2.1', baseUrl: 'javascript:alert(1)' } as never);
    const read = readDesignerToken(raw, defaults);
    expect(read.token).toMatchObject({ host: '127.0.0.1:8080', bucket: 'in-app-designer', target: 'latest', baseUrl: 'http://127.0.0.1:8080' });
    expect(read.logs).toEqual([
      'invalid designer host "bad host/", using 127.0.0.1:8080',
      'invalid designer bucket "nope", using in-app-designer',
      'invalid designer target "2.1", using latest',
      'invalid designer base URL "javascript:alert(1)", using http://127.0.0.1:8080',
    ]);
  });

  it('keeps a designer session handed over by the console; one that does not look like one is dropped with a log line', () => {
    const session = `wmd_${'a'.repeat(43)}`;
    expect(readDesignerToken(encodeDesignerToken({ session }), defaults).token?.session).toBe(session);
    const bad = readDesignerToken(encodeDesignerToken({ session: 'admin-token-by-mistake' }), defaults);
    expect(bad.token).not.toHaveProperty('session');
    expect(bad.logs).toEqual(['invalid designer session in the token: sign in from the designer instead']);
  });

  it('refuses a token that is not letters, digits and hyphens of base64 JSON', () => {
    for (const raw of ['has space', 'abc+/', btoa('not json'), encodeDesignerToken([] as never)]) {
      expect(readDesignerToken(raw, defaults).token).toBeNull();
    }
  });

  it('Shift+Alt+7 is the launch flow, Shift+Alt+8 the modal flow, by physical key whatever the layout types', () => {
    const keys = { shiftKey: true, altKey: true, ctrlKey: false, metaKey: false };
    expect(shortcutFlow({ ...keys, code: 'Digit7' })).toBe('launch');
    expect(shortcutFlow({ ...keys, code: 'Digit8' })).toBe('modal');
    expect(shortcutFlow({ ...keys, code: 'Digit9' })).toBeNull();
    expect(shortcutFlow({ ...keys, altKey: false, code: 'Digit7' })).toBeNull();
    expect(shortcutFlow({ ...keys, ctrlKey: true, code: 'Digit7' })).toBeNull();
  });

  it("the spec's designer messages", () => {
    expect(MESSAGES.designerDisabled).toBe('Unable to launch the Visual Design Studio, set to disabled in configuration.');
    expect(MESSAGES.designerChildFrame).toBe('skipping designer launch from a child frame. pass `allowChildFrame: true` to override');
    expect(MESSAGES.designerModalText).toBe("Thanks for letting us know you're here. We're ready to try this again. Launch Designer below to begin.");
  });
});

describe('guides §3, §5 preview record', () => {
  const record = { apiKey: 'k', guideId: 'g', serverUrl: 'http://127.0.0.1:8080', origin: 'http://127.0.0.1:8080', installType: 'web', stepIndex: 1 };

  it('takes a record of this api key from a valid origin', () => {
    expect(checkPreviewRecord(record, 'k')).toEqual({
      record: { ...record, resourceCenter: false, language: undefined, fromDesigner: false },
    });
  });

  it("exits with 'invalid origin', 'invalid guide url', a mismatched apiKey, another install type", () => {
    expect(checkPreviewRecord({ ...record, origin: 'javascript:x' }, 'k')).toEqual({ refused: MESSAGES.previewInvalidOrigin });
    expect(checkPreviewRecord({ ...record, serverUrl: 'file:///etc' }, 'k')).toEqual({ refused: MESSAGES.previewInvalidGuideUrl });
    expect(checkPreviewRecord(record, 'other')).toEqual({ refused: 'apiKey mismatch' });
    expect(checkPreviewRecord({ ...record, installType: 'extension' }, 'k')).toEqual({ refused: 'other install type' });
    expect(checkPreviewRecord({ ...record, guideId: '' }, 'k')).toEqual({ refused: 'malformed' });
    expect(checkPreviewRecord({ ...record, stepIndex: -2 }, 'k')).toMatchObject({ record: { stepIndex: 0 } });
  });
});

describe('guides §6 preview mode in the worker', () => {
  const content = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', content: 'Hi' }] };
  const preview: Guide = {
    id: 'draft',
    name: 'Draft',
    launchMethod: 'api',
    steps: [
      { id: 'draft-1', guideId: 'draft', type: 'lightbox', domJson: content },
      { id: 'draft-2', guideId: 'draft', type: 'lightbox', domJson: content },
    ],
  };

  function setup() {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ guides: [], lastGuideStepSeen: {} }) });
    const saved: unknown[] = [];
    const engine = createGuideEngine({
      config: engineInit(PROBED),
      ports: { clock, transport },
      log: () => undefined,
      nextSequence: () => 0,
      isSending: () => true,
      saveState: (s) => void saved.push(s),
    });
    return { clock, transport, engine, saved };
  }

  it('the preview guide replaces the page guides, guide.json is not asked, and its guide events are not sent', async () => {
    const { clock, transport, engine, saved } = setup();
    expect(await engine.previewGuide({ guide: preview })).toEqual({ ok: true, value: { guideId: 'draft', name: 'Draft', stepIds: ['draft-1', 'draft-2'] } });
    const load = await engine.load('http://h/');
    expect(load.ok).toBe(false);
    expect(transport.requests.filter((r) => r.url.includes('/guide.json/'))).toHaveLength(0);
    const step = await engine.stepForGuide('draft');
    expect(step.ok && step.value.stepId).toBe('draft-1');
    await engine.stepAction({ guideId: 'draft', stepId: 'draft-1', action: 'seen', url: 'http://h/' });
    const next = await engine.stepAction({ guideId: 'draft', stepId: 'draft-1', action: 'advance', url: 'http://h/' });
    expect(next.ok && next.value?.stepId).toBe('draft-2');
    await clock.advance(2000);
    expect(transport.requests.filter((r) => r.url.includes('/guide.gif/'))).toHaveLength(0);
    expect(saved).toEqual([]);

    // The preview ends: guide.json is asked again.
    expect(await engine.previewGuide(null)).toEqual({ ok: true, value: null });
    expect((await engine.load('http://h/')).ok).toBe(true);
    expect(transport.requests.filter((r) => r.url.includes('/guide.json/'))).toHaveLength(1);
  });

  it('a preview started at a later step: the steps reset, earlier ones advanced with reason continue, the step shown as the continuation', async () => {
    const { engine } = setup();
    const three = { ...preview, steps: [...preview.steps, { ...preview.steps[1]!, id: 'draft-3' }] };
    await engine.previewGuide({ guide: three });
    // The author walks through to step 2, then restarts at step 3.
    await engine.stepAction({ guideId: 'draft', stepId: 'draft-1', action: 'seen', url: 'http://h/' });
    await engine.stepAction({ guideId: 'draft', stepId: 'draft-1', action: 'advance', url: 'http://h/' });
    const atThird = await engine.stepForGuide('draft', 'draft-3');
    expect(atThird.ok && [atThird.value.stepId, atThird.value.reason]).toEqual(['draft-3', 'continue']);
    const diagnostics = async () => (await engine.guideDiagnostics()).guides.find((g) => g.id === 'draft')?.completion;
    expect(await diagnostics()).toBe('in progress');
    // Restarted at the first step: nothing is advanced any more, and the step shows as asked.
    const atFirst = await engine.stepForGuide('draft', 'draft-1');
    expect(atFirst.ok && [atFirst.value.stepId, atFirst.value.reason]).toEqual(['draft-1', 'api']);
    expect(await diagnostics()).toBe('not started');
  });

  it('restartPreviewAt: steps before the start advanced with reason continue, the rest reset; an unknown step changes nothing', () => {
    const guide: Guide = {
      id: 'g',
      launchMethod: 'api',
      steps: ['a', 'b', 'c'].map((id) => ({ id, guideId: 'g', type: 'lightbox' as const, seenState: 'dismissed' as const, seenReason: 'api', lastSeenAt: 5 })),
    };
    expect(restartPreviewAt(guide, 'c').steps.map((s) => [s.id, s.seenState, s.seenReason, s.lastSeenAt])).toEqual([
      ['a', 'advanced', 'continue', undefined],
      ['b', 'advanced', 'continue', undefined],
      ['c', 'none', undefined, undefined],
    ]);
    expect(restartPreviewAt(guide, 'zz')).toBe(guide);
  });

  it('a preview payload that is not a guide is refused with its problem', async () => {
    const { engine } = setup();
    expect(await engine.previewGuide({ guide: { id: 'x' } })).toEqual({ ok: false, error: { code: 'bad_payload', message: 'guide x has no steps array' } });
  });
});
