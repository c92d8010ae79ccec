/**
 * Issue #16: the first step a page shows rendered with cold code. A CPU profile of the bench's warm lightbox
 * (the overlay chunk fetched beside guide.json) put ~10 ms of the render in the overlay's script: React's and
 * our components' first run, functions compiled on their first call. So once the overlay has been made ahead of
 * a guide (the page's app has shown guides before), the browser's next idle time renders a sample lightbox into
 * a node that is not in the page (no style, layout or paint), with the building blocks a step is made of, and
 * takes it down again: the code the real step runs is then compiled. Skipped once anything has been shown.
 *
 * The sample renders as a transition, which React works on in slices of ~5 ms, handing the thread back between
 * them: an idle callback cannot know that guide.json arrives a moment later, and a trace of the bench's warm
 * case caught a prewarm done in one piece (9-17 ms) holding the real step's message back by that much. The real
 * step's render (synchronous, another root) goes first; the sample is picked up again after it, or dropped.
 */
import { startTransition, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { Lightbox } from './Lightbox';
import { whenIdle } from './whenIdle';

const SAMPLE: StepToShow = {
  guideId: 'waymark-prewarm',
  guideName: '',
  stepId: 'waymark-prewarm-1',
  type: 'lightbox',
  stepIndex: 0,
  stepCount: 2,
  content: {
    type: 'div',
    props: { id: 'guide-base' },
    children: [
      { type: 'h2', props: {}, content: 'Title' },
      { type: 'p', props: {}, content: 'Text' },
      { type: 'img', props: { alt: '' }, children: [] },
      { type: 'button', props: {}, content: 'Next', actions: [{ action: 'advanceGuide', eventType: 'click', parameters: [] }] },
    ],
  },
  attributes: {},
  hideCredits: true,
  reason: 'auto',
};

const NO_HANDLERS: StepHandlers = { onAction() {}, onDismiss() {} };

/**
 * The sample, unless `skip()` (a real step was drawn while the transition waited: its compile is then done);
 * tells `done` once committed (effects run after the commit).
 */
function Sample({ done, skip }: { done: () => void; skip: () => boolean }) {
  useEffect(done, [done]);
  return skip() ? null : <Lightbox step={SAMPLE} handlers={NO_HANDLERS} />;
}

/** In `doc`'s window's next idle time, unless `shown()` by then: one render of the sample, taken down at once. */
export function prewarmWhenIdle(doc: Document, shown: () => boolean): void {
  const view = doc.defaultView;
  if (!view) return;
  const run = () => {
    if (shown()) return;
    try {
      // Not in the page: a dialog not in a document is not made modal (useModalDialog), and nothing is drawn.
      const root = createRoot(doc.createElement('div'));
      const done = () => void view.setTimeout(() => root.unmount());
      startTransition(() => root.render(<Sample done={done} skip={shown} />));
    } catch {
      // A warm-up only: whatever failed here, the real step renders (and reports) on its own.
    }
  };
  whenIdle(doc, run);
}
