/**
 * Retention of an app (issue #35 "Funnels, paths, retention"): `POST /api/apps/{apiKey}/retention` with the question
 * (retentionBody) -> 200 with its cohorts (retentionQuery). A POST because the question holds steps, but a read: it
 * stores nothing, so viewers may ask it (auth/roles: analytics are a viewer's to read) and it is not audited. Bodies
 * over MAX_RETENTION_BODY_BYTES are a 413; bad fields a 400 naming them; a feature, page or guide id that is not the
 * app's a 400 naming the step's field (`start.feature`, `return.page`): an id of another app reads as unknown.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../auth/routeAccess';
import type { Database } from '../storage/Database';
import type { Summarizer } from '../summaries/createSummarizer';
import type { RetentionAnswer } from '../../shared/api/retention';
import type { StepSources } from './funnelSteps';
import { MAX_RETENTION_BODY_BYTES, readRetentionBody } from './retentionBody';
import { queryRetention } from './retentionQuery';

/** What the retention route reads. */
export interface RetentionRoutesOptions extends StepSources {
  /** The events' database. */
  db: Database;
  /**
   * The summarizer, flushed before each question so it counts every batch answered 2xx before it: steps resolve from
   * the dictionaries' entries (funnelSteps), and first uses and returns of any event, a feature or a page read the
   * units' weeks (of their keys), all kept by the drain.
   */
  summaries: Pick<Summarizer, 'flush'>;
  /** The clock that says which weeks have passed (tests pin it). @default Date.now */
  now?: () => number;
}

type RetentionRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

/** Registers `POST /api/apps/{apiKey}/retention`. */
export function registerRetentionRoutes(app: FastifyInstance, { db, summaries, rules, guideStepIds, now = Date.now }: RetentionRoutesOptions): void {
  app.post('/api/apps/:apiKey/retention', { ...accessOf('viewer'), bodyLimit: MAX_RETENTION_BODY_BYTES }, async (request: RetentionRequest): Promise<RetentionAnswer> => {
    const question = readRetentionBody(request.body);
    await summaries.flush();
    return queryRetention(db, request.params.apiKey, question, { rules, guideStepIds }, now());
  });
}
