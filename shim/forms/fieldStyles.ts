/**
 * The look of validated fields (analytics §2): gray before validation, a red border when invalid. One constructed
 * stylesheet adopted by the document (and by each shadow root a field lives in): a page's CSP that forbids inline
 * <style> does not apply to it, and the host's own rules for a valid field are left alone.
 */
export const STATE_ATTRIBUTE = 'data-waymark-validation';
export const GRAY = '#9aa0a6';
export const RED = '#d93025';

const CSS = `
[${STATE_ATTRIBUTE}="unknown"] { border-color: ${GRAY} !important; }
[${STATE_ATTRIBUTE}="invalid"] { border-color: ${RED} !important; outline-color: ${RED} !important; }
`;

let sheet: CSSStyleSheet | null = null;

/** Adopts the sheet into `root` (the document or a field's shadow root) once; returns how to take it back. */
export function adoptFieldStyles(root: Document | ShadowRoot): () => void {
  sheet ??= new CSSStyleSheet();
  if (!sheet.cssRules.length) sheet.replaceSync(CSS);
  const own = sheet;
  if (!root.adoptedStyleSheets.includes(own)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, own];
  return () => {
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== own);
  };
}
