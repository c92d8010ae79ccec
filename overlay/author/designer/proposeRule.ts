/**
 * The designer's element rule proposal (issue #15): from what an element and its ancestors look like, the most
 * resilient CSS selector that finds it alone on the page. Preferred in order: a stable id, a stable test or
 * naming attribute, the tag with stable classes, the same under a stable ancestor, and only then positions.
 * Generated-looking names (CSS-in-JS hashes, framework ids, long random tokens) are never proposed and are
 * warned about when a hand-written rule leans on them. Pure: the elements come in as plain facts and the page
 * is asked through `count`, so it runs without a DOM.
 */

/** What the proposal reads of one element. */
export interface ElementFacts {
  tag: string;
  id?: string;
  classes: string[];
  /** The attributes worth naming, as found (data-testid, name, aria-label, ...). */
  attributes: Record<string, string>;
  /** 1-based position among siblings of the same tag. */
  nthOfType: number;
}

export interface RuleProposal {
  rule: string;
  matches: number;
  warnings: string[];
}

/** Attributes made to name elements, best first. */
export const STABLE_ATTRIBUTES = ['data-testid', 'data-test', 'data-cy', 'data-qa', 'data-id', 'data-guide', 'name', 'aria-label', 'title', 'role', 'type'] as const;

/** Whether a class or id looks generated (a build hash, a framework counter, a random token). */
export function isGenerated(name: string): boolean {
  return (
    // CSS-in-JS and scoped-style prefixes (emotion, styled-components, styled-jsx, Svelte).
    /^(css|sc|jsx|emotion|styled|svelte)-[A-Za-z0-9_-]{3,}$/.test(name) ||
    // CSS modules' hash suffix: Button_primary__3xYz1.
    /__[A-Za-z0-9_-]{5}$/.test(name) ||
    // Framework counters and ids: React's :r1:, ember123, ext-gen12.
    /^:r[0-9a-z]+:$/.test(name) ||
    /^(ember|ext-gen|yui_|gwt-uid-)\d+/.test(name) ||
    /\d{4,}/.test(name) ||
    /^[a-f0-9]{8,}$/i.test(name) ||
    // Long random tokens: digits and both cases mixed.
    (name.length >= 10 && /\d/.test(name) && /[A-Z]/.test(name) && /[a-z]/.test(name) && !/[-_]/.test(name))
  );
}

/** A CSS identifier escaped for a selector (the common cases; CSS.escape where the page has it). */
export function cssIdent(value: string): string {
  const escape = (globalThis as { CSS?: { escape?(v: string): string } }).CSS?.escape;
  if (escape) return escape(value);
  return value.replace(/^(\d)/, '\\3$1 ').replace(/([^a-zA-Z0-9_\u00a0-\uffff-])/g, '\\$1');
}

function attributeSelector(name: string, value: string): string {
  return `[${name}="${value.replace(/["\\]/g, '\\$&')}"]`;
}

/** The selectors that name one element by itself, best first. */
function ownSelectors(el: ElementFacts): string[] {
  const tag = el.tag.toLowerCase();
  const out: string[] = [];
  if (el.id && !isGenerated(el.id)) out.push(`#${cssIdent(el.id)}`);
  for (const name of STABLE_ATTRIBUTES) {
    const value = el.attributes[name];
    if (value && value.length <= 80 && !isGenerated(value)) out.push(`${name === 'type' || name === 'role' ? tag : ''}${attributeSelector(name, value)}`);
  }
  const classes = el.classes.filter((c) => c && !isGenerated(c)).slice(0, 3);
  if (classes.length) out.push(`${tag}${classes.map((c) => `.${cssIdent(c)}`).join('')}`);
  out.push(tag);
  return out;
}

/**
 * Proposes a rule for `chain[0]`, with `chain` running from the element up to (not including) its root's
 * top (the document's body or a shadow root). `count` answers how many elements a selector matches.
 */
export function proposeRule(chain: ElementFacts[], count: (selector: string) => number): RuleProposal {
  const [target, ...ancestors] = chain;
  if (!target) return { rule: '', matches: 0, warnings: ['nothing was picked'] };
  const own = ownSelectors(target);
  for (const selector of own) {
    const n = count(selector);
    if (n === 1) return { rule: selector, matches: 1, warnings: [] };
  }
  // Under the nearest ancestor that is itself unique.
  for (const ancestor of ancestors) {
    const anchor = ownSelectors(ancestor).find((s) => s !== ancestor.tag.toLowerCase() && count(s) === 1);
    if (!anchor) continue;
    for (const selector of own) {
      const candidate = `${anchor} ${selector}`;
      if (count(candidate) === 1) return { rule: candidate, matches: 1, warnings: [] };
    }
    break;
  }
  // Positions, from the nearest unique ancestor (or the top): resilient to nothing, so said.
  const steps: string[] = [];
  let anchor = '';
  for (const el of chain) {
    const unique = ownSelectors(el).find((s) => s !== el.tag.toLowerCase() && count(s) === 1);
    if (unique && el !== target) {
      anchor = unique;
      break;
    }
    steps.unshift(`${el.tag.toLowerCase()}:nth-of-type(${el.nthOfType})`);
  }
  const positional = [anchor, steps.join(' > ')].filter(Boolean).join(' > ');
  const matches = count(positional);
  if (matches === 1) return { rule: positional, matches, warnings: ['found by position only: a change to the page layout may lose it'] };
  const best = own[0]!;
  return checkRule(best, count(best));
}

/** The warnings of a rule as written (by hand or proposed): ambiguous, missing, generated names. */
export function checkRule(rule: string, matches: number): RuleProposal {
  const warnings: string[] = [];
  if (!rule.trim()) warnings.push('no element rule: the step is not anchored');
  else if (matches === 0) warnings.push('matches nothing on this page');
  else if (matches > 1) warnings.push(`ambiguous: matches ${matches} elements on this page; the step anchors to the first`);
  const names = rule.match(/[.#][A-Za-z_-][\w-]*/g) ?? [];
  const generated = names.map((n) => n.slice(1)).filter(isGenerated);
  if (generated.length) warnings.push(`leans on generated names (${generated.join(', ')}): the next build of the app may change them`);
  return { rule, matches, warnings };
}
