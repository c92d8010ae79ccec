/** Whether the browser's own parser reads `selector` (the server has no DOM to ask). */
export function isSelector(selector: string): boolean {
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}
