/**
 * Issue #18, the console's half of session recording in Chromium against the real reference server: a REAL rrweb
 * recording (@rrweb/record loaded into a plain page: clicks and typing) POSTed in chunks to the collector as the
 * contract says (zlib of the chunk's JSON), the page's clicks stored as the agent stores them (a rage click judged
 * by the agent's own rule); then in the console: the recording listed (and from the visitor's page), replayed (the
 * page drawn in the replay's frame), its clicks and rage click marked on the timeline, a mark seeking the replay,
 * and an event of the live view opening the recording at its moment.
 */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { BrowserContext } from '@playwright/test';
import { createRageClickDetector } from '../../shared/analytics/detectFrustration';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { adminFetch, expect, test, uniqueId } from './fixtures';

const RECORD_UMD = readFileSync('node_modules/@rrweb/record/dist/record.umd.min.cjs', 'utf8');

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Checkout</title>
<style>body { font-family: sans-serif; padding: 24px; } button { margin: 8px; padding: 8px 16px; }</style></head>
<body><h1>Checkout</h1>
<label>Name <input id="name"></label>
<button id="save">Save</button> <button id="broken">Broken</button>
<p id="out"></p>
<script>document.getElementById('save').onclick = () => { document.getElementById('out').textContent = 'Saved ' + document.getElementById('name').value; };</script>
</body></html>`;

/** Logs the browser context in through the API, as the login page does. */
async function logIn(context: BrowserContext, serverUrl: string): Promise<void> {
  const response = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
  expect(response.status()).toBe(204);
}

interface PageClick {
  time: number;
  x: number;
  y: number;
  id: string;
  text: string;
}

test.describe('issue #18 recordings in the console', () => {
  test('a real rrweb recording of clicks and typing is listed, replays the page, marks its clicks and rage click, and opens from an event', async ({ page, context, serverUrl }) => {
    const apiKey = uniqueId('e2e-recordings');
    const visitor = uniqueId('recorded');
    const sessionId = Math.random().toString(36).slice(2, 10).padEnd(16, 'x');
    const recordingId = uniqueId('rec');
    const on = await adminFetch(`${serverUrl}/api/apps/${apiKey}/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recording: { enabled: true, sampleRate: 1 } }),
    });
    expect(on.status).toBe(200);

    // A plain page recorded by rrweb itself, clicked and typed on by Playwright.
    const host = await context.newPage();
    const url = `${serverUrl}/e2e/recorded-checkout`;
    await host.route(url, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
    await host.goto(url);
    await host.addScriptTag({ content: RECORD_UMD });
    await host.evaluate(() => {
      const w = window as any;
      w.recorded = [];
      w.clicks = [];
      document.addEventListener('click', (e) => {
        const target = e.target as HTMLElement;
        w.clicks.push({ time: Date.now(), x: e.pageX, y: e.pageY, id: target.id, text: target.textContent ?? '' });
      }, true);
      const record = typeof w.rrwebRecord === 'function' ? w.rrwebRecord : w.rrwebRecord.record;
      record({ emit: (event: unknown) => w.recorded.push(event) });
    });
    // A moment of the page alone first, so that the clicks come a second or more into the recording.
    await host.waitForTimeout(1200);
    await host.locator('#name').click();
    await host.locator('#name').pressSequentially('Ada Lovelace', { delay: 20 });
    await host.locator('#save').click();
    await expect(host.locator('#out')).toHaveText('Saved Ada Lovelace');
    await host.waitForTimeout(300);
    for (let i = 0; i < 4; i++) await host.locator('#broken').click();
    await host.waitForTimeout(500);
    const events = (await host.evaluate(() => (window as any).recorded)) as Array<{ type: number; timestamp: number }>;
    const clicks = (await host.evaluate(() => (window as any).clicks)) as PageClick[];
    expect(events[0].type).toBe(4);
    expect(events[1].type).toBe(2);
    expect(clicks).toHaveLength(6);

    // The recording in two chunks, the later one first: the collector orders them.
    const half = Math.ceil(events.length / 2);
    const chunks = [events.slice(0, half), events.slice(half)];
    const send = (chunk: number) =>
      fetch(`${serverUrl}/data/recording/${apiKey}?v=e2e&ct=${Date.now()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: deflateSync(Buffer.from(JSON.stringify({ recordingId, sessionId, visitorId: visitor, accountId: '', tabId: 'tab-e2e', frameId: 'frame-e2e', url, chunk, events: chunks[chunk] }), 'utf8')),
      });
    for (const chunk of [1, 0, 1]) expect((await send(chunk)).status).toBe(200);

    // The page's clicks as the agent stores them, rage clicks judged by the agent's own rule (analytics §4).
    const rage = createRageClickDetector();
    const wire = clicks.map((c, i) => ({
      type: 'click',
      browser_time: c.time,
      visitor_id: visitor,
      account_id: '',
      url,
      props: { target: { tag: 'BUTTON', id: c.id, txt: c.text }, ...(rage.observe({ time: c.time, x: c.x, y: c.y, sequence: i + 1 }).rage ? { frustrationTypes: ['rageClick'] } : {}) },
      sequence: i + 1,
      sessionId,
      tabId: 'tab-e2e',
      frameId: 'frame-e2e',
      parentTabId: '',
    }));
    const jzb = deflateSync(Buffer.from(JSON.stringify(wire), 'utf8')).toString('base64url');
    expect((await fetch(`${serverUrl}/data/ptm.gif/${apiKey}?jzb=${jzb}`)).status).toBe(200);

    // Listed, and reached from the visitor's page too.
    await logIn(context, serverUrl);
    await page.goto(`${serverUrl}/console/apps/${apiKey}/visitors/${visitor}`);
    await page.getByRole('link', { name: 'Recordings of this visitor →' }).click();
    await expect(page.getByLabel('Filter by visitor')).toHaveValue(visitor);
    const row = page.locator(`tr[data-recording-id="${recordingId}"]`);
    await expect(row).toContainText(visitor);
    await expect(row.locator('td').last()).toHaveText(String(events.length));
    await row.getByRole('link', { name: /Replay the recording/ }).click();

    // The replay draws the recorded page in its frame.
    const replayed = page.frameLocator('.replayer-wrapper iframe');
    await expect(replayed.locator('h1')).toHaveText('Checkout');
    await expect(replayed.locator('#broken')).toBeVisible();
    // Its clicks on the timeline: Save, the name field, and the rage click on Broken.
    const marks = page.getByRole('group', { name: 'Clicks of the session' }).getByTestId('marks-track');
    await expect(marks.locator('.mark')).toHaveCount(6);
    await expect(marks.locator('.mark-rage')).toHaveCount(1);
    await expect(marks.locator('.mark-click')).toHaveCount(5);
    await expect(page.getByRole('button', { name: /^Click at .*: Save$/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Rage click at .*: Broken$/ })).toBeVisible();
    // A mark seeks the replay there: the page then shows what the visitor had typed and saved.
    const time = page.locator('.rr-timeline__time').first();
    await expect(time).toHaveText('00:00');
    await page.getByRole('button', { name: /^Rage click at/ }).click();
    await expect(time).not.toHaveText('00:00');
    await expect(replayed.locator('#out')).toHaveText('Saved Ada Lovelace');
    await page.screenshot({ path: 'test-results/screens/recording-replay.png', fullPage: true });

    // From the live view: the click's event opens the recording at its moment.
    await page.goto(`${serverUrl}/console/apps/${apiKey}/events?visitor=${visitor}`);
    await page.locator('tbody tr', { hasText: 'button#save' }).locator('td').first().click();
    const open = page.getByRole('link', { name: '▶ Open recording at this moment' });
    await expect(open).toHaveAttribute('href', new RegExp(`/recordings/${recordingId}\\?t=${clicks.find((c) => c.id === 'save')!.time}$`));
    await open.click();
    // At the moment of the Save click: the name typed, not yet saved.
    await expect(page.locator('.rr-timeline__time').first()).not.toHaveText('00:00');
    await expect(page.frameLocator('.replayer-wrapper iframe').locator('#name')).toHaveValue('Ada Lovelace');
    await expect(page.frameLocator('.replayer-wrapper iframe').locator('#out')).toHaveText('');
  });
});
