/**
 * Issue #34: the render chunk's load, begun as early as the page can name it. The shim posts its URL
 * (RENDER_CHUNK_MESSAGE) as it starts the worker, so the worker asks for the chunk once it is ready, instead of at
 * init, which waits for the page's idle time and goes out just before guide.json: a chunk asked for then came after
 * guide.json's answer in traces of a cold page, and the first step waited for it. The painter
 * (createStepPainter's loadScript) then takes the load already under way for the same URL rather than a second one.
 */
import { RENDER_CHUNK_MESSAGE } from '../../shared/constants';

export interface RenderChunkLoads {
  /** The one load of `url`: begun now, or the one begun before. */
  load(url: string): Promise<void>;
  /** A message on the worker's scope: begins the load a RENDER_CHUNK_MESSAGE names; anything else is not its own. */
  onMessage(data: unknown): void;
}

export function createRenderChunkLoads(loadScript: (url: string) => Promise<void>): RenderChunkLoads {
  const loads = new Map<string, Promise<void>>();
  const load = (url: string) => {
    let started = loads.get(url);
    if (!started) loads.set(url, (started = loadScript(url)));
    return started;
  };
  return {
    load,
    onMessage(data) {
      const message = data as { type?: unknown; url?: unknown } | null;
      // Its failure is the painter's to log, when init's guides ask for the same URL.
      if (message?.type === RENDER_CHUNK_MESSAGE && typeof message.url === 'string') load(message.url).catch(() => undefined);
    },
  };
}
