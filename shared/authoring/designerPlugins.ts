/**
 * Designer plugins (guides §5: "loading modules is limited to an allow-listed set of designer plugin paths";
 * the plugins themselves are ours, docs/designer.md "Plugins"). A plugin is an ES module the designer imports
 * into the author's page, so it runs with the author's signed-in session: it may come only from the agent's
 * own server (the snippet's content host, which the app chose), under one folder, by a plain file name. A
 * designer token, which anyone can put in a link, may name plugins too; a name anywhere else is refused with
 * the spec's 'Invalid module URL' and never fetched.
 */
import { httpOrigin } from './designerLaunch';

export { MAX_DESIGNER_PLUGINS } from './designerLaunch';

/** Where the reference server serves the plugins of its guide folder (`{guides}/designer-plugins/*.js`). */
export const DESIGNER_PLUGIN_DIR = '/data/designer-plugins/';
/** The list of those plugins: `{ plugins: string[] }`, paths under DESIGNER_PLUGIN_DIR. */
export const DESIGNER_PLUGIN_LIST = '/data/designer-plugins.json';

/** A plugin's file name: lower-case letters, digits and hyphens, `.js` (no dots, no slashes, no escapes). */
const PLUGIN_PATH = /^\/data\/designer-plugins\/[a-z0-9][a-z0-9-]{0,63}\.js$/;

/**
 * The absolute URL of a designer plugin module, or null when `raw` is not on the allow-list: a file directly
 * under DESIGNER_PLUGIN_DIR of `serverUrl`'s origin, as a path (`/data/...`) or an absolute URL of that origin,
 * without query, hash, escapes or dot segments (the file-name rule admits none of them).
 */
export function pluginModuleUrl(raw: unknown, serverUrl: string): string | null {
  const server = httpOrigin(serverUrl);
  if (typeof raw !== 'string' || !server) return null;
  let path: string;
  if (raw.startsWith('/') && !raw.startsWith('//')) path = raw;
  else if (httpOrigin(raw) === server) path = raw.slice(raw.indexOf('/', raw.indexOf('//') + 2));
  else return null;
  return PLUGIN_PATH.test(path) ? server + path : null;
}
