/**
 * Paths of an app (issue #35 "Funnels, paths, retention"): `POST /api/apps/{apiKey}/paths` with the question
 * (pathsBody) -> 200 with its answer (pathsQuery). A POST because the question is a structured body, but a read: it
 * stores nothing and changes nothing, so viewers may ask it (auth/roles: analytics are a viewer's to read) and it
 * is not audited. Bodies over MAX_PATHS_BODY_BYTES are a 413; bad fields a 400 naming them; a page or feature that
 * is not the app's a 400 naming `start.page` or `start.feature`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../auth/routeAccess';
import type { Database } from '../storage/Database';
import type { Summarizer } from '../summaries/createSummarizer';
import type { PathsAnswer } from '../../shared/api/paths';
import type { RuleStore } from './createRuleStore';
import { MAX_PATHS_BODY_BYTES, readPathsBody } from './pathsBody';
import { queryPaths } from './pathsQuery';

/** What the paths route reads. */
export interface PathsRoutesOptions {
  db: Database;
  rules: RuleStore;
  /**
   * The summarizer, flushed before each question so it counts every batch answered 2xx before it: a backfilled
   * start's entries are the dictionaries', which the drain keeps (pathStartVisitors).
   */
  summaries: Pick<Summarizer, 'flush'>;
}

type PathsRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

/** Registers `POST /api/apps/{apiKey}/paths`. */
export function registerPathsRoutes(app: FastifyInstance, { db, rules, summaries }: PathsRoutesOptions): void {
  app.post('/api/apps/:apiKey/paths', { ...accessOf('viewer'), bodyLimit: MAX_PATHS_BODY_BYTES }, async (request: PathsRequest): Promise<PathsAnswer> => {
    const question = readPathsBody(request.body);
    await summaries.flush();
    return queryPaths(db, rules, request.params.apiKey, question);
  });
}
