/**
 * Loads the designer's plugins (docs/designer.md "Plugins"): the agent's server lists those of its guide folder
 * (`/data/designer-plugins.json`), a designer token may name more; each is an ES module imported only from the
 * allow-listed path of the agent's own server (shared/authoring/designerPlugins.ts), anything else logged with the
 * spec's 'Invalid module URL' and never fetched. A module's default export is called with the plugin API; what
 * it adds is checked (stepTemplates.ts). One plugin that fails costs the author only that plugin.
 */
import { DESIGNER_PLUGIN_DIR, DESIGNER_PLUGIN_LIST, MAX_DESIGNER_PLUGINS, pluginModuleUrl } from '../../../shared/authoring/designerPlugins';
import { invalidModuleUrl } from '../../../shared/messageTexts';
import type { LogLevel } from '../../../shared/protocol';
import { readStepTemplate, type StepTemplate } from './stepTemplates';

/** What a plugin's default export is called with. */
export interface DesignerPluginApi {
  /** Adds a ready-made step to the designer's "Add a step from a template" menu. */
  addStepTemplate(template: unknown): void;
}

export interface PluginSources {
  /** The agent's server (the snippet's content host): the only origin plugins load from. */
  serverUrl: string;
  /** Plugins a designer token named, in its order. */
  named: readonly string[];
  log(level: LogLevel, message: string): void;
  /** `import()` of a module (a test may pass its own). */
  load?: (url: string) => Promise<unknown>;
}

export async function loadDesignerPlugins(sources: PluginSources): Promise<StepTemplate[]> {
  const { serverUrl, log } = sources;
  const load = sources.load ?? ((url: string) => import(/* @vite-ignore */ url));
  const wanted = [...new Set([...(await listedPlugins(serverUrl, log)), ...sources.named])];
  if (wanted.length > MAX_DESIGNER_PLUGINS) log('warn', `designer plugins: ${wanted.length} named, the first ${MAX_DESIGNER_PLUGINS} load`);
  const templates = new Map<string, StepTemplate>();
  for (const raw of wanted.slice(0, MAX_DESIGNER_PLUGINS)) {
    const url = pluginModuleUrl(raw, serverUrl);
    if (!url) {
      log('error', `${invalidModuleUrl}: ${JSON.stringify(raw).slice(0, 200)} (designer plugins load only from ${new URL(DESIGNER_PLUGIN_DIR, serverUrl).href})`);
      continue;
    }
    const plugin = url.slice(url.lastIndexOf('/') + 1);
    try {
      const module = (await load(url)) as { default?: unknown };
      if (typeof module.default !== 'function') throw new Error('its default export is not a function');
      await (module.default as (api: DesignerPluginApi) => unknown)({
        addStepTemplate(value) {
          const template = readStepTemplate(value, plugin);
          if (typeof template === 'string') log('warn', `designer plugin ${plugin}: ${template}`);
          else templates.set(template.name, template);
        },
      });
    } catch (err) {
      log('error', `designer plugin ${plugin} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return [...templates.values()];
}

/** The plugins the agent's server lists; none when it lists none or cannot be asked (said in the log). */
async function listedPlugins(serverUrl: string, log: PluginSources['log']): Promise<string[]> {
  try {
    const response = await fetch(new URL(DESIGNER_PLUGIN_LIST, serverUrl), { credentials: 'omit' });
    if (response.status === 404) return [];
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { plugins?: unknown };
    return Array.isArray(body.plugins) ? body.plugins.filter((p): p is string => typeof p === 'string') : [];
  } catch (err) {
    log('warn', `designer plugins: the list at ${DESIGNER_PLUGIN_LIST} did not load (${err instanceof Error ? err.message : String(err)})`);
    return [];
  }
}
