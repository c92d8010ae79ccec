/**
 * Issue #34: the part of React's API the step surfaces use (overlay/Lightbox, Tooltip, Banner, StepChrome,
 * renderBlocks), for rendering them once to nodes in the worker (renderToNodes). The render chunk's build puts this
 * module where those components import `react` and `react/jsx-runtime` (vite.config.ts), so the worker paints a step
 * with the same components the page's React draws, without React's ~140 KB: the chunk loads and renders cold in a
 * few ms instead of ~100.
 *
 * A render to nodes is one pass with nothing to update: state is its initial value, refs are empty, effects never
 * run (what they do, moving focus or placing a tooltip, the page does: overlay/static). What this module does not
 * have, a component cannot import in the render chunk: the build fails, it does not draw differently.
 */

/** What JSX makes: an element of a tag, a component, a fragment or a context's provider. */
export interface StaticElement {
  type: unknown;
  props: Record<string, unknown>;
  key: string | null;
}

export const Fragment = Symbol.for('react.fragment');

/** A context: its value while its provider's children render, else its default. `Provider` is the context itself (React 19). */
export interface StaticContext<T> {
  readonly $$context: true;
  readonly defaultValue: T;
  Provider: StaticContext<T>;
}

/** The values of the providers being rendered, innermost last (renderToNodes pushes and pops). */
export const providedValues: Array<{ context: StaticContext<unknown>; value: unknown }> = [];

export function createContext<T>(defaultValue: T): StaticContext<T> {
  const context = { $$context: true, defaultValue } as StaticContext<T>;
  context.Provider = context;
  return context;
}

export function isContext(type: unknown): type is StaticContext<unknown> {
  return typeof type === 'object' && type !== null && (type as { $$context?: unknown }).$$context === true;
}

export function useContext<T>(context: StaticContext<T>): T {
  for (let i = providedValues.length - 1; i >= 0; i--) {
    if (providedValues[i]!.context === context) return providedValues[i]!.value as T;
  }
  return context.defaultValue;
}

export function useState<T>(initial: T | (() => T)): [T, (next: T | ((previous: T) => T)) => void] {
  return [typeof initial === 'function' ? (initial as () => T)() : initial, () => undefined];
}

export function useRef<T>(initial: T): { current: T } {
  return { current: initial };
}

/** Effects run after a commit to the page; a render to nodes has none. */
export function useEffect(): void {}
export const useLayoutEffect = useEffect;

export function useMemo<T>(make: () => T): T {
  return make();
}

export function useCallback<T>(callback: T): T {
  return callback;
}

export function createElement(type: unknown, config: Record<string, unknown> | null, ...children: unknown[]): StaticElement {
  const { key, ...props } = config ?? {};
  if (children.length) props.children = children.length === 1 ? children[0] : children;
  return { type, props, key: key == null ? null : String(key) };
}

/** The automatic JSX runtime's entries (`react/jsx-runtime`, and the dev runtime's under test). */
export function jsx(type: unknown, props: Record<string, unknown>, key?: unknown): StaticElement {
  return { type, props, key: key == null ? null : String(key) };
}
export const jsxs = jsx;
export const jsxDEV = jsx;
