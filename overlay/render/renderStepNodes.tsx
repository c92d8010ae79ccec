/**
 * Issue #34: a step's surface rendered in the worker with the overlay's own components (JSX on staticReact, which
 * the render chunk's build puts in React's place, rendered by renderToNodes: no DOM, no React), as plain nodes the
 * page builds without React (StepToShow.painted). The element tree is the one
 * overlay/index.tsx's `show` draws for a step without a block-out: a lightbox (mobile for mobile-lightbox) with
 * its backdrop, a tooltip, a banner. Handlers are not rendered: each building block with actions carries
 * `data-wm-action`, the index of its actions in `actions`, and the page runs them by delegation.
 */
import type { ReactNode } from 'react';
import type { GuideAction } from '../../shared/guides/guides';
import type { PaintedStep, StepToShow } from '../../shared/protocol';
import type { StepHandlers } from '../api';
import { Banner } from '../Banner';
import { Lightbox } from '../Lightbox';
import { ActionMarks } from '../renderBlocks';
import { Tooltip } from '../Tooltip';
import { renderToNodes } from './renderToNodes';

/** Nothing to call in a render to markup: the page handles the visitor's clicks. */
const NO_HANDLERS: StepHandlers = { onAction: () => undefined, onDismiss: () => undefined };
/** A tooltip's target is read only by its layout effect, which a render to markup never runs. */
const NO_TARGET = null as unknown as Element;

/** The step as nodes and its blocks' actions; undefined for an embedded step or a type drawn otherwise. */
export function renderStepNodes(step: StepToShow): PaintedStep | undefined {
  const surface = surfaceOf(step);
  if (!surface) return undefined;
  const actions: GuideAction[][] = [];
  const mark = (list: GuideAction[]) => actions.push(list) - 1;
  const nodes = renderToNodes(<ActionMarks.Provider value={mark}>{surface}</ActionMarks.Provider>);
  return { nodes, actions };
}

/** The element tree the overlay draws for `step` (exported for the tests' render of it with React itself). */
export function surfaceOf(step: StepToShow): ReactNode {
  if (step.embed) return null;
  switch (step.type) {
    case 'lightbox':
    case 'mobile-lightbox':
      return <Lightbox step={step} handlers={NO_HANDLERS} mobile={step.type === 'mobile-lightbox'} backdrop />;
    case 'tooltip':
      return <Tooltip step={step} target={NO_TARGET} handlers={NO_HANDLERS} />;
    case 'banner':
      return <Banner step={step} handlers={NO_HANDLERS} />;
    default:
      return null;
  }
}
