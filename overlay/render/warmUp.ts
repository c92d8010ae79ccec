/**
 * Issue #34: the first step a worker paints would be rendered with cold code: the components' and renderToNodes'
 * functions are compiled on their first call (with react-dom/server it was 10-35 ms of the first render here).
 * The render chunk is loaded while guide.json is on its way (worker/guides/createStepPainter.ts), so it renders a
 * sample of each surface as it loads: that compile is then done before the real step comes, not after it.
 */
import type { StepToShow } from '../../shared/protocol';
import type { StepRenderer } from '../../shared/guides/stepRenderer';

const SAMPLE: StepToShow = {
  guideId: 'waymark-warm-up',
  guideName: '',
  stepId: 'waymark-warm-up-1',
  type: 'lightbox',
  stepIndex: 0,
  stepCount: 2,
  content: {
    type: 'div',
    props: { id: 'guide-base', style: 'padding: 8px' },
    children: [
      { type: 'h2', props: {}, content: 'Title & more' },
      { type: 'p', props: {}, content: 'Text' },
      { type: 'img', props: { alt: '', src: 'https://example.com/a.png' } },
      { type: 'input', props: { type: 'radio', name: 'q', value: '1', checked: true, 'data-poll-id': 'q' } },
      { type: 'select', props: { value: 'a' }, children: [{ type: 'option', props: { value: 'a' }, content: 'A' }] },
      { type: 'button', props: {}, content: 'Next', actions: [{ action: 'advanceGuide', eventType: 'click', parameters: [] }] },
    ],
  },
  attributes: {},
  hideCredits: false,
  reason: 'auto',
};

/** The surfaces warmed, one task each, in this order. */
const WARM_SURFACES = ['lightbox', 'tooltip', 'banner'] as const;

/**
 * Renders the sample as each surface, the first now and each other in a task of its own: a guide.json answer that
 * comes meanwhile waits for one surface's render, not all three (traces of a cold page had the three in one 12-28 ms
 * task just as guide.json's answer came). A failure here is the real step's to report, not this one's.
 */
export function warmUp(renderer: StepRenderer, later: (run: () => void) => void = (run) => void setTimeout(run, 0)): void {
  const warm = (i: number) => {
    try {
      renderer.renderStepNodes({ ...SAMPLE, type: WARM_SURFACES[i]! });
    } catch {
      // The real render meets the same failure and the worker logs it there.
    }
    if (i + 1 < WARM_SURFACES.length) later(() => warm(i + 1));
  };
  warm(0);
}
