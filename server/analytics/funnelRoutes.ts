/**
 * Funnels of an app (issue #35 "Funnels"): `POST /api/apps/{apiKey}/funnels` with the question (funnelBody) ->
 * 200 with its answer (funnelQuery). A POST because the question is a structured body, but a read: it stores
 * nothing and changes nothing, so viewers may ask it (auth/roles: analytics are a viewer's to read) and it is not
 * audited. Bodies over MAX_FUNNEL_BODY_BYTES are a 413; bad fields a 400 naming them; a feature, page or guide id
 * that is not the app's a 400 naming the step's field (an id of another app reads as unknown).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../auth/routeAccess';
import type { Summarizer } from '../summaries/createSummarizer';
import type { Database } from '../storage/Database';
import { MAX_FUNNEL_BODY_BYTES, readFunnelBody } from './funnelBody';
import { queryFunnel, type FunnelAnswer } from './funnelQuery';
import type { StepSources } from './funnelSteps';

/** What the funnel route reads. */
export interface FunnelRoutesOptions extends StepSources {
  /** The events' database. */
  db: Database;
  /**
   * The summarizer, flushed before each question so it counts every batch answered 2xx before it: steps resolve from
   * the dictionaries' entries and their rule keys, which the drain (and the matching after it) keeps (funnelSteps),
   * and a breakdown reads the visitors' (accounts') latest metadata from the summaries.
   */
  summaries: Pick<Summarizer, 'flush'>;
}

type FunnelRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

/** Registers `POST /api/apps/{apiKey}/funnels`. */
export function registerFunnelRoutes(app: FastifyInstance, { db, summaries, rules, guideStepIds }: FunnelRoutesOptions): void {
  app.post('/api/apps/:apiKey/funnels', { ...accessOf('viewer'), bodyLimit: MAX_FUNNEL_BODY_BYTES }, async (request: FunnelRequest): Promise<FunnelAnswer> => {
    const question = readFunnelBody(request.body);
    await summaries.flush();
    return queryFunnel(db, request.params.apiKey, question, { rules, guideStepIds });
  });
}
