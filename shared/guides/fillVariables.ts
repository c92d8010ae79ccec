/**
 * guides §3 step attributes.variables (the spec names them; the syntax is ours): `{ "plan": "Pro", "seats": 5 }`
 * and `{{plan}}` in the step's text (a node's content, and its alt, title, placeholder and aria-label) becomes
 * `Pro`. Values go in as text, never as markup; a name the step does not define stays as written, so an author
 * sees what is missing. Pure.
 */
import type { DomNode } from './guides';
import { mapTexts } from './mapTexts';

const PLACEHOLDER = /\{\{\s*([\w-]+)\s*\}\}/g;

/** `node` with its variables filled in; `node` itself when the step defines none. */
export function fillVariables(node: DomNode, variables: unknown): DomNode {
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables) || !Object.keys(variables).length) return node;
  const values = variables as Record<string, unknown>;
  return mapTexts(node, (text) =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const value = values[name];
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : whole;
    }),
  );
}
