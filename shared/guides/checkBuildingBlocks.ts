/**
 * Content checks of a guide step's building blocks, done in the worker before a step is handed to the
 * overlay (spec: guides §5 validation rules; node shape from wire-protocol.md "guide.json response").
 * Pure: the input is never mutated, and what passes comes back as a sanitized copy.
 */
import type { DomNode, GuideAction } from './guides';
import { MESSAGES } from '../messages';

/**
 * Prop names a building block may carry besides `data-*` and `aria-*` (spec: guides §5 "an allow-list of
 * attributes"). Chosen for what guide building blocks render: identity and styling, text direction and
 * language, links and images, form controls (polls), and tables. Both the HTML spelling and React's
 * spelling are listed where they differ (`class`/`className`, `for`/`htmlFor`, `tabindex`/`tabIndex`, ...);
 * the overlay maps one to the other. Left out on purpose: every `on*` handler, `dangerouslySetInnerHTML`
 * and other markup injectors, and URL-bearing attributes the renderer does not vet (`action`, `formAction`,
 * `srcset`, `poster`, `background`, `xlink:href`); `src` of an `embed` is refused separately.
 */
export const BUILDING_BLOCK_PROPS: ReadonlySet<string> = new Set([
  // identity, styling, accessibility basics
  'id', 'class', 'className', 'style', 'title', 'lang', 'dir', 'hidden', 'role', 'tabIndex', 'tabindex',
  // links and media
  'href', 'target', 'rel', 'src', 'alt', 'width', 'height',
  // form controls (poll inputs, guides §5)
  'type', 'name', 'value', 'placeholder', 'label', 'for', 'htmlFor', 'checked', 'disabled', 'selected',
  'readOnly', 'readonly', 'required', 'multiple', 'min', 'max', 'step', 'minLength', 'minlength',
  'maxLength', 'maxlength', 'pattern', 'size', 'rows', 'cols',
  // tables and lists
  'colspan', 'colSpan', 'rowspan', 'rowSpan', 'headers', 'scope', 'start', 'reversed',
]);

/**
 * Names refused even if a later edit adds them to {@link BUILDING_BLOCK_PROPS}: they inject markup or
 * script. Compared lower-cased; every name starting with `on` (an event handler) is refused as well.
 */
const NEVER_PROPS: ReadonlySet<string> = new Set([
  'dangerouslysetinnerhtml', 'innerhtml', 'outerhtml', 'srcdoc', 'formaction',
]);

/** `data-*` and `aria-*` names (spec: guides §5); the rest of the name is kept to characters HTML accepts. */
const DATA_OR_ARIA = /^(?:data|aria)-[A-Za-z0-9_.:-]+$/;

/** Deepest nesting checked before content is refused, the root being level 1; hostile content cannot recurse the worker's stack away. */
export const MAX_CONTENT_DEPTH = 64;

/** Most building blocks and actions, together, one step's content may hold; bounds the work of one check. */
export const MAX_CONTENT_NODES = 5000;

/** Result of {@link checkBuildingBlocks}: the sanitized content, or the one message saying why not. */
export type BuildingBlocksCheck = { ok: true; content: DomNode } | { ok: false; message: string };

/**
 * Checks a step's content and returns a sanitized copy (spec: guides §5), or the first problem found,
 * depth first in document order:
 * - the root must be an object with a string `type`, a `children` array and a `props` object, and every
 *   nested node an object with a string `type`; a nested node's `children` (an array), `props` (an object)
 *   and `content` (a string) are optional, as in the wire example's child nodes. Otherwise, or past
 *   {@link MAX_CONTENT_DEPTH} levels or {@link MAX_CONTENT_NODES} items, `MESSAGES.contentNotJson`;
 * - each prop name must be in {@link BUILDING_BLOCK_PROPS} or be a `data-*` / `aria-*` name, never an `on*`
 *   handler nor `dangerouslySetInnerHTML`; an `embed` node's `src` is illegal too. Otherwise
 *   `MESSAGES.illegalBuildingBlockKey(key, guideId, stepId)`;
 * - `actions`, when present, must be an array of objects with a string `action`, else `contentNotJson`;
 * - a node whose `type` is `script` (any case) comes back as a `noscript` node with the same props,
 *   content and children.
 * The copy has new nodes, props objects, children and actions arrays and action objects; prop values and
 * action fields are shared with the input. Node fields other than type, props, children, content and
 * actions are dropped: nothing downstream reads them.
 */
export function checkBuildingBlocks(content: unknown, guideId: string, stepId: string): BuildingBlocksCheck {
  // spec: guides §5 — "Guide content must have type, children and props" applies to the root; the wire
  // example's own child nodes have no children (and may have no props).
  if (!isObject(content) || typeof content.type !== 'string' || !Array.isArray(content.children) || !isObject(content.props)) {
    return { ok: false, message: MESSAGES.contentNotJson };
  }
  const copied = copyNode(content, 1, { items: 0, guideId, stepId });
  return typeof copied === 'string' ? { ok: false, message: copied } : { ok: true, content: copied };
}

/** What one check carries down the tree. */
interface Walk {
  /** Nodes and actions seen so far, against MAX_CONTENT_NODES. */
  items: number;
  guideId: string;
  stepId: string;
}

/** Copies one node and what is under it; a string is the message of the first problem. */
function copyNode(value: unknown, depth: number, walk: Walk): DomNode | string {
  // The guards come first so that a hostile tree fails after bounded work.
  walk.items += 1;
  if (depth > MAX_CONTENT_DEPTH || walk.items > MAX_CONTENT_NODES) return MESSAGES.contentNotJson;
  if (!isObject(value) || typeof value.type !== 'string') return MESSAGES.contentNotJson;
  const { type, props, children, content, actions } = value;
  const lowerType = type.toLowerCase();
  // spec: guides §5 — "Script nodes are replaced with noscript".
  const node: DomNode = { type: lowerType === 'script' ? 'noscript' : type };

  if (props !== undefined) {
    if (!isObject(props)) return MESSAGES.contentNotJson;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(props)) {
      // spec: guides §5 — "An embed src is also illegal".
      if (!isAllowedPropName(key) || (lowerType === 'embed' && key === 'src')) {
        return MESSAGES.illegalBuildingBlockKey(key, walk.guideId, walk.stepId);
      }
      // Never `__proto__` here: it is not an allowed name, so plain assignment cannot reach a prototype.
      copy[key] = props[key];
    }
    node.props = copy;
  }

  if (content !== undefined) {
    if (typeof content !== 'string') return MESSAGES.contentNotJson;
    node.content = content;
  }

  if (actions !== undefined) {
    if (!Array.isArray(actions)) return MESSAGES.contentNotJson;
    walk.items += actions.length;
    if (walk.items > MAX_CONTENT_NODES) return MESSAGES.contentNotJson;
    const copy: GuideAction[] = [];
    for (const action of actions as unknown[]) {
      if (!isObject(action) || typeof action.action !== 'string') return MESSAGES.contentNotJson;
      copy.push({ ...action } as unknown as GuideAction);
    }
    node.actions = copy;
  }

  if (children !== undefined) {
    if (!Array.isArray(children)) return MESSAGES.contentNotJson;
    const copy: DomNode[] = [];
    for (const child of children as unknown[]) {
      const copied = copyNode(child, depth + 1, walk);
      if (typeof copied === 'string') return copied;
      copy.push(copied);
    }
    node.children = copy;
  }
  return node;
}

/** spec: guides §5 — allow-listed names plus `data-*` and `aria-*`; never an `on*` handler or a markup injector. */
function isAllowedPropName(key: string): boolean {
  const lower = key.toLowerCase();
  if (lower.startsWith('on') || NEVER_PROPS.has(lower)) return false;
  return BUILDING_BLOCK_PROPS.has(key) || DATA_OR_ARIA.test(key);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
