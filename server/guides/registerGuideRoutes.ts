/**
 * Guide management (issue #14; contract in docs/console-api.md "Guides"): list, read, save, change state and
 * delete an app's guides. A guide saved `public` is served by guide.json at the next guide load, no restart.
 */
import { accessOf } from '../auth/routeAccess';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../storage/Database';
import type { Summarizer } from '../summaries/createSummarizer';
import { HttpError } from '../HttpError';
import type { Guide } from '../../shared/guides/guides';
import type { GuideDetail, GuideRow } from '../../shared/api';
import { checkGuideBody, MAX_GUIDE_ID_LENGTH, withStepGuideIds } from './checkGuideBody';
import { GUIDE_STATES, type GuideState, type GuideStore, type StoredGuide } from './createGuideStore';
import { guideListStats } from './guideListStats';
import { integerParam, queryParam, type ConsoleQuery } from '../queries/queryParams';
import { keepGuideVersion } from './history/keepGuideVersion';
import type { GuideVersions } from './history/createGuideVersions';
import { goalTarget } from '../analytics/experiments/checkGuideGoal';

type GuideRequest = FastifyRequest<{ Params: { apiKey: string; guideId: string }; Body: unknown }>;

/** What the guide routes use. */
export interface GuideRoutesOptions {
  db: Database;
  guides: GuideStore;
  /** The summarizer: the guide list's figures come from the summaries, flushed before the read (issue #19). */
  summaries: Pick<Summarizer, 'flush'>;
  /** Guide history (issue #33): each save keeps a version. */
  versions: GuideVersions;
  /** Whether the app has the segment a guide's audience names (issue #35). @default none exists */
  segmentExists?: (apiKey: string, id: string) => Promise<boolean>;
  /** Whether the app has the feature (page) a guide's goal names (issue #35). @default none exists */
  ruleExists?: (apiKey: string, kind: 'feature' | 'page', id: string) => Promise<boolean>;
  now?: () => number;
}

/**
 * The audit action of a guide's change: `guide.published` / `guide.disabled` when its state moved there, else
 * `otherwise` (`guide.saved`, `guide.stateChanged`).
 */
export function guideAction(before: GuideState | undefined, after: GuideState, otherwise: string): string {
  if (before === after) return otherwise;
  return after === 'public' ? 'guide.published' : after === 'disabled' ? 'guide.disabled' : otherwise;
}

/** Registers the guide routes under /api/apps/{apiKey}/guides. */
export function registerGuideRoutes(app: FastifyInstance, { db, guides, summaries, versions, segmentExists = async () => false, ruleExists = async () => false, now = Date.now }: GuideRoutesOptions): void {
  // After a change succeeded: a version of the guide as now stored, and the audit entry with before and after.
  const kept = (request: FastifyRequest, apiKey: string, stored: StoredGuide, action: string, before: StoredGuide | undefined) =>
    keepGuideVersion(app, versions, request, { apiKey, stored, action, before });

  app.get('/api/apps/:apiKey/guides', accessOf('viewer', { designer: true }), async (request: FastifyRequest<{ Params: { apiKey: string }; Querystring: ConsoleQuery }>): Promise<GuideRow[]> => {
    const { apiKey } = request.params;
    // The figures of all time, or of `from` .. `to` (epoch ms, both or neither: the overview's guides); of every
    // visitor, or of `accountId`'s (the account page).
    const from = integerParam(request.query, 'from');
    const to = integerParam(request.query, 'to');
    if ((from === undefined) !== (to === undefined)) throw new HttpError(400, 'from and to go together (epoch ms), or neither for all time', from === undefined ? 'from' : 'to');
    if (from !== undefined && to !== undefined && to <= from) throw new HttpError(400, 'to must be after from', 'to');
    const accountId = queryParam(request.query, 'accountId');
    const stored = await guides.list(apiKey);
    await summaries.flush();
    const stats = await guideListStats(
      db,
      apiKey,
      stored.map(({ guide }) => ({ id: guide.id, lastStepId: guide.steps[guide.steps.length - 1]?.id ?? '' })),
      { ...(from !== undefined && to !== undefined ? { range: { from, to } } : {}), ...(accountId !== undefined ? { accountId } : {}) },
    );
    return stored.map(({ guide, state, updatedAt }): GuideRow => ({
      id: guide.id,
      name: guide.name ?? guide.id,
      state,
      launchMethod: guide.launchMethod,
      stepCount: guide.steps.length,
      // A resource center is its top-level guide and its module guides (issue #15: the designer groups them).
      kind: resourceCenterKind(guide),
      // guides §4 Timebox, for the list to say a guide has not started or has ended.
      ...(guide.showsAfter !== undefined ? { showsAfter: guide.showsAfter } : {}),
      ...(guide.expiresAfter !== undefined ? { expiresAfter: guide.expiresAfter } : {}),
      updatedAt,
      stats: stats[guide.id],
    }));
  });

  app.get('/api/apps/:apiKey/guides/:guideId', accessOf('viewer', { designer: true }), async (request: GuideRequest) => {
    const { apiKey, guideId } = request.params;
    return answer(await found(guides.get(apiKey, guideId), apiKey, guideId));
  });

  app.put('/api/apps/:apiKey/guides/:guideId', accessOf('editor', { designer: true }), async (request: GuideRequest, reply) => {
    const { apiKey, guideId } = request.params;
    const body = request.body;
    const problem = checkGuideBody(body, guideId);
    if (problem) throw new HttpError(400, problem.error, problem.field);
    // The state column is the one truth of a guide's state; a state in the body sets it.
    const { state: wanted, ...guide } = body as Guide;
    // issue #35: an audience names one of this app's segments (an id of another app reads as unknown).
    const segment = guide.audience?.segment;
    if (segment !== undefined && !(await segmentExists(apiKey, segment))) {
      throw new HttpError(400, `audience.segment '${segment}' is not a segment of this app (GET .../segments)`, 'audience.segment');
    }
    // issue #35: a goal names one of this app's features or pages (a track name is anyone's to choose).
    const goal = guide.goal && goalTarget(guide.goal);
    if (goal && goal.kind !== 'track' && !(await ruleExists(apiKey, goal.kind, goal.ref))) {
      throw new HttpError(400, `goal.${goal.kind} '${goal.ref}' is not a ${goal.kind} of this app (GET .../${goal.kind}s)`, `goal.${goal.kind}`);
    }
    if (wanted !== undefined && !GUIDE_STATES.includes(wanted as GuideState)) {
      throw new HttpError(400, `state must be one of ${GUIDE_STATES.join(', ')}`, 'state');
    }
    const before = await guides.get(apiKey, guideId);
    const state = (wanted as GuideState | undefined) ?? before?.state ?? 'draft';
    const { created, stored } = await guides.put(apiKey, withStepGuideIds(guide as Guide), state, now());
    await kept(request, apiKey, stored, guideAction(before?.state, stored.state, 'guide.saved'), before);
    return reply.code(created ? 201 : 200).send(answer(stored));
  });

  app.post('/api/apps/:apiKey/guides/:guideId/state', accessOf('editor', { designer: true }), async (request: GuideRequest) => {
    const { apiKey, guideId } = request.params;
    const state = (request.body as { state?: unknown } | undefined)?.state;
    if (!GUIDE_STATES.includes(state as GuideState)) {
      throw new HttpError(400, `state must be one of ${GUIDE_STATES.join(', ')}: { "state": "public" }`, 'state');
    }
    const before = await found(guides.get(apiKey, guideId), apiKey, guideId);
    const stored = await found(guides.setState(apiKey, guideId, state as GuideState, now()), apiKey, guideId);
    await kept(request, apiKey, stored, guideAction(before.state, stored.state, 'guide.stateChanged'), before);
    return answer(stored);
  });

  // A copy of a guide as a new draft, as guide products have: id `{id}-copy` (else `-copy-2`, ...), name
  // 'Copy of {name}', no publishedAt. Its steps keep their ids: a visitor's step state is the guide's and the
  // step's id together, and the translations and branches that name steps stay right.
  app.post('/api/apps/:apiKey/guides/:guideId/duplicate', accessOf('editor', { designer: true }), async (request: GuideRequest, reply) => {
    const { apiKey, guideId } = request.params;
    const { guide } = await found(guides.get(apiKey, guideId), apiKey, guideId);
    const stem = `${guideId.slice(0, MAX_GUIDE_ID_LENGTH - '-copy-999'.length)}-copy`;
    let id = stem;
    for (let n = 2; await guides.get(apiKey, id); n++) id = `${stem}-${n}`;
    const { publishedAt: _published, lastUpdatedAt: _updated, ...rest } = guide;
    const copy = { ...rest, id, name: `Copy of ${guide.name ?? guideId}`, steps: guide.steps.map((step) => ({ ...step, guideId: id })) };
    const { stored } = await guides.put(apiKey, copy, 'draft', now());
    await kept(request, apiKey, stored, 'guide.duplicated', undefined);
    return reply.code(201).send(answer(stored));
  });

  app.delete('/api/apps/:apiKey/guides/:guideId', accessOf('editor', { designer: true }), async (request: GuideRequest, reply) => {
    const { apiKey, guideId } = request.params;
    const before = await guides.get(apiKey, guideId);
    if (!before || !(await guides.remove(apiKey, guideId))) throw notFound(apiKey, guideId);
    await app.audit(request, { action: 'guide.deleted', apiKey, target: guideId, before: { state: before.state, guide: before.guide } });
    return reply.code(204).send();
  });
}

/** The answer of a guide's routes: the stored guide without what only the store keeps (`createdAt`). */
const answer = ({ guide, state, updatedAt }: StoredGuide): GuideDetail => ({ guide, state, updatedAt });

const notFound = (apiKey: string, guideId: string) => new HttpError(404, `guide '${guideId}' not found in app '${apiKey}'`);

async function found(pending: Promise<StoredGuide | undefined>, apiKey: string, guideId: string): Promise<StoredGuide> {
  const stored = await pending;
  if (!stored) throw notFound(apiKey, guideId);
  return stored;
}

/** `resourceCenter` for a resource center's top-level guide, `module` for one of its modules, else `guide`. */
function resourceCenterKind(guide: { attributes?: Record<string, unknown> }): 'guide' | 'resourceCenter' | 'module' {
  const rc = guide.attributes?.resourceCenter as { isTopLevel?: unknown; isModule?: unknown } | undefined;
  return rc?.isTopLevel === true ? 'resourceCenter' : rc?.isModule === true ? 'module' : 'guide';
}
