/**
 * Issue #34: elements made with staticReact (the step surfaces' JSX in the render chunk) rendered once to the plain
 * nodes the page builds (PaintedNode), with the attributes React's DOM renderer gives the same props, so a painted
 * step is the element tree the page's React would draw (test/unit/renderStepNodes.test.ts holds the two side by
 * side). Text is kept as text and values as values: nothing here is markup, and the page sets them as such.
 *
 * Of React's DOM props, those the surfaces and building blocks pass: `className`, `htmlFor`, `tabIndex`, boolean
 * attributes, `style` objects (CSS text, numbers in px where CSS wants a unit), uncontrolled fields (`defaultValue`,
 * `defaultChecked`: an input's value and checked, a textarea's text, a select's option marked selected). Handlers
 * (`on…`) and refs are left out: the page handles what the visitor does, by delegation.
 */
import type { PaintedNode } from '../../shared/protocol';
import { Fragment, isContext, providedValues, type StaticElement } from './staticReact';

type PaintedElement = Exclude<PaintedNode, string>;

/** HTML's void elements: no children. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Attributes present or absent, written empty when present. */
const BOOLEAN = new Set([
  'allowFullScreen', 'async', 'autoPlay', 'controls', 'default', 'defer', 'disabled', 'formNoValidate', 'hidden',
  'inert', 'loop', 'noModule', 'noValidate', 'open', 'playsInline', 'readOnly', 'required', 'reversed', 'itemScope',
]);

/** React's prop names whose attribute is spelled otherwise. */
const ATTRIBUTE_NAMES: Record<string, string> = {
  className: 'class', htmlFor: 'for', tabIndex: 'tabindex', autoFocus: 'autofocus', multiple: 'multiple', muted: 'muted',
  acceptCharset: 'accept-charset', httpEquiv: 'http-equiv', crossOrigin: 'crossorigin',
};

/** The attribute React writes after the others, on a button (its form name) and a form (its target). */
const WRITTEN_LAST: Record<string, string> = { button: 'name', form: 'target' };

/** Props that never become attributes (uncontrolled fields' defaults are handled by their element). */
const NOT_ATTRIBUTES = new Set(['children', 'key', 'ref', 'defaultValue', 'defaultChecked', 'innerHTML', 'suppressContentEditableWarning', 'suppressHydrationWarning']);

/** CSS properties whose numbers have no unit (React adds px to any other number but 0). */
const UNITLESS = new Set([
  'animationIterationCount', 'aspectRatio', 'borderImageOutset', 'borderImageSlice', 'borderImageWidth', 'boxFlex',
  'boxFlexGroup', 'boxOrdinalGroup', 'columnCount', 'columns', 'flex', 'flexGrow', 'flexPositive', 'flexShrink',
  'flexNegative', 'flexOrder', 'gridArea', 'gridRow', 'gridRowEnd', 'gridRowSpan', 'gridRowStart', 'gridColumn',
  'gridColumnEnd', 'gridColumnSpan', 'gridColumnStart', 'fontWeight', 'lineClamp', 'lineHeight', 'opacity', 'order',
  'orphans', 'scale', 'tabSize', 'widows', 'zIndex', 'zoom', 'fillOpacity', 'floodOpacity', 'stopOpacity',
  'strokeDasharray', 'strokeDashoffset', 'strokeMiterlimit', 'strokeOpacity', 'strokeWidth', 'WebkitLineClamp',
]);

/** A name an attribute can have (XML's Name, as browsers' setAttribute takes it; an author's data-/aria- names). */
const ATTRIBUTE_NAME = /^[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][-.0-9:A-Z_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]*$/;

/** The value a select marks its options by, while its options render (null: none). */
let selectValue: unknown = null;

/** `node` (an element, text, an array of them; null, undefined and booleans draw nothing) as nodes. */
export function renderToNodes(node: unknown): PaintedNode[] {
  const out: PaintedNode[] = [];
  renderInto(node, out);
  return out;
}

function renderInto(node: unknown, out: PaintedNode[]): void {
  if (node == null || typeof node === 'boolean') return;
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return pushText(out, String(node));
  if (Array.isArray(node)) return node.forEach((child) => renderInto(child, out));
  const { type, props } = node as StaticElement;
  if (typeof type === 'string') return void out.push(hostElement(type, props));
  if (type === Fragment) return renderInto(props.children, out);
  if (typeof type === 'function') return renderInto((type as (props: unknown) => unknown)(props), out);
  if (isContext(type)) {
    providedValues.push({ context: type, value: props.value });
    try {
      return renderInto(props.children, out);
    } finally {
      providedValues.pop();
    }
  }
  throw new TypeError(`renderToNodes: cannot render ${typeof type === 'symbol' ? type.toString() : typeof type} elements`);
}

/** Text beside text is one text node, as a browser reads React's markup of it. */
function pushText(out: PaintedNode[], text: string): void {
  if (!text) return;
  const last = out.length - 1;
  if (typeof out[last] === 'string') out[last] += text;
  else out.push(text);
}

function hostElement(tag: string, props: Record<string, unknown>): PaintedElement {
  if (props.dangerouslySetInnerHTML != null) throw new TypeError(`renderToNodes: <${tag}> with dangerouslySetInnerHTML`);
  const attributes: Array<[string, string]> = [];
  const element: PaintedElement = [tag, attributes, []];
  const set = (name: string, value: unknown) => pushAttribute(attributes, name, value, tag);
  const children = element[2];
  if (tag === 'input') {
    // React writes an input's name, checked and value after its other attributes.
    for (const [name, value] of Object.entries(props)) {
      if (name !== 'name' && name !== 'checked' && name !== 'value') set(name, value);
    }
    set('name', props.name);
    const checked = props.checked ?? props.defaultChecked;
    if (checked != null) set('checked', Boolean(checked));
    set('value', props.value ?? props.defaultValue);
    return element;
  }
  const last = WRITTEN_LAST[tag];
  if (last) {
    for (const [name, value] of Object.entries(props)) if (name !== last) set(name, value);
    set(last, props[last]);
    renderInto(props.children, children);
    return element;
  }
  if (tag === 'textarea') {
    for (const [name, value] of Object.entries(props)) if (name !== 'value') set(name, value);
    const text = props.value ?? props.defaultValue;
    pushText(children, text == null ? textOf(props.children) : String(text));
    return element;
  }
  if (tag === 'select') {
    for (const [name, value] of Object.entries(props)) if (name !== 'value') set(name, value);
    const outer = selectValue;
    selectValue = props.value ?? props.defaultValue ?? null;
    try {
      renderInto(props.children, children);
    } finally {
      selectValue = outer;
    }
    return element;
  }
  for (const [name, value] of Object.entries(props)) set(name, value);
  if (tag === 'option' && selectValue != null) {
    const value = props.value ?? textOf(props.children);
    const chosen = Array.isArray(selectValue) ? selectValue.map(String) : [String(selectValue)];
    if (chosen.includes(String(value))) set('selected', true);
  }
  if (!VOID.has(tag)) renderInto(props.children, children);
  return element;
}

/** The text of an option's or a textarea's children (their value when they have none). */
function textOf(children: unknown): string {
  if (children == null || typeof children === 'boolean') return '';
  if (Array.isArray(children)) return children.map(textOf).join('');
  return typeof children === 'object' ? '' : String(children);
}

function pushAttribute(attributes: Array<[string, string]>, prop: string, value: unknown, tag: string): void {
  if (value == null || typeof value === 'function' || typeof value === 'symbol' || NOT_ATTRIBUTES.has(prop)) return;
  // Handlers: the page's delegation runs a block's actions.
  if (prop.length > 2 && /^on/i.test(prop)) return;
  const name = ATTRIBUTE_NAMES[prop] ?? prop;
  if (prop === 'style') {
    const css = cssText(value);
    if (css) attributes.push(['style', css]);
  } else if (BOOLEAN.has(prop) || prop === 'checked' || prop === 'selected' || prop === 'autoFocus' || prop === 'multiple' || prop === 'muted') {
    if (value) attributes.push([name, '']);
  } else if (prop === 'value') {
    attributes.push(['value', String(value)]);
  } else if (typeof value === 'boolean') {
    // Any other attribute takes a boolean only as data- and aria- text.
    if (/^(data|aria)-/i.test(name)) attributes.push([name, String(value)]);
  } else if ((prop === 'src' || (prop === 'href' && tag !== 'a')) && value === '') {
    // An empty address would load the page itself again (a link's empty href is this page, and stays).
  } else if (ATTRIBUTE_NAME.test(name)) {
    attributes.push([name, String(value)]);
  }
}

/** A style object as CSS text, as React writes it: `width:500px;z-index:300000;--wm-accent:#123456`. */
export function cssText(style: unknown): string {
  if (typeof style !== 'object' || style === null) throw new TypeError('renderToNodes: a style must be an object of properties');
  const declarations: string[] = [];
  for (const [name, value] of Object.entries(style)) {
    if (value == null || typeof value === 'boolean' || value === '') continue;
    if (name.startsWith('--')) {
      declarations.push(`${name}:${String(value).trim()}`);
      continue;
    }
    const property = name.replace(/([A-Z])/g, '-$1').toLowerCase().replace(/^ms-/, '-ms-');
    const text = typeof value === 'number' ? (value === 0 || UNITLESS.has(name) ? String(value) : `${value}px`) : String(value).trim();
    declarations.push(`${property}:${text}`);
  }
  return declarations.join(';');
}
