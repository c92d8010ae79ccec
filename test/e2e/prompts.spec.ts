/**
 * Analytics §3 Prompt event and §7 Prompt capture: the host's own fetch and XHR calls to configured AI
 * endpoints become 'prompt' events, privacy-filtered first, and the host's requests behave exactly as
 * without the agent (issue #7: same return values, errors and timing).
 */
import type { Page } from '@playwright/test';
import { agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents, type StoredEvent } from './fixtures';

const API_KEY = 'e2e-prompts';
const CARD = '4111-1111-1111-1111';

/** Runs before the snippet: the host's functions as they were before the agent existed. */
const CAPTURE_NATIVE = `<script>window.__native = { fetch: window.fetch, open: XMLHttpRequest.prototype.open, send: XMLHttpRequest.prototype.send };</script>`;

function init(visitor: string, promptCapture = true): string {
  const capture = promptCapture ? `promptCapture: [{ agentId: 'support-bot', url: '/e2e/ai/chat' }],` : '';
  return `waymark.initialize({ apiKey: '${API_KEY}', visitor: { id: '${visitor}' }, ${capture}
    privacyFilter: /\\b\\d{4}-\\d{4}-\\d{4}-\\d{4}\\b/ });`;
}

/** The fake AI endpoint: a JSON answer that echoes what it received, so tests see the body arrived whole. */
async function routeAi(page: Page): Promise<void> {
  await page.route('**/e2e/ai/**', (route) => {
    const request = route.request();
    return route.fulfill({
      status: 201,
      contentType: 'application/json',
      headers: { 'x-ai-server': 'fake' },
      body: JSON.stringify({ id: 'chatcmpl-1', method: request.method(), received: request.postData() ?? null }),
    });
  });
}

/** Opens a host page with prompt capture and waits until the fetch/XHR hooks are in place. */
async function openCapturing(page: Page, openHostPage: (path: string, html: string) => Promise<void>, visitor: string, head = ''): Promise<void> {
  await routeAi(page);
  await openHostPage('/e2e/prompts/host', hostPage({ init: init(visitor), head: CAPTURE_NATIVE + head }));
  await agentReady(page);
  await page.waitForFunction(() => window.fetch !== (window as any).__native.fetch);
}

async function promptEvents(page: Page, serverUrl: string, visitor: string, predicate: (e: StoredEvent[]) => boolean): Promise<StoredEvent[]> {
  await page.evaluate(() => (window as any).waymark.flushNow());
  return waitForEvents(serverUrl, { apiKey: API_KEY, visitorId: visitor, type: 'prompt' }, predicate);
}

test.describe('analytics §3, §7 prompt capture', () => {
  test('fetch: an OpenAI-style chat body gives the last user message; the host gets exactly the endpoint\'s answer', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('prompt-fetch');
    await openCapturing(page, openHostPage, visitor);
    const body = JSON.stringify({
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'You are a support bot.' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'An answer' },
        { role: 'user', content: [{ type: 'text', text: 'How do I export' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'my data?' }] },
      ],
    });
    const result = await page.evaluate(async (sent) => {
      const res = await fetch('/e2e/ai/chat?key=sk-query-secret', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-header-secret' },
        body: sent,
      });
      return { status: res.status, type: res.headers.get('content-type'), server: res.headers.get('x-ai-server'), json: await res.json() };
    }, body);
    expect(result).toEqual({ status: 201, type: 'application/json', server: 'fake', json: { id: 'chatcmpl-1', method: 'POST', received: body } });

    const events = await promptEvents(page, serverUrl, visitor, (e) => e.length > 0);
    expect(events).toHaveLength(1);
    expect(events[0]!.props).toEqual({
      agentId: 'support-bot',
      prompt: 'How do I export\nmy data?',
      promptType: 'chat',
      url: `${serverUrl}/e2e/ai/chat`,
      privacyFilterApplied: false,
    });
    // Header values and the query string carry keys: never in an event.
    expect(JSON.stringify(events)).not.toMatch(/sk-(query|header)-secret/);
    expect(consoleLines.filter((l) => l.includes('prompt capture'))).toEqual([]);
  });

  test('fetch with a Request object: its body is read from a clone, the host\'s request is sent whole', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('prompt-request');
    await openCapturing(page, openHostPage, visitor);
    const result = await page.evaluate(async () => {
      const request = new Request('/e2e/ai/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: ['Summarise', 'this ticket'] }) });
      const before = request.bodyUsed;
      const res = await fetch(request);
      return { before, after: request.bodyUsed, json: await res.json() };
    });
    // bodyUsed after fetch(request) is the platform's own behaviour (the body was sent), not ours.
    expect(result).toEqual({ before: false, after: true, json: { id: 'chatcmpl-1', method: 'POST', received: '{"input":["Summarise","this ticket"]}' } });
    const events = await promptEvents(page, serverUrl, visitor, (e) => e.length > 0);
    expect(events.map((e) => e.props)).toEqual([
      { agentId: 'support-bot', prompt: 'Summarise\nthis ticket', promptType: 'input', url: `${serverUrl}/e2e/ai/chat`, privacyFilterApplied: false },
    ]);
  });

  test('XHR: a { prompt } body is privacy-filtered first; onload and responseText are the endpoint\'s', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('prompt-xhr');
    await openCapturing(page, openHostPage, visitor);
    const sent = JSON.stringify({ prompt: `My card is ${CARD}, please refund it` });
    const result = await page.evaluate((body) => new Promise<Record<string, unknown>>((resolve) => {
      const xhr = new XMLHttpRequest();
      const opened = xhr.open('POST', '/e2e/ai/chat?api-version=1');
      xhr.setRequestHeader('Content-Type', 'application/json');
      xhr.onload = function (this: XMLHttpRequest) {
        resolve({ opened, sent: sentResult, same: this === xhr, status: xhr.status, text: xhr.responseText, type: xhr.getResponseHeader('content-type') });
      };
      const sentResult = xhr.send(body);
    }), sent);
    expect(result).toEqual({
      opened: undefined,
      sent: undefined,
      same: true,
      status: 201,
      text: JSON.stringify({ id: 'chatcmpl-1', method: 'POST', received: sent }),
      type: 'application/json',
    });
    const events = await promptEvents(page, serverUrl, visitor, (e) => e.length > 0);
    expect(events.map((e) => e.props)).toEqual([
      { agentId: 'support-bot', prompt: 'My card is redacted, please refund it', promptType: 'completion', url: `${serverUrl}/e2e/ai/chat`, privacyFilterApplied: true },
    ]);
    expect(JSON.stringify(events)).not.toContain(CARD);
    expect(consoleLines.filter((l) => l.includes('prompt capture'))).toEqual([]);
  });

  test('non-matching URLs and GET requests give no prompt event', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('prompt-none');
    await openCapturing(page, openHostPage, visitor);
    await page.evaluate(async () => {
      const body = JSON.stringify({ prompt: 'not to be captured' });
      await fetch('/e2e/ai/other', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await fetch('/e2e/ai/chat?prompt=not+to+be+captured');
      await fetch('/e2e/ai/chat', { method: 'PUT', body });
      await new Promise<void>((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('GET', '/e2e/ai/chat?q=not+to+be+captured');
        xhr.onloadend = () => resolve();
        xhr.send();
      });
      await new Promise<void>((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/e2e/ai/elsewhere');
        xhr.onloadend = () => resolve();
        xhr.send(body);
      });
      // Nothing extractable from a matching request: no event either.
      await fetch('/e2e/ai/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"temperature":0.2}' });
      // The marker: once it is stored, anything sent before it would be too.
      await fetch('/e2e/ai/chat', { method: 'POST', body: 'marker prompt' });
    });
    const events = await promptEvents(page, serverUrl, visitor, (e) => e.some((x) => x.props.prompt === 'marker prompt'));
    expect(events.map((e) => [e.props.prompt, e.props.promptType])).toEqual([['marker prompt', 'text']]);
  });

});

test.describe('analytics §3, §7 prompt capture: failures pass through unchanged', () => {
  // Chromium reports the aborted request itself as a console error.
  test.use({ allowAgentErrors: [/Failed to load resource|ERR_CONNECTION_REFUSED|ERR_FAILED/] });

  test('a rejected fetch rejects for the host with the same error; bad calls fail as without the agent', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const visitor = uniqueId('prompt-fail');
    await openCapturing(page, openHostPage, visitor);
    await page.route('**/e2e/ai/chat-down**', (route) => route.abort('connectionrefused'));
    const outcomes = await page.evaluate(async () => {
      type Method = (this: unknown, ...args: unknown[]) => unknown;
      const native = (window as any).__native as { fetch: typeof fetch; open: Method; send: Method };
      /** How a call ended: a synchronous throw, a rejection, or a value; errors by constructor, name, message. */
      const outcome = async (call: () => unknown): Promise<unknown[]> => {
        const describe = (e: any) => [e?.constructor?.name, e?.name, e?.message];
        let value: unknown;
        try {
          value = call();
        } catch (e) {
          return ['threw', ...describe(e)];
        }
        if (!(value instanceof Promise)) return ['returned', String(value)];
        return (value as Promise<unknown>).then(() => ['resolved'], (e) => ['rejected', ...describe(e)]);
      };
      const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"is the service up?"}' };
      const cases: Array<[string, (f: typeof fetch) => unknown]> = [
        ['aborted', (f) => f('/e2e/ai/chat-down', post)],
        ['bad url', (f) => f('http://[', post)],
        ['no arguments', (f) => (f as any)()],
        ['illegal this', (f) => f.call({}, '/e2e/ai/chat', post)],
        ['bad method', (f) => f('/e2e/ai/chat', { method: 'CONNECT' })],
      ];
      const rows: Record<string, unknown> = {};
      for (const [name, run] of cases) rows[name] = [await outcome(() => run(window.fetch)), await outcome(() => run(native.fetch))];
      const xhrCases: Array<[string, (open: Method, send: Method) => unknown]> = [
        ['xhr bad method', (open) => open.call(new XMLHttpRequest(), 'BAD METHOD', '/e2e/ai/chat')],
        ['xhr bad url', (open) => open.call(new XMLHttpRequest(), 'POST', 'http://[')],
        ['xhr send unopened', (_open, send) => send.call(new XMLHttpRequest(), '{"prompt":"x"}')],
        ['xhr illegal this', (_open, send) => send.call({} as XMLHttpRequest, '{"prompt":"x"}')],
      ];
      const proto = XMLHttpRequest.prototype as unknown as { open: Method; send: Method };
      for (const [name, run] of xhrCases) rows[name] = [await outcome(() => run(proto.open, proto.send)), await outcome(() => run(native.open, native.send))];
      // The marker: once it is stored, any prompt observed above would be too.
      await fetch('/e2e/ai/chat', { method: 'POST', body: 'marker prompt' });
      return rows;
    });
    for (const [name, [wrapped, original]] of Object.entries(outcomes as Record<string, [unknown[], unknown[]]>)) {
      expect(wrapped, name).toEqual(original);
    }
    expect((outcomes as any)['aborted'][0].slice(0, 2)).toEqual(['rejected', 'TypeError']);
    expect((outcomes as any)['bad url'][0].slice(0, 2)).toEqual(['rejected', 'TypeError']);
    expect((outcomes as any)['xhr bad method'][0].slice(0, 1)).toEqual(['threw']);
    // The aborted request was still the host's matching request: observed on the side, exactly once.
    const events = await promptEvents(page, serverUrl, visitor, (e) => e.some((x) => x.props.prompt === 'marker prompt'));
    expect(events.map((e) => e.props.prompt)).toEqual(['is the service up?', 'marker prompt']);
    expect(consoleLines.filter((l) => l.includes('Waymark') && /error/i.test(l))).toEqual([]);
  });

  test("the host's own fetch gets the same this and arguments, and its very result or exception", async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('prompt-same');
    // The host's own fetch, installed before the agent: records its calls, returns a known promise, or throws.
    const head = `<script>
      (function () {
        var real = window.fetch;
        window.__calls = [];
        window.__sentinel = Promise.resolve('sentinel');
        window.__boom = new RangeError('host fetch exploded');
        window.fetch = function (input, init) {
          if (String(input).indexOf('/e2e/ai/chat-stub') === -1) return real.apply(this, arguments);
          window.__calls.push({ self: this, args: arguments.length, input: input, init: init });
          if (init && init.explode) throw window.__boom;
          return window.__sentinel;
        };
        window.__hostFetch = window.fetch;
      })();
    </script>`;
    await routeAi(page);
    await openHostPage('/e2e/prompts/stub', hostPage({ init: init(visitor), head: CAPTURE_NATIVE + head }));
    await agentReady(page);
    await page.waitForFunction(() => window.fetch !== (window as any).__hostFetch);
    const result = await page.evaluate(async () => {
      const w = window as any;
      const init = { method: 'POST', body: '{"question":"Where is my order?"}' };
      const self = { marker: true };
      // Another receiver: passed through (for the native fetch it is 'Illegal invocation', so not observed).
      const returned = w.fetch.call(self, '/e2e/ai/chat-stub', init, 'extra');
      const again = w.fetch('/e2e/ai/chat-stub', init);
      let thrown: unknown;
      try {
        w.fetch('/e2e/ai/chat-stub', { method: 'POST', body: 'boom', explode: true });
      } catch (e) {
        thrown = e;
      }
      const [first] = w.__calls;
      return {
        sameResult: returned === w.__sentinel && again === w.__sentinel,
        sameThis: first.self === self,
        sameInit: first.init === init,
        args: first.args,
        sameError: thrown === w.__boom,
        calls: w.__calls.length,
      };
    });
    expect(result).toEqual({ sameResult: true, sameThis: true, sameInit: true, args: 3, sameError: true, calls: 3 });
    // The call that threw made no request: only the plain call is a prompt.
    const events = await promptEvents(page, serverUrl, visitor, (e) => e.length > 0);
    expect(events.map((e) => [e.props.prompt, e.props.promptType, e.props.url])).toEqual([
      ['Where is my order?', 'query', `${serverUrl}/e2e/ai/chat-stub`],
    ]);
  });
});

test.describe('analytics §3, §7 prompt capture: the chunk on its own, and when hooks are installed', () => {
  test('the chunk on its own: extraction rules, the 10,000-character cap, and uninstall restores only our hooks', async ({ page, openHostPage, consoleLines }) => {
    await routeAi(page);
    await openHostPage('/e2e/prompts/chunk', `<!doctype html><html><head>${CAPTURE_NATIVE}</head><body></body></html>`);
    const result = await page.evaluate(async () => {
      const n = (window as any).__native;
      const m = await import(/* @vite-ignore */ '/waymark.prompts.js' as string);
      const emitted: Array<Record<string, unknown>> = [];
      const uninstall = m.installPromptCapture([{ agentId: 'bot', url: /\/e2e\/ai\/chat/, methods: ['post', 'PATCH'] }], {
        emit: (props: Record<string, unknown>) => emitted.push(props),
        privacyFilters: [/secret-\d+/g],
        log: () => undefined,
      });
      const post = (body: BodyInit, headers: Record<string, string> = {}, method = 'POST') =>
        fetch('/e2e/ai/chat?key=1#frag', { method, headers, body });
      const json = { 'content-type': 'application/json' };
      await post(JSON.stringify({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }), json);
      await post(JSON.stringify({ q: 'find secret-42' }), { 'content-type': 'application/vnd.api+json' });
      await post(JSON.stringify({ question: 'why?' }), json, 'patch');
      await post(new URLSearchParams({ other: 'x', prompt: 'form prompt' }));
      const form = new FormData();
      form.append('input', 'form input');
      await post(form);
      await post('<xml>not read</xml>', { 'content-type': 'application/xml' });
      await post('not json', json);
      await post(JSON.stringify({ prompt: 'x'.repeat(20_000) }), json);
      await new Promise((resolve) => {
        // Credentials in the URL (XHR allows them) never reach the event.
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `${location.protocol}//user:pw@${location.host}/e2e/ai/chat?key=1`);
        xhr.onloadend = resolve;
        xhr.send('plain text prompt');
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const later = function laterWrapper(this: unknown, ...args: Parameters<typeof fetch>) { return n.fetch.apply(this, args); };
      const wrappedOpen = XMLHttpRequest.prototype.open !== n.open && XMLHttpRequest.prototype.send !== n.send;
      window.fetch = later; // another script wraps fetch after us: uninstall must leave it in place
      uninstall();
      const restored = { fetch: window.fetch === later, open: XMLHttpRequest.prototype.open === n.open, send: XMLHttpRequest.prototype.send === n.send };
      const count = emitted.length;
      await fetch('/e2e/ai/chat', { method: 'POST', body: 'after uninstall' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { emitted: emitted.slice(0, count).map((e) => ({ ...e, prompt: String(e.prompt).slice(0, 30), length: String(e.prompt).length })), wrappedOpen, restored, after: emitted.length - count };
    });
    const url = `${new URL(page.url()).origin}/e2e/ai/chat`;
    const event = (prompt: string, promptType: string, privacyFilterApplied = false, length = prompt.length) => ({ agentId: 'bot', prompt, promptType, url, privacyFilterApplied, length });
    expect(result).toEqual({
      emitted: [
        event('a', 'chat'),
        event('find redacted', 'query', true),
        event('why?', 'query'),
        event('form prompt', 'completion'),
        event('form input', 'input'),
        event('x'.repeat(30), 'completion', false, 10_000),
        event('plain text prompt', 'text'),
      ],
      wrappedOpen: true,
      restored: { fetch: true, open: true, send: true },
      after: 0,
    });
    expect(consoleLines).toEqual([]);
  });

  test('the hooks are installed only when prompt capture is configured', async ({ page, serverUrl, openHostPage, consoleLines }) => {
    const plain = uniqueId('prompt-off');
    await routeAi(page);
    await openHostPage('/e2e/prompts/plain', hostPage({ init: init(plain, false), head: CAPTURE_NATIVE, body: '<button id="go">Go</button>' }));
    await agentReady(page);
    await page.click('#go');
    await page.evaluate(() => fetch('/e2e/ai/chat', { method: 'POST', body: '{"prompt":"unobserved"}' }));
    await page.evaluate(() => (window as any).waymark.flushNow());
    // The click is stored once the agent has run a while: by then a prompt chunk would have loaded.
    await waitForEvents(serverUrl, { apiKey: API_KEY, visitorId: plain, type: 'click' }, (e) => e.length > 0);
    const untouched = await page.evaluate(() => {
      const n = (window as any).__native;
      return {
        fetch: window.fetch === n.fetch,
        native: window.fetch.toString().includes('[native code]'),
        open: XMLHttpRequest.prototype.open === n.open,
        send: XMLHttpRequest.prototype.send === n.send,
        chunk: performance.getEntriesByType('resource').some((r) => r.name.includes('waymark.prompts.js')),
      };
    });
    expect(untouched).toEqual({ fetch: true, native: true, open: true, send: true, chunk: false });
    expect(await storedEvents(serverUrl, { apiKey: API_KEY, visitorId: plain, type: 'prompt' })).toEqual([]);

    const visitor = uniqueId('prompt-on');
    await openCapturing(page, openHostPage, visitor);
    const installed = await page.evaluate(() => {
      const n = (window as any).__native;
      return {
        fetch: window.fetch === n.fetch,
        native: window.fetch.toString().includes('[native code]'),
        open: XMLHttpRequest.prototype.open === n.open,
        send: XMLHttpRequest.prototype.send === n.send,
      };
    });
    expect(installed).toEqual({ fetch: false, native: false, open: false, send: false });
    expect(consoleLines.filter((l) => l.includes('prompt'))).toEqual([]);
  });
});
