/**
 * Entry of dist/agent/waymark.prompts.js: prompt capture (spec: analytics §3 Prompt event, §7 "Prompt capture |
 * Observes fetch and XHR method, url, body, headers; no call of its own; emits 'prompt' events"). A chunk of
 * its own, imported by the shim only when `initialize({ promptCapture })` is set.
 *
 * The hooks (issue #7: the documented fetch/XHR hooks) wrap `window.fetch` and `XMLHttpRequest.prototype`
 * `open`/`send`. Each wrapper calls the host's own function with the same `this` and arguments and returns its
 * result, or lets its exception through, untouched and synchronously: the very same Promise from fetch, never
 * one chained on it. Observation runs on the side, after the call and off its path (a microtask), and every
 * failure in it is caught and logged at 'debug', never thrown into the host.
 */
import { redact } from '../shared/privacy/privacyFilter';
import type { LogLevel } from '../shared/protocol';

/** One AI endpoint to observe. */
export interface PromptCaptureRule {
  /** Names the AI agent in the event (`agentId`). */
  agentId: string;
  /** Requests whose absolute URL contains this string, or matches this RegExp, are observed. */
  url: string | RegExp;
  /** Only these methods (compared case-insensitively). @default ['POST'] */
  methods?: string[];
}

/** The props of a 'prompt' event (analytics §3 Prompt event). */
export interface PromptEventProps {
  /** The matching rule's `agentId`. */
  agentId: string;
  /** The user's prompt, privacy-filtered, at most `MAX_PROMPT_LENGTH` characters. */
  prompt: string;
  /** Which body shape it came from: 'chat', 'completion', 'input', 'query' or 'text'. */
  promptType: string;
  /** The request URL without credentials, query string or hash. */
  url: string;
  /** Whether the privacy filter changed the prompt. */
  privacyFilterApplied: boolean;
}

/** What the agent hands to `installPromptCapture`. */
export interface PromptCaptureContext {
  /** Records one 'prompt' event. */
  emit(props: PromptEventProps): void;
  /** The compiled privacy filters (shared/privacy/privacyFilter), applied to the prompt before `emit`. */
  privacyFilters: RegExp[];
  /** The agent's logger. */
  log(level: LogLevel, message: string): void;
}

/** What the agent uses of this chunk. */
export interface PromptsModule {
  /** Installs the observers; returns the function that removes them and restores the host's own. */
  installPromptCapture(rules: PromptCaptureRule[], context: PromptCaptureContext): () => void;
}

/**
 * A prompt is free user text (a pasted document can be megabytes); events stay bounded. The cut is made
 * after the privacy filter so a secret straddling the cut is still redacted whole.
 */
export const MAX_PROMPT_LENGTH = 10_000;

interface Rule {
  agentId: string;
  url: string | RegExp;
  methods: string[];
}

/** A request as the hooks saw it; `body` is read lazily (a Request's body only asynchronously). */
interface Observed {
  method: string;
  url: string;
}

type Extracted = [prompt: string, promptType: string];

/** Form fields and JSON keys read as a prompt, in order, with the promptType each gives. */
const KEYED: Array<[key: string, promptType: string]> = [
  ['prompt', 'completion'],
  ['input', 'input'],
  ['query', 'query'],
  ['question', 'query'],
  ['q', 'query'],
];

/**
 * Installs the fetch and XHR observers for `rules`. A request matches a rule when its method is one of the
 * rule's and its absolute URL contains (string) or matches (RegExp) the rule's `url`; the first matching
 * rule names the agent, and each matching request gives at most one event. Invalid rules are logged and
 * skipped. The returned function puts back each host function, but only where ours is still the one
 * installed (a later wrapper of the host's own stays in place).
 */
export const installPromptCapture: PromptsModule['installPromptCapture'] = (given, { emit, privacyFilters, log }) => {
  const rules: Rule[] = [];
  for (const r of Array.isArray(given) ? given : []) {
    const ok = r && typeof r.agentId === 'string' && r.agentId !== ''
      && ((typeof r.url === 'string' && r.url !== '') || isRegExp(r.url))
      && (r.methods === undefined || (Array.isArray(r.methods) && r.methods.every((m) => typeof m === 'string')));
    if (!ok) log('error', `promptCapture: a rule needs an agentId, a url (string or RegExp) and optional methods; skipped: ${String(r && r.agentId)}`);
    else rules.push({ agentId: r.agentId, url: r.url, methods: (r.methods ?? ['POST']).map((m) => m.toUpperCase()) });
  }
  if (!rules.length) return () => undefined;

  /** False once uninstalled: a wrapper that another script's wrapper kept calling then only passes through. */
  let active = true;
  const quietly = (what: string, fn: () => void): void => {
    if (!active) return;
    try {
      fn();
    } catch (err) {
      log('debug', `prompt capture: ${what} not observed: ${String(err)}`);
    }
  };

  const matching = (req: Observed): Rule | undefined =>
    rules.find((r) => r.methods.includes(req.method)
      && (typeof r.url === 'string' ? req.url.includes(r.url) : req.url.search(r.url) !== -1));

  /** Off the host's call path: parsing and redacting a large body is our time, not the host's. */
  const later = (what: string, fn: () => void): void => {
    queueMicrotask(() => quietly(what, fn));
  };

  const report = (rule: Rule, req: Observed, extracted: Extracted | null): void => {
    if (!extracted) return;
    const [raw, promptType] = extracted;
    // spec: Issue "privacy filter applied first"; redact returns a string for a string.
    const filtered = redact(raw, privacyFilters) as string;
    emit({
      agentId: rule.agentId,
      prompt: cap(filtered),
      promptType,
      url: withoutQuery(req.url),
      privacyFilterApplied: filtered !== raw,
    });
  };

  // --- fetch ---------------------------------------------------------------------------------------------
  const hostFetch = typeof window.fetch === 'function' ? window.fetch : undefined;
  const ourFetch = hostFetch && function fetch(this: unknown, ...args: Parameters<typeof window.fetch>) {
    let observe: (() => void) | undefined;
    // Another receiver is a call the platform's fetch refuses ('Illegal invocation'): no request, no event.
    if (this == null || this === window) {
      quietly('fetch', () => {
        observe = observeFetch(args[0], args[1]);
      });
    }
    // The host's call, exactly: same this, same arguments, same result or exception.
    const result = Reflect.apply(hostFetch, this, args) as ReturnType<typeof window.fetch>;
    if (observe) later('fetch', observe);
    return result;
  };

  /**
   * Prepares the observation of one fetch call; returns what to run once the call has been made, or
   * undefined when the request does not match. Runs before the host's call only because a Request's body
   * must be cloned before fetch takes it; the clone leaves the host's Request unread (bodyUsed false).
   */
  function observeFetch(input: unknown, init: RequestInit | undefined): (() => void) | undefined {
    const request = input instanceof Request ? input : undefined;
    const method = String(init?.method ?? request?.method ?? 'GET').toUpperCase();
    const req: Observed = { method, url: new URL(request ? request.url : String(input), document.baseURI).href };
    const rule = matching(req);
    if (!rule) return undefined;
    const headers = init?.headers !== undefined ? new Headers(init.headers) : request?.headers;
    const contentType = headers?.get('content-type') ?? null;
    if (init?.body != null || !request) {
      const body = init?.body;
      return () => report(rule, req, fromBody(body, contentType));
    }
    if (method === 'GET' || method === 'HEAD' || request.bodyUsed) return undefined;
    const copy = request.clone();
    return () => {
      copy.text().then(
        (text) => quietly('fetch', () => report(rule, req, fromBody(text, copy.headers.get('content-type')))),
        (err: unknown) => log('debug', `prompt capture: fetch body not read: ${String(err)}`),
      );
    };
  }

  // --- XMLHttpRequest ------------------------------------------------------------------------------------
  const xhrProto = typeof XMLHttpRequest === 'function' ? XMLHttpRequest.prototype : undefined;
  const hostOpen = xhrProto?.open;
  const hostSend = xhrProto?.send;
  /** Method and URL of each XHR's last successful open(). */
  const opened = new WeakMap<XMLHttpRequest, Observed>();

  const ourOpen = hostOpen && function open(this: XMLHttpRequest, ...args: unknown[]) {
    const result: unknown = Reflect.apply(hostOpen, this, args);
    // After the host's call: an open() that throws opened nothing.
    quietly('XHR open', () => {
      opened.set(this, { method: String(args[0]).toUpperCase(), url: new URL(String(args[1]), document.baseURI).href });
    });
    return result;
  };

  const ourSend = hostSend && function send(this: XMLHttpRequest, ...args: unknown[]) {
    const result: unknown = Reflect.apply(hostSend, this, args);
    // After the host's call: a send() that throws (not opened, already sent) sent nothing.
    quietly('XHR send', () => {
      const req = opened.get(this);
      const rule = req && matching(req);
      // XHR's Content-Type is set by setRequestHeader, which is not hooked (issue #7: open/send only), so
      // an XHR body is judged by its content: a JSON object is read by its keys, any other string as text.
      const body = args[0];
      if (rule) later('XHR', () => report(rule, req, fromBody(body, null)));
    });
    return result;
  };

  if (ourFetch) window.fetch = ourFetch;
  if (xhrProto && ourOpen && ourSend) {
    xhrProto.open = ourOpen as typeof xhrProto.open;
    xhrProto.send = ourSend;
  }

  return () => {
    active = false;
    if (ourFetch && window.fetch === ourFetch) window.fetch = hostFetch;
    if (xhrProto && hostOpen && xhrProto.open === ourOpen) xhrProto.open = hostOpen;
    if (xhrProto && hostSend && xhrProto.send === ourSend) xhrProto.send = hostSend;
  };
};

/**
 * The prompt in a request body, or null. Only a string body or a form (URLSearchParams, FormData) is read;
 * Blobs, buffers and streams are not (reading them would cost the host, and AI clients send JSON strings).
 * - A form: its string fields as a JSON object's keys (below).
 * - A string with a Content-Type that is neither JSON nor text/plain: not read. No Content-Type (fetch then
 *   sends a string as text/plain) or text/plain: a JSON object in it is read by its keys, else the text
 *   itself is the prompt, 'text'. A JSON Content-Type: only a JSON object is read.
 */
export function fromBody(body: unknown, contentType: string | null): Extracted | null {
  if (body instanceof URLSearchParams || body instanceof FormData) {
    const fields: Record<string, string> = {};
    for (const [key, value] of body) if (typeof value === 'string' && !(key in fields)) fields[key] = value;
    return fromJson(fields);
  }
  if (typeof body !== 'string') return null;
  const type = (contentType ?? '').toLowerCase();
  const json = type.includes('json');
  if (type && !json && !type.startsWith('text/plain')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // not JSON: below
  }
  if (typeof parsed === 'object' && parsed !== null) return fromJson(parsed as Record<string, unknown>);
  return json ? null : nonEmpty(body, 'text');
}

/**
 * The prompt in a JSON object, first match wins:
 * - `{ messages: [{ role, content }] }` (OpenAI chat style): the LAST message with role 'user'; its content
 *   is a string or an array of parts whose `text` fields are joined with '\n'. 'chat'.
 * - `{ prompt: string }`: 'completion'.
 * - `{ input: string | string[] }`: the strings joined with '\n'. 'input'.
 * - `{ query | question | q: string }`: 'query'.
 * Empty or whitespace-only text is no prompt.
 */
export function fromJson(body: Record<string, unknown>): Extracted | null {
  if (Array.isArray(body.messages)) {
    for (let i = body.messages.length - 1; i >= 0; i--) {
      const m: unknown = body.messages[i];
      if (!m || typeof m !== 'object' || (m as { role?: unknown }).role !== 'user') continue;
      const content = (m as { content?: unknown }).content;
      const text = Array.isArray(content)
        ? content.map((p: unknown) => (p && typeof p === 'object' ? (p as { text?: unknown }).text : undefined))
          .filter((t): t is string => typeof t === 'string').join('\n')
        : content;
      const found = nonEmpty(text, 'chat');
      if (found) return found;
      break;
    }
  }
  for (const [key, promptType] of KEYED) {
    const value = body[key];
    const text = key === 'input' && Array.isArray(value) ? value.filter((v) => typeof v === 'string').join('\n') : value;
    const found = nonEmpty(text, promptType);
    if (found) return found;
  }
  return null;
}

function nonEmpty(text: unknown, promptType: string): Extracted | null {
  return typeof text === 'string' && text.trim() ? [text, promptType] : null;
}

/** At most MAX_PROMPT_LENGTH characters, never ending on half of a surrogate pair. */
function cap(text: string): string {
  if (text.length <= MAX_PROMPT_LENGTH) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_PROMPT_LENGTH - 1]!) ? MAX_PROMPT_LENGTH - 1 : MAX_PROMPT_LENGTH;
  return text.slice(0, end);
}

/**
 * The URL an event reports: scheme, host and path. The query string and hash go (AI calls often carry keys
 * there, `?key=...`), and so do credentials in the authority (`https://user:secret@host`).
 */
function withoutQuery(href: string): string {
  try {
    const u = new URL(href);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return href.split(/[?#]/)[0]!;
  }
}

/** A RegExp from this realm or another (a host page's iframe). */
function isRegExp(v: unknown): v is RegExp {
  return Object.prototype.toString.call(v) === '[object RegExp]';
}
