// @vitest-environment node
/**
 * Issue #34: the worker paints the steps it resolves with the render chunk it loads by importScripts, started while
 * guide.json is on its way; a chunk that does not load, or a render that throws, leaves `painted` absent (logged
 * once) and never fails a step. The main-thread mode (no painter) loads nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import type { LogLevel, WorkerInit } from '../../shared/protocol';
import { renderStepNodes } from '../../overlay/render/renderStepNodes';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { assetCheckFor } from '../../worker/guides/checkAssetUrl';
import { createContentLoader } from '../../worker/guides/createContentLoader';
import { createGuideHealth } from '../../worker/guides/createGuideHealth';
import { createStepPainter, RENDER_WAIT_MS, type RenderWorker } from '../../worker/guides/createStepPainter';
import type { RenderReply, RenderRequest } from '../../shared/guides/stepRenderer';
import type { WorkerPorts } from '../../worker/ports';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

const RENDER_URL = 'https://cdn.example/agent/waymark.render.js';
const content = { type: 'div', props: {}, children: [{ type: 'p', content: 'Hi' }, { type: 'button', content: 'Next', actions: [{ action: 'advanceGuide' }] }] };
const guide: Guide = {
  id: 'g',
  launchMethod: 'auto',
  isMultiStep: true,
  steps: [
    { id: 'g-1', guideId: 'g', type: 'lightbox', domJson: content },
    { id: 'g-2', guideId: 'g', type: 'banner', domJson: content },
  ],
};
const answer: GuideLoadResponse = { guides: [guide], lastGuideStepSeen: {} };
const globals = globalThis as Record<string, unknown>;

afterEach(() => {
  delete globals[STEP_RENDERER_GLOBAL];
});

/** An engine whose worker loads the chunk with `importScripts` (none: the main-thread mode); what it did, in order. */
function setup(importScripts: ((url: string) => void) | null, guides: WorkerInit['guides'] = { ...PROBED, renderUrl: RENDER_URL }, spawn?: (url: string) => RenderWorker | null) {
  const clock = createFakeClock();
  const transport = createFakeTransport();
  const order: string[] = [];
  const logs: Array<[LogLevel, string]> = [];
  const request = transport.request.bind(transport);
  transport.request = (req) => (order.push(`request ${new URL(req.url).pathname.split('/')[2]}`), request(req));
  transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(answer) });
  const ports: WorkerPorts = { clock, transport };
  if (importScripts) {
    ports.stepPainter = (url, log) =>
      createStepPainter({ url, importScripts: (u) => (order.push(`importScripts ${u}`), importScripts(u)), spawn: spawn && ((u) => (order.push(`spawn ${u}`), spawn(u))), clock, log });
  }
  const engine = createGuideEngine({ config: engineInit(guides), ports, log: (level, message) => void logs.push([level, message]), nextSequence: () => 0, isSending: () => true });
  return { engine, clock, order, logs };
}

/** The render chunk as it runs in the worker: it assigns the global. */
const chunk = (renderer: StepRenderer = { renderStepNodes }) => () => void (globals[STEP_RENDERER_GLOBAL] = renderer);

describe('issue #34 steps painted in the worker', () => {
  it("resolveStep attaches the render chunk's nodes, the same as overlay/render gives", async () => {
    const { engine, logs } = setup(chunk());
    const loaded = await engine.load('http://h/');
    expect(loaded.ok).toBe(true);
    const step = loaded.ok ? loaded.value.candidates[0]! : null;
    expect(step?.painted).toEqual(renderStepNodes({ ...step!, painted: undefined }));
    expect(step?.painted?.actions).toEqual([[{ action: 'advanceGuide' }]]);
    // The next step (an action's answer) and a step asked by id are painted too.
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', reason: 'auto', url: 'http://h/' });
    const next = await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'advance', url: 'http://h/' });
    const banner = next.ok ? next.value?.painted?.nodes[0] : undefined;
    expect(Array.isArray(banner) && banner[1]).toContainEqual(['class', 'wm-step wm-banner']);
    const byId = await engine.stepForGuide('g', 'g-1', 'api');
    expect(byId.ok && byId.value.painted).toBeTruthy();
    expect(logs.filter(([level]) => level === 'warn' || level === 'error')).toEqual([]);
  });

  it('loads the chunk once, in a task after the guide.json request went out', async () => {
    const { engine, clock, order } = setup(chunk());
    const loading = engine.load('http://h/');
    expect(order).toEqual(['request guide.json']);
    await clock.advance(0);
    await loading;
    await engine.load('http://h/2');
    await clock.advance(0);
    expect(order).toEqual(['request guide.json', `importScripts ${RENDER_URL}`, 'request guide.json']);
  });

  it('a chunk that cannot load: the steps come without painted, logged once', async () => {
    const { engine, logs, order } = setup(() => {
      throw new TypeError('NetworkError: Failed to execute importScripts');
    });
    const loaded = await engine.load('http://h/');
    expect(loaded.ok && loaded.value.candidates.map((c) => [c.stepId, 'painted' in c])).toEqual([['g-1', false]]);
    const byId = await engine.stepForGuide('g', 'g-2', 'api');
    expect(byId.ok && 'painted' in byId.value).toBe(false);
    expect(order.filter((o) => o.startsWith('importScripts'))).toHaveLength(1);
    expect(logs).toEqual([['warn', `render chunk ${RENDER_URL} failed, steps drawn with React: TypeError: NetworkError: Failed to execute importScripts`]]);
  });

  it('a chunk that loads without the global counts as one that did not load', async () => {
    const { engine, logs } = setup(() => undefined);
    const loaded = await engine.load('http://h/');
    expect(loaded.ok && loaded.value.candidates[0]!.painted).toBeUndefined();
    expect(logs).toEqual([['warn', `render chunk ${RENDER_URL} failed, steps drawn with React: Error: no ${STEP_RENDERER_GLOBAL}`]]);
  });

  it('a render that throws: that step without painted, logged once; the next render is tried', async () => {
    let calls = 0;
    const { engine, logs } = setup(
      chunk({
        renderStepNodes(step) {
          if (++calls <= 2) throw new Error('render failed');
          return renderStepNodes(step);
        },
      }),
    );
    const loaded = await engine.load('http://h/');
    expect(loaded.ok && loaded.value.candidates[0]!.painted).toBeUndefined();
    expect((await engine.stepForGuide('g', 'g-1', 'api')).ok).toBe(true);
    const third = await engine.stepForGuide('g', 'g-1', 'api');
    expect(third.ok && third.value.painted).toBeTruthy();
    expect(logs).toEqual([['warn', expect.stringContaining('render failed')]]);
  });

  it('the main-thread mode (no painter) and a shim without renderUrl load nothing and paint nothing', async () => {
    for (const { engine, order } of [setup(null), setup(chunk(), PROBED)]) {
      const loaded = await engine.load('http://h/');
      expect(loaded.ok && loaded.value.candidates[0]!.painted).toBeUndefined();
      expect(order).toEqual(['request guide.json']);
    }
  });

  it("content for another surface (what's new, the resource center) is not painted", async () => {
    const clock = createFakeClock();
    const log = () => undefined;
    const health = createGuideHealth({ clock, log, record: () => undefined, pageUrl: () => 'http://h/' });
    const painter = createStepPainter({ url: RENDER_URL, importScripts: chunk(), clock, log });
    const loader = createContentLoader({ ports: { clock, transport: createFakeTransport() }, log, checkAsset: assetCheckFor(engineInit()), health, painter });
    const shown = await loader.resolveStep(guide, guide.steps[0]!, 'auto');
    const contentOnly = await loader.resolveStep(guide, guide.steps[0]!, 'resourceCenter', true);
    expect(shown.ok && shown.value.painted).toBeTruthy();
    expect(contentOnly.ok && 'painted' in contentOnly.value).toBe(false);
  });

  describe('the render worker', () => {
    /** A render worker as the chunk runs it (overlay/render/index.ts): it answers each request in a later task. */
    function fakeWorker(answer: (request: RenderRequest) => RenderReply | null = ({ id, step }) => ({ id, painted: renderStepNodes(step) })) {
      const asked: RenderRequest[] = [];
      const worker: RenderWorker = {
        onmessage: null,
        onerror: null,
        terminate() {},
        addEventListener() {},
        postMessage(request) {
          asked.push(request);
          const reply = answer(request);
          if (reply) setTimeout(() => worker.onmessage?.({ data: reply }));
        },
      };
      return { worker, asked };
    }

    it('starts once guide.json is asked for (not with every page), and paints every step there: nothing is loaded into this worker', async () => {
      const { worker, asked } = fakeWorker();
      const { engine, order, logs } = setup(chunk(), undefined, () => worker);
      expect(order).toEqual([]);
      const loaded = await engine.load('http://h/');
      const step = loaded.ok ? loaded.value.candidates[0]! : null;
      expect(step?.painted).toEqual(renderStepNodes({ ...step!, painted: undefined }));
      expect(asked.map((a) => a.step.stepId)).toEqual(['g-1']);
      expect(order).toEqual(['request guide.json', `spawn ${RENDER_URL}`]);
      expect(logs.filter(([level]) => level === 'warn')).toEqual([]);
    });

    it('a render worker that fails (its chunk did not load): what waits and what comes is painted here, with importScripts', async () => {
      const { worker } = fakeWorker(() => null);
      const { engine, order } = setup(chunk(), undefined, () => worker);
      const loading = engine.load('http://h/');
      await new Promise((resolve) => setTimeout(resolve, 10));
      let prevented = false;
      worker.onerror?.({ preventDefault: () => void (prevented = true), message: 'NetworkError' });
      const loaded = await loading;
      expect(prevented).toBe(true);
      expect(loaded.ok && loaded.value.candidates[0]!.painted).toBeTruthy();
      const byId = await engine.stepForGuide('g', 'g-2', 'api');
      expect(byId.ok && byId.value.painted).toBeTruthy();
      expect(order.filter((o) => o.startsWith('importScripts'))).toEqual([`importScripts ${RENDER_URL}`]);
    });

    it(`a render worker that does not answer within ${RENDER_WAIT_MS} ms is given up: this worker paints, with importScripts`, async () => {
      let ended = false;
      const { worker } = fakeWorker(() => null);
      worker.terminate = () => void (ended = true);
      const { engine, clock, logs, order } = setup(chunk(), undefined, () => worker);
      const loading = engine.load('http://h/');
      // Until the step has asked the render worker (its wait is then a timer of the fake clock).
      for (let i = 0; i < 100 && !clock.pendingTimers().includes(RENDER_WAIT_MS); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      await clock.advance(RENDER_WAIT_MS);
      const loaded = await loading;
      expect(loaded.ok && loaded.value.candidates[0]!.painted).toBeTruthy();
      expect(ended).toBe(true);
      expect(order.filter((o) => o.startsWith('importScripts'))).toEqual([`importScripts ${RENDER_URL}`]);
      expect(logs).toEqual([['info', `render worker silent for ${RENDER_WAIT_MS} ms: steps are painted in the guide worker`]]);
      // The next step does not wait for it again.
      const byId = await engine.stepForGuide('g', 'g-2', 'api');
      expect(byId.ok && byId.value.painted).toBeTruthy();
    });

    it('a render that throws in the render worker: that step unpainted, logged once', async () => {
      const { worker } = fakeWorker(({ id }) => ({ id, error: 'Error: render failed' }));
      const { engine, logs } = setup(chunk(), undefined, () => worker);
      const loaded = await engine.load('http://h/');
      expect(loaded.ok && 'painted' in loaded.value.candidates[0]!).toBe(false);
      expect(logs).toEqual([['warn', `render chunk ${RENDER_URL} failed, steps drawn with React: Error: render failed`]]);
    });

    it('no render worker can start (spawn gives none, or throws): this worker loads the chunk as before', async () => {
      for (const spawn of [() => null, () => { throw new Error('SecurityError'); }]) {
        const { engine, order } = setup(chunk(), undefined, spawn);
        const loaded = await engine.load('http://h/');
        expect(loaded.ok && loaded.value.candidates[0]!.painted).toBeTruthy();
        expect(order.filter((o) => o.startsWith('importScripts'))).toHaveLength(1);
      }
    });
  });
});
