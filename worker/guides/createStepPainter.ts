/**
 * Issue #34: steps painted in the worker. The render chunk (GuideSettings.renderUrl: React, react-dom/server and
 * the overlay's step surfaces) is loaded with importScripts, in a task of its own while guide.json is on its way
 * (`warm`), or at the first step otherwise; each step it can draw then carries `painted`, which the page builds
 * without evaluating React. Painting is a bonus: a chunk that does not load or a render that throws leaves
 * `painted` absent (logged once) and the page draws the step with React as before.
 */
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import type { LogLevel, StepToShow } from '../../shared/protocol';
import type { Clock } from '../ports';

export interface StepPainterOptions {
  /** The render chunk's URL: the shim's own asset, trusted as the worker script is (GuideSettings.renderUrl). */
  url: string;
  /** The dedicated worker's importScripts. */
  importScripts(url: string): void;
  clock: Pick<Clock, 'setTimeout'>;
  log(level: LogLevel, message: string): void;
}

export interface StepPainter {
  /** Starts loading the render chunk in a later task (after what the caller is sending goes out), once. */
  warm(): void;
  /** `step` with `painted` when the render chunk draws it, else `step` as it is; never throws. */
  paint(step: StepToShow): StepToShow;
}

export function createStepPainter({ url, importScripts, clock, log }: StepPainterOptions): StepPainter {
  /** undefined: not tried yet; null: it did not load. */
  let renderer: StepRenderer | null | undefined;
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
  return {
    warm: () => void (renderer === undefined && clock.setTimeout(load, 0)),
    paint(step) {
      try {
        const painted = load()?.renderStepNodes(step);
        return painted ? { ...step, painted } : step;
      } catch (error) {
        failed(error);
        return step;
      }
    },
  };
}
