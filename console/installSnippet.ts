/**
 * The install snippet as an app's Install page shows it: shim/snippet.html (the one the docs and the demo use)
 * with the app's key and this server's absolute waymark.js URL filled in, its "replace these" comment left out.
 * And the rule an app key typed in the console keeps to.
 */
import SNIPPET from '../shim/snippet.html?raw';

/** A JavaScript string literal in single quotes. */
export const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function installSnippet(apiKey: string, origin: string): string {
  return SNIPPET.replace(/^<!--[\s\S]*?-->\n/, '')
    .replace("'/waymark.js'", quoted(`${origin}/waymark.js`))
    .replace("'YOUR_API_KEY'", quoted(apiKey))
    .trimEnd();
}

/** Why `key` is not an app key the console offers, or null: 1 to 64 letters, digits, '.', '-' or '_'. */
export function appKeyProblem(key: string): string | null {
  if (!key) return 'Give the app a key';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(key)) {
    return "An app key is 1 to 64 letters, digits, '.', '-' or '_', starting with a letter or a digit";
  }
  return null;
}
