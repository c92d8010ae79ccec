/**
 * "Did the guide work?" (issue #35): `GET /api/apps/{apiKey}/guides/{guideId}/experiment?from&to` -> the guide's goal
 * conversion per arm, the lift with its 95% interval and a verdict (experimentQuery; docs/console-api.md "Guide goal
 * and experiment"). A read of analytics: viewers may ask it (auth/roles). First exposures in all time, or in
 * `from`/`to` (epoch ms, widened to whole UTC days as the features' reads are). A guide that is not the app's is a
 * 404; a guide without a goal a 409 (there is nothing to measure until one is set).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../../auth/routeAccess';
import { HttpError } from '../../HttpError';
import type { ConsoleQuery } from '../../queries/queryParams';
import type { Database } from '../../storage/Database';
import type { Summarizer } from '../../summaries/createSummarizer';
import type { ExperimentAnswer } from '../../../shared/api/experiments';
import type { Guide, GuideGoal } from '../../../shared/guides/guides';
import type { StepSources } from '../funnelSteps';
import { useRange } from '../registerAnalyticsRoutes';
import { queryExperiment } from './experimentQuery';

/** What the route reads. */
export interface ExperimentRoutesOptions extends StepSources {
  db: Database;
  /**
   * Flushed before each read, as the funnels' route is: the goal's feature or page resolves from the dictionaries'
   * entries and their rule keys, which only drained batches are in (funnelSteps).
   */
  summaries: Pick<Summarizer, 'flush'>;
  /** The app's guide of that id (the database's, else the guide folder's); undefined when it has none. */
  guideOf(apiKey: string, guideId: string): Promise<Guide | undefined>;
  /** The clock of an all-time read's end. @default Date.now */
  now?: () => number;
}

type ExperimentRequest = FastifyRequest<{ Params: { apiKey: string; guideId: string }; Querystring: ConsoleQuery }>;

/** Registers `GET /api/apps/{apiKey}/guides/{guideId}/experiment`. */
export function registerExperimentRoutes(app: FastifyInstance, { db, summaries, guideOf, rules, guideStepIds, now = Date.now }: ExperimentRoutesOptions): void {
  app.get('/api/apps/:apiKey/guides/:guideId/experiment', accessOf('viewer'), async (request: ExperimentRequest): Promise<ExperimentAnswer> => {
    const { apiKey, guideId } = request.params;
    const clock = now();
    const range = useRange(request.query, clock);
    const guide = await guideOf(apiKey, guideId);
    if (!guide) throw new HttpError(404, `guide '${guideId.slice(0, 100)}' not found in app '${apiKey}'`);
    if (!guide.goal) throw new HttpError(409, `guide '${guideId.slice(0, 100)}' has no goal: set one in the guide editor (goal, withinDays) to measure it`);
    const span = range ? { from: range.from, to: range.to } : { from: 0, to: clock + 1 };
    await summaries.flush();
    return queryExperiment(db, apiKey, guide as Guide & { goal: GuideGoal }, span, { rules, guideStepIds });
  });
}
