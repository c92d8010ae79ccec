/**
 * guides §3 contentUrlJs and globalJsUrl, guides §2 the launcher's contentUrlJs: a script from an origin the
 * worker allowed, added once per URL, with its SRI integrity when given (the browser refuses a script that
 * does not match); a failure logs `failure` ('Failed to load script'). Nothing with preventCodeInjection.
 */
import { MESSAGES } from '../../shared/messages';
import type { LogLevel } from '../../shared/protocol';

export type ScriptLoader = (script: { url: string; integrity?: string }, failure?: string) => void;

export function createScriptLoader(preventCodeInjection: boolean | undefined, trustedScriptUrl: (url: string) => string, log: (level: LogLevel, message: string) => void): ScriptLoader {
  const added = new Set<string>();
  return ({ url, integrity }, failure = MESSAGES.scriptLoadFailed) => {
    if (preventCodeInjection || added.has(url)) return;
    added.add(url);
    const el = document.createElement('script');
    el.src = trustedScriptUrl(url);
    el.async = true;
    if (integrity) {
      el.integrity = integrity;
      el.crossOrigin = 'anonymous';
    }
    el.onerror = () => log('error', `${failure}: ${url}`);
    document.head.appendChild(el);
  };
}
