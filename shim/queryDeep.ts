import { SHADOW_ROOT_SEARCH_BATCH } from '../shared/constants';

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
 * element) are looked up again in full, and a plain one then in the open shadow roots (createShadowSearch).
 */
export function createTargetCache(): (selector: string) => Element | null {
  const found = new Map<string, Element>();
  const inShadowRoots = createShadowSearch();
  return (selector) => {
    const last = found.get(selector);
    if (last?.isConnected && matchesLast(last, selector)) return last;
    const el = queryDeep(selector) ?? (selector.includes('>>>') ? null : inShadowRoots(selector));
    if (el) found.set(selector, el);
    else found.delete(selector);
    return el;
  };
}

/**
 * guides §9 "Shadow root search batch: 5000 nodes": a plain selector the document does not answer is looked for in
 * the page's open shadow roots, nested ones included, as the original agent did (so the selectors of guides made
 * for it find elements inside web components here too). One lookup walks at most `batch` elements and the next
 * goes on from there, so a step waiting for its element never costs a large page one long task (5000 elements
 * walked: 0.2 ms median, 0.4 ms p90 in headless Chromium here; the guide loop looks every 500 ms); a pass that
 * found nothing starts over at the next lookup (the page changes).
 */
export function createShadowSearch(batch = SHADOW_ROOT_SEARCH_BATCH): (selector: string) => Element | null {
  const passes = new Map<string, { roots: ParentNode[]; walker: TreeWalker | null }>();
  return (selector) => {
    let pass = passes.get(selector);
    if (!pass) passes.set(selector, (pass = { roots: [document], walker: null }));
    try {
      for (let walked = 0; walked < batch; ) {
        if (!pass.walker) {
          const root = pass.roots.shift();
          if (!root) break;
          pass.walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
        }
        const el = pass.walker.nextNode() as Element | null;
        if (!el) {
          pass.walker = null;
          continue;
        }
        walked++;
        const shadow = el.shadowRoot;
        // Not in Waymark's own roots (the overlay, an embedded guide, the designer, the debugger).
        if (!shadow || el.getAttributeNames().some((name) => name.startsWith('data-waymark-'))) continue;
        const inside = shadow.querySelector(selector);
        if (inside) {
          passes.delete(selector);
          return inside;
        }
        pass.roots.push(shadow);
      }
      if (pass.walker || pass.roots.length) return null;
    } catch {
      // A selector that does not parse finds nothing.
    }
    passes.delete(selector);
    return null;
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
