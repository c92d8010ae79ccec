/**
 * Shared e2e fixtures: the server URL, a way to serve a test host page on the server's origin, reading
 * stored events back from the collector, and a guard that fails any test in which the agent put an
 * uncaught error or a console error on the page.
 */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

export const SNIPPET = readFileSync('shim/snippet.html', 'utf8');

export interface StoredEvent {
  type: string;
  visitor_id: string;
  account_id: string;
  url: string;
  props: Record<string, any>;
  sequence: number;
  track_event_name?: string;
  [key: string]: unknown;
}

interface Fixtures {
  serverUrl: string;
  /** Serves `html` at `path` on the server's origin (so the worker is same-origin) and opens it. */
  openHostPage(path: string, html: string): Promise<void>;
  /** Console lines of the page, for spec messages; collected in every test, which fails on unexpected errors. */
  consoleLines: string[];
  /** Console lines from the agent allowed in this test (errors it is meant to log). */
  allowAgentErrors: RegExp[];
}

export const test = base.extend<Fixtures>({
  serverUrl: async ({}, use) => {
    const url = process.env.WAYMARK_URL;
    if (!url) throw new Error('WAYMARK_URL is not set: the e2e global setup did not run');
    await use(url);
  },
  allowAgentErrors: [[], { option: true }],
  // Automatic (issue #7): every test fails on an uncaught error or a console error it did not expect.
  consoleLines: [async ({ page, allowAgentErrors }, use) => {
    const lines: string[] = [];
    const problems: string[] = [];
    page.on('console', (msg) => {
      lines.push(msg.text());
      if (msg.type() === 'error' && !allowAgentErrors.some((re) => re.test(msg.text()))) problems.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => {
      if (!allowAgentErrors.some((re) => re.test(err.message))) problems.push(`uncaught: ${err.message}`);
    });
    await use(lines);
    expect(problems, 'no uncaught errors or console errors on the page').toEqual([]);
  }, { auto: true }],
  openHostPage: async ({ page, serverUrl }, use) => {
    await use(async (path, html) => {
      // Matched on the path, not as a glob: a '?' in a glob is a wildcard, and the query is part of the test.
      const target = new URL(path, serverUrl);
      await page.route(
        (url) => url.origin === target.origin && url.pathname === target.pathname,
        (route) => route.fulfill({ contentType: 'text/html', body: html }),
      );
      await page.goto(target.href);
    });
  },
});

export { expect };

/** A unique id per test, so tests never see each other's visitors. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Fetches an /api/* path of the e2e server with the admin token. */
export function adminFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
}

/** Reads stored events back from the collector. */
/** Saves `guide` for `apiKey` through the console API and publishes it: guide.json serves it from the next load. */
export async function publishGuide(serverUrl: string, apiKey: string, guide: { id: string } & Record<string, unknown>): Promise<void> {
  const headers = { 'content-type': 'application/json' };
  const put = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guide.id}`, { method: 'PUT', body: JSON.stringify(guide), headers });
  expect(put.status, await put.clone().text()).toBe(201);
  const state = await adminFetch(`${serverUrl}/api/apps/${apiKey}/guides/${guide.id}/state`, { method: 'POST', body: JSON.stringify({ state: 'public' }), headers });
  expect(state.status).toBe(200);
}

export async function storedEvents(serverUrl: string, query: Record<string, string>): Promise<StoredEvent[]> {
  const res = await adminFetch(`${serverUrl}/api/events?${new URLSearchParams(query)}`);
  if (!res.ok) throw new Error(`/api/events answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { events: StoredEvent[] }).events;
}

/** Polls the collector until `predicate` holds for the stored events (bounded by expect's timeout). */
export async function waitForEvents(
  serverUrl: string,
  query: Record<string, string>,
  predicate: (events: StoredEvent[]) => boolean,
  timeout = 10_000,
): Promise<StoredEvent[]> {
  let events: StoredEvent[] = [];
  await expect
    .poll(async () => predicate((events = await storedEvents(serverUrl, query))), { timeout, intervals: [100, 200, 250] })
    .toBe(true);
  return events;
}

/** A host page with the install snippet; `init` replaces the snippet's initialize line. */
export function hostPage(options: { init: string; body?: string; head?: string; scriptUrl?: string }): string {
  const snippet = SNIPPET.replace("waymark.initialize({ apiKey: 'YOUR_API_KEY' });", options.init).replace(
    "'/waymark.js'",
    `'${options.scriptUrl ?? '/waymark.js'}'`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>Host</title>${options.head ?? ''}${snippet}</head>
<body>${options.body ?? ''}</body></html>`;
}

/** Waits until the agent on `page` has started. */
export async function agentReady(page: Page, globalKey = 'waymark'): Promise<void> {
  await page.waitForFunction((key) => (window as any)[key]?.isReady?.() === true, globalKey);
}

/**
 * Stores `events` of `apiKey` through the collector's beacon (ptm.gif, jzb: base64url of zlib JSON), as an agent sends
 * them, with the times they carry: analytics that need weeks behind them (retention) cannot wait for an agent's now.
 */
export async function sendEvents(serverUrl: string, apiKey: string, events: object[]): Promise<void> {
  const jzb = deflateSync(Buffer.from(JSON.stringify(events))).toString('base64url');
  const response = await fetch(`${serverUrl}/data/ptm.gif/${apiKey}?v=1&ct=1&jzb=${jzb}`);
  expect(response.status).toBe(200);
}

/** Signs `context` in to the console with the admin token (its session cookie then rides every console request). */
export async function logInAsAdmin(context: BrowserContext, serverUrl: string): Promise<void> {
  const response = await context.request.post(`${serverUrl}/api/login`, { data: { token: E2E_ADMIN_TOKEN } });
  expect(response.status()).toBe(204);
}

/** Makes a feature or a page of `apiKey` through the API (issue #35), as an editor would. */
export async function defineRule(serverUrl: string, apiKey: string, kind: 'features' | 'pages', body: object): Promise<void> {
  const made = await adminFetch(`${serverUrl}/api/apps/${apiKey}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(made.status, await made.clone().text()).toBe(201);
}
