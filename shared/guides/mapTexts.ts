/**
 * The texts of a step's building blocks, in document order: each node's `content`, then its `alt`, `title`,
 * `placeholder` and `aria-label`, then its children's. What variables fill (fillVariables) and translators
 * translate (the console's translationSlots). Pure.
 */
import type { DomNode } from './guides';

export const TEXT_PROPS = ['alt', 'title', 'placeholder', 'aria-label'] as const;

/** Where a text is: `content` or the prop's name. */
export type TextKind = 'content' | (typeof TEXT_PROPS)[number];

/** A copy of `node` with each non-blank text replaced by what `fn` makes of it, called in document order. */
export function mapTexts(node: DomNode, fn: (text: string, kind: TextKind) => string): DomNode {
  const out: DomNode = { ...node };
  if (typeof node.content === 'string' && node.content.trim()) out.content = fn(node.content, 'content');
  if (node.props) {
    out.props = { ...node.props };
    for (const key of TEXT_PROPS) {
      const value = node.props[key];
      if (typeof value === 'string' && value.trim()) out.props[key] = fn(value, key);
    }
  }
  if (node.children) out.children = node.children.map((child) => mapTexts(child, fn));
  return out;
}
