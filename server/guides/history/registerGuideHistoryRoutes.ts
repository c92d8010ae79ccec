/**
 * Guide history (issue #33; docs/users-and-roles.md "Guide history"), under /api/apps/{apiKey}/guides/{id}/versions:
 * - `GET .../versions` (viewer): the versions, newest first (number, who, when, state);
 * - `GET .../versions/{n}` (viewer): one version with its guide;
 * - `GET .../versions/{a}/diff/{b}` (viewer): what changed from a to b, `{ from, to, sentences, changes }`;
 * - `POST .../versions/{n}/restore` (editor): the version's guide saved again as a draft, a new version (audited
 *   as `guide.restored`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GuideDiff, GuideRestored, GuideVersionList } from '../../../shared/api/guideHistory';
import { accessOf } from '../../auth/routeAccess';
import { HttpError } from '../../HttpError';
import type { GuideStore } from '../createGuideStore';
import type { GuideVersions, GuideVersion } from './createGuideVersions';
import { diffGuides } from './diffGuides';
import { keepGuideVersion } from './keepGuideVersion';

type VersionParams = { apiKey: string; guideId: string; version: string; other: string };
type VersionRequest = FastifyRequest<{ Params: VersionParams }>;

/** What the history routes use. */
export interface GuideHistoryRoutesOptions {
  guides: GuideStore;
  versions: GuideVersions;
  now?: () => number;
}

const BASE = '/api/apps/:apiKey/guides/:guideId/versions';

/** Registers the guide history routes. */
export function registerGuideHistoryRoutes(app: FastifyInstance, { guides, versions, now = Date.now }: GuideHistoryRoutesOptions): void {
  const versionOf = async ({ apiKey, guideId }: VersionParams, text: string, field: string): Promise<GuideVersion> => {
    const n = /^[1-9]\d{0,8}$/.test(text) ? Number(text) : NaN;
    if (Number.isNaN(n)) throw new HttpError(400, `${field} must be a version number (1, 2, ...)`, field);
    const found = await versions.get(apiKey, guideId, n);
    if (!found) throw new HttpError(404, `guide '${guideId}' of app '${apiKey}' has no version ${n}`);
    return found;
  };

  app.get(BASE, accessOf('viewer'), async (request: VersionRequest) => {
    const { apiKey, guideId } = request.params;
    const list = await versions.list(apiKey, guideId);
    if (list.length === 0) throw new HttpError(404, `guide '${guideId}' of app '${apiKey}' has no versions`);
    return { versions: list } satisfies GuideVersionList;
  });

  app.get(`${BASE}/:version`, accessOf('viewer'), async (request: VersionRequest) => versionOf(request.params, request.params.version, 'version'));

  app.get(`${BASE}/:version/diff/:other`, accessOf('viewer'), async (request: VersionRequest) => {
    const a = await versionOf(request.params, request.params.version, 'version');
    const b = await versionOf(request.params, request.params.other, 'other');
    const changes = diffGuides(a, b);
    return { from: a.version, to: b.version, sentences: changes.map((c) => c.sentence), changes } satisfies GuideDiff;
  });

  app.post(`${BASE}/:version/restore`, accessOf('editor'), async (request: VersionRequest, reply) => {
    const { apiKey, guideId } = request.params;
    const source = await versionOf(request.params, request.params.version, 'version');
    const before = await guides.get(apiKey, guideId);
    // A restored guide is a draft: an author publishes it again on purpose. publishedAt is the server's.
    const { publishedAt: _published, lastUpdatedAt: _updated, ...guide } = source.guide;
    const { stored } = await guides.put(apiKey, guide, 'draft', now());
    const version = await keepGuideVersion(app, versions, request, { apiKey, stored, action: 'guide.restored', before });
    return reply.code(201).send({ version, restoredFrom: source.version, guide: stored.guide, state: stored.state, updatedAt: stored.updatedAt } satisfies GuideRestored);
  });
}
