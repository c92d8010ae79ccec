/**
 * Issue #34: steps painted off the page. The render chunk (GuideSettings.renderUrl: the overlay's step surfaces on
 * staticReact, ~7 KB gzip) is loaded into this worker as its guide engine starts (`warm`), without holding the
 * worker while it travels (`loadScript`: worker/guides/loadScript.ts), so guide.json's answer is judged and painted
 * the moment it comes. Each step is then rendered to nodes here (`painted`), which the page builds without React.
 *
 * Painting is a bonus: a chunk that does not load, does not come within RENDER_WAIT_MS, or a render that throws
 * leaves `painted` absent (logged once), and the page draws the step with React as before.
 */
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import type { LogLevel, StepToShow } from '../../shared/protocol';
import type { Clock } from '../ports';

/**
 * How long a step waits for the render chunk still on its way before it goes unpainted (React draws it). The chunk
 * comes in a few ms over loopback; a step is not held longer than a visitor would notice for a bonus.
 */
export const RENDER_WAIT_MS = 1500;

export interface StepPainterOptions {
  /** The render chunk's URL: the shim's own asset, trusted as the worker script is (GuideSettings.renderUrl). */
  url: string;
  /** Runs the script at `url` in this worker; rejects when it cannot. */
  loadScript(url: string): Promise<void>;
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  log(level: LogLevel, message: string): void;
}

export interface StepPainter {
  /** Starts loading the render chunk, once. */
  warm(): void;
  /** `step` with `painted` when the render chunk draws it, else `step` as it is; never rejects. */
  paint(step: StepToShow): Promise<StepToShow>;
}

export function createStepPainter({ url, loadScript, clock, log }: StepPainterOptions): StepPainter {
  /** The chunk's loading; it resolves to its renderer, or null when it did not load. */
  let loading: Promise<StepRenderer | null> | undefined;
  /** The renderer once loaded (null: it did not load), so a step never waits a turn for what is there. */
  let loaded: StepRenderer | null | undefined;
  let logged = false;
  const failed = (error: unknown) => {
    if (!logged) log('warn', `render chunk ${url} failed, steps drawn with React: ${error}`);
    logged = true;
  };
  const load = () =>
    (loading ??= (async () => {
      try {
        await loadScript(url);
        const renderer = (globalThis as Record<string, unknown>)[STEP_RENDERER_GLOBAL] as StepRenderer | undefined;
        if (!renderer?.renderStepNodes) throw Error(`no ${STEP_RENDERER_GLOBAL}`);
        return (loaded = renderer);
      } catch (error) {
        failed(error);
        return (loaded = null);
      }
    })());
  const render = (renderer: StepRenderer | null, step: StepToShow): StepToShow => {
    if (!renderer) return step;
    try {
      const painted = renderer.renderStepNodes(step);
      return painted ? { ...step, painted } : step;
    } catch (error) {
      failed(error);
      return step;
    }
  };
  let lateLogged = false;
  return {
    warm() {
      void load();
    },
    async paint(step) {
      if (loaded !== undefined) return render(loaded, step);
      let timer: unknown;
      const late = new Promise<'late'>((resolve) => (timer = clock.setTimeout(() => resolve('late'), RENDER_WAIT_MS)));
      const renderer = await Promise.race([load(), late]);
      clock.clearTimeout(timer);
      if (renderer !== 'late') return render(renderer, step);
      if (!lateLogged) log('info', `render chunk ${url} not loaded within ${RENDER_WAIT_MS} ms: the step is drawn with React`);
      lateLogged = true;
      return step;
    },
  };
}
