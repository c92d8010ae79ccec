/**
 * The console's read API (docs/console-api.md "Apps and analytics", and the guide stats route): thin routes
 * over the queries of server/queries/. Access is checked before them by auth/registerAuth.ts (every /api route).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../storage/Database';
import type { Summarizer } from '../summaries/createSummarizer';
import { accessOf } from '../auth/routeAccess';
import { HttpError } from '../HttpError';
import { parseRange } from './parseRange';
import { integerParam, limitParam, queryParam, searchParam, type ConsoleQuery } from './queryParams';
import { queryAccount } from './queryAccount';
import { queryAccounts } from './queryAccounts';
import { queryApps } from './queryApps';
import { queryEvent } from './queryEvent';
import { queryEvents } from './queryEvents';
import { queryGuideStats } from './queryGuideStats';
import { queryOverview } from './queryOverview';
import { queryVisitor } from './queryVisitor';
import { queryVisitors } from './queryVisitors';
import { visitorGuides } from './visitorGuides';
import { CSV_DEFAULT_ROWS, CSV_MAX_ROWS, eventsCsvStream } from './eventsCsv';
import type { StepStateEvent } from '../ingest/createEventStore';
import type { Guide } from '../../shared/guides/guides';

/** What the console routes need to know about guides; the guides table provides it (issue #14). */
export interface ConsoleGuideSource {
  /** Guides per api key, for GET /api/apps. */
  countsByApp(): Promise<Record<string, number>>;
  /** The step ids of a guide in order, undefined when the app has no such guide. */
  stepIds(apiKey: string, guideId: string): Promise<string[] | undefined>;
  /** Every guide of the app in any state (a visitor may have met one since disabled). */
  all(apiKey: string): Promise<Guide[]>;
}

/** What the console routes read. */
export interface ConsoleRoutesOptions {
  db: Database;
  guides: ConsoleGuideSource;
  /**
   * The summarizer (summaries/createSummarizer.ts): the routes that read summaries flush it first, so they count
   * every batch answered 2xx before the read (issue #19: the summaries are no longer written by the beacon).
   */
  summaries: Pick<Summarizer, 'flush'>;
  /** A visitor's latest guide event per step (createEventStore.latestStepStates). */
  stepStates(apiKey: string, visitorId: string): Promise<StepStateEvent[]>;
  /** The clock of default ranges. @default Date.now */
  now?: () => number;
}

type AppRequest<P = object> = FastifyRequest<{ Params: { apiKey: string } & P; Querystring: ConsoleQuery }>;

/** Registers the console's read routes under /api/apps. */
export function registerConsoleRoutes(app: FastifyInstance, { db, guides, summaries, stepStates, now = Date.now }: ConsoleRoutesOptions): void {
  // After the access check (an onRequest hook): a refused request summarizes nothing.
  const fresh = { ...accessOf('viewer'), preHandler: async () => { await summaries.flush(); } };
  const viewer = accessOf('viewer');

  app.get('/api/apps', fresh, async () => queryApps(db, await guides.countsByApp()));

  app.get('/api/apps/:apiKey/overview', fresh, async (request: AppRequest) =>
    queryOverview(db, request.params.apiKey, parseRange(request.query, now())));

  app.get('/api/apps/:apiKey/events', viewer, async (request: AppRequest) => {
    const query = request.query;
    return queryEvents(db, {
      apiKey: request.params.apiKey,
      after: integerParam(query, 'after', 'an event id (a non-negative integer)'),
      type: queryParam(query, 'type'),
      visitorId: queryParam(query, 'visitorId'),
      limit: limitParam(query),
    });
  });

  // The same list as a CSV file (docs/console-api.md): newest first, up to CSV_MAX_ROWS.
  app.get('/api/apps/:apiKey/events.csv', viewer, async (request: AppRequest, reply) => {
    const query = request.query;
    const limit = limitParam(query, CSV_MAX_ROWS, CSV_DEFAULT_ROWS);
    const filter = { apiKey: request.params.apiKey, type: queryParam(query, 'type'), visitorId: queryParam(query, 'visitorId'), limit };
    const name = `${request.params.apiKey.replace(/[^\w.-]/g, '_')}-events.csv`;
    // Written as it is read. The first page is read before the answer starts, so a database that fails answers an
    // error; one failing later ends the download short.
    const pages = eventsCsvStream(db, filter);
    const first = await pages.next();
    const body = Readable.from((async function* () {
      if (!first.done) yield first.value;
      yield* pages;
    })());
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(body);
  });

  app.get('/api/apps/:apiKey/events/:id', viewer, async (request: AppRequest<{ id: string }>) => {
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
    if (!Number.isSafeInteger(id)) throw new HttpError(400, 'the event id must be a non-negative integer', 'id');
    const event = await queryEvent(db, request.params.apiKey, id);
    if (!event) throw new HttpError(404, `no event ${id} for this app`);
    return event;
  });

  app.get('/api/apps/:apiKey/visitors', fresh, async (request: AppRequest) =>
    queryVisitors(db, request.params.apiKey, searchParam(request.query), limitParam(request.query)));

  app.get('/api/apps/:apiKey/visitors/:visitorId', fresh, async (request: AppRequest<{ visitorId: string }>) => {
    const visitor = await queryVisitor(db, request.params.apiKey, request.params.visitorId);
    if (!visitor) throw new HttpError(404, 'visitor not found');
    return visitor;
  });

  app.get('/api/apps/:apiKey/visitors/:visitorId/guides', viewer, async (request: AppRequest<{ visitorId: string }>) => {
    const { apiKey, visitorId } = request.params;
    const states = await stepStates(apiKey, visitorId);
    return states.length ? visitorGuides(await guides.all(apiKey), states, visitorId) : [];
  });

  app.get('/api/apps/:apiKey/accounts', fresh, async (request: AppRequest) =>
    queryAccounts(db, request.params.apiKey, searchParam(request.query), limitParam(request.query)));

  app.get('/api/apps/:apiKey/accounts/:accountId', fresh, async (request: AppRequest<{ accountId: string }>) => {
    const account = await queryAccount(db, request.params.apiKey, request.params.accountId);
    if (!account) throw new HttpError(404, 'account not found');
    return account;
  });

  app.get('/api/apps/:apiKey/guides/:guideId/stats', fresh, async (request: AppRequest<{ guideId: string }>) => {
    const { apiKey, guideId } = request.params;
    const range = parseRange(request.query, now());
    const stepIds = await guides.stepIds(apiKey, guideId);
    if (!stepIds) throw new HttpError(404, 'guide not found');
    return queryGuideStats(db, apiKey, guideId, stepIds, range);
  });
}
