/**
 * Guide selectors that reach into open shadow roots (issue #7): `host >>> inner` finds `host` in the
 * document, then `inner` in host's shadow root; the combinator repeats for nested roots
 * (`app-shell >>> side-nav >>> #reports`). A selector without `>>>` is a plain querySelector. Closed
 * shadow roots are not reachable, by design of the platform. A selector that does not parse finds nothing.
 */
export function queryDeep(selector: string, root: ParentNode = document): Element | null {
  try {
    let scope: ParentNode | null = root;
    let found: Element | null = null;
    for (const part of selector.split('>>>')) {
      if (!scope) return null;
      found = scope.querySelector(part.trim());
      scope = found?.shadowRoot ?? null;
    }
    return found;
  } catch {
    return null;
  }
}

/**
 * queryDeep with memory, for the guide loop's every-tick lookups (issue #7: large pages): an element found
 * before is kept while it is still in the page and still matches its selector, a check that reads the one
 * element instead of scanning the document. Only selectors with nothing found (a step waiting for its
 * element) are looked up again in full.
 */
export function createTargetCache(): (selector: string) => Element | null {
  const found = new Map<string, Element>();
  return (selector) => {
    const last = found.get(selector);
    if (last?.isConnected && matchesLast(last, selector)) return last;
    const el = queryDeep(selector);
    if (el) found.set(selector, el);
    else found.delete(selector);
    return el;
  };
}

/** Whether `el` still answers the last part of `selector` (the part that named it). */
function matchesLast(el: Element, selector: string): boolean {
  try {
    const parts = selector.split('>>>');
    return el.matches(parts[parts.length - 1]!.trim());
  } catch {
    return false;
  }
}
