/**
 * React's static markup (react-dom/server renderToStaticMarkup) as PaintedNode[] (issue #34): how the tests read
 * what React's own renderer makes of the step surfaces, the reference the worker's renderToNodes
 * (overlay/render) is held to. It painted the steps until 2026-11-28. Not a general HTML parser: it reads what React writes, which is well-formed (every
 * attribute double-quoted, void elements written `<img/>`, every other element closed, text and attribute values
 * escaped as `&amp; &lt; &gt; &quot; &#x27;`). Entities are decoded, so the page sets text and values as they
 * are, never as markup. Comments are skipped; a closing tag that does not match closes up to its element.
 */
import type { PaintedNode } from '../../shared/protocol';

type Element = [tag: string, attributes: Array<[name: string, value: string]>, children: PaintedNode[]];

/** HTML's void elements: no content, no closing tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Elements whose content is raw text up to their closing tag (React writes a style sheet's text unescaped). */
const RAW_TEXT = new Set(['script', 'style']);
/** An opening tag: its name, its attributes' text, and a closing slash. */
const OPEN_TAG = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*(\/?)>/y;
/** One attribute: `name="value"`, or a bare `name` (value ""). */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*"([^"]*)")?/g;
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The character references of React's escaping (and numeric ones) decoded; anything else is left as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name]!;
    const code = hex ? parseInt(hex, 16) : Number(dec);
    // NUL, surrogates and beyond Unicode are what a browser's parser reads as U+FFFD too.
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  });
}

/** The nodes of `markup`, in order; text between tags as decoded strings. */
export function parseStaticMarkup(markup: string): PaintedNode[] {
  const top: PaintedNode[] = [];
  /** The open elements, innermost last. */
  const open: Element[] = [];
  const children = () => (open.length ? open[open.length - 1]![2] : top);
  const text = (raw: string) => {
    if (!raw) return;
    const list = children();
    const value = decodeEntities(raw);
    // Two runs of text with a comment between them are one text node, as a browser builds them.
    if (typeof list[list.length - 1] === 'string') list[list.length - 1] += value;
    else list.push(value);
  };
  let i = 0;
  while (i < markup.length) {
    const lt = markup.indexOf('<', i);
    if (lt < 0) {
      text(markup.slice(i));
      break;
    }
    text(markup.slice(i, lt));
    if (markup.startsWith('<!--', lt)) {
      const end = markup.indexOf('-->', lt + 4);
      i = end < 0 ? markup.length : end + 3;
      continue;
    }
    if (markup[lt + 1] === '/') {
      const end = markup.indexOf('>', lt);
      const tag = markup.slice(lt + 2, end < 0 ? markup.length : end).trim().toLowerCase();
      const at = open.map((e) => e[0]).lastIndexOf(tag);
      if (at >= 0) open.length = at;
      i = end < 0 ? markup.length : end + 1;
      continue;
    }
    OPEN_TAG.lastIndex = lt;
    const tag = OPEN_TAG.exec(markup);
    if (!tag) {
      // A '<' that starts no tag (React escapes its own, so not from React): text, as a browser reads it.
      text('<');
      i = lt + 1;
      continue;
    }
    const name = tag[1]!.toLowerCase();
    const attributes: Element[1] = [];
    for (const [, attr, value] of tag[2]!.matchAll(ATTRIBUTE)) attributes.push([attr!.toLowerCase(), decodeEntities(value ?? '')]);
    const element: Element = [name, attributes, []];
    children().push(element);
    i = lt + tag[0].length;
    if (VOID.has(name) || tag[3]) continue;
    if (RAW_TEXT.has(name)) {
      const end = markup.toLowerCase().indexOf(`</${name}`, i);
      const content = markup.slice(i, end < 0 ? markup.length : end);
      if (content) element[2].push(content);
      i = end < 0 ? markup.length : markup.indexOf('>', end) + 1 || markup.length;
      continue;
    }
    open.push(element);
  }
  return top;
}
