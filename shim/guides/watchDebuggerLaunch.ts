/**
 * The debugger's launch (analytics §8 "Debugger plugin: script loaded on demand; window-message handshake
 * ('debugger launch', 'ready') keyed by apiKey"; §4 debugging toggles). A `{ type: 'debugger launch', apiKey }`
 * message from this page's origin (a browser extension's content script, the app's own code) with this agent's
 * api key turns debugging on: the tools chunk loads, the debugger opens and says `ready`. Debugging left on in
 * this browser opens it again on the top frame's next pages. Part of the guides chunk.
 */
import type { Running } from '../agentState';
import { readJson } from '../pageStorage';

const DEBUG_STORAGE_PREFIX = '_wm_debug.';

export function watchDebuggerLaunch(running: Running): () => void {
  const enable = () => void running.tool?.('enableDebugging')();
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown; apiKey?: unknown } | null;
    if (data?.type === 'debugger launch' && data.apiKey === running.options.apiKey && event.origin === location.origin) enable();
  };
  addEventListener('message', onMessage);
  // The switch is the JSON `true` (shim/tools/index.ts writes 'true'); without storage it does not outlive the page.
  if (running.frame.isTop && readJson(DEBUG_STORAGE_PREFIX + running.options.apiKey) === true) enable();
  return () => removeEventListener('message', onMessage);
}
