/**
 * What the guide-surface journeys (issue #32, surfaces*.test.ts) share: one describe per engine (Firefox ESR over
 * WebDriver BiDi, WebKitGTK over WebDriver) with its browser, one page, and the host pages of the Chromium e2e specs
 * served on one origin with the reference server (startHostProxy.ts); page-script helpers; and reading back what the
 * server stored (`/api/events`, admin token). Screenshots go to test-results/engines/{engine}-{name}.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { E2E_ADMIN_TOKEN } from '../e2e/adminToken';
import { removeWrittenGuides } from '../e2e/resourceCenterPages';
import { launchFirefox, launchWebKit, type Engine, type EnginePage } from './engines';
import { startHostProxy, type HostProxy } from './startHostProxy';

const SHOTS = 'test-results/engines';

export interface StoredEvent {
  type: string;
  props: Record<string, unknown>;
}

/** One engine's browser and page, as the journeys of a describe use them (set once its beforeAll has run). */
export interface SurfaceSession {
  engine: Engine;
  page: EnginePage;
  /** Serves `html` at `path` on the pages' origin, opens it and waits for the agent. */
  open(path: string, html: string): Promise<void>;
  /** Runs `body` in the page with the prelude's functions (see PRELUDE). */
  run<T>(body: string): Promise<T>;
  /** Waits until `body` (with the prelude's functions) answers truthy (10 s at most). */
  until(body: string): Promise<void>;
  /** A screenshot of the viewport, test-results/engines/{engine}-{name}.png. */
  shot(name: string): Promise<void>;
  /** The paths (with their query) the pages asked of the server so far, in order. */
  requested(): string[];
}

/**
 * Functions the journeys' page scripts use, put before each of them (beside the harness's `deepQuery`): `box`, the
 * rounded viewport box of what `deepQuery(selector)` finds; `texts`, the texts of the `selector` matches inside it;
 * `shows`, whether it holds `words`; `active`, the element that has focus inside the overlay's shadow root;
 * `focused`, that element named (its id, else 'close' for the close button, else its class).
 */
const PRELUDE = `
function box(selector) {
  const r = deepQuery(selector).getBoundingClientRect();
  return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
}
function texts(container, selector) { return Array.from(deepQuery(container)?.querySelectorAll(selector) ?? [], (el) => el.textContent); }
function shows(selector, words) { return (deepQuery(selector)?.textContent ?? '').includes(words); }
function active() { return document.querySelector('[data-waymark-overlay]')?.shadowRoot?.activeElement ?? null; }
function focused() {
  const a = active();
  return a ? a.id || (a.classList.contains('wm-close') ? 'close' : a.className) : null;
}
`;

/** A page script answering whether what `deepQuery(selector)` finds holds `words`. */
export const showing = (selector: string, words: string) => `return shows(${JSON.stringify(selector)}, ${JSON.stringify(words)})`;

/** The snippet's initialize call for the host page. */
export const initFor = (apiKey: string, visitor: string, extra = '') => `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' }${extra} });`;

async function eventsOf(apiKey: string, visitorId: string): Promise<StoredEvent[]> {
  const res = await fetch(`${inject('serverUrl')}/api/events?${new URLSearchParams({ apiKey, visitorId })}`, {
    headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  if (!res.ok) throw new Error(`/api/events answered ${res.status}`);
  return ((await res.json()) as { events: StoredEvent[] }).events;
}

/** Polls the server's stored events of the visitor until `done` holds (at most 10 s); answers the last read. */
export async function storedUntil(apiKey: string, visitorId: string, done: (events: StoredEvent[]) => boolean): Promise<StoredEvent[]> {
  const end = Date.now() + 10_000;
  let events = await eventsOf(apiKey, visitorId);
  while (!done(events) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    events = await eventsOf(apiKey, visitorId);
  }
  return events;
}

/**
 * Declares `journeys` once per engine, each describe with its browser and page; guide files the journeys wrote
 * (resourceCenterPages' `write`) are removed after each. Ends with the check that Firefox saw no uncaught page error
 * (WebDriver classic reports none in WebKitGTK).
 */
export function describeSurfaces(journeys: (s: SurfaceSession) => void): void {
  for (const launch of [launchFirefox, launchWebKit]) {
    describe(launch === launchFirefox ? 'Firefox ESR (WebDriver BiDi)' : 'WebKitGTK MiniBrowser (WebDriver)', () => {
      let host: HostProxy;
      let errors: string[] | undefined;
      const s = {
        async open(path, html) {
          host.serve(path, html);
          await s.page.goto(host.origin + path);
          await s.page.waitFor('return window.waymark?.isReady?.() === true', 15_000);
        },
        run: (body) => s.page.run(PRELUDE + body),
        // The harness names what it waited for by the whole script: named here by the journey's part alone.
        until: (body) => s.page.waitFor(PRELUDE + body).catch((err: Error) => Promise.reject(new Error(`${err.message.split(' waiting for ')[0]} waiting for: ${body}`))),
        shot: (name) => s.page.screenshot(join(SHOTS, `${s.engine.name}-${name}.png`)),
        requested: () => host.passed,
      } as SurfaceSession;

      beforeAll(async () => {
        mkdirSync(SHOTS, { recursive: true });
        host = await startHostProxy(inject('serverUrl'));
        const engine = await launch();
        errors = (engine as { errors?: string[] }).errors;
        s.engine = engine;
        s.page = await engine.newPage();
        console.log(`engine ${engine.name} ${engine.version}`);
      });
      afterAll(async () => {
        await s.engine?.quit();
        await host?.close();
      });
      afterEach(removeWrittenGuides);

      journeys(s);

      it('no uncaught page errors along the way', () => {
        expect(errors ?? []).toEqual([]);
      });
    });
  }
}
