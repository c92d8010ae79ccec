/**
 * The element data of a click (wire-protocol.md "click" props; analytics §9 limits): the element and its
 * ancestors up to BODY as nested `parentElem`. This runs on the host's main thread for every click, so it
 * reads only cheap properties and never forces layout.
 */
import {
  DEFAULT_TEXT_LIMIT,
  MAX_ANCESTOR_DEPTH,
  MAX_ATTRIBUTE_LENGTH,
  MAX_ATTRIBUTES_PER_ELEMENT,
} from '../shared/constants';
import type { ElementData } from '../shared/events';

export interface SerializeOptions {
  /** Capture visible text as `txt` (analytics §9 text limit). @default false */
  captureText?: boolean;
  /** @default 128 */
  textLimit?: number;
}

/** Attributes carried elsewhere in the record, or never collected. */
const SKIPPED_ATTRIBUTES = new Set(['id', 'class', 'title', 'style']);

export function serializeElement(element: Element, options: SerializeOptions = {}): ElementData {
  const root = describe(element, options, true);
  let current = root;
  let node = element.parentElement;
  for (let depth = 1; node && depth < MAX_ANCESTOR_DEPTH; depth++) {
    const parent = describe(node, options, false);
    current.parentElem = parent;
    current = parent;
    if (node.tagName === 'BODY') break;
    node = node.parentElement;
  }
  return root;
}

function describe(el: Element, options: SerializeOptions, withText: boolean): ElementData {
  const data: ElementData = {
    tag: el.tagName,
    id: el.id,
    cls: typeof el.className === 'string' ? el.className : el.getAttribute('class') ?? '',
    title: el.getAttribute('title'),
    attrs: attributesOf(el),
    myIndex: 0,
    childIndex: 0,
  };
  let sibling = el.previousElementSibling;
  while (sibling) {
    data.childIndex++;
    if (sibling.tagName === el.tagName) data.myIndex++;
    sibling = sibling.previousElementSibling;
  }
  if (withText && options.captureText && !isSecretInput(el)) {
    const text = (el as HTMLElement).innerText ?? el.textContent ?? '';
    data.txt = text.trim().slice(0, options.textLimit ?? DEFAULT_TEXT_LIMIT);
  }
  return data;
}

function attributesOf(el: Element): Record<string, string> {
  const attrs: Record<string, string> = {};
  const list = el.attributes;
  const secret = isSecretInput(el);
  let count = 0;
  for (let i = 0; i < list.length && count < MAX_ATTRIBUTES_PER_ELEMENT; i++) {
    const { name, value } = list[i]!;
    if (SKIPPED_ATTRIBUTES.has(name) || (secret && name === 'value')) continue;
    attrs[name] = value.length > MAX_ATTRIBUTE_LENGTH ? value.slice(0, MAX_ATTRIBUTE_LENGTH) : value;
    count++;
  }
  return attrs;
}

/** spec: analytics §5 — values are never collected from password or hidden inputs. */
function isSecretInput(el: Element): boolean {
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return type === 'password' || type === 'hidden';
}
