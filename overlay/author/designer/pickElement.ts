/**
 * The designer's element picker (issue #15): while it runs, the element under the pointer is outlined (a box of
 * the designer's own, never a style on the host's element), a click picks it without reaching the host's
 * handlers, and Escape stops. It reaches into open shadow roots (the event's composed path) and same-origin
 * iframes (listened to as well), and answers the proposed rule (proposeRule) with its match count, in the
 * agent's `host >>> inner` syntax across shadow roots.
 */
import { checkRule, proposeRule, STABLE_ATTRIBUTES, type ElementFacts, type RuleProposal } from './proposeRule';
import { AUTHOR_TOOL_HOSTS, hostSelector, OVERLAY_HOST } from '../../../shared/authoring/ownHosts';

export interface Pick {
  element: Element;
  proposal: RuleProposal;
  /** The element is inside a same-origin iframe: the step shows in that frame (by its own agent). */
  inFrame: boolean;
}

export interface Picker {
  stop(): void;
}

/** Elements of the designer and the agent's overlay: never picked. */
const OWN = hostSelector([OVERLAY_HOST, ...AUTHOR_TOOL_HOSTS]);

export function pickElement(box: HTMLElement, onPick: (pick: Pick) => void, onStop: () => void): Picker {
  const docs = [document, ...sameOriginFrames()];
  let stopped = false;

  const targetOf = (event: Event): Element | null => {
    const first = event.composedPath()[0];
    const el = first instanceof Element ? first : (event.target as Element | null);
    if (!el || (el as Element).closest?.(OWN) || hostOf(el)?.closest(OWN)) return null;
    return el;
  };
  const onMove = (event: Event) => {
    const el = targetOf(event);
    if (!el) {
      box.style.display = 'none';
      return;
    }
    const rect = el.getBoundingClientRect();
    const offset = frameOffset(el);
    Object.assign(box.style, {
      display: 'block',
      left: `${rect.left + offset.x}px`,
      top: `${rect.top + offset.y}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
  };
  const swallow = (event: Event) => {
    if (!targetOf(event)) return;
    event.preventDefault();
    event.stopPropagation();
    event.stopImmediatePropagation();
  };
  const onClick = (event: Event) => {
    const el = targetOf(event);
    if (!el) return;
    swallow(event);
    stop();
    onPick({ element: el, proposal: ruleFor(el), inFrame: el.ownerDocument !== document });
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    stop();
  };
  const listeners: Array<[string, EventListener]> = [
    ['pointermove', onMove],
    ['pointerdown', swallow],
    ['mousedown', swallow],
    ['pointerup', swallow],
    ['mouseup', swallow],
    ['click', onClick],
    ['keydown', onKey as EventListener],
  ];
  for (const doc of docs) for (const [type, fn] of listeners) doc.addEventListener(type, fn, true);

  function stop(): void {
    if (stopped) return;
    stopped = true;
    box.style.display = 'none';
    for (const doc of docs) for (const [type, fn] of listeners) doc.removeEventListener(type, fn, true);
    onStop();
  }
  return { stop };
}

/** The rule of an element, through the shadow roots above it (`host >>> inner`), with its count on the page. */
export function ruleFor(el: Element): RuleProposal {
  const parts: string[] = [];
  let current: Element | null = el;
  const warnings: string[] = [];
  while (current) {
    const root = current.getRootNode() as Document | ShadowRoot;
    const proposal = proposeRule(chainOf(current), (selector) => countIn(root, selector));
    parts.unshift(proposal.rule);
    warnings.push(...proposal.warnings);
    current = root instanceof ShadowRoot ? root.host : null;
  }
  const rule = parts.join(' >>> ');
  const checked = checkRule(rule, countDeep(el.ownerDocument, rule));
  return { rule, matches: checked.matches, warnings: [...new Set([...warnings, ...checked.warnings])] };
}

/** How many elements a rule (with `>>>` into shadow roots) matches in `doc`. */
export function countDeep(doc: Document, rule: string): number {
  const parts = rule.split('>>>').map((p) => p.trim());
  let scopes: Array<Document | ShadowRoot> = [doc];
  let found: Element[] = [];
  for (const [i, part] of parts.entries()) {
    found = scopes.flatMap((scope) => {
      try {
        return [...scope.querySelectorAll(part)];
      } catch {
        return [];
      }
    });
    if (i < parts.length - 1) scopes = found.map((f) => f.shadowRoot).filter((r): r is ShadowRoot => r !== null);
  }
  return found.length;
}

function countIn(root: Document | ShadowRoot, selector: string): number {
  try {
    return root.querySelectorAll(selector).length;
  } catch {
    return 0;
  }
}

/** The element and its ancestors up to (not including) body or the shadow root. */
function chainOf(el: Element): ElementFacts[] {
  const chain: ElementFacts[] = [];
  for (let e: Element | null = el; e && e.tagName !== 'BODY' && e.tagName !== 'HTML'; e = e.parentElement) {
    const attributes: Record<string, string> = {};
    for (const name of STABLE_ATTRIBUTES) {
      const value = e.getAttribute(name);
      if (value) attributes[name] = value;
    }
    let nth = 1;
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === e.tagName) nth++;
    chain.push({ tag: e.tagName, id: e.id || undefined, classes: [...e.classList], attributes, nthOfType: nth });
  }
  return chain;
}

function hostOf(el: Element): Element | null {
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** How many elements a rule matches in the same-origin frames of the page (a step there is its frame's agent's). */
export function countInFrames(rule: string): number {
  return sameOriginFrames().reduce((n, doc) => n + countDeep(doc, rule), 0);
}

function sameOriginFrames(): Document[] {
  const out: Document[] = [];
  for (const frame of document.querySelectorAll('iframe')) {
    try {
      if (frame.contentDocument && !frame.hasAttribute('data-waymark-preview-bar')) out.push(frame.contentDocument);
    } catch {
      // Cross-origin: not pickable from here.
    }
  }
  return out;
}

/** Where an element's frame sits in the top page (0, 0 for the top document). */
function frameOffset(el: Element): { x: number; y: number } {
  const view = el.ownerDocument.defaultView;
  const frame = view && view !== window ? (view.frameElement as Element | null) : null;
  if (!frame) return { x: 0, y: 0 };
  const rect = frame.getBoundingClientRect();
  return { x: rect.left, y: rect.top };
}
