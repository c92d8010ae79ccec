/**
 * App settings (issue #14; docs/console-api.md "Settings"): `GET` answers the stored settings with the
 * defaults filled in, `PUT` replaces them after checkSettings (unknown keys and bad values are 400s naming the
 * field). The launcher set here is what guide.json serves for the app (createGuideSource). `GET .../settings/theme`
 * answers the guide theme alone: the designer draws its live step in it, and a designer session may read it.
 * `POST /api/apps` `{ apiKey }` makes an app known with no settings of its own (issue #31, WAYMARK_APPS=known; a PUT
 * of settings makes it known too), leaving an existing app's settings as they are.
 */
import { accessOf } from '../auth/routeAccess';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../HttpError';
import { checkSettings, withDefaults, type AppSettings } from './checkSettings';
import type { SettingsStore } from './createSettingsStore';

type SettingsRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

/**
 * The longest api key: find-my-way's cap on a path parameter, so every key made here can be sent in a /data path.
 * Control and space characters are refused: a key is typed into a snippet and a URL.
 */
const API_KEY = /^[^\s\p{Cc}]{1,100}$/u;

/** Registers GET and PUT /api/apps/{apiKey}/settings and POST /api/apps. */
export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsStore, now: () => number = Date.now): void {
  app.get('/api/apps/:apiKey/settings', async (request: SettingsRequest) => withDefaults(await settings.get(request.params.apiKey)));

  app.get('/api/apps/:apiKey/settings/theme', accessOf('designer'), async (request: SettingsRequest) => withDefaults(await settings.get(request.params.apiKey)).theme);

  app.put('/api/apps/:apiKey/settings', async (request: SettingsRequest) => {
    const problem = checkSettings(request.body);
    if (problem) throw new HttpError(400, problem.error, problem.field);
    return withDefaults(await settings.put(request.params.apiKey, request.body as AppSettings, now()));
  });

  app.post('/api/apps', async (request, reply) => {
    const apiKey = (request.body as { apiKey?: unknown } | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || !API_KEY.test(apiKey)) {
      throw new HttpError(400, 'apiKey must be 1 to 100 characters, without spaces or control characters: { "apiKey": "..." }', 'apiKey');
    }
    const created = await settings.create(apiKey, now());
    return reply.code(created ? 201 : 200).send({ apiKey, created });
  });
}
