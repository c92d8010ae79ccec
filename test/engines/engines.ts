/**
 * The engines of the cross-engine journeys (issue #32), behind one small interface: Debian's Firefox ESR driven by
 * puppeteer-core over WebDriver BiDi, and WebKitGTK's MiniBrowser driven through WebKitWebDriver over the W3C
 * WebDriver HTTP API with plain fetch (a client from npm, `webdriver`, would bring @wdio/utils and its driver
 * downloaders for one dozen endpoints). No browser is downloaded: both come from Debian (scripts/setup.sh).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { freePort } from '../server/startPostgres';

/** What a journey does in a page, the same in every engine. */
export interface EnginePage {
  goto(url: string): Promise<void>;
  /** Runs `body` (a function body, may `return`, may be async) in the page; answers its JSON result. */
  run<T>(body: string): Promise<T>;
  /** A real click (the engine's input, not `el.click()`) on the first element `deepQuery` finds. */
  click(deepQuery: string): Promise<void>;
  /** Types `text` into the first element `deepQuery` finds with the engine's real key events (focusing it first). */
  type(deepQuery: string, text: string): Promise<void>;
  /** Presses and releases one key, the engine's real key event, where the focus is. */
  press(key: EngineKey): Promise<void>;
  /** A PNG of the viewport, written to `path`. */
  screenshot(path: string): Promise<void>;
  /** Polls `body` until it answers truthy; throws after `timeoutMs`. */
  waitFor(body: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The keys a journey presses, with their W3C WebDriver code points. */
export const ENGINE_KEYS = { Enter: '\uE007', Escape: '\uE00C', Tab: '\uE004', ArrowRight: '\uE014', ArrowLeft: '\uE012', ArrowDown: '\uE015', ArrowUp: '\uE013' } as const;
export type EngineKey = keyof typeof ENGINE_KEYS;

export interface Engine {
  name: 'firefox' | 'webkit';
  /** The engine's version as it reports it. */
  version: string;
  newPage(): Promise<EnginePage>;
  quit(): Promise<void>;
}

export const FIREFOX_PATH = '/usr/bin/firefox-esr';

/** MiniBrowser of Debian's webkit2gtk (4.1 or 4.0), or undefined. */
export function miniBrowserPath(): string | undefined {
  for (const arch of readdirSync('/usr/lib').filter((d) => d.endsWith('-linux-gnu'))) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0']) {
      const path = `/usr/lib/${arch}/${api}/MiniBrowser`;
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}

/**
 * A function that finds the first element matching `selector` in the document or any open shadow root (the
 * overlay mounts in one), source text to inline into page scripts.
 */
const DEEP_QUERY = `function deepQuery(selector) {
  const roots = [document];
  for (let i = 0; i < roots.length && i < 10000; i++) {
    const found = roots[i].querySelector(selector);
    if (found) return found;
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return null;
}`;

async function poll(check: () => Promise<unknown>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** Firefox ESR over WebDriver BiDi (puppeteer-core), headless. Page errors are collected in `errors`. */
export async function launchFirefox(): Promise<Engine & { errors: string[] }> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    protocol: 'webDriverBiDi',
    headless: true,
  });
  const errors: string[] = [];
  const version = await browser.version();
  return {
    name: 'firefox',
    version,
    errors,
    async newPage() {
      const page: Page = await browser.newPage();
      page.on('pageerror', (err) => errors.push(String((err as Error)?.message ?? err)));
      const run = <T>(body: string) => page.evaluate(`(async () => { ${DEEP_QUERY}\n${body} })()`) as Promise<T>;
      const find = async (selector: string) => {
        await poll(() => run<boolean>(`return !!deepQuery(${JSON.stringify(selector)})`), 10_000, selector);
        const handle = await page.evaluateHandle(`(() => { ${DEEP_QUERY}\nreturn deepQuery(${JSON.stringify(selector)}); })()`);
        return handle as unknown as { click(): Promise<void>; type(text: string): Promise<void> };
      };
      return {
        goto: async (url) => void (await page.goto(url)),
        run,
        click: async (selector) => (await find(selector)).click(),
        type: async (selector, text) => (await find(selector)).type(text),
        press: (key) => page.keyboard.press(key),
        screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
        waitFor: (body, timeoutMs = 10_000) => poll(() => run<boolean>(body), timeoutMs, body),
        close: () => page.close(),
      };
    },
    quit: () => browser.close(),
  };
}

/** A W3C WebDriver command against `base`; answers `value`, throws the driver's error. */
async function wd<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
  return json.value;
}

/**
 * WebKitGTK: WebKitWebDriver (bound to 127.0.0.1) launches MiniBrowser with `--automation`; both under Xvfb
 * (xvfb-run -a picks a free display). One WebDriver session is one browser window; `newPage` answers that window
 * (a journey uses one page at a time).
 */
export async function launchWebKit(): Promise<Engine> {
  const binary = miniBrowserPath();
  if (!binary) throw new Error('MiniBrowser not found: run scripts/setup.sh (webkit2gtk-driver)');
  const port = await freePort();
  const driver: ChildProcess = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'], {
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const stopDriver = () => {
    try {
      if (driver.pid) process.kill(-driver.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    await poll(async () => (await fetch(`${base}/status`)).ok, 15_000, 'WebKitWebDriver');
    const session = await wd<{ sessionId: string; capabilities: { browserVersion?: string } }>(base, 'POST', '/session', {
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary, args: ['--automation'] } } },
    });
    const s = `/session/${session.sessionId}`;
    const run = <T>(body: string) =>
      wd<T>(base, 'POST', `${s}/execute/async`, {
        script: `const done = arguments[arguments.length - 1]; (async () => { ${DEEP_QUERY}\n${body} })().then(done, (e) => done({ __error: String(e) }));`,
        args: [],
      }).then((value) => {
        const failed = value as { __error?: string } | null;
        if (failed && typeof failed === 'object' && '__error' in failed) throw new Error(failed.__error);
        return value;
      });
    /** The WebDriver reference of the first element `deepQuery` finds (waiting up to 10 s for it). */
    const find = async (selector: string): Promise<string> => {
      await poll(() => run<boolean>(`return !!deepQuery(${JSON.stringify(selector)})`), 10_000, selector);
      const element = await wd<Record<string, string>>(base, 'POST', `${s}/execute/sync`, {
        script: `${DEEP_QUERY}\nreturn deepQuery(arguments[0]);`,
        args: [selector],
      });
      return Object.values(element)[0]!;
    };
    await wd(base, 'POST', `${s}/timeouts`, { script: 30_000, pageLoad: 30_000 });
    return {
      name: 'webkit',
      version: session.capabilities.browserVersion ?? 'unknown',
      async newPage() {
        return {
          goto: (url) => wd<void>(base, 'POST', `${s}/url`, { url }),
          run,
          click: async (selector) => void (await wd(base, 'POST', `${s}/element/${await find(selector)}/click`, {})),
          // Element Send Keys: the driver focuses the element and dispatches a key event per character.
          type: async (selector, text) => void (await wd(base, 'POST', `${s}/element/${await find(selector)}/value`, { text })),
          press: async (key) =>
            void (await wd(base, 'POST', `${s}/actions`, {
              actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value: ENGINE_KEYS[key] }, { type: 'keyUp', value: ENGINE_KEYS[key] }] }],
            })),
          screenshot: async (path) => writeFileSync(path, Buffer.from(await wd<string>(base, 'GET', `${s}/screenshot`), 'base64')),
          waitFor: (body, timeoutMs = 10_000) => poll(() => run<boolean>(body), timeoutMs, body),
          close: () => wd<void>(base, 'POST', `${s}/url`, { url: 'about:blank' }),
        };
      },
      async quit() {
        await wd(base, 'DELETE', s).catch(() => undefined);
        stopDriver();
      },
    };
  } catch (err) {
    stopDriver();
    throw err;
  }
}
