/**
 * A feature's CSS selector (issue #35), compiled once into a test of stored clicks: css-what parses it, the parse is
 * checked against what a stored element path can answer (elementPathAdapter), and css-select, a maintained selector
 * engine, compiles it over that adapter. No selector is parsed or matched by hand here.
 *
 * A click is the feature's when the clicked element or one of its ancestors matches: a click on the icon inside
 * `button.export` is a click on the export button, as the agent's event property rules read a feature's clicks
 * (shared/analytics/eventPropertyRules: `closest`).
 *
 * Refused, with the reason (a 400 naming `rule.selector`), because the stored path cannot answer them and a count
 * that silently missed or over-counted would be wrong: the `+` and `~` combinators, `:last-child`, `:only-child`,
 * `:nth-last-*`, `:last-of-type`, `:only-of-type` and `:nth-child(An+B of S)` (the siblings are not stored, only an
 * element's position among them); `:has()` and `:empty` (children are not stored); `:contains()` (text is kept for
 * the clicked element only, when the agent captures it); state (`:hover`, `:checked`, `:focus`...: the page's state
 * at the click is not stored); `:root`, `:scope`, pseudo-elements, namespaces, the `style` attribute (never captured);
 * a selector that starts with a combinator.
 */
import { compile } from 'css-select';
import { parse, SelectorType, type Selector } from 'css-what';
import { elementPathAdapter, readElementPath, type PathNode } from './elementPathAdapter';

/** The longest selector, in characters. */
export const MAX_SELECTOR_LENGTH = 1000;
/** How deep `:not()`, `:is()`, `:where()` may nest. */
const MAX_NESTING = 8;

/** A compiled selector. */
export interface ElementMatcher {
  /** Whether a stored click's `props.target` (any JSON) is on an element the selector matches, or inside one. */
  matchesClick(target: unknown): boolean;
}

/** Pseudo-classes with a selector list inside, answered by what is inside. */
const NESTED = new Set(['not', 'is', 'matches', 'where']);
/** Pseudo-classes answered by the stored position among siblings. */
const POSITIONAL = new Set(['first-child', 'first-of-type', 'nth-child', 'nth-of-type']);
/** Why the others cannot be answered. */
const UNANSWERABLE: Array<[RegExp, string]> = [
  [/^(last-child|only-child|nth-last-child|last-of-type|only-of-type|nth-last-of-type)$/, 'the siblings after an element are not stored, only its position'],
  [/^(has|empty|parent)$/, 'the children of a clicked element are not stored'],
  [/^i?contains$/, 'text is stored for the clicked element only, and only when the agent captures text'],
  [/^(root|scope|host|host-context)$/, 'the stored path may be cut before the page\'s root, so nothing there can be told apart'],
  [
    /^(hover|active|focus|focus-visible|focus-within|visited|link|any-link|target|checked|selected|disabled|enabled|required|optional|read-only|read-write|placeholder-shown|indeterminate|default|valid|invalid)$/,
    'the page\'s state at the click (hover, focus, checked, visited...) is not stored',
  ],
];

/** What is wrong with a parsed selector list, or undefined when the stored path can answer it. */
function problemOf(selectors: Selector[][], depth: number): string | undefined {
  if (depth > MAX_NESTING) return `nests :not(), :is() or :where() more than ${MAX_NESTING} deep`;
  for (const compound of selectors) {
    for (const [i, token] of compound.entries()) {
      const problem = tokenProblem(token, i === 0, depth);
      if (problem) return problem;
    }
  }
  return undefined;
}

function tokenProblem(token: Selector, first: boolean, depth: number): string | undefined {
  switch (token.type) {
    case SelectorType.Tag:
    case SelectorType.Universal:
      return token.namespace === null || token.namespace === undefined ? undefined : 'uses a namespace (ns|name), which stored clicks do not keep';
    case SelectorType.Attribute:
      if (token.namespace !== null && token.namespace !== undefined) return 'uses a namespace (ns|name), which stored clicks do not keep';
      return token.name.toLowerCase() === 'style' ? 'reads the style attribute, which the agent never captures' : undefined;
    case SelectorType.Descendant:
    case SelectorType.Child:
      return first ? 'must not start with a combinator' : undefined;
    case SelectorType.Adjacent:
    case SelectorType.Sibling:
      return `uses the ${token.type === SelectorType.Adjacent ? '+' : '~'} combinator: the siblings of a clicked element are not stored, only its position among them`;
    case SelectorType.PseudoElement:
      return `uses ::${token.name}: a click is on an element, never on a pseudo-element`;
    case SelectorType.Pseudo: {
      const name = token.name.toLowerCase();
      if (NESTED.has(name)) return Array.isArray(token.data) ? problemOf(token.data, depth + 1) : `:${name}() needs a selector inside`;
      if (POSITIONAL.has(name)) {
        return typeof token.data === 'string' && /\sof\s/i.test(token.data) ? `uses :${name}(An+B of S): the siblings themselves are not stored, only an element's position among them` : undefined;
      }
      const known = UNANSWERABLE.find(([names]) => names.test(name));
      return known
        ? `uses :${name}: ${known[1]}`
        : `uses :${name}, which stored clicks cannot answer (they can: :not(), :is(), :where(), :first-child, :nth-child(), :first-of-type, :nth-of-type())`;
    }
    default:
      return `uses a combinator (${token.type}) stored clicks cannot answer`;
  }
}

/** Compiles `selector`, or says what is wrong with it in words (for a 400 naming `rule.selector`). */
export function compileSelector(selector: string): ElementMatcher | { problem: string } {
  if (!selector.trim() || selector.length > MAX_SELECTOR_LENGTH) return { problem: `must be 1 to ${MAX_SELECTOR_LENGTH} characters` };
  let test: (node: PathNode) => boolean;
  try {
    const parsed = parse(selector);
    const problem = problemOf(parsed, 0);
    if (problem) return { problem };
    test = compile<PathNode, PathNode>(parsed, { adapter: elementPathAdapter, xmlMode: false, cacheResults: false });
  } catch (err) {
    // css-what's and css-select's words: which character, which pseudo-class.
    return { problem: `is not a CSS selector stored clicks can be matched by: ${String((err as Error).message).slice(0, 200)}` };
  }
  return {
    matchesClick(target) {
      return readElementPath(target).some(test);
    },
  };
}
