/**
 * Trusted Types (issue #7): on a page with `require-trusted-types-for 'script'`, a worker's URL and a
 * script element's src must be TrustedScriptURLs. The agent makes them with one policy named `waymark`
 * (the host allows it with `trusted-types waymark`). The policy turns into a TrustedScriptURL only a URL
 * the agent itself has just asked for, once: holding the policy object lets no other code through.
 * Without Trusted Types, or where the host does not allow the name, URLs stay plain strings (and a refused
 * worker then falls back to the next mode).
 */
type ScriptUrlPolicy = { createScriptURL(url: string): unknown };

let policy: ScriptUrlPolicy | null | undefined;
const asked = new Set<string>();

/** `url` as the page's script-URL sinks accept it. */
export function trustedScriptUrl(url: string): string {
  const tt = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy } }).trustedTypes;
  if (!tt) return url;
  if (policy === undefined) {
    try {
      policy = tt.createPolicy('waymark', {
        createScriptURL(candidate) {
          if (!asked.delete(candidate)) throw new TypeError(`Waymark's Trusted Types policy refuses ${candidate}: the agent did not ask for it`);
          return candidate;
        },
      });
    } catch {
      policy = null;
    }
  }
  if (!policy) return url;
  asked.add(url);
  // A TrustedScriptURL goes wherever the platform takes a script URL string.
  return policy.createScriptURL(url) as string;
}
