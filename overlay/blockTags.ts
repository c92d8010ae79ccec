/**
 * The elements a guide's building blocks may become (guides §3 domJson); anything else renders as a div, a script
 * as noscript (guides §5). The React renderer (renderBlocks) and the painted steps' builder (overlay/static) share
 * the list.
 */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'div', 'span', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'img', 'a', 'ul', 'ol', 'li', 'strong',
  'em', 'b', 'i', 'u', 'br', 'hr', 'section', 'header', 'footer', 'label', 'input', 'select', 'option',
  'textarea', 'form', 'small', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'figure', 'figcaption', 'noscript',
]);
