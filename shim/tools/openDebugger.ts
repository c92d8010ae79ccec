/**
 * The debugger (analytics §1 "the debugger launcher shows a guide list box with a title, a badge image, an
 * optional search box with the placeholder 'Type here to start looking...', a list of guide names, and an
 * optional 'powered by' footer"; §8 CSP violations mentioning the agent, the last 10). Beyond the spec's box,
 * what makes it worth opening: each guide's verdict on this page as the worker's engine judged it (why it shows
 * or not: page, element, throttling, completion...), and a button to show it now. Plain DOM in a shadow root,
 * read again every 2 s while open; the host page's styles cannot reach it.
 */
import type { GuideDiagnostics } from '../../shared/protocol';
import type { Running } from '../agentState';

/** spec: analytics §9 "CSP error list keeps 10". */
export const CSP_ERRORS_KEPT = 10;
const REFRESH_MS = 2000;
const BADGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="11" fill="#4f46e5"/><path d="M7 12.5l3 3 7-7" stroke="#fff" stroke-width="2.4" fill="none" stroke-linecap="round"/></svg>')}`;

const CSS = `
:host { all: initial; }
.box { position: fixed; right: 16px; bottom: 16px; width: 360px; max-height: 70vh; display: flex; flex-direction: column;
  z-index: 2147483000; background: #fff; color: #0f172a; border: 1px solid #cbd5e1; border-radius: 10px;
  box-shadow: 0 10px 30px rgba(15, 23, 42, .2); font: 13px/1.4 system-ui, sans-serif; }
header { display: flex; align-items: center; gap: 8px; padding: 10px 12px; border-bottom: 1px solid #e2e8f0; }
header img { width: 22px; height: 22px; }
header h1 { flex: 1; margin: 0; font-size: 14px; }
button { font: inherit; cursor: pointer; border: 1px solid #cbd5e1; background: #fff; border-radius: 6px; padding: 2px 8px; }
input { margin: 8px 12px; padding: 6px 8px; border: 1px solid #cbd5e1; border-radius: 6px; font: inherit; }
.where { padding: 0 12px; color: #475569; word-break: break-all; }
ul { list-style: none; margin: 0; padding: 4px 12px; overflow: auto; }
li { padding: 6px 0; border-bottom: 1px dashed #e2e8f0; }
.row { display: flex; align-items: center; gap: 8px; }
.name { flex: 1; font-weight: 600; }
.why { color: #475569; font-size: 12px; }
.yes { color: #047857; }
h2 { font-size: 12px; margin: 8px 12px 0; color: #b91c1c; }
.csp li { color: #b91c1c; font-size: 12px; }
footer { padding: 6px 12px; color: #64748b; font-size: 11px; text-align: end; border-top: 1px solid #e2e8f0; }
`;

export interface DebuggerPanel {
  close(): void;
}

/** Violations seen since the tools loaded that mention the agent (its files' origin or its name). */
const cspErrors: string[] = [];
let cspListening = false;

export function watchCspViolations(agentOrigin: string): void {
  if (cspListening) return;
  cspListening = true;
  addEventListener('securitypolicyviolation', (e) => {
    const text = `${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}${e.sourceFile ? ` (${e.sourceFile}:${e.lineNumber})` : ''}`;
    if (!text.includes(agentOrigin) && !/waymark/i.test(text)) return;
    cspErrors.push(text);
    if (cspErrors.length > CSP_ERRORS_KEPT) cspErrors.splice(0, cspErrors.length - CSP_ERRORS_KEPT);
  });
}

export function openDebugger(running: Running, options: { apiKey: string; showGuide(id: string): void; onClose(): void; hideCredits: boolean }): DebuggerPanel {
  const host = document.createElement('div');
  host.setAttribute('data-waymark-debugger', '');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const box = el('section', { class: 'box', role: 'dialog', 'aria-label': 'Waymark debugger' });
  const close = el('button', { type: 'button', 'aria-label': 'Close the debugger' }, '✕');
  const header = el('header', {}, el('img', { src: BADGE, alt: '' }), el('h1', {}, 'Waymark debugger'), close);
  const search = el('input', { type: 'search', placeholder: 'Type here to start looking...', 'aria-label': 'Search guides' }) as HTMLInputElement;
  const where = el('p', { class: 'where' });
  const list = el('ul', { 'aria-label': 'Guides' });
  const csp = el('div', { class: 'csp' });
  box.append(header, search, where, list, csp);
  if (!options.hideCredits) box.append(el('footer', {}, 'powered by Waymark'));
  root.append(style, box);
  document.documentElement.appendChild(host);

  let diagnostics: GuideDiagnostics | null = null;
  const render = () => {
    const q = search.value.trim().toLowerCase();
    const guides = (diagnostics?.guides ?? []).filter((g) => !q || `${g.name ?? ''} ${g.id}`.toLowerCase().includes(q));
    where.textContent = diagnostics
      ? diagnostics.loadError ?? `${diagnostics.guides.length} guides loaded for ${diagnostics.url || 'this page'}`
      : 'Asking the agent…';
    list.replaceChildren(
      ...guides.map((g) => {
        const show = el('button', { type: 'button', 'aria-label': `Show ${g.name ?? g.id}` }, 'Show');
        show.addEventListener('click', () => options.showGuide(g.id));
        const verdict = g.candidate ? el('div', { class: 'why yes' }, 'shows on this page') : el('div', { class: 'why' }, g.reason);
        return el('li', { 'data-guide-id': g.id }, el('div', { class: 'row' }, el('span', { class: 'name' }, g.name ?? g.id), show), verdict, el('div', { class: 'why' }, g.completion));
      }),
    );
    if (!guides.length && diagnostics) list.replaceChildren(el('li', { class: 'why' }, q ? 'No guide matches.' : 'No guide is loaded for this visitor.'));
    csp.replaceChildren(...(cspErrors.length ? [el('h2', {}, 'Content-Security-Policy violations'), el('ul', {}, ...cspErrors.map((t) => el('li', {}, t)))] : []));
  };
  const refresh = () =>
    void running.bridge.call((w) => w.guideDiagnostics()).then(
      (d) => {
        diagnostics = d;
        render();
      },
      () => undefined,
    );
  search.addEventListener('input', render);
  const timer = setInterval(refresh, REFRESH_MS);
  refresh();
  render();
  // analytics §8 debugger plugin handshake: the page says the debugger is ready, keyed by its api key.
  postMessage({ type: 'ready', apiKey: options.apiKey, source: 'waymark-debugger' }, location.origin);

  const panel: DebuggerPanel = {
    close() {
      clearInterval(timer);
      host.remove();
    },
  };
  close.addEventListener('click', () => {
    panel.close();
    options.onClose();
  });
  return panel;
}

function el(tag: string, attributes: Record<string, string>, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}
