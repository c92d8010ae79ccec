/**
 * The load response's global guide CSS and script (guides §3 guideCssUrl, globalJsUrl) from the reference
 * server: `assets/global.css` and `assets/global.js` in the guide folder, when present, are served at
 * `/data/guide-assets/{file}` (under /data, so any host origin may fetch them) and named in every guide.json.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../HttpError';

/** The files that may be served, with their content types. */
const ASSETS = {
  'global.css': { type: 'text/css; charset=utf-8', field: 'guideCssUrl' },
  'global.js': { type: 'text/javascript; charset=utf-8', field: 'globalJsUrl' },
} as const;

type AssetName = keyof typeof ASSETS;

/** What guide.json adds: the URLs of the assets the folder has (content-host relative). */
export interface GuideAssets {
  urls(): Promise<{ guideCssUrl?: string; globalJsUrl?: string }>;
}

/** Registers `GET /data/guide-assets/:file` over `{guidesDir}/assets`. */
export function registerGuideAssetRoutes(app: FastifyInstance, guidesDir: string): GuideAssets {
  const pathOf = (name: AssetName) => join(guidesDir, 'assets', name);

  app.get('/data/guide-assets/:file', async (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const name = request.params.file;
    if (!Object.hasOwn(ASSETS, name)) throw new HttpError(404, `no guide asset ${name}: only ${Object.keys(ASSETS).join(' and ')}`);
    let body: string;
    try {
      body = await readFile(pathOf(name as AssetName), 'utf8');
    } catch {
      throw new HttpError(404, `no guide asset ${name} in this guide folder`);
    }
    // Authors edit these files and reload: never cached.
    return reply.type(ASSETS[name as AssetName].type).header('cache-control', 'no-cache').send(body);
  });

  return {
    async urls() {
      const urls: { guideCssUrl?: string; globalJsUrl?: string } = {};
      for (const name of Object.keys(ASSETS) as AssetName[]) {
        const present = await stat(pathOf(name)).then((s) => s.isFile(), () => false);
        if (present) urls[ASSETS[name].field] = `/data/guide-assets/${name}`;
      }
      return urls;
    },
  };
}
