// @vitest-environment node
/**
 * Issue #34: while a dedicated worker's first guide.json is in flight, a judgement of a sample answer compiles the
 * judging code (worker/guides/warmJudgement.ts), with parts of its own: the sample really goes the whole way (it is
 * a candidate, its content resolved), asks nothing of the network, and leaves the real answer's judgement alone.
 */
import { describe, expect, it } from 'vitest';
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import type { WorkerInit } from '../../shared/protocol';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { assetCheckFor } from '../../worker/guides/checkAssetUrl';
import { SAMPLE_ANSWER, warmJudgement } from '../../worker/guides/warmJudgement';
import type { TransportRequest, TransportResponse, WorkerPorts } from '../../worker/ports';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

const real: Guide = { id: 'real', launchMethod: 'auto', steps: [{ id: 'real-1', guideId: 'real', type: 'lightbox', domJson: { type: 'div', props: {}, children: [{ type: 'p', content: 'Hi' }] } }] };
const answer: GuideLoadResponse = { guides: [real], lastGuideStepSeen: {} };

/** An engine whose guide.json answer waits for `answer()`; with a painter unless `mainThread`. */
function setup(mainThread = false) {
  const clock = createFakeClock();
  const transport = createFakeTransport();
  const held: Array<() => void> = [];
  /** The path's endpoint of each request, as it goes out. */
  const asked: string[] = [];
  const request = transport.request.bind(transport);
  transport.request = (req: TransportRequest): Promise<TransportResponse> => {
    asked.push(new URL(req.url).pathname.split('/')[2]!);
    return req.url.includes('/data/guide.json/') ? new Promise((resolve) => held.push(() => resolve(request(req)))) : request(req);
  };
  transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(answer) });
  const ports: WorkerPorts = { clock, transport };
  // A painter that never paints (its chunk never comes): what matters here is that there is one (the dedicated worker).
  if (!mainThread) ports.stepPainter = () => ({ warm: () => undefined, paint: async (step) => step });
  const guides: WorkerInit['guides'] = { ...PROBED, renderUrl: 'https://cdn.example/waymark.render.js' };
  const engine = createGuideEngine({ config: engineInit(guides), ports, log: () => undefined, nextSequence: () => 0, isSending: () => true });
  const settle = async () => {
    for (let i = 0; i < 50; i++) await Promise.resolve();
  };
  return { engine, clock, asked, held, settle };
}

describe('issue #34 the judging code warmed while the first guide.json is in flight', () => {
  it('judges the sample the whole way with parts of its own: its lightbox a candidate, nothing asked of the network', async () => {
    const transport = createFakeTransport();
    const config = engineInit(PROBED);
    const result = await warmJudgement({ clock: createFakeClock(), transport }, config, assetCheckFor(config), 'https://app.example/');
    expect(result?.candidates.map((c) => [c.guideId, c.stepId, c.type])).toEqual([[SAMPLE_ANSWER.guides[0]!.id, SAMPLE_ANSWER.guides[0]!.steps[0]!.id, 'lightbox']]);
    expect(result?.skipped).toEqual([]);
    expect(transport.requests).toEqual([]);
  });

  it("runs once, after the first request went out, and the real answer's judgement knows nothing of the sample", async () => {
    const { engine, clock, asked, held, settle } = setup();
    const first = engine.load('https://app.example/');
    await settle();
    expect(asked).toEqual(['guide.json']);
    expect(clock.pendingTimers()).toContain(0);
    await clock.advance(0); // the warm-up's task
    held.shift()!();
    const loaded = await first;
    expect(loaded.ok && loaded.value.candidates.map((c) => c.guideId)).toEqual(['real']);
    expect(loaded.ok && loaded.value.skipped).toEqual([]);
    const diagnostics = await engine.guideDiagnostics();
    expect(diagnostics.guides.map((g) => [g.id, g.candidate])).toEqual([['real', true]]);
    expect(diagnostics.url).toBe('https://app.example/');
    // The next load asks guide.json again, and warms nothing.
    const second = engine.load('https://app.example/2');
    await settle();
    expect(clock.pendingTimers()).not.toContain(0);
    held.shift()!();
    expect((await second).ok).toBe(true);
    expect(asked).toEqual(['guide.json', 'guide.json']);
  });

  it('not in the main-thread mode (no painter): there it would be the host page\'s time', async () => {
    const { engine, clock, held, settle } = setup(true);
    const loading = engine.load('https://app.example/');
    await settle();
    expect(clock.pendingTimers()).not.toContain(0);
    held.shift()!();
    expect((await loading).ok).toBe(true);
  });
});
