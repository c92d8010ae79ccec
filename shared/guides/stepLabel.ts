import type { DomNode } from './guides';

const HEADING = /^h[1-6]$/;

/**
 * The accessible name of a step's dialog: the text of the first heading in its content (depth first, in
 * reading order), whitespace collapsed; null when the content has no heading with text.
 */
export function stepLabel(content: DomNode): string | null {
  const heading = findHeading(content, 0);
  const text = heading ? textOf(heading, 0).replace(/\s+/g, ' ').trim() : '';
  return text || null;
}

/** Content trees are authored; the depth limit keeps a pathological one from exhausting the stack. */
const MAX_DEPTH = 64;

function findHeading(node: DomNode, depth: number): DomNode | null {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return null;
  if (typeof node.type === 'string' && HEADING.test(node.type) && textOf(node, 0).trim()) return node;
  for (const child of Array.isArray(node.children) ? node.children : []) {
    const found = findHeading(child, depth + 1);
    if (found) return found;
  }
  return null;
}

function textOf(node: DomNode, depth: number): string {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return '';
  const own = typeof node.content === 'string' ? node.content : '';
  const children = Array.isArray(node.children) ? node.children.map((c) => textOf(c, depth + 1)) : [];
  return [own, ...children].join(' ');
}
