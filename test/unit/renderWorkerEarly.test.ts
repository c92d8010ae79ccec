// @vitest-environment node
/**
 * Issue #34: the render worker starts with the guide worker where the render chunk is beside the worker's own file,
 * and the painter takes it over when init names the same URL; any other URL gets a worker of its own and the early
 * one is ended, as it is when nobody takes it over in time.
 */
import { describe, expect, it } from 'vitest';
import type { RenderWorker } from '../../worker/guides/createStepPainter';
import { RENDER_ADOPT_MS, startRenderWorkerEarly } from '../../worker/guides/startRenderWorkerEarly';

function fakes() {
  const started: Array<{ url: string; ended: boolean; fail(): void }> = [];
  const spawn = (url: string): RenderWorker => {
    const record = { url, ended: false, fail: () => undefined as void };
    started.push(record);
    return { onmessage: null, onerror: null, postMessage() {}, terminate: () => void (record.ended = true), addEventListener: (_type, listener) => void (record.fail = listener) };
  };
  const timers: Array<[() => void, number]> = [];
  return { started, spawn, timers, setTimer: (fn: () => void, ms: number) => timers.push([fn, ms]) };
}

describe('issue #34 the render worker started early', () => {
  it("beside the agent's own waymark.worker.js: started at once, taken over for the same URL, never ended", () => {
    const { started, spawn, timers, setTimer } = fakes();
    const take = startRenderWorkerEarly('https://cdn.example/agent/waymark.worker.js', spawn, setTimer);
    expect(started.map((s) => s.url)).toEqual(['https://cdn.example/agent/waymark.render.js']);
    take('https://cdn.example/agent/waymark.render.js');
    expect(started).toHaveLength(1);
    timers.forEach(([fn]) => fn());
    expect(started[0]!.ended).toBe(false);
  });

  it("init names another URL (a host bundle's hashed file): the early one is ended, a worker of that URL starts", () => {
    const { started, spawn, setTimer } = fakes();
    const take = startRenderWorkerEarly('https://cdn.example/agent/waymark.worker.js', spawn, setTimer);
    take('https://host.example/assets/waymark.render-1a2b.js');
    expect(started.map((s) => [s.url, s.ended])).toEqual([
      ['https://cdn.example/agent/waymark.render.js', true],
      ['https://host.example/assets/waymark.render-1a2b.js', false],
    ]);
  });

  it(`nobody takes it over within ${RENDER_ADOPT_MS} ms (guides off): it is ended; a later ask starts a new one`, () => {
    const { started, spawn, timers, setTimer } = fakes();
    const take = startRenderWorkerEarly('https://cdn.example/agent/waymark.worker.js', spawn, setTimer);
    expect(timers.map(([, ms]) => ms)).toEqual([RENDER_ADOPT_MS]);
    timers[0]![0]();
    expect(started[0]!.ended).toBe(true);
    take('https://cdn.example/agent/waymark.render.js');
    expect(started).toHaveLength(2);
  });

  it('one whose start failed before it was taken over (its file did not load) is ended, and a new one starts', () => {
    const { started, spawn, setTimer } = fakes();
    const take = startRenderWorkerEarly('https://cdn.example/agent/waymark.worker.js', spawn, setTimer);
    started[0]!.fail();
    take('https://cdn.example/agent/waymark.render.js');
    expect(started.map((s) => [s.url, s.ended])).toEqual([
      ['https://cdn.example/agent/waymark.render.js', true],
      ['https://cdn.example/agent/waymark.render.js', false],
    ]);
  });

  it("a worker file of another name (a host's copy, a blob:) starts nothing early", () => {
    for (const url of ['https://host.example/static/agent-worker.js', 'https://host.example/assets/waymark.worker-9f8e.js']) {
      const { started, spawn, setTimer } = fakes();
      startRenderWorkerEarly(url, spawn, setTimer);
      expect(started).toEqual([]);
    }
  });
});
