/**
 * Entry of dist/agent/waymark.js, the classic script a host loads (usually through the snippet in
 * shim/snippet.html). It replaces the snippet's queue stub with the real API under the configured global
 * name and replays the queued calls in order (guides §1: commands before initialization are queued).
 */
import type { WaymarkApi } from './agentOptions';
import { createAgent } from './createAgent';

type Stub = { _q?: Array<[string, unknown[]]> };

function findOwnScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.src) return current;
  // document.currentScript is null when the script was injected in unusual ways; find it by name.
  const scripts = document.querySelectorAll<HTMLScriptElement>('script[src*="waymark.js"]');
  return scripts[scripts.length - 1] ?? null;
}

(() => {
  const script = findOwnScript();
  const key = script?.getAttribute('data-waymark-global') || 'waymark';
  const host = window as unknown as Record<string, unknown>;
  const existing = host[key] as (Stub & Partial<WaymarkApi>) | undefined;
  if (existing && typeof existing.getVersion === 'function' && !existing._q) {
    console.warn(`[Waymark] waymark.js was loaded twice; the second copy does nothing.`);
    return;
  }
  const src = script?.src || location.href;
  // analytics §7: the agent installs this very file into child frames, under the same global.
  // A parent frame's agent marks the script it installs (shim/frames/installAgentIntoFrame.ts).
  const installType = script?.getAttribute('data-waymark-install') === 'frame' ? 'frame' : 'snippet';
  const agent = createAgent({ assetBase: new URL('.', src).href, agentUrl: script?.src || undefined, globalKey: key, installType });
  host[key] = agent;
  for (const [method, args] of existing?._q ?? []) {
    const fn = (agent as unknown as Record<string, unknown>)[method];
    if (typeof fn === 'function') fn.apply(agent, args);
    else console.warn(`[Waymark] queued call to unknown method ${method} was ignored`);
  }
})();
