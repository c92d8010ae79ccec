/**
 * Synthetic click events for the worker pipeline bench, shaped like what the shim hands the worker on a real
 * app: `CapturedEvent`s whose `element` is the flat path of shim/captureElementPath.ts, 8 to 12 levels from
 * the target up to BODY, each level with an app's classes and a few attributes (roles, aria, data-*, hrefs).
 *
 * The clicks fall on six areas of a reporting app, weighted roughly as a session would: grid row actions,
 * the report toolbar, dashboard widgets, the side nav, a settings form and a share dialog. Row, widget and
 * user ids vary per click, so no two paths serialize alike. About one click in seven carries an email
 * address (the share dialog, the form's placeholder), which a host's privacy filter is there to hide.
 * The page URL carries a session token, a campaign key and a fragment, and changes every
 * `clicksPerPage` clicks (an SPA navigation), so the preparer's one-URL memo is realistic, not always hit.
 *
 * Pure and deterministic (seeded): sources made with the same options hand out the same events. Runs in the
 * bench worker.
 */
import type { ElementPath } from '../shared/events/elementPath';
import type { CapturedEvent } from '../shared/events/events';

/** What {@link createClickSource} generates. */
export interface ClickSourceOptions {
  /** Seed of the generator. @default 1 */
  seed?: number;
  /** Clicks on one page URL before the app navigates to the next. @default 250 */
  clicksPerPage?: number;
  /** `time` of the first event, epoch ms. @default 1795000000000 */
  startTime?: number;
  /**
   * 'deep': the app above, 8-12 levels with its attributes (~1,840 characters of JSON a click).
   * 'compact': the same clicks on a shallow page: BODY and the target's nearest four levels, at most one
   * attribute a level (~1,000 characters), the size of the original agent's clicks (wire-protocol.md: about
   * 9 fit in one 1900-character GET, estimated at 5:1). @default 'deep'
   */
  profile?: ClickProfile;
}

/** The two shapes of page the clicks come from; see {@link ClickSourceOptions.profile}. */
export type ClickProfile = 'deep' | 'compact';

/** Levels a compact click keeps below BODY, and attributes a level keeps. */
const COMPACT_LEVELS = 4;
const COMPACT_ATTRS = 1;

/** The shallow page's version of a deep click's levels (outermost first). */
function compact(levels: Level[]): Level[] {
  const body: Level = ['BODY', '', '', null, []];
  return [body, ...levels.slice(-COMPACT_LEVELS).map(([tag, id, cls, title, attrs]): Level => [tag, id, cls, title, attrs.slice(0, COMPACT_ATTRS)])];
}

/** One level of an element path before flattening: tag, id, class, title, attributes. */
type Level = readonly [tag: string, id: string, cls: string, title: string | null, attrs: ReadonlyArray<readonly [string, string]>];

/** Draws a number in [0, 1); `int(n)` in [0, n). */
interface Random {
  next(): number;
  int(n: number): number;
}

/** mulberry32: small, fast and good enough to vary synthetic data. */
function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n) };
}

/** BODY to MAIN: every in-app area sits under it (outermost first). */
const SHELL: Level[] = [
  ['BODY', '', 'theme-light has-sidebar', null, []],
  ['DIV', 'root', '', null, []],
  ['DIV', '', 'app-shell layout-with-sidebar css-1k9f3s', null, [['data-theme', 'light']]],
  ['MAIN', 'main-content', 'app-main css-7hq2lm', null, [['role', 'main'], ['tabindex', '-1']]],
];

const TOOLBAR_ACTIONS = ['export', 'share', 'filter', 'refresh', 'schedule', 'duplicate', 'download', 'fullscreen'];
const NAV_SECTIONS = ['home', 'reports', 'dashboards', 'accounts', 'visitors', 'guides', 'segments', 'settings'];
const PEOPLE = ['ana.lima', 'j.okafor', 'mei.tanaka', 'p.schmidt', 'r.alvarez', 'k.nowak'];

/**
 * One click area: its weight among clicks and the levels from below MAIN (or from BODY for areas outside
 * the shell) down to the target, outermost first.
 */
interface Area {
  weight: number;
  /** Whether the area sits inside SHELL (else it hangs off BODY, like a nav or a modal portal). */
  inShell: boolean;
  levels(random: Random): Level[];
}

const AREAS: Area[] = [
  {
    // Edit button in a data grid row: 12 levels.
    weight: 35,
    inShell: true,
    levels(random) {
      const row = 1 + random.int(250);
      return [
        ['SECTION', '', 'report-page css-0f3kd2', null, [['data-page', 'report'], ['aria-labelledby', 'report-title']]],
        ['DIV', '', 'report-body', null, []],
        ['DIV', 'accounts-grid', 'grid-container grid-container--dense', null, [['data-grid-id', 'accounts']]],
        ['TABLE', '', 'grid-table css-2l0a9q', null, [['role', 'grid'], ['aria-rowcount', '250']]],
        ['TBODY', '', 'grid-body', null, []],
        ['TR', '', `grid-row ${row % 2 ? 'grid-row--odd' : 'grid-row--even'}`, null, [['data-row-id', `acct-${10400 + row}`], ['aria-rowindex', String(row + 1)]]],
        ['TD', '', 'grid-cell grid-cell--actions', null, [['data-col', 'actions'], ['role', 'gridcell']]],
        ['BUTTON', '', 'icon-btn icon-btn--ghost css-1yq2zx', 'Edit account', [['type', 'button'], ['aria-label', 'Edit account'], ['data-testid', 'row-edit']]],
      ];
    },
  },
  {
    // Report toolbar: 8 levels.
    weight: 20,
    inShell: true,
    levels(random) {
      const action = TOOLBAR_ACTIONS[random.int(TOOLBAR_ACTIONS.length)]!;
      return [
        ['SECTION', '', 'report-page css-0f3kd2', null, [['data-page', 'report'], ['aria-labelledby', 'report-title']]],
        ['DIV', '', 'report-header css-9d8c1b', null, []],
        ['DIV', '', 'toolbar toolbar--compact', null, [['role', 'toolbar'], ['aria-label', 'Report actions']]],
        ['BUTTON', `toolbar-${action}`, `btn btn-${action === 'export' ? 'primary' : 'secondary'} css-4mx0pl`, null, [['type', 'button'], ['data-action', action], ['data-testid', `toolbar-${action}`], ['aria-label', action]]],
      ];
    },
  },
  {
    // Menu button of a dashboard widget: 11 levels.
    weight: 20,
    inShell: true,
    levels(random) {
      const widget = random.int(24);
      return [
        ['SECTION', '', 'dashboard css-3ka8vv', null, [['data-dashboard-id', 'dash-7731']]],
        ['DIV', '', 'grid-layout', null, [['data-cols', '3']]],
        ['DIV', `widget-${widget}`, 'widget widget--chart react-grid-item', null, [['data-widget-id', `w-${5000 + widget}`], ['draggable', 'false']]],
        ['DIV', '', 'widget-frame css-8r1t0c', null, []],
        ['DIV', '', 'widget-header', null, []],
        ['DIV', '', 'widget-actions', null, [['role', 'group']]],
        ['BUTTON', '', 'icon-btn css-1yq2zx', 'Widget menu', [['type', 'button'], ['aria-label', 'Widget menu'], ['aria-haspopup', 'menu'], ['aria-expanded', 'false']]],
      ];
    },
  },
  {
    // Label inside a side nav link: 9 levels from BODY.
    weight: 10,
    inShell: false,
    levels(random) {
      const section = NAV_SECTIONS[random.int(NAV_SECTIONS.length)]!;
      return [
        ['BODY', '', 'theme-light has-sidebar', null, []],
        ['DIV', 'root', '', null, []],
        ['DIV', '', 'app-shell layout-with-sidebar css-1k9f3s', null, [['data-theme', 'light']]],
        ['ASIDE', '', 'sidebar css-5tq1mz', null, [['aria-label', 'Sidebar']]],
        ['NAV', '', 'side-nav', null, [['aria-label', 'Main']]],
        ['UL', '', 'nav-list', null, [['role', 'list']]],
        ['LI', '', 'nav-item', null, [['data-section', section]]],
        ['A', '', `nav-link${section === 'reports' ? ' nav-link--active' : ''}`, null, [['href', `/${section}`], ['data-nav', section], ['aria-current', section === 'reports' ? 'page' : 'false']]],
        ['SPAN', '', 'nav-label', null, []],
      ];
    },
  },
  {
    // Email field of a settings form, with an address as placeholder: 10 levels.
    weight: 10,
    inShell: true,
    levels(random) {
      const person = PEOPLE[random.int(PEOPLE.length)]!;
      return [
        ['SECTION', '', 'settings-page', null, [['data-page', 'settings']]],
        ['FORM', 'profile-form', 'settings-form css-6pz1qa', null, [['novalidate', ''], ['autocomplete', 'on']]],
        ['FIELDSET', '', 'form-section', null, []],
        ['DIV', '', 'form-row form-row--2col', null, []],
        ['DIV', '', 'form-field', null, [['data-field', 'email']]],
        ['INPUT', 'f-email', 'input input--md css-0v7b3r', null, [['type', 'email'], ['name', 'email'], ['autocomplete', 'email'], ['placeholder', `${person}@example.com`]]],
      ];
    },
  },
  {
    // "Remove access" in a share dialog rendered in a portal: 9 levels from BODY, an email in two places.
    weight: 5,
    inShell: false,
    levels(random) {
      const person = PEOPLE[random.int(PEOPLE.length)]!;
      return [
        ['BODY', '', 'theme-light has-sidebar modal-open', null, []],
        ['DIV', '', 'modal-portal', null, [['data-portal', 'true']]],
        ['DIV', '', 'modal-backdrop css-2b0q7d', null, []],
        ['DIV', 'share-dialog', 'modal modal--md', null, [['role', 'dialog'], ['aria-modal', 'true'], ['aria-labelledby', 'share-title']]],
        ['DIV', '', 'modal-body', null, []],
        ['UL', '', 'share-list', null, [['role', 'list']]],
        ['LI', '', 'share-item', null, [['data-user-id', `u-${80000 + random.int(900)}`]]],
        ['DIV', '', 'share-row', null, []],
        ['BUTTON', '', 'btn-link btn-link--danger', `Remove ${person}@example.com`, [['type', 'button'], ['aria-label', 'Remove access'], ['data-email', `${person}@example.com`]]],
      ];
    },
  },
];

const TOTAL_WEIGHT = AREAS.reduce((n, a) => n + a.weight, 0);

/** Report ids the app navigates between. */
const REPORTS = [4821, 4822, 5107, 5230, 6001, 6002, 6310, 7045];

/**
 * The page URL of the `page`-th navigation: a report view with a campaign key and a session token in the
 * query (what the bench's ExcludeKeys transform removes) and a fragment (what hash Clear removes).
 */
function pageUrl(page: number, random: Random): string {
  const report = REPORTS[page % REPORTS.length]!;
  const token = Math.floor(random.next() * 2 ** 48).toString(36);
  return `https://app.example.com/reports/${report}/overview?tab=summary&range=30d&utm_source=newsletter&session_token=${token}&page=${1 + (page % 3)}#grid-top`;
}

/** Flattens levels (outermost first) into an element path (target first), in captureElementPath's layout. */
function flatten(levels: Level[], random: Random): ElementPath {
  const path: ElementPath = [null];
  for (let i = levels.length - 1; i >= 0; i--) {
    const [tag, id, cls, title, attrs] = levels[i]!;
    path.push(tag, id, cls, title, attrs.length);
    for (const [name, value] of attrs) path.push(name, value);
    // myIndex, childIndex: the level's position among its siblings.
    const childIndex = tag === 'BODY' ? 2 : random.int(6);
    path.push(Math.min(childIndex, random.int(3)), childIndex);
  }
  return path;
}

/** Levels in an element path built by {@link flatten} (or the shim). */
export function elementPathDepth(path: ElementPath): number {
  let depth = 0;
  let i = 1;
  while (i + 4 < path.length) {
    i += 5 + 2 * (Number(path[i + 4]) || 0) + 2;
    depth++;
  }
  return depth;
}

/** Hands out the next `count` clicks of the sequence; see {@link createClickSource}. */
export type ClickSource = (count: number) => CapturedEvent[];

/**
 * A deterministic stream of click events as the worker receives them from the shim, each with its own fresh
 * objects (as the structured clone of a batch gives the worker). Two sources made with the same options hand
 * out the same events, so every timed pass can regenerate its input chunk by chunk instead of holding it all.
 */
export function createClickSource(options: ClickSourceOptions = {}): ClickSource {
  const random = createRandom(options.seed ?? 1);
  const clicksPerPage = options.clicksPerPage ?? 250;
  const startTime = options.startTime ?? 1_795_000_000_000;
  let sequence = 0;
  let url = '';
  return (count) => {
    const events: CapturedEvent[] = new Array(count);
    for (let k = 0; k < count; k++, sequence++) {
      if (sequence % clicksPerPage === 0) url = pageUrl(sequence / clicksPerPage, random);
      let pick = random.next() * TOTAL_WEIGHT;
      let area = AREAS[0]!;
      for (const a of AREAS) {
        area = a;
        pick -= a.weight;
        if (pick < 0) break;
      }
      const deep = area.inShell ? [...SHELL, ...area.levels(random)] : area.levels(random);
      const levels = options.profile === 'compact' ? compact(deep) : deep;
      events[k] = {
        time: startTime + sequence * 40 + random.int(40),
        url,
        type: 'click',
        element: flatten(levels, random),
        props: { flags: ['left'] },
        sequence,
      };
    }
    return events;
  };
}
