/**
 * Issue #34: the first guide.json a worker judges runs code that never ran before, and V8 compiles each function on
 * its first call: in traces of a cold bench page that first judgement took 32.7 ms in one task (createLoadJudge's
 * judge 10.6 ms of self time, its closures 5.6 ms), after the answer came and before the page had its step. While
 * the first request is in flight, a judgement of a sample answer compiles that code instead, as the render chunk's
 * warmUp does for painting.
 *
 * The sample is judged by parts of its own: a guide book, a content loader without a painter (overlay/render/warmUp
 * compiles painting), surfaces, health and state that nothing else reads, and no log, record or prefetch. Nothing
 * it does reaches the visitor's guides, the network or the page; what it answers is dropped.
 */
import { checkGuideLoadResponse, asGuideLoadResponse } from '../../shared/guides/validateGuidePayload';
import type { GuideLoadResult, WorkerInit } from '../../shared/protocol';
import type { WorkerPorts } from '../ports';
import type { AssetCheck } from './checkAssetUrl';
import { createContentLoader } from './createContentLoader';
import { createGuideBook } from './createGuideBook';
import { createGuideHealth } from './createGuideHealth';
import { createLoadJudge } from './createLoadJudge';
import { createSurfaceViews } from './createSurfaceViews';

/** A guide.json answer with one auto lightbox of inline content, as a new visitor's first page gets. */
export const SAMPLE_ANSWER = {
  guides: [
    {
      id: 'waymark-warm-up',
      name: 'Warm-up',
      launchMethod: 'auto',
      state: 'public',
      attributes: {},
      steps: [
        {
          id: 'waymark-warm-up-1',
          type: 'lightbox',
          seenState: 'none',
          domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, children: [], content: 'Welcome' }] },
        },
      ],
    },
  ],
  lastGuideStepSeen: {},
  features: [],
};

const quiet = () => undefined;

/** Judges SAMPLE_ANSWER on `url` with parts of its own; answers the result (the warm-up drops it; a test reads it). */
export async function warmJudgement(ports: WorkerPorts, config: WorkerInit, checkAsset: AssetCheck, url: string): Promise<GuideLoadResult | undefined> {
  const body: unknown = JSON.parse(JSON.stringify(SAMPLE_ANSWER));
  if (checkGuideLoadResponse(body)) return undefined;
  const health = createGuideHealth({ clock: ports.clock, log: quiet, record: quiet, pageUrl: () => url });
  const loader = createContentLoader({ ports, log: quiet, checkAsset, health, disablePrefetch: true });
  const book = createGuideBook();
  const judge = createLoadJudge({
    config,
    now: () => ports.clock.now(),
    log: quiet,
    book,
    loader,
    surfaces: createSurfaceViews({ config, clock: ports.clock, log: quiet, book, loader, checkAsset }),
    checkAsset,
    record: quiet,
    state: { visitorId: config.identity.visitorId },
    recentChanges: {},
    onJudged: quiet,
  });
  return judge.judge(asGuideLoadResponse(body), url);
}
