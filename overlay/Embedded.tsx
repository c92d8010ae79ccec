/**
 * An embedded guide (guides §3 attributes.embedConfig {selector, method}): its step drawn inside the host page's
 * element rather than over it, in the page's flow. `prepend` puts it before the element's content; `replace`
 * stands in for the content, which is set aside and put back, untouched, when the step goes. It has a shadow root
 * of its own (the overlay's sheets adopted), is a region, not a dialog: focus stays where the visitor left it.
 */
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { StepToShow } from '../shared/protocol';
import type { StepHandlers } from './api';
import { fixedHeight, numberOr } from './Lightbox';
import { StepChrome, surfaceLabel, themeStyle } from './StepChrome';

export function Embedded({ step, handlers }: { step: StepToShow; handlers: StepHandlers }): ReactNode {
  const { contentId, props: label } = surfaceLabel(step);
  const width = step.attributes.width === undefined ? undefined : numberOr(step.attributes.width, 0) || undefined;
  const height = fixedHeight(step.attributes);
  return (
    <div className="wm-step wm-embedded" role="region" {...label} data-guide-id={step.guideId} data-step-id={step.stepId} style={{ width, height, overflow: height ? 'auto' : undefined, ...themeStyle(step) }}>
      <StepChrome step={step} handlers={handlers} contentId={contentId} />
    </div>
  );
}

/** Draws `node` into `container` as `method` says; returns how to take it out and put the page back. */
export function mountEmbedded(container: Element, method: 'replace' | 'prepend', sheets: CSSStyleSheet[], node: ReactNode): () => void {
  const doc = container.ownerDocument;
  const host = doc.createElement('div');
  host.setAttribute('data-waymark-embedded', '');
  const shadow = host.attachShadow({ mode: 'open' });
  shadow.adoptedStyleSheets = sheets;
  const mount = doc.createElement('div');
  shadow.appendChild(mount);
  const setAside = doc.createDocumentFragment();
  if (method === 'replace') setAside.append(...container.childNodes);
  container.prepend(host);
  const root = createRoot(mount);
  flushSync(() => root.render(node));
  return () => {
    root.unmount();
    host.remove();
    if (method === 'replace') container.append(setAside);
  };
}
