/**
 * App settings (issue #14; docs/console-api.md "Settings"): `GET` answers the stored settings with the
 * defaults filled in, `PUT` replaces them after checkSettings (unknown keys and bad values are 400s naming the
 * field). The launcher set here is what guide.json serves for the app (createGuideSource). `GET .../settings/theme`
 * answers the guide theme alone: the designer draws its live step in it, and a designer session may read it.
 */
import { accessOf } from '../auth/routeAccess';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../HttpError';
import { checkSettings, withDefaults, type AppSettings } from './checkSettings';
import type { SettingsStore } from './createSettingsStore';

type SettingsRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

/** Registers GET and PUT /api/apps/{apiKey}/settings. */
export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsStore, now: () => number = Date.now): void {
  app.get('/api/apps/:apiKey/settings', async (request: SettingsRequest) => withDefaults(await settings.get(request.params.apiKey)));

  app.get('/api/apps/:apiKey/settings/theme', accessOf('designer'), async (request: SettingsRequest) => withDefaults(await settings.get(request.params.apiKey)).theme);

  app.put('/api/apps/:apiKey/settings', async (request: SettingsRequest) => {
    const problem = checkSettings(request.body);
    if (problem) throw new HttpError(400, problem.error, problem.field);
    return withDefaults(await settings.put(request.params.apiKey, request.body as AppSettings, now()));
  });
}
