/**
 * What the console and designer journeys (issue #32) share: a reference server of their own, the admin API, and
 * finding a control the way the Chromium specs do (by its label, or a button by its name), in the document or an
 * open shadow root (the designer's), so that EnginePage's CSS-only `click` and `type` can reach it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import startE2eServer from '../e2e/globalSetup';
import { E2E_ADMIN_TOKEN } from '../e2e/adminToken';
import type { EnginePage } from './engines';

/**
 * A reference server started as the e2e run starts its own (test/e2e/globalSetup.ts: the same guides, console
 * origins and admin token), for one test file. The console and designer journeys save guides for the demo app,
 * which makes the database own its guides (server/guides/createGuideStore.ts): on the shared server that would
 * take the demo's welcome lightbox away from the other journeys.
 */
export async function startOwnServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const stop = await startE2eServer();
  return { url: process.env.WAYMARK_URL!, stop };
}

/** A fetch of the server's API with the admin token. */
export function adminOf(serverUrl: string) {
  return (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(serverUrl + path, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>), authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
    });
}

/** Polls `read` until `done` holds (at most `timeoutMs`), answers the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

/**
 * Page-side finders, source text to inline before a `run` body: `deepAll` (every match in the document, or in
 * `within`, and the open shadow roots there), `byLabel` (a control by its label, or aria-label, as Playwright's
 * getByLabel exact; `within` an element or root), `byName` (a button or link by its accessible name: aria-label,
 * else its text).
 */
export const FINDERS = `
function deepAll(selector, within = document) {
  const roots = [within], out = [];
  for (let i = 0; i < roots.length && i < 10000; i++) {
    out.push(...roots[i].querySelectorAll(selector));
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return out;
}
const squash = (s) => (s ?? '').replace(/\\s+/g, ' ').trim();
function labelText(label) {
  let text = '';
  for (const node of label.childNodes) {
    if (node.nodeType === 3) text += node.textContent;
    else if (node.nodeType === 1 && !node.matches('input, select, textarea')) text += node.textContent;
  }
  return squash(text);
}
function byLabel(name, within) {
  for (const el of deepAll('input, select, textarea', within)) {
    if (el.getAttribute('aria-label') === name) return el;
    const root = el.getRootNode();
    const label = el.closest('label') ?? (el.id ? root.querySelector('label[for="' + el.id + '"]') : null);
    if (label && labelText(label) === name) return el;
  }
  return null;
}
function byName(name, selector = 'button, [role=button], a[href]') {
  return deepAll(selector).find((el) => {
    const accessible = squash(el.getAttribute('aria-label') ?? el.textContent);
    return typeof name === 'string' ? accessible === name : name.test(accessible);
  }) ?? null;
}
`;

let marks = 0;

/** EnginePage.waitFor, its timeout naming `what` rather than the whole body it polled. */
async function waitNamed(page: EnginePage, body: string, what: string, timeoutMs: number): Promise<void> {
  try {
    await page.waitFor(body, timeoutMs);
  } catch (err) {
    const last = /\(last error: [\s\S]*\)$/.exec(String((err as Error).message))?.[0] ?? '';
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} ${last}`.trim());
  }
}

/**
 * Waits until `finder` (an expression over FINDERS, e.g. `byLabel('Name')`) finds an element, marks it with an
 * attribute of its own and answers a CSS selector of it, for EnginePage's click and type.
 */
export async function mark(page: EnginePage, finder: string, timeoutMs = 10_000): Promise<string> {
  const id = `m${++marks}`;
  await waitNamed(page, `${FINDERS}\nconst el = ${finder}; if (!el) return false; el.setAttribute('data-engine-mark', '${id}'); return true;`, finder, timeoutMs);
  return `[data-engine-mark="${id}"]`;
}

/** Answers `expression` (over FINDERS) evaluated in the page. */
export function read<T>(page: EnginePage, expression: string): Promise<T> {
  return page.run<T>(`${FINDERS}\nreturn ${expression};`);
}

/** Waits until `expression` (over FINDERS) is truthy in the page. */
export function waitUntil(page: EnginePage, expression: string, timeoutMs = 10_000): Promise<void> {
  return waitNamed(page, `${FINDERS}\nreturn !!(${expression});`, expression, timeoutMs);
}

/**
 * Empties the control `finder` finds (through the native value setter, so React and react-hook-form hear it),
 * then types `text` into it with the engine's real key events.
 */
export async function retype(page: EnginePage, finder: string, text: string): Promise<void> {
  const selector = await mark(page, finder);
  await page.run(`${FINDERS}
    const el = deepAll(${JSON.stringify(selector)})[0];
    el.focus();
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value').set.call(el, '');
    el.dispatchEvent(new Event('input', { bubbles: true }));`);
  if (text) await page.type(selector, text);
}

/** Clicks, with the engine's real click, what `finder` finds. */
export async function clickOn(page: EnginePage, finder: string): Promise<void> {
  await page.click(await mark(page, finder));
}

/** A screenshot of the page into test-results/engines/{engine}-{name}.png (not committed). */
export async function shot(page: EnginePage, engine: string, name: string): Promise<void> {
  mkdirSync('test-results/engines', { recursive: true });
  await page.screenshot(`test-results/engines/${engine}-${name}.png`);
}

/**
 * The colour [r, g, b] a PNG screenshot has at CSS pixel (`x`, `y`) of a page `cssWidth` wide (screenshots are in
 * device pixels). Reads the 8-bit RGB or RGBA, non-interlaced PNGs both engines write.
 */
export function pixelAt(path: string, x: number, y: number, cssWidth: number): [number, number, number] {
  const png = readFileSync(path);
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    if (type === 'IHDR') header = png.subarray(at + 8, at + 8 + length);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  if (!header || header[8] !== 8 || header[12] !== 0 || (header[9] !== 2 && header[9] !== 6)) throw new Error(`${path}: not an 8-bit RGB(A) PNG`);
  const width = header.readUInt32BE(0);
  const bpp = header[9] === 6 ? 4 : 3;
  const stride = width * bpp;
  const raw = inflateSync(Buffer.concat(idat));
  const scale = width / cssWidth;
  const [px, py] = [Math.round(x * scale), Math.round(y * scale)];
  // Scanlines are filtered against the one above (PNG spec §9): undo them down to the row wanted.
  let above = Buffer.alloc(stride);
  for (let row = 0; row <= py; row++) {
    const filter = raw[row * (stride + 1)];
    const line = Buffer.from(raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp]! : 0;
      const b = above[i]!;
      const c = i >= bpp ? above[i - bpp]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter!] ?? 0;
      line[i] = (line[i]! + predicted) & 255;
    }
    above = line;
  }
  return [above[px * bpp]!, above[px * bpp + 1]!, above[px * bpp + 2]!];
}
