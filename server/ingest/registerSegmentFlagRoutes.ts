/**
 * Segment flags on the data host (spec: analytics §7 "Segment flags"):
 * `GET /data/segmentflag.json/{apiKey}?id=&jzb=` with the jzb of `{visitorId, accountId, metadata, url}`, and
 * the same by POST with `{"events": "<jzb>", "jwt"?, "signingKeyName"?}` when the URL would be too long or a
 * JWT is set. Both answer `{ id, segmentFlags }` from the rules of createSegmentRules.
 * CORS comes from registerCors, which covers every /data path (preflight included).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SegmentRules, SegmentSubject } from './createSegmentRules';
import { HttpError } from '../HttpError';
import { parseJzb } from './parseJzb';
import { eventsOfBody, requireApiKey, single } from './readDataRequest';

type Query = Record<string, string | string[] | undefined>;
type FlagRequest = FastifyRequest<{ Params: { apiKey?: string }; Querystring: Query }>;

const PAYLOAD_SHAPE = '{"visitorId": string, "accountId": string, "metadata": {"visitor", "account", "parentAccount"}, "url": string}';
const BODY_SHAPE = 'body must be a JSON object {"events": "<jzb>"} (or {"events": {...payload}}), with optional jwt and signingKeyName';

/** Registers `GET` and `POST /data/segmentflag.json/:apiKey`. */
export function registerSegmentFlagRoutes(app: FastifyInstance, rules: SegmentRules): void {
  const answer = async (request: FlagRequest, payload: unknown) => {
    const id = single(request.query.id, 'id');
    const segmentFlags = await rules.flagsFor(subjectOf(payload));
    // spec: analytics §7 — the response carries the request's id, so the agent can discard a stale answer.
    return { ...(id !== undefined ? { id } : {}), segmentFlags };
  };

  // The `?` makes the api key optional in the route so a request without one gets a 400 that says so.
  app.get('/data/segmentflag.json/:apiKey?', async (request: FlagRequest, reply) => {
    requireApiKey(request);
    const result = await answer(request, parseJzb(single(request.query.jzb, 'jzb')));
    // Flags depend on the payload and the rules file of the moment: never cached.
    return reply.header('cache-control', 'no-store').send(result);
  });

  app.post('/data/segmentflag.json/:apiKey?', async (request: FlagRequest, reply) => {
    requireApiKey(request);
    const result = await answer(request, eventsOfBody(request.body, BODY_SHAPE));
    return reply.header('cache-control', 'no-store').send(result);
  });
}

/** Checks the decoded payload and narrows it for the rules; optional fields may be absent. */
function subjectOf(payload: unknown): SegmentSubject {
  if (!isPlainObject(payload)) throw new HttpError(400, `segmentflag.json payload must be an object ${PAYLOAD_SHAPE}`);
  const { visitorId, accountId, url, metadata } = payload as Record<string, unknown>;
  for (const [name, value] of Object.entries({ visitorId, accountId, url })) {
    if (value !== undefined && typeof value !== 'string') throw new HttpError(400, `${name} must be a string: ${PAYLOAD_SHAPE}`);
  }
  if (metadata !== undefined) {
    if (!isPlainObject(metadata)) throw new HttpError(400, `metadata must be an object: ${PAYLOAD_SHAPE}`);
    for (const part of ['visitor', 'account', 'parentAccount']) {
      const value = (metadata as Record<string, unknown>)[part];
      if (value !== undefined && !isPlainObject(value)) throw new HttpError(400, `metadata.${part} must be an object: ${PAYLOAD_SHAPE}`);
    }
  }
  return { visitorId, accountId, url, metadata: metadata as SegmentSubject['metadata'] };
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
