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
