/**
 * css-select's view of a stored click (issue #35): the clicked element and its ancestors, as the collector keeps them
 * in `props.target` (shared/events/events.ts `ElementData`: tag, id, cls, title, attrs, myIndex, childIndex, txt,
 * and `parentElem` up to BODY; shim/captureElementPath takes them), read as a chain of element nodes the selector
 * engine walks with this adapter.
 *
 * What the path holds, and so what a selector can be asked (compileSelector refuses the rest):
 * - each level's tag (upper case from `tagName`; compared without case, as HTML is), id, class, title and its other
 *   attributes (at most 64, each value cut to 256 characters; never `style`, never a password or hidden input's
 *   value): type, `#id`, `.class` and attribute selectors;
 * - the ancestors, up to BODY and at most 20 levels: the descendant and child combinators. An HTML element is put
 *   above a path that reaches BODY, so `html body .x` reads as in the page; a deeper path, cut before BODY, has no
 *   ancestors above its last level. The path crosses an open shadow root's boundary to its host, so a selector reads
 *   a shadow tree and its host as one tree;
 * - each level's position among its element siblings (`childIndex`) and among those of its tag (`myIndex`):
 *   `:first-child`, `:nth-child(an+b)`, `:first-of-type`, `:nth-of-type(an+b)`. The siblings themselves are not kept:
 *   the adapter stands in for the earlier ones with placeholder elements of which only the count (and for
 *   `myIndex` of them the tag) is known, and knows nothing of the later ones.
 */
import type { Options } from 'css-select';

/** css-select's adapter interface (the package exports it only as a field of its options). */
type Adapter = NonNullable<Options<PathNode, PathNode>['adapter']>;

/** One element of a stored path, or a placeholder for an earlier sibling. */
export interface PathNode {
  /** Lower case; a placeholder sibling of another tag has `''`, which no type selector names. */
  name: string;
  /** `id`, `class`, `title` and the other captured attributes, present ones only. */
  attributes: ReadonlyMap<string, string>;
  parent: PathNode | null;
  /** The next level down the path (the one clicked is last); none for the clicked element and placeholders. */
  child: PathNode | null;
  /** Element siblings before this one, and those of them with this tag; 0 for placeholders. */
  childIndex: number;
  myIndex: number;
  /** Computed once, when a sibling position is first asked. */
  siblings?: PathNode[];
}

/** The deepest `parentElem` chain read: the agent sends at most 20 levels; stored bodies are not trusted to. */
const MAX_LEVELS = 64;
/** The most earlier siblings stood in for (hostile data could claim millions). */
const MAX_SIBLING_INDEX = 10_000;

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const index = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, MAX_SIBLING_INDEX) : 0;

/** One level's attributes: `attrs`, and `id`, `class`, `title` when present (an empty id or class is none). */
function attributesOf(level: Record<string, unknown>): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [name, value] of Object.entries(record(level.attrs) ?? {})) {
    if (typeof value === 'string') attributes.set(name.toLowerCase(), value);
  }
  if (typeof level.id === 'string' && level.id) attributes.set('id', level.id);
  if (typeof level.cls === 'string' && level.cls) attributes.set('class', level.cls);
  if (typeof level.title === 'string') attributes.set('title', level.title);
  return attributes;
}

/**
 * The chain of a stored `props.target`, clicked element first (each node's `parent` the next); empty when the value
 * is not an element record. A level without a tag ends the chain there.
 */
export function readElementPath(target: unknown): PathNode[] {
  const chain: PathNode[] = [];
  let level = record(target);
  while (level && chain.length < MAX_LEVELS && typeof level.tag === 'string' && level.tag) {
    const childIndex = index(level.childIndex);
    const node: PathNode = {
      name: level.tag.toLowerCase(),
      attributes: attributesOf(level),
      parent: null,
      child: chain[chain.length - 1] ?? null,
      childIndex,
      myIndex: Math.min(index(level.myIndex), childIndex),
    };
    if (node.child) node.child.parent = node;
    chain.push(node);
    level = record(level.parentElem);
  }
  // The page's root above BODY (shim/captureElementPath ends its path there).
  const top = chain[chain.length - 1];
  if (top?.name === 'body') {
    top.parent = { name: 'html', attributes: new Map(), parent: null, child: top, childIndex: 0, myIndex: 0 };
  }
  return chain;
}

/** The earlier siblings as placeholders (`myIndex` of them with the node's tag), then the node itself. */
function siblingsOf(node: PathNode): PathNode[] {
  if (!node.siblings) {
    const placeholder = (name: string): PathNode => ({ name, attributes: new Map(), parent: node.parent, child: null, childIndex: 0, myIndex: 0 });
    node.siblings = [];
    for (let i = 0; i < node.childIndex; i++) node.siblings.push(placeholder(i < node.myIndex ? node.name : ''));
    node.siblings.push(node);
  }
  return node.siblings;
}

/** css-select's adapter over PathNode chains. */
export const elementPathAdapter: Adapter = {
  isTag: (node): node is PathNode => true,
  getAttributeValue: (node, name) => node.attributes.get(name),
  hasAttrib: (node, name) => node.attributes.has(name),
  getChildren: (node) => (node.child ? [node.child] : []),
  getName: (node) => node.name,
  getParent: (node) => node.parent,
  getSiblings: siblingsOf,
  prevElementSibling(node) {
    const siblings = siblingsOf(node);
    const at = siblings.indexOf(node);
    return at > 0 ? siblings[at - 1]! : null;
  },
  // Text is kept for the clicked element only, and only when the agent captures text: no selector reads it.
  getText: () => '',
  removeSubsets: (nodes) => [...new Set(nodes)],
};
