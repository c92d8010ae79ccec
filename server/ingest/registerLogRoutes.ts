/**
 * The agent's log calls (spec: analytics §7 "Log beacon", "Error log") and their read-back:
 * `GET /data/log.gif/{apiKey}?msg=&version=`, `POST /data/errorlog?apiKey=` with `{error, version, visitorId}`,
 * and `GET /api/logs`. Every answer comes after the row is stored.
 */
import { STORES_NO_HEAD } from './registerDataRoutes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LogKind, LogStore } from './createLogStore';
import { accessOf } from '../auth/routeAccess';
import { HttpError } from '../HttpError';
import { jsonObjectOf, listLimit, requireApiKey } from './readDataRequest';
import { storableText } from './textFault';

type Query = Record<string, string | string[] | undefined>;

/** The 1x1 transparent GIF a beacon answers with (GIF89a, one transparent pixel), as on ptm.gif. */
const TRANSPARENT_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const ERRORLOG_SHAPE = 'body must be a JSON object {"error": string, "version"?: string, "visitorId"?: string}';

/** Registers `GET /data/log.gif/:apiKey`, `POST /data/errorlog` and `GET /api/logs`. */
export function registerLogRoutes(app: FastifyInstance, store: LogStore): void {
  // The `?` makes the api key optional in the route so a request without one gets a 400 that says so.
  app.get('/data/log.gif/:apiKey?', STORES_NO_HEAD, async (request: FastifyRequest<{ Params: { apiKey?: string }; Querystring: Query }>, reply) => {
    const apiKey = requireApiKey(request);
    const msg = one(request.query, 'msg');
    if (!msg) throw new HttpError(400, 'msg is required: /data/log.gif/{apiKey}?msg=...&version=...');
    await store.insert(apiKey, { kind: 'log', message: msg, version: one(request.query, 'version') ?? null, visitorId: null }, Date.now());
    return reply.type('image/gif').header('cache-control', 'no-store').send(TRANSPARENT_GIF);
  });

  app.post('/data/errorlog', async (request: FastifyRequest<{ Querystring: Query }>) => {
    const apiKey = one(request.query, 'apiKey');
    if (!apiKey) throw new HttpError(400, 'apiKey is required: /data/errorlog?apiKey=...');
    const body = jsonObjectOf(request.body, ERRORLOG_SHAPE);
    const { error, version, visitorId } = body as { error?: unknown; version?: unknown; visitorId?: unknown };
    if (typeof error !== 'string' || error === '') throw new HttpError(400, `error must be a non-empty string: ${ERRORLOG_SHAPE}`);
    if (version !== undefined && typeof version !== 'string') throw new HttpError(400, `version must be a string: ${ERRORLOG_SHAPE}`);
    if (visitorId !== undefined && typeof visitorId !== 'string') {
      throw new HttpError(400, `visitorId must be a string: ${ERRORLOG_SHAPE}`);
    }
    // issue #31: text the database refuses is a 400 naming its field, before the insert.
    for (const [field, text] of Object.entries({ error, version, visitorId })) if (typeof text === 'string') storableText(text, field);
    await store.insert(
      apiKey,
      { kind: 'error', message: error, version: version ?? null, visitorId: visitorId || null },
      Date.now(),
    );
    return { stored: 1 };
  });

  /** `{ logs: [{ kind, message, version, visitorId, receivedAt }] }` in arrival order, by apiKey (required) and kind. */
  app.get('/api/logs', accessOf('viewer'), async (request: FastifyRequest<{ Querystring: Query }>) => {
    const query = request.query;
    const apiKey = one(query, 'apiKey');
    if (!apiKey) throw new HttpError(400, 'apiKey is required: /api/logs?apiKey=...');
    const kind = one(query, 'kind');
    if (kind !== undefined && kind !== 'log' && kind !== 'error') throw new HttpError(400, "kind must be 'log' or 'error'");
    const limit = listLimit(one(query, 'limit'));
    return { logs: await store.listLogs({ apiKey, kind: kind as LogKind | undefined, limit }) };
  });
}

/** A query value given at most once; empty counts as absent. */
function one(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new HttpError(400, `${name} must be given once`);
  return value === '' ? undefined : value;
}

