/**
 * The guides the guide part of the bench shows (issue #34): one per surface, each a one-step Pendo-format guide
 * as a guide author's tool would write it, served by the reference server's guide folder to Waymark and to
 * Pendo's agent alike. Each matches only its own pages (`/bench/guide-{surface}-...`), so one server holds all
 * three and a page shows one guide.
 */

/** The surfaces the bench shows: a lightbox, a tooltip anchored to a toolbar button of the bench page, a poll. */
export type GuideSurface = 'lightbox' | 'tooltip' | 'poll';

export const GUIDE_SURFACES: readonly GuideSurface[] = ['lightbox', 'tooltip', 'poll'];

/** The bench page's element the tooltip points at (bench/benchPage.ts's settings form, mid-viewport at load: room above and below, where either agent places it). */
export const TOOLTIP_TARGET = '#f-plan';

/** The path prefix of the pages that show `surface`'s guide. */
export function guidePagePrefix(surface: GuideSurface): string {
  return `/bench/guide-${surface}-`;
}

/** `surface`'s guide, as its JSON file in the server's guide folder. */
export function benchGuide(surface: GuideSurface): { id: string; json: unknown } {
  const id = `bench-${surface}`;
  const step = { id: `${id}-1`, guideId: id, regexUrlRule: guidePagePrefix(surface) };
  const dismiss = (label: string) => ({
    type: 'button',
    props: { id: `${id}-ok` },
    content: label,
    actions: [{ action: 'dismissGuide', eventType: 'click', parameters: [] }],
  });
  if (surface === 'lightbox') {
    return {
      id,
      json: {
        id,
        name: 'Bench lightbox',
        launchMethod: 'auto',
        steps: [{
          ...step,
          type: 'lightbox',
          domJson: {
            type: 'div',
            props: { id: 'guide-base' },
            children: [
              { type: 'h2', props: {}, content: 'Welcome to Reports' },
              { type: 'p', props: {}, content: 'Build a report from any table: pick the columns, then share it with your team.' },
              dismiss('Got it'),
            ],
          },
        }],
      },
    };
  }
  if (surface === 'tooltip') {
    return {
      id,
      json: {
        id,
        name: 'Bench tooltip',
        launchMethod: 'auto',
        steps: [{
          ...step,
          type: 'tooltip',
          elementPathRule: TOOLTIP_TARGET,
          attributes: { width: 260, layoutDir: 'bottom' },
          domJson: {
            type: 'div',
            props: { id: 'guide-base' },
            children: [
              { type: 'h3', props: {}, content: 'Export any table' },
              { type: 'p', props: {}, content: 'CSV or a spreadsheet, with the filters you set.' },
              dismiss('OK'),
            ],
          },
        }],
      },
    };
  }
  // A PickList question (radio buttons) and a submit button, written as the designer and the Markdown plugin
  // write them (server/markdown/markdownToBlocks.ts): inputs carry `data-poll-id`, the button `submitPoll`.
  const pollId = `${id}-q1`;
  const options = ['Every day', 'Every week', 'Rarely'];
  return {
    id,
    json: {
      id,
      name: 'Bench poll',
      launchMethod: 'auto',
      polls: [{ id: pollId, attributes: { type: 'PickList' } }],
      steps: [{
        ...step,
        type: 'lightbox',
        attributes: { thankYouMessage: 'Thanks!' },
        domJson: {
          type: 'div',
          props: { id: 'guide-base' },
          children: [
            { type: 'p', props: { id: `${pollId}-question`, 'data-poll-question': pollId }, content: 'How often do you build reports?' },
            {
              type: 'div',
              props: { role: 'radiogroup', 'aria-labelledby': `${pollId}-question` },
              children: options.map((label) => ({
                type: 'label',
                props: { style: 'display: block;' },
                children: [
                  { type: 'input', props: { type: 'radio', name: pollId, value: label, 'data-poll-id': pollId, 'aria-label': label } },
                  { type: 'span', content: ` ${label}` },
                ],
              })),
            },
            { type: 'button', props: { id: `${id}-submit` }, content: 'Submit', actions: [{ action: 'submitPoll', eventType: 'click', parameters: [] }] },
          ],
        },
      }],
    },
  };
}

/**
 * A page-side expression, true once `surface` is drawn, read at the start of each frame without asking for a
 * layout (inline styles and the DOM only). Waymark: its step in the overlay's shadow root (the tooltip once
 * followTarget placed it: `data-side`, or a transform, set; before that it sits at 0,0); the poll with its inputs.
 * Pendo's agent: its `#guide-base`, with the poll's inputs for the poll; its tooltip's container once visible.
 */
export function drawnExpression(surface: GuideSurface, agent: 'waymark' | 'pendo'): string {
  if (agent === 'pendo') {
    // Its tooltip is a container of its own (`._pendo-guide-tt_`, no `#guide-base`), made visible once placed.
    if (surface === 'tooltip') return "document.querySelector('._pendo-guide-tt_')?.style.visibility === 'visible'";
    return surface === 'poll'
      ? "document.querySelector('#guide-base input[type=radio]') !== null"
      : "document.getElementById('guide-base') !== null";
  }
  const root = "document.querySelector('[data-waymark-overlay]')?.shadowRoot";
  if (surface === 'tooltip') {
    return `(() => { const t = ${root}?.querySelector('.wm-tooltip'); return !!t && (!!t.dataset.side || !!t.style.transform); })()`;
  }
  if (surface === 'poll') return `!!${root}?.querySelector('.wm-lightbox input[type=radio]')`;
  return `!!${root}?.querySelector('.wm-lightbox')`;
}
