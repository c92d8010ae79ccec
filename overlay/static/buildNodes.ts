/**
 * A painted step's nodes (StepToShow.painted, rendered by the worker) as elements of `doc`, made with
 * createElement: no HTML is parsed on the page, so no Trusted Types sink is touched. The worker rendered them from
 * guide content its renderer had already sanitised; this is the page's own last check all the same: a tag outside
 * the building blocks' list becomes a div, an event handler attribute (`on…`) or an odd name is dropped, and a
 * `style` is set through the CSSOM (`style.cssText`), which a style-src CSP without 'unsafe-inline' allows.
 */
import type { PaintedNode } from '../../shared/protocol';
import { BLOCK_TAGS } from '../blockTags';

const ATTRIBUTE_NAME = /^[a-z][a-z0-9_.:-]*$/i;

export function buildNodes(doc: Document, nodes: readonly PaintedNode[], into: ParentNode): void {
  for (const node of nodes) {
    if (typeof node === 'string') {
      into.appendChild(doc.createTextNode(node));
      continue;
    }
    if (!Array.isArray(node)) continue;
    const [tag, attributes, children] = node;
    const el = doc.createElement(BLOCK_TAGS.has(tag) ? tag : 'div');
    for (const [name, value] of Array.isArray(attributes) ? attributes : []) {
      if (typeof name !== 'string' || typeof value !== 'string' || !ATTRIBUTE_NAME.test(name) || /^on/i.test(name)) continue;
      if (name === 'style') el.style.cssText = value;
      else el.setAttribute(name, value);
    }
    if (Array.isArray(children)) buildNodes(doc, children, el);
    into.appendChild(el);
  }
}
