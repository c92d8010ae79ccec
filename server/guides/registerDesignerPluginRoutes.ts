/**
 * Designer plugins from the guide folder (docs/designer.md "Plugins"): `{guides}/designer-plugins/{name}.js`,
 * served at `/data/designer-plugins/{name}.js` (under /data, so the designer on any host origin may import them)
 * and listed at `/data/designer-plugins.json`. The names are those the agent's allow-list accepts
 * (shared/authoring/designerPlugins.ts); other files in the folder are neither listed nor served.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DESIGNER_PLUGIN_DIR, DESIGNER_PLUGIN_LIST, pluginModuleUrl } from '../../shared/authoring/designerPlugins';
import { HttpError } from '../HttpError';

/** Any origin stands in for the server's own: only the path is checked here. */
const SELF = 'http://127.0.0.1';

export function registerDesignerPluginRoutes(app: FastifyInstance, guidesDir: string): void {
  const folder = join(guidesDir, 'designer-plugins');

  app.get(DESIGNER_PLUGIN_LIST, async (_request, reply) => {
    const files = await readdir(folder).catch(() => [] as string[]);
    const plugins = files
      .map((file) => DESIGNER_PLUGIN_DIR + file)
      .filter((path) => pluginModuleUrl(path, SELF))
      .sort();
    // Authors add a plugin and open the designer again: never cached.
    return reply.header('cache-control', 'no-cache').send({ plugins });
  });

  app.get(`${DESIGNER_PLUGIN_DIR}:file`, async (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const { file } = request.params;
    if (!pluginModuleUrl(DESIGNER_PLUGIN_DIR + file, SELF)) throw new HttpError(404, `no designer plugin ${file}: names are lower-case letters, digits and hyphens, ending in .js`);
    let body: string;
    try {
      body = await readFile(join(folder, file), 'utf8');
    } catch {
      throw new HttpError(404, `no designer plugin ${file} in this guide folder`);
    }
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });
}
