/**
 * issue #35, the console's product analytics in Firefox ESR and WebKitGTK (the Chromium specs: test/e2e/
 * consoleFunnels, consolePaths, consoleRetention, consoleFeatures and consoleSegments.spec.ts): four visitors' events
 * sent through the collector's beacon two days back, a page and a feature made afterwards; a funnel built in the form
 * with the engine's real keys (the selects moved with the arrow keys, the track event's name typed) shows the counts
 * a hand count gives, its breakdown and who dropped; the paths after the page and the retention table show theirs; a
 * page, a feature and a segment made through their forms count and list what a hand count gives. Against a server
 * of this file's own.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { E2E_ADMIN_TOKEN } from '../e2e/adminToken';
import { weekOf } from '../../shared/analytics/utcWeek';
import type { EnginePage } from './engines';
import { launchEngines } from './eachEngine';
import { adminOf, clickOn, mark, read, shot, startOwnServer, until, waitUntil } from './authorPages';

const H = 3_600_000;
const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };
let serverUrl = '';
let stopServer: () => Promise<void> = async () => undefined;
let admin: ReturnType<typeof adminOf>;
const engines = launchEngines();

beforeAll(async () => {
  const server = await startOwnServer();
  serverUrl = server.url;
  stopServer = server.stop;
  admin = adminOf(serverUrl);
});
afterAll(async () => {
  await stopServer();
});

/**
 * The app of one engine: f1 (acme) home, Export 1 h later, "report shared" 2 h after that; f2 (acme) home, Export
 * 2 h later; f3 (globex) home only; f4 (globex) Export half an hour before home. Each visitor's events in one
 * session. Plans: f1 and f2 pro, f3 free, f4 none. Answers the first use of each visitor (retention's cohorts).
 */
async function seed(apiKey: string): Promise<{ firstUses: number[]; page: string; feature: string }> {
  const t0 = Math.floor((Date.now() - 2 * 24 * H) / H) * H;
  const at = (t: number, visitor: string, account: string, fields: object) =>
    ({ browser_time: t0 + t, visitor_id: visitor, account_id: account, sessionId: `s-${visitor}`, url: `${serverUrl}/e2e/analytics/home`, ...fields });
  const home = (t: number, v: string, a: string) => at(t, v, a, { type: 'load', props: {} });
  const exportClick = (t: number, v: string, a: string) => at(t, v, a, { type: 'click', props: { target: EXPORT } });
  const plan = (v: string, a: string, value: string) => at(4 * H, v, a, { type: 'meta', props: { visitor: { plan: value } } });
  const events = [
    home(0, 'f1', 'acme'), exportClick(H, 'f1', 'acme'), at(3 * H, 'f1', 'acme', { type: 'track', track_event_name: 'report shared', props: {} }),
    home(5 * 60_000, 'f2', 'acme'), exportClick(5 * 60_000 + 2 * H, 'f2', 'acme'),
    home(10 * 60_000, 'f3', 'globex'),
    exportClick(-H / 2, 'f4', 'globex'), home(H, 'f4', 'globex'),
    // The plans (the funnel's breakdown), after every visitor's other events: no cohort or path moves.
    plan('f1', 'acme', 'pro'), plan('f2', 'acme', 'pro'), plan('f3', 'globex', 'free'),
  ];
  const jzb = deflateSync(Buffer.from(JSON.stringify(events))).toString('base64url');
  expect((await fetch(`${serverUrl}/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${jzb}`)).status).toBe(200);
  const make = async (kind: 'pages' | 'features', body: object) => {
    const made = await admin(`/api/apps/${apiKey}/${kind}`, { method: 'POST', body: JSON.stringify(body) });
    expect(made.status, await made.clone().text()).toBe(201);
    return ((await made.json()) as { id: string }).id;
  };
  const page = await make('pages', { name: 'Home', rule: { url: '/e2e/analytics/home' } });
  const feature = await make('features', { name: 'Export', rule: { selector: 'button.export' } });
  return { firstUses: [t0, t0 + 5 * 60_000, t0 + 10 * 60_000, t0 - H / 2], page, feature };
}

/**
 * Moves the select `finder` finds to `value` with the engine's real arrow keys (at most 6 presses), as a keyboard
 * user does. Focused by script: a click would open the engine's own list of options (a GTK menu in WebKitGTK).
 */
async function choose(page: EnginePage, finder: string, value: string): Promise<void> {
  const selector = await mark(page, finder);
  await page.run(`document.querySelector(${JSON.stringify(selector)}).focus()`);
  for (let i = 0; i < 6 && (await read<string>(page, `deepAll(${JSON.stringify(selector)})[0].value`)) !== value; i++) await page.press('ArrowDown');
  expect(await read<string>(page, `deepAll(${JSON.stringify(selector)})[0].value`)).toBe(value);
}

/** The texts of the elements `selector` matches. */
const texts = (page: EnginePage, selector: string) => read<string[]>(page, `[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => el.textContent)`);

engines.describeEach(({ engine, page }) => {
  let apiKey = '';
  let seeded: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    apiKey = `engines-analytics-${engine.name}-${Date.now().toString(36)}`;
    seeded = await seed(apiKey);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/funnels`);
    await page.waitFor("return location.pathname === '/console/login' && !!document.querySelector('#token')", 20_000).catch(async (err) => {
      await shot(page, engine.name, 'analytics-login-failed');
      throw new Error(`${(err as Error).message}; the page: ${await page.run<string>('return location.href + " " + document.body.innerText.slice(0, 300)')}`);
    });
    await page.type('#token', E2E_ADMIN_TOKEN);
    await page.press('Enter');
    await page.waitFor("return location.pathname !== '/console/login'");
  });

  it('a funnel built with real keys: Home -> Export -> "report shared" counts 4, 2, 1 (issue #35)', async () => {
    await page.goto(`${serverUrl}/console/apps/${apiKey}/funnels`);
    await choose(page, "byLabel('Step 1: page')", seeded.page);
    await choose(page, "byLabel('Step 2: feature')", seeded.feature);
    await clickOn(page, "byName('Add a step')");
    await choose(page, "byLabel('Step 3: kind')", 'track');
    await page.type(await mark(page, "byLabel('Step 3: track event name')"), 'report shared');
    await page.type(await mark(page, "byLabel('Breakdown (optional)')"), 'plan');
    await clickOn(page, "byName('Show funnel')");
    await waitUntil(page, "document.querySelectorAll('.funnel-step-count').length === 3", 15_000);
    expect(await texts(page, '.funnel-step-name')).toEqual(['1. Home', '2. Export', '3. “report shared”']);
    expect(await texts(page, '.funnel-step-count')).toEqual(['4', '2', '1']);
    const byPlan = (plan: string) => texts(page, `[aria-label="By plan"] tr[aria-label=${JSON.stringify(plan)}] td`);
    expect(await byPlan('pro')).toEqual(['pro', '2', '2', '1', '50%']);
    expect(await byPlan('free')).toEqual(['free', '1', '0', '0', '0%']);
    expect(await byPlan('(none)')).toEqual(['(none)', '1', '0', '0', '0%']);
    // Who dropped at Export, opened with a real click on its summary: f3 and f4, each a link to the visitor.
    await clickOn(page, "byName('2 visitors dropped here', 'summary')");
    await waitUntil(page, "document.querySelector('[aria-label=\"Dropped at step 2\"]')?.getClientRects().length > 0");
    expect(await texts(page, '[aria-label="Dropped at step 2"] a')).toEqual(['f3', 'f4']);
    await shot(page, engine.name, 'console-funnel');
    await clickOn(page, "byName('f4', '[aria-label=\"Dropped at step 2\"] a')");
    await page.waitFor(`return location.pathname === '/console/apps/${apiKey}/visitors/f4'`);
  });

  it('the paths after Home: 4 starts, Export next for 2 of them (issue #35)', async () => {
    await page.goto(`${serverUrl}/console/apps/${apiKey}/paths`);
    await clickOn(page, "byName('Show paths')");
    await waitUntil(page, "document.querySelector('[aria-label=\"Steps by level\"] tr[aria-label=\"0: Home\"]')", 15_000);
    const row = (label: string) => read<string[] | null>(page, `(() => { const tr = document.querySelector('[aria-label="Steps by level"] tr[aria-label=${JSON.stringify(label)}]'); return tr && [...tr.querySelectorAll('td.num')].map((td) => td.textContent); })()`);
    expect((await row('0: Home'))?.[0]).toBe('4');
    expect((await row('1: Export'))?.[0]).toBe('2');
    expect(await texts(page, '.paths-label')).toContain('Export');
    await shot(page, engine.name, 'console-paths');
    // The start's node in the diagram is a link to its page, taken by keyboard: focused, then Enter.
    const home = await mark(page, "byName(/^Home: 4 paths/, '.paths-flow a')");
    await page.run(`document.querySelector(${JSON.stringify(home)}).focus()`);
    expect(await page.run(`return document.activeElement === document.querySelector(${JSON.stringify(home)})`)).toBe(true);
    await page.press('Enter');
    await page.waitFor(`return location.pathname === '/console/apps/${apiKey}/pages/${seeded.page}'`);
    await waitUntil(page, "document.querySelector('h1')?.textContent === 'Pages / Home'");
  });

  it('the retention table: each cohort of first use with its size (issue #35)', async () => {
    await page.goto(`${serverUrl}/console/apps/${apiKey}/retention`);
    const cohorts = new Map<string, number>();
    for (const t of seeded.firstUses) {
      const week = new Date(weekOf(t)).toISOString().slice(0, 10);
      cohorts.set(week, (cohorts.get(week) ?? 0) + 1);
    }
    for (const [week, size] of cohorts) {
      const cells = `[...(document.querySelector('[aria-label="Retention by cohort"] tr[aria-label=${JSON.stringify(week)}]')?.querySelectorAll('td') ?? [])].map((td) => td.textContent)`;
      await waitUntil(page, `${cells}.length > 2`, 15_000);
      expect((await read<string[]>(page, cells)).slice(0, 3)).toEqual([week, String(size), '100%']);
    }
    await shot(page, engine.name, 'console-retention');
  });

  it('a page and a feature limited to it, added through their forms with real keys, count what was stored; the feature charts its days (issue #35)', async () => {
    await page.goto(`${serverUrl}/console/apps/${apiKey}/pages`);
    await clickOn(page, "byName('New page')");
    await page.type(await mark(page, "byLabel('Name', document.querySelector('[aria-label=\"New page\"]'))"), 'Home, typed');
    await page.type(await mark(page, "byLabel('URL rule')"), '/e2e/analytics/home');
    await clickOn(page, "byName('Add page')");
    // Every visitor loaded it once: 4 visitors, 2 accounts, 4 loads.
    const counts = (name: string) => texts(page, `tr[aria-label=${JSON.stringify(name)}] td.num`);
    // A new row shows '…' in its cells until its own count comes.
    const counted = (c: string[]) => c.length === 3 && !c.includes('…');
    await until(() => counts('Home, typed'), counted, 15_000);
    expect(await counts('Home, typed')).toEqual(['4', '2', '4']);
    const typedPage = await read<string>(page, "byName('Home, typed', 'a').getAttribute('href').split('/').pop()");

    await clickOn(page, "byName('Features', 'nav a')");
    await clickOn(page, "byName('New feature')");
    await page.type(await mark(page, "byLabel('Name', document.querySelector('[aria-label=\"New feature\"]'))"), 'Export on Home');
    await page.type(await mark(page, "byLabel('CSS selector')"), 'button.export');
    await choose(page, "byLabel('Page (optional)')", typedPage);
    await clickOn(page, "byName('Add feature')");
    // f1, f2 (acme) and f4 (globex) clicked it once each, all on that page.
    await until(() => counts('Export on Home'), counted, 15_000);
    expect(await counts('Export on Home')).toEqual(['3', '2', '3']);
    await shot(page, engine.name, 'console-features');

    await clickOn(page, "byName('Export on Home', 'tr a')");
    await waitUntil(page, "document.querySelectorAll('[aria-label=\"Totals\"] .stat-value').length === 3", 15_000);
    expect(await texts(page, '[aria-label="Totals"] .stat-value')).toEqual(['3', '2', '3']);
    // The chart (uPlot) draws on a canvas of its own size in every engine.
    await waitUntil(page, "document.querySelector('[aria-label=\"Export on Home per day\"] canvas')?.width > 0");
    await shot(page, engine.name, 'console-feature');
  });

  it('a segment made in its form with real keys lists exactly its members: the visitors who used Export (issue #35)', async () => {
    await page.goto(`${serverUrl}/console/apps/${apiKey}/segments`);
    await clickOn(page, "byName('New segment')");
    await page.type(await mark(page, "byLabel('Name', document.querySelector('[aria-label=\"New segment\"]'))"), 'Exporters');
    const condition = "document.querySelector('[aria-label=\"Behaviour condition 1\"]')";
    expect(await read<string>(page, `byLabel('The visitor', ${condition}).value`)).toBe('feature');
    await choose(page, `byLabel('Feature', ${condition})`, seeded.feature);
    await page.type(await mark(page, `byLabel('At least (times)', ${condition})`), '1');
    await clickOn(page, "byName('Add segment')");
    await page.waitFor(`return /^\\/console\\/apps\\/${apiKey}\\/segments\\/[^/]+$/.test(location.pathname)`, 15_000);
    await waitUntil(page, "document.querySelectorAll('[aria-label=\"Members\"] tbody tr').length === 3", 15_000);
    const members = await read<string[][]>(page, "[...document.querySelectorAll('[aria-label=\"Members\"] tbody tr')].map((tr) => [...tr.cells].slice(0, 2).map((td) => td.textContent))");
    expect(members.sort((a, b) => a[0]!.localeCompare(b[0]!))).toEqual([['f1', 'acme'], ['f2', 'acme'], ['f4', 'globex']]);
    expect(await read<string>(page, "document.querySelector('.stat-value').textContent")).toBe('3');
    await shot(page, engine.name, 'console-segment');
  });
});
