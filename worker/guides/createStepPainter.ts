/**
 * Issue #34: steps painted off the page. The render chunk (GuideSettings.renderUrl: React, react-dom/server and the
 * overlay's step surfaces) runs as a worker of its own, started once the guide.json request went out (`warm`):
 * loading it (~140 KB) and compiling its render path takes 50-150 ms here, which in this worker held guide.json's
 * answer up by as much. Each step is sent to it and comes back with `painted`, which the page builds without evaluating React.
 * Where that worker cannot start or fails, the chunk is loaded here with importScripts, in a task of its own while
 * guide.json is on its way (`warm`), or at the first step; so it is when the render worker does not answer within
 * RENDER_WAIT_MS (it is given up). Painting is a bonus: a chunk that does not load or a render that throws leaves
 * `painted` absent (logged once), and the page draws the step with React as before.
 */
import { STEP_RENDERER_GLOBAL, type RenderReply, type RenderRequest, type StepRenderer } from '../../shared/guides/stepRenderer';
import type { LogLevel, StepToShow } from '../../shared/protocol';
import type { Clock } from '../ports';

/**
 * How long a step waits for the render worker (still loading, or silent) before this worker paints it itself. Its
 * start and first render took up to ~400 ms here under load; a render worker that stayed silent for seconds was seen
 * in 1 of 6 bench runs (a start that failed before the painter listened).
 */
export const RENDER_WAIT_MS = 1500;

/** What the guide worker needs of the render worker. */
export interface RenderWorker {
  postMessage(message: RenderRequest): void;
  onmessage: ((event: { data: RenderReply }) => void) | null;
  onerror: ((event: { preventDefault?(): void; message?: string }) => void) | null;
  terminate(): void;
  addEventListener(type: 'error', listener: () => void): void;
}

export interface StepPainterOptions {
  /** The render chunk's URL: the shim's own asset, trusted as the worker script is (GuideSettings.renderUrl). */
  url: string;
  /** The dedicated worker's importScripts. */
  importScripts(url: string): void;
  /** Starts the render chunk as a worker of its own; null where none can start. @default none: importScripts only */
  spawn?(url: string): RenderWorker | null;
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  log(level: LogLevel, message: string): void;
}

export interface StepPainter {
  /**
   * Starts the render worker, once; where there is none, gets the chunk ready here in a later task (after what the
   * caller is sending goes out), once.
   */
  warm(): void;
  /** `step` with `painted` when the render chunk draws it, else `step` as it is; never rejects. */
  paint(step: StepToShow): Promise<StepToShow>;
}

export function createStepPainter({ url, importScripts, spawn, clock, log }: StepPainterOptions): StepPainter {
  /** The chunk loaded here. undefined: not tried yet; null: it did not load. */
  let renderer: StepRenderer | null | undefined;
  /** The render worker. undefined: not started yet; null: none (this thread renders). */
  let helper: RenderWorker | null | undefined;
  const pending = new Map<number, { step: StepToShow; done(step: StepToShow): void }>();
  let lastId = 0;
  let logged = false;
  const failed = (error: unknown) => {
    if (!logged) log('warn', `render chunk ${url} failed, steps drawn with React: ${error}`);
    logged = true;
  };
  const load = () => {
    if (renderer === undefined) {
      try {
        importScripts(url);
        renderer = (globalThis as Record<string, unknown>)[STEP_RENDERER_GLOBAL] as StepRenderer;
        if (!renderer?.renderStepNodes) throw Error(`no ${STEP_RENDERER_GLOBAL}`);
      } catch (error) {
        renderer = null;
        failed(error);
      }
    }
    return renderer;
  };
  const here = (step: StepToShow): StepToShow => {
    try {
      const painted = load()?.renderStepNodes(step);
      return painted ? { ...step, painted } : step;
    } catch (error) {
      failed(error);
      return step;
    }
  };
  const giveUp = () => {
    helper?.terminate();
    helper = null;
    for (const { step, done } of pending.values()) done(here(step));
    pending.clear();
  };
  const prepare = () => {
    if (helper !== undefined) return;
    helper = null;
    try {
      helper = spawn?.(url) ?? null;
    } catch {
      // No worker here (a browser without nested workers, a policy): this thread renders.
    }
    if (!helper) return;
    helper.onmessage = ({ data }) => {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (data.error) failed(data.error);
      waiting?.done(data.painted ? { ...waiting.step, painted: data.painted } : waiting.step);
    };
    // The chunk did not load in it: this thread renders what waits, and what comes.
    helper.onerror = (event) => {
      event.preventDefault?.();
      giveUp();
    };
  };
  return {
    warm() {
      prepare();
      if (!helper && renderer === undefined) clock.setTimeout(load, 0);
    },
    paint(step) {
      prepare();
      const to = helper;
      if (!to) return Promise.resolve(here(step));
      return new Promise((resolve) => {
        const id = ++lastId;
        const timer = clock.setTimeout(() => {
          if (!pending.has(id)) return;
          log('info', `render worker silent for ${RENDER_WAIT_MS} ms: steps are painted in the guide worker`);
          giveUp();
        }, RENDER_WAIT_MS);
        pending.set(id, { step, done: (painted) => (clock.clearTimeout(timer), resolve(painted)) });
        to.postMessage({ id, step });
      });
    },
  };
}
