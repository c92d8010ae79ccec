/**
 * The read side for tests and the demo: what the collector received, as it received it.
 */
import { accessOf } from '../auth/routeAccess';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventKind, EventStore } from '../ingest/createEventStore';
import { HttpError } from '../HttpError';
import { listLimit } from '../ingest/readDataRequest';

type Query = Record<string, string | string[] | undefined>;

/** Registers `GET /api/events` and `GET /api/health`. */
export function registerApiRoutes(app: FastifyInstance, store: EventStore): void {
  /** `{ events: [...] }`: stored bodies in arrival order, filtered by apiKey (required), kind, type, visitorId, source. */
  app.get('/api/events', accessOf('viewer'), async (request: FastifyRequest<{ Querystring: Query }>) => {
    const query = request.query;
    const apiKey = one(query, 'apiKey');
    if (!apiKey) throw new HttpError(400, 'apiKey is required: /api/events?apiKey=...');
    const kind = one(query, 'kind');
    if (kind !== undefined && kind !== 'analytics' && kind !== 'guide') {
      throw new HttpError(400, "kind must be 'analytics' or 'guide'");
    }
    const limit = listLimit(one(query, 'limit'));
    const events = await store.listEvents({
      apiKey,
      kind: kind as EventKind | undefined,
      type: one(query, 'type'),
      visitorId: one(query, 'visitorId'),
      source: one(query, 'source'),
      limit,
    });
    return { events };
  });

  /** Readiness check for scripts that wait for the server (the demo pages answer 503 until built). */
  app.get('/api/health', accessOf('open'), async () => ({ ok: true }));
}

function one(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new HttpError(400, `${name} must be given once`);
  return value === '' ? undefined : value;
}
