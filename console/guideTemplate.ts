/**
 * What the guide editor starts from and edits: a new guide that the agent takes as it is (a one-step lightbox
 * with a title, a text and a Got it button that dismisses it), and the step text a form can reach in any guide.
 */
import type { GuideBody } from './types';

/** A new draft guide with a fresh id. */
export function newGuide(random: () => number = Math.random): GuideBody {
  const id = `guide-${Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0')}`;
  return {
    id,
    name: 'New guide',
    launchMethod: 'auto',
    attributes: { priority: 10 },
    steps: [
      {
        id: `${id}-1`,
        type: 'lightbox',
        attributes: { width: 480, height: 260 },
        domJson: {
          type: 'div',
          props: { id: 'guide-base' },
          children: [
            { type: 'h2', props: { id: `${id}-title` }, content: 'Welcome!' },
            { type: 'p', props: { id: `${id}-text` }, content: 'Tell your visitors what is new.' },
            {
              type: 'button',
              props: { id: `${id}-ok` },
              content: 'Got it',
              actions: [{ action: 'dismissGuide', eventType: 'click', parameters: [], source: `${id}-ok`, destination: 'Global' }],
            },
          ],
        },
      },
    ],
  };
}

/** A node of step content, loosely: the editor only reads type and content and walks children. */
interface Node {
  type?: unknown;
  content?: unknown;
  children?: unknown;
}

/** The first node of `types` in document order, or undefined. */
function findNode(root: unknown, types: readonly string[]): Node | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const node = root as Node;
  if (typeof node.type === 'string' && types.includes(node.type.toLowerCase())) return node;
  if (!Array.isArray(node.children)) return undefined;
  for (const child of node.children) {
    const found = findNode(child, types);
    if (found) return found;
  }
  return undefined;
}

/** The step texts a form edits: the first heading, paragraph and button of the content. */
export const TEXT_SLOTS = [
  { key: 'title', label: 'Title', types: ['h1', 'h2', 'h3'] },
  { key: 'text', label: 'Text', types: ['p'] },
  { key: 'button', label: 'Button', types: ['button'] },
] as const;

export type TextSlot = (typeof TEXT_SLOTS)[number]['key'];

/** Each slot's text in the step's content; undefined where the content has no such node. */
export function readTexts(domJson: unknown): Partial<Record<TextSlot, string>> {
  const texts: Partial<Record<TextSlot, string>> = {};
  for (const slot of TEXT_SLOTS) {
    const node = findNode(domJson, slot.types);
    if (node && (node.content === undefined || typeof node.content === 'string')) texts[slot.key] = (node.content as string | undefined) ?? '';
  }
  return texts;
}

/** A copy of the content with the slots' texts written into their nodes. */
export function writeTexts(domJson: unknown, texts: Partial<Record<TextSlot, string>>): unknown {
  const copy = structuredClone(domJson);
  for (const slot of TEXT_SLOTS) {
    const value = texts[slot.key];
    if (value === undefined) continue;
    const node = findNode(copy, slot.types);
    if (node) node.content = value;
  }
  return copy;
}
