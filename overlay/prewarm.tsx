/**
 * Issue #16: the first step a page shows rendered with cold code. A CPU profile of the bench's warm lightbox
 * (the overlay chunk fetched beside guide.json) put ~10 ms of the render in the overlay's script: React's and
 * our components' first run, functions compiled on their first call. So once the overlay has been made ahead of
 * a guide (the page's app has shown guides before), the browser's next idle time renders a sample lightbox into
 * a node that is not in the page (no style, layout or paint), with the building blocks a step is made of, and
 * takes it down again: the code the real step runs is then compiled. Skipped once anything has been shown.
 */
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { Lightbox } from './Lightbox';

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

/** In `doc`'s window's next idle time, unless `shown()` by then: one render of the sample, taken down at once. */
export function prewarmWhenIdle(doc: Document, shown: () => boolean): void {
  const view = doc.defaultView;
  if (!view) return;
  const run = () => {
    if (shown()) return;
    try {
      // Not in the page: a dialog not in a document is not made modal (useModalDialog), and nothing is drawn.
      const root = createRoot(doc.createElement('div'));
      flushSync(() => root.render(<Lightbox step={SAMPLE} handlers={NO_HANDLERS} />));
      root.unmount();
    } catch {
      // A warm-up only: whatever failed here, the real step renders (and reports) on its own.
    }
  };
  if (typeof view.requestIdleCallback === 'function') view.requestIdleCallback(run, { timeout: 2000 });
  else view.setTimeout(run, 0);
}
