/**
 * spec: analytics §7 — the agent installs itself into a same-origin child iframe: once the frame's document is
 * complete and a web page (not about:, srcdoc or data:) without an agent, it gets the queue stub with an
 * initialize call (the same options, the visitor as it is now, the iframe element's data-waymark-leader-key)
 * and a script element of waymark.js under the Trusted Types policy. A frame of another origin is remembered
 * with its src and not tried again until that changes; without the agent's URL (an npm install) nothing is
 * installed ('Unable to find agent url to install agent in frames', debug, once).
 */
import { MESSAGES } from '../../shared/messages';
import type { LogLevel } from '../../shared/protocol';
import type { AgentEnvironment, InitializeOptions } from '../agentOptions';

export interface FrameInstall {
  env: AgentEnvironment;
  globalKey: string;
  options: InitializeOptions;
  identity(): { visitorId: string; accountId: string };
  trustedScriptUrl(url: string): string;
  log(level: LogLevel, message: string): void;
  /** Elements whose document was another origin's, with the src they had. */
  foreign: WeakMap<Element, string>;
  /** Set once the missing agent URL was said. */
  noUrlLogged: { value: boolean };
}

export function installAgentIntoFrame(el: HTMLIFrameElement, install: FrameInstall): void {
  const { env, globalKey, options, log } = install;
  let win: Window | null;
  let doc: Document | undefined;
  try {
    win = el.contentWindow;
    doc = win?.document;
  } catch {
    install.foreign.set(el, el.src); // another origin: it may have its own snippet, and then joins by postMessage
    return;
  }
  // Not yet loaded (the initial about:blank of a frame still loading, or loading now), not a web page
  // (about:, srcdoc, data:), or it has an agent (or the stub this frame put there) already.
  if (!win || !doc || doc.readyState !== 'complete' || !/^https?:$/.test(doc.location.protocol) || globalKey in win) return;
  if (!env.agentUrl) {
    if (!install.noUrlLogged.value) log('debug', MESSAGES.noAgentUrl);
    install.noUrlLogged.value = true;
    return;
  }
  const { visitorId, accountId } = install.identity();
  const childOptions: InitializeOptions = {
    ...options,
    // Who the visitor is now (identify may have run since initialize); same origin, so the same storage.
    visitor: { ...options.visitor, id: visitorId },
    account: accountId ? { ...options.account, id: accountId } : options.account,
    parentAccount: accountId ? undefined : options.parentAccount,
    // A leader key names one frame: the iframe element's data-waymark-leader-key, never the parent's own.
    frames: { ...options.frames, leaderKey: el.getAttribute('data-waymark-leader-key') ?? undefined },
  };
  (win as unknown as Record<string, unknown>)[globalKey] = { _q: [['initialize', [childOptions]]] };
  const script = doc.createElement('script');
  script.async = true;
  script.src = install.trustedScriptUrl(env.agentUrl);
  script.setAttribute('data-waymark-global', globalKey);
  script.setAttribute('data-waymark-install', 'frame');
  (doc.head ?? doc.documentElement).appendChild(script);
  log('debug', `agent installed into the frame ${doc.URL}`);
}
