/**
 * Guide content (a JSON tree of building blocks) to React elements. Text only ever becomes React text
 * children (escaped), never innerHTML; there is no eval. Tags and props pass through allow-lists; scripts
 * become noscript (guides §5). The full validation with its error messages is the guide engine's
 * (issue #5); this renderer is the last line of defence and drops anything it does not know.
 */
import { createContext, createElement, type ReactNode } from 'react';
import type { DomNode, GuideAction } from '../shared/guides/guides';
import type { PollAnswers, UiElement } from './api';
import { BLOCK_TAGS } from './blockTags';
import { pollAnswersIn, unansweredIn } from './pollAnswers';

const VOID = new Set(['img', 'br', 'hr', 'input']);
/** Elements the keyboard already reaches and presses (an `a` only with an href). */
const NATIVE_CONTROLS = new Set(['button', 'input', 'select', 'textarea', 'option', 'label']);
const PROPS = new Set([
  'id', 'className', 'style', 'src', 'href', 'alt', 'title', 'type', 'name', 'value', 'placeholder', 'role',
  'tabIndex', 'target', 'width', 'height', 'htmlFor', 'checked', 'disabled', 'min', 'max', 'step', 'rel',
]);

export interface RenderContext {
  onAction(actions: GuideAction[], ui: UiElement, answers?: PollAnswers, unanswered?: string[]): void;
  /** A block's actions to the index its element carries as `data-wm-action` (ActionMarks). @default none */
  mark?: ((actions: GuideAction[]) => number) | null;
}

/**
 * Issue #34: set when the worker renders a step to nodes (overlay/render): each building block with actions gets
 * `data-wm-action="i"`, i the index this gives its actions, and the page runs them by delegation. In the browser's
 * own React render there is none and nothing changes.
 */
export const ActionMarks = createContext<((actions: GuideAction[]) => number) | null>(null);

export function renderBlocks(node: DomNode, ctx: RenderContext, key?: number): ReactNode {
  const type = node.type === 'script' ? 'noscript' : BLOCK_TAGS.has(node.type) ? node.type : 'div';
  const props: Record<string, unknown> = { key };
  for (const [name, value] of Object.entries(node.props ?? {})) {
    const prop = name === 'class' ? 'className' : name === 'for' ? 'htmlFor' : name;
    if (prop === 'style') props.style = styleOf(value);
    else if (prop === 'href') props.href = safeUrl(value, ['http:', 'https:', 'mailto:']);
    else if (prop === 'src') props.src = type === 'img' ? safeUrl(value, ['http:', 'https:', 'data:']) : undefined;
    else if (PROPS.has(prop) || prop.startsWith('data-') || prop.startsWith('aria-')) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') props[prop] = value;
    }
  }
  if (type === 'a' && props.href) props.rel = 'noopener noreferrer';
  // Uncontrolled form fields: the visitor types, React does not hold their values.
  if ('value' in props && type !== 'option' && !(type === 'input' && (props.type === 'radio' || props.type === 'checkbox'))) {
    props.defaultValue = props.value;
    delete props.value;
  }
  if ('checked' in props) {
    props.defaultChecked = props.checked;
    delete props.checked;
  }
  const actions = node.actions?.filter((a) => a && typeof a.action === 'string') ?? [];
  // Marked, only a block with actions carries the attribute: an author's own data-wm-action would run another's.
  if (ctx.mark) props['data-wm-action'] = actions.length ? ctx.mark(actions) : undefined;
  if (actions.length) {
    const ui: UiElement = { id: String(props.id ?? ''), type: type.toUpperCase() };
    props.onClick = (event: { preventDefault(): void; currentTarget: Element }) => {
      event.preventDefault();
      // guides §5: poll answers come from text, select and checked radio inputs of the step.
      const answers = actions.some((a) => a.action === 'submitPoll') ? pollAnswersIn(event.currentTarget) : undefined;
      ctx.onAction(actions, ui, answers, unansweredIn(event.currentTarget));
    };
    if (type === 'button' && !props.type) props.type = 'button';
    else if (!NATIVE_CONTROLS.has(type) && !(type === 'a' && props.href)) {
      // An element the keyboard cannot reach or press by itself: it becomes a button for the keyboard and for
      // assistive technology (Enter and Space press it), unless the author gave it a role or tab index.
      props.role ??= 'button';
      props.tabIndex ??= 0;
      const onClick = props.onClick as (event: { preventDefault(): void; currentTarget: Element }) => void;
      props.onKeyDown = (event: { key: string; preventDefault(): void; currentTarget: Element }) => {
        if (event.key === 'Enter' || event.key === ' ') onClick(event);
      };
    }
  }
  if (type === 'noscript' || VOID.has(type)) return createElement(type, props);
  if (type === 'textarea') {
    // A textarea's text is its value (React refuses both, and elements in it): the value, else the content.
    if (!('defaultValue' in props) && typeof node.content === 'string' && node.content) props.defaultValue = node.content;
    return createElement(type, props);
  }
  const children: ReactNode[] = [];
  if (typeof node.content === 'string' && node.content) children.push(node.content);
  node.children?.forEach((child, i) => {
    if (child && typeof child === 'object' && typeof child.type === 'string') children.push(renderBlocks(child, ctx, i));
  });
  return createElement(type, props, ...children);
}

function safeUrl(value: unknown, protocols: string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return protocols.includes(new URL(value, 'https://invalid.example/').protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A style object, or a CSS declaration string, as a React style object (set via CSSOM: CSP-safe). */
function styleOf(value: unknown): Record<string, string | number> | undefined {
  const style: Record<string, string | number> = {};
  const put = (name: string, v: unknown) => {
    if (typeof v !== 'string' && typeof v !== 'number') return;
    const key = name.trim().replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (key && !/url\s*\(/i.test(String(v))) style[key] = v;
  };
  if (typeof value === 'string') {
    for (const decl of value.split(';')) {
      const i = decl.indexOf(':');
      if (i > 0) put(decl.slice(0, i), decl.slice(i + 1).trim());
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) put(k, v);
  } else {
    return undefined;
  }
  return style;
}
