// @vitest-environment node
/**
 * Issue #34: the worker paints the steps it resolves with the render chunk it loads as its guide engine starts,
 * without waiting on it (worker/guides/loadScript.ts, tested below); a chunk that does not load or does not come in
 * time, or a render that throws, leaves `painted` absent (logged once) and never fails a step. The main-thread mode
 * (no painter) loads nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import type { LogLevel, WorkerInit } from '../../shared/protocol';
import { renderStepNodes } from '../../overlay/render/renderStepNodes';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { assetCheckFor } from '../../worker/guides/checkAssetUrl';
import { createContentLoader } from '../../worker/guides/createContentLoader';
import { createGuideHealth } from '../../worker/guides/createGuideHealth';
import { createStepPainter, RENDER_WAIT_MS } from '../../worker/guides/createStepPainter';
import { loadScript } from '../../worker/guides/loadScript';
import { createRenderChunkLoads } from '../../worker/guides/renderChunkLoads';
import { RENDER_CHUNK_MESSAGE } from '../../shared/constants';
import type { WorkerPorts } from '../../worker/ports';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

// As in the render chunk's build: the step surfaces' React is staticReact (test/unit/renderStepNodes.test.ts).
vi.mock('react', () => import('../../overlay/render/staticReact'));
vi.mock('react/jsx-runtime', () => import('../../overlay/render/staticReact'));
vi.mock('react/jsx-dev-runtime', () => import('../../overlay/render/staticReact'));

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

/** An engine whose worker runs the chunk with `run` (none: the main-thread mode); what it did, in order. */
function setup(run: ((url: string) => void | Promise<void>) | null, guides: WorkerInit['guides'] = { ...PROBED, renderUrl: RENDER_URL }) {
  const clock = createFakeClock();
  const transport = createFakeTransport();
  const order: string[] = [];
  const logs: Array<[LogLevel, string]> = [];
  const request = transport.request.bind(transport);
  transport.request = (req) => (order.push(`request ${new URL(req.url).pathname.split('/')[2]}`), request(req));
  transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(answer) });
  const ports: WorkerPorts = { clock, transport };
  if (run) {
    ports.stepPainter = (url, log) => createStepPainter({ url, loadScript: async (u) => (order.push(`load ${u}`), run(u)), clock, log });
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

  it('loads the chunk once, as the engine starts, before the first guide.json request', async () => {
    const { engine, order } = setup(chunk());
    expect(order).toEqual([`load ${RENDER_URL}`]);
    await engine.load('http://h/');
    await engine.load('http://h/2');
    expect(order).toEqual([`load ${RENDER_URL}`, 'request guide.json', 'request guide.json']);
  });

  it(`a chunk not there within ${RENDER_WAIT_MS} ms: the step goes unpainted (React draws it), the next is painted once it came`, async () => {
    let arrive!: () => void;
    const { engine, clock, logs } = setup(() => new Promise<void>((resolve) => (arrive = () => (chunk()(), resolve()))));
    const loading = engine.load('http://h/');
    for (let i = 0; i < 100 && !clock.pendingTimers().includes(RENDER_WAIT_MS); i++) await new Promise((resolve) => setTimeout(resolve, 0));
    await clock.advance(RENDER_WAIT_MS);
    const loaded = await loading;
    expect(loaded.ok && 'painted' in loaded.value.candidates[0]!).toBe(false);
    expect(logs).toEqual([['info', `render chunk ${RENDER_URL} not loaded within ${RENDER_WAIT_MS} ms: the step is drawn with React`]]);
    arrive();
    const byId = await engine.stepForGuide('g', 'g-1', 'api');
    expect(byId.ok && byId.value.painted).toBeTruthy();
  });

  it('a chunk that cannot load: the steps come without painted, logged once', async () => {
    const { engine, logs, order } = setup(() => {
      throw new TypeError('NetworkError: Failed to execute importScripts');
    });
    const loaded = await engine.load('http://h/');
    expect(loaded.ok && loaded.value.candidates.map((c) => [c.stepId, 'painted' in c])).toEqual([['g-1', false]]);
    const byId = await engine.stepForGuide('g', 'g-2', 'api');
    expect(byId.ok && 'painted' in byId.value).toBe(false);
    expect(order.filter((o) => o.startsWith('load'))).toHaveLength(1);
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
    const painter = createStepPainter({ url: RENDER_URL, loadScript: async () => chunk()(), clock, log });
    const loader = createContentLoader({ ports: { clock, transport: createFakeTransport() }, log, checkAsset: assetCheckFor(engineInit()), health, painter });
    const shown = await loader.resolveStep(guide, guide.steps[0]!, 'auto');
    const contentOnly = await loader.resolveStep(guide, guide.steps[0]!, 'resourceCenter', true);
    expect(shown.ok && shown.value.painted).toBeTruthy();
    expect(contentOnly.ok && 'painted' in contentOnly.value).toBe(false);
  });

});

describe('issue #34 loadScript: the chunk travels without holding the worker', () => {
  const URL_OF_CHUNK = 'https://cdn.example/agent/waymark.render.js';
  /** The worker's globals the loader uses, faked; what it asked of them, in order. */
  function worker({ fetched = async () => new Response('chunk();'), run = (_url: string) => undefined as void } = {} as {
    fetched?: () => Promise<Response>;
    run?: (url: string) => void;
  }) {
    const calls: string[] = [];
    let blobs = 0;
    vi.stubGlobal('fetch', async (url: string) => (calls.push(`fetch ${url}`), fetched()));
    vi.stubGlobal('importScripts', (url: string) => (calls.push(`importScripts ${url.startsWith('blob:') ? 'blob' : url}`), run(url)));
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:https://host/${++blobs}`);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void calls.push(`revoke ${url}`));
    return calls;
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("fetches the script, then runs what came from a blob: URL, which it lets go", async () => {
    const calls = worker();
    await loadScript(URL_OF_CHUNK, () => false);
    expect(calls).toEqual([`fetch ${URL_OF_CHUNK}`, 'importScripts blob', 'revoke blob:https://host/1']);
  });

  it('a fetch that fails (no CORS on its server, a connect-src policy) or is not ok: importScripts of the URL, as before', async () => {
    for (const fetched of [async () => Promise.reject(new TypeError('Failed to fetch')), async () => new Response('nope', { status: 404 })]) {
      const calls = worker({ fetched });
      await loadScript(URL_OF_CHUNK, () => false);
      expect(calls).toEqual([`fetch ${URL_OF_CHUNK}`, `importScripts ${URL_OF_CHUNK}`]);
      vi.unstubAllGlobals();
    }
  });

  it('a policy refusing blob: scripts: importScripts of the URL; a script that ran and threw is not run twice', async () => {
    const refused = worker({ run: (url) => { if (url.startsWith('blob:')) throw new DOMException('refused', 'NetworkError'); } });
    await loadScript(URL_OF_CHUNK, () => false);
    expect(refused).toEqual([`fetch ${URL_OF_CHUNK}`, 'importScripts blob', 'revoke blob:https://host/1', `importScripts ${URL_OF_CHUNK}`]);
    vi.unstubAllGlobals();
    const threw = worker({ run: () => { throw new Error('chunk broke'); } });
    await expect(loadScript(URL_OF_CHUNK, () => true)).rejects.toThrow('chunk broke');
    expect(threw).toEqual([`fetch ${URL_OF_CHUNK}`, 'importScripts blob', 'revoke blob:https://host/1']);
  });
});

describe('the render chunk named early by the page (worker/guides/renderChunkLoads.ts)', () => {
  it('begins the load its message names once, and the painter then takes that load instead of a second one', async () => {
    const asked: string[] = [];
    let finish = () => {};
    const loads = createRenderChunkLoads((url) => (asked.push(url), new Promise<void>((done) => (finish = done))));
    for (const data of [null, 'waymark:render', { type: 'waymark:push', url: RENDER_URL }, { type: RENDER_CHUNK_MESSAGE }, { type: RENDER_CHUNK_MESSAGE, url: 7 }]) loads.onMessage(data);
    expect(asked).toEqual([]);
    loads.onMessage({ type: RENDER_CHUNK_MESSAGE, url: RENDER_URL });
    expect(asked).toEqual([RENDER_URL]);
    const clock = createFakeClock();
    const painter = createStepPainter({ url: RENDER_URL, loadScript: loads.load, clock, log: () => {} });
    const painting = painter.paint({ guideId: 'g', stepId: 'g-1', type: 'lightbox', content } as never);
    const painted = { nodes: [] };
    globals[STEP_RENDERER_GLOBAL] = { renderStepNodes: () => painted } as unknown as StepRenderer;
    finish();
    expect((await painting).painted).toBe(painted);
    expect(asked).toEqual([RENDER_URL]);
  });

  it("a failed early load is the painter's to log once init names the URL; the step is drawn with React", async () => {
    const loads = createRenderChunkLoads(() => Promise.reject(new Error('refused')));
    loads.onMessage({ type: RENDER_CHUNK_MESSAGE, url: RENDER_URL });
    const logs: string[] = [];
    const painter = createStepPainter({ url: RENDER_URL, loadScript: loads.load, clock: createFakeClock(), log: (_, m) => void logs.push(m) });
    expect((await painter.paint({ guideId: 'g', stepId: 'g-1', type: 'lightbox', content } as never)).painted).toBeUndefined();
    expect(logs).toEqual([`render chunk ${RENDER_URL} failed, steps drawn with React: Error: refused`]);
  });
});
