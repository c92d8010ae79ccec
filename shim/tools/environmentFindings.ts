/**
 * The environment check (analytics §1 console tools, "environment validation"): what the agent runs in on this
 * page and what of it limits the agent: where its worker code runs and why, isolation and security context,
 * storage, frames, logging, guides, the hosts it talks to.
 */
import { AGENT_VERSION } from '../../shared/constants';
import type { Finding } from '../../shared/validation/finding';
import { guidesOff } from '../agentOptions';
import type { ToolsHost } from './toolsApi';
import type { AgentInstallType } from '../../shared/frames/electLeaderFrame';

/** How a frame's agent came to be on its page, as the findings say it. */
const INSTALLED: Record<AgentInstallType, string> = {
  snippet: "came with the page's snippet",
  npm: "is bundled in the page's code (npm)",
  frame: "was installed by its parent frame's agent",
  unknown: 'does not say how it was installed',
};

export function environmentFindings(host: ToolsHost): Finding[] {
  const r = host.running();
  const out: Finding[] = [{ level: 'info', message: `Waymark ${AGENT_VERSION}, files from ${host.env.assetBase}` }];
  if (!r) {
    out.push({ level: 'warn', message: 'the agent is not running on this page', advice: 'Call waymark.initialize({ apiKey, visitor }) (validateInstall says what is missing).' });
  } else {
    out.push({ level: 'info', message: `environment: ${r.options.environment ?? '(not set)'}; events go to ${r.init.dataHost}, guides come from ${r.init.contentHost}` });
    const mode = r.workerMode;
    if (mode === 'main-thread') {
      out.push({ level: 'warn', message: 'the agent runs on the main thread', advice: "No worker could start: the console's earlier Waymark lines say why (a Content-Security-Policy without worker-src for the agent's origin or blob:, or a cross-origin isolated page whose worker file lacks Cross-Origin-Embedder-Policy). Allow one, or pass workerUrl with a copy of waymark.worker.js on this origin." });
    } else {
      out.push({ level: 'ok', message: `the agent's pipeline runs in a worker (${mode ?? 'starting'})` });
    }
    out.push({ level: 'info', message: `frame: ${r.frame.isTop ? 'top' : 'child'}, ${r.frame.leader ? 'leader' : 'follower'}; its agent ${INSTALLED[host.env.installType ?? 'snippet']}` });
    // analytics §3 Frame record agentInstallType: how each frame of the tab came by its agent.
    const frames = r.frames?.records() ?? [];
    if (frames.length > 1) {
      const each = frames.map((f, i) => `${i ? '' : 'this one, '}${f.isTop ? 'top' : 'child'}${f.leaderKey ? ` "${f.leaderKey}"` : ''}: ${INSTALLED[f.agentInstallType]}`);
      out.push({ level: 'info', message: `the tab's frames running Waymark for this app: ${frames.length} (${each.join('; ')})` });
    }
    out.push(guidesOff(r.options) ? { level: 'info', message: 'guides are off (disableGuides)' } : { level: 'info', message: `guides are on${r.guides ? '' : ', their module still loading'}` });
  }
  if (!isSecureContext) out.push({ level: 'warn', message: 'the page is not a secure context (http)', advice: 'Cookies are not Secure, and some browsers refuse storage to such pages: serve the app over https.' });
  if (crossOriginIsolated) out.push({ level: 'info', message: 'the page is cross-origin isolated (COOP and COEP)', advice: 'The worker file must be served with Cross-Origin-Embedder-Policy: require-corp (the reference server does).' });
  const tt = (globalThis as { trustedTypes?: unknown }).trustedTypes;
  if (tt) out.push({ level: 'info', message: 'Trusted Types are available', advice: "If the page's CSP requires them, allow the 'waymark' policy (require-trusted-types-for 'script'; trusted-types waymark)." });
  if (!navigator.cookieEnabled) out.push({ level: 'warn', message: 'cookies are disabled', advice: 'The anonymous visitor is kept in local storage only.' });
  out.push({ level: 'info', message: `console logging is ${host.logger.isEnabled() ? 'on' : 'off'} (waymark.enableLogging() / disableLogging())` });
  return out;
}
