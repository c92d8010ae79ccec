/**
 * App settings (issue #14; docs/console-api.md "Settings"): `GET` answers the stored settings with the
 * defaults filled in, `PUT` replaces them after checkSettings (unknown keys and bad values are 400s naming the
 * field). The launcher set here is what guide.json serves for the app (createGuideSource). `GET .../settings/theme`
 * answers the guide theme alone: the designer draws its live step in it, and a designer session may read it;
 * `PUT .../settings/theme` replaces it alone, for editors (issue #33: themes are an editor's, the rest of the
 * settings an admin's).
 * `POST /api/apps` `{ apiKey }` makes an app known with no settings of its own (issue #31, WAYMARK_APPS=known; a PUT
 * of settings makes it known too), leaving an existing app's settings as they are.
 */
import { accessOf } from '../auth/routeAccess';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../HttpError';
import { checkTheme } from '../../shared/surfaces/guideTheme';
import { checkSettings, withDefaults, type StoredSettings } from './checkSettings';
import type { AppCreated, AppSettings } from '../../shared/api';
import type { SettingsStore } from './createSettingsStore';

type SettingsRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

/**
 * The longest api key: find-my-way's cap on a path parameter, so every key made here can be sent in a /data path.
 * Control and space characters are refused: a key is typed into a snippet and a URL.
 */
const API_KEY = /^[^\s\p{Cc}]{1,100}$/u;

/** Registers GET and PUT /api/apps/{apiKey}/settings (and its theme) and POST /api/apps. */
export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsStore, now: () => number = Date.now): void {
  app.get('/api/apps/:apiKey/settings', accessOf('editor'), async (request: SettingsRequest): Promise<AppSettings> => withDefaults(await settings.get(request.params.apiKey)));

  app.get('/api/apps/:apiKey/settings/theme', accessOf('viewer', { designer: true }), async (request: SettingsRequest): Promise<AppSettings['theme']> =>
    withDefaults(await settings.get(request.params.apiKey)).theme);

  app.put('/api/apps/:apiKey/settings/theme', accessOf('editor'), async (request: SettingsRequest): Promise<AppSettings['theme']> => {
    const problem = checkTheme(request.body, 'theme');
    if (problem) throw new HttpError(400, problem.error, problem.field);
    const apiKey = request.params.apiKey;
    const stored = await settings.get(apiKey);
    const theme = withDefaults(await settings.put(apiKey, { ...stored, theme: request.body as StoredSettings['theme'] }, now())).theme;
    await app.audit(request, { action: 'theme.saved', apiKey, before: stored.theme, after: theme });
    return theme;
  });

  app.put('/api/apps/:apiKey/settings', accessOf('admin'), async (request: SettingsRequest): Promise<AppSettings> => {
    const problem = checkSettings(request.body);
    if (problem) throw new HttpError(400, problem.error, problem.field);
    const apiKey = request.params.apiKey;
    const before = await settings.get(apiKey);
    const after = withDefaults(await settings.put(apiKey, request.body as StoredSettings, now()));
    await app.audit(request, { action: 'settings.saved', apiKey, before, after });
    return after;
  });

  app.post('/api/apps', accessOf('admin'), async (request, reply) => {
    const apiKey = (request.body as { apiKey?: unknown } | undefined)?.apiKey;
    if (typeof apiKey !== 'string' || !API_KEY.test(apiKey)) {
      throw new HttpError(400, 'apiKey must be 1 to 100 characters, without spaces or control characters: { "apiKey": "..." }', 'apiKey');
    }
    const created = await settings.create(apiKey, now());
    if (created) await app.audit(request, { action: 'app.created', apiKey, target: apiKey });
    const answer: AppCreated = { apiKey, created };
    return reply.code(created ? 201 : 200).send(answer);
  });
}
