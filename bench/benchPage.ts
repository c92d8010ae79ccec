/**
 * The host page both sides of the benchmark run on: about 300 elements shaped like a real app (a nav, a
 * toolbar, a data table, a form, cards nested 8-12 levels deep, a pager), with 60 click targets. The
 * baseline and the agent page are the same document; the agent page only adds the install snippet, so
 * any difference in main-thread time is the agent's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What goes into the page. */
export interface BenchPageOptions {
  /** Add the Waymark install snippet (shim/snippet.html) to `<head>`. */
  withAgent: boolean;
  /** API key given to `initialize`. @default 'bench' */
  apiKey?: string;
  /** Visitor id given to `initialize`. @default 'bench-visitor' */
  visitorId?: string;
  /** Issue #16: a peer agent's install instead of Waymark's (`withAgent` false). */
  peerHead?: string;
  /**
   * Issue #7's large page: about 10,000 more elements (a long list, a 60-level nest) and a DOM mutation
   * every 16 ms, beside the same 60 targets. @default false
   */
  large?: boolean;
}

/** Selects the buttons the click burst rotates over, in document order. */
export const BENCH_TARGET_SELECTOR = 'button.bench-target';

/** How many elements match {@link BENCH_TARGET_SELECTOR}; run.ts checks the page against it. */
export const BENCH_TARGET_COUNT = 60;

const SNIPPET_PATH = fileURLToPath(new URL('../shim/snippet.html', import.meta.url));

/** Returns the page's HTML. Deterministic: the same options give the same bytes. */
export function buildBenchPage(options: BenchPageOptions): string {
  const head = options.withAgent
    ? snippetWithInitialize({
        apiKey: options.apiKey ?? 'bench',
        visitor: { id: options.visitorId ?? 'bench-visitor' },
        initializeImmediately: true,
      })
    : (options.peerHead ?? '');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Waymark bench host</title>',
    `<style>${STYLE}</style>`,
    head,
    '</head><body>',
    navigation(),
    '<main id="main" class="layout-main">',
    toolbar(),
    dataTable(),
    settingsForm(),
    nestedCards(),
    '</main>',
    pager(),
    options.large ? largeContent() : '',
    '</body></html>',
  ].join('\n');
}

/**
 * The real install snippet with its `initialize` call replaced by ours. Reading the shipped file (instead of
 * writing our own loader) means the bench pays exactly what a host pays, stub and queue replay included.
 */
function snippetWithInitialize(init: Record<string, unknown>): string {
  const snippet = readFileSync(SNIPPET_PATH, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const call = /waymark\.initialize\(\{[^}]*\}\);/;
  if (!call.test(snippet)) throw new Error(`${SNIPPET_PATH} no longer has a waymark.initialize({...}) call to replace`);
  return snippet.replace(call, `waymark.initialize(${JSON.stringify(init)});`);
}

const STYLE = [
  'body{font:14px system-ui,sans-serif;margin:0}',
  'nav ul{display:flex;gap:12px;list-style:none;margin:0;padding:8px 16px;background:#223}',
  'nav a{color:#fff}',
  '.layout-main{padding:16px}',
  'table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:2px 6px}',
  '.card{padding:2px;border-left:1px solid #ddd}',
  '.btn{margin:2px}',
].join('');

/** `button` elements are type="button" so a dispatched click never submits the form (activation behavior). */
function button(id: string, classes: string, label: string, extra = ''): string {
  return `<button type="button" id="${id}" class="btn bench-target ${classes}"${extra}>${label}</button>`;
}

function navigation(): string {
  const sections = ['Home', 'Reports', 'Dashboards', 'Accounts', 'Visitors', 'Guides', 'Settings', 'Help'];
  const items = sections.map((name) => `<li class="nav-item"><a class="nav-link" href="#${name.toLowerCase()}">${name}</a></li>`);
  return `<header class="app-header"><nav aria-label="Main"><ul class="nav-list">${items.join('')}</ul></nav></header>`;
}

function toolbar(): string {
  const actions = ['new', 'open', 'save', 'copy', 'paste', 'undo', 'redo', 'filter', 'sort', 'group', 'export', 'import', 'share', 'print', 'refresh', 'more'];
  const buttons = actions.map((action, i) =>
    button(`toolbar-${action}`, `btn-toolbar btn-${i % 3 === 0 ? 'primary' : 'secondary'}`, action, ` data-action="${action}" aria-label="${action}"`),
  );
  return `<section class="toolbar" role="toolbar">${buttons.join('')}</section>`;
}

function dataTable(): string {
  const columns = ['Account', 'Plan', 'Visitors', 'Events', 'Action'];
  const header = columns.map((c) => `<th scope="col">${c}</th>`).join('');
  const rows: string[] = [];
  for (let r = 0; r < 10; r++) {
    const cells = [`Account ${r + 1}`, r % 2 ? 'Pro' : 'Team', String(100 + r * 7), String(4000 + r * 311)]
      .map((v) => `<td>${v}</td>`)
      .join('');
    const action = button(`row-${r}-edit`, 'btn-row btn-link', 'Edit', ` data-row="${r}"`);
    rows.push(`<tr class="row ${r % 2 ? 'odd' : 'even'}" data-id="acct-${r}">${cells}<td class="cell-action">${action}</td></tr>`);
  }
  return `<table class="data-table" id="accounts"><thead><tr>${header}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function settingsForm(): string {
  const fields = ['name', 'email', 'company', 'role', 'phone', 'city'].map(
    (name) => `<label for="f-${name}">${name}</label><input id="f-${name}" name="${name}" type="text" placeholder="${name}">`,
  );
  const select = '<select id="f-plan" name="plan"><option>Team</option><option>Pro</option><option>Enterprise</option></select>';
  const buttons = ['save', 'reset', 'validate', 'cancel'].map((a) => button(`form-${a}`, `btn-form btn-${a}`, a, ` name="${a}"`));
  // The form never submits: its buttons are type="button", and onsubmit is a last guard for the page's stability.
  return `<form id="settings" class="settings-form" onsubmit="return false"><fieldset><legend>Settings</legend>${fields.join('')}${select}</fieldset>${buttons.join('')}</form>`;
}

/** Twelve cards whose button sits 8 to 12 divs deep, so serialization walks long ancestor chains. */
function nestedCards(): string {
  const cards: string[] = [];
  for (let c = 0; c < 12; c++) {
    const depth = 8 + (c % 5);
    let inner = button(`card-${c}-action`, 'btn-card btn-icon', `Card ${c + 1}`, ` data-card="${c}" title="Open card ${c + 1}"`);
    for (let d = depth - 1; d >= 0; d--) {
      inner = `<div class="card level-${d}${d === 0 ? ' card-root' : ''}" data-depth="${d}">${inner}</div>`;
    }
    cards.push(inner);
  }
  return `<section class="cards" id="cards">${cards.join('')}</section>`;
}

function pager(): string {
  const buttons: string[] = [];
  for (let p = 0; p < 18; p++) buttons.push(button(`page-${p + 1}`, `btn-page${p === 0 ? ' active' : ''}`, String(p + 1), ` data-page="${p + 1}"`));
  return `<footer class="app-footer"><div class="pager">${buttons.join('')}</div></footer>`;
}

/** LARGE_LIST_ITEMS rows of four elements, a 60-level nest, and a ticker the page mutates every 16 ms. */
const LARGE_LIST_ITEMS = 2400;

function largeContent(): string {
  const rows: string[] = [];
  for (let i = 0; i < LARGE_LIST_ITEMS; i++) {
    rows.push(`<li class="feed-item" data-i="${i}"><span class="feed-title">Item ${i}</span><span class="feed-meta">${i % 7} min ago</span><a href="#item-${i}">open</a></li>`);
  }
  let nest = '<span class="deep-leaf">leaf</span>';
  for (let d = 59; d >= 0; d--) nest = `<div class="deep level-${d}">${nest}</div>`;
  // Both pages run the same mutations: a counter, a class flip and a row replaced, 60 times a second.
  const ticker = `<script>(function () {
    var n = 0, list = document.getElementById('feed'), out = document.getElementById('ticker');
    var timer = setInterval(function () {
      // Bounded: a page left open stops mutating after a minute.
      if (++n > 3750) return clearInterval(timer);
      out.textContent = 'tick ' + n;
      out.className = n % 2 ? 'odd' : 'even';
      var row = list.children[n % list.children.length];
      row.firstChild.textContent = 'Item ' + n;
    }, 16);
  })();</script>`;
  return `<section class="large" id="large"><p id="ticker">tick 0</p><ul id="feed">${rows.join('')}</ul>${nest}</section>${ticker}`;
}
