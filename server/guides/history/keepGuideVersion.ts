/**
 * What follows every change of a guide that succeeded (issue #33): a version of the guide as now stored, and the
 * audit entry with the guide's state and body before and after.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditActorOf } from '../../audit/auditActorOf';
import type { StoredGuide } from '../createGuideStore';
import type { GuideVersions } from './createGuideVersions';

/** Keeps the version and records the change; answers the version's number. */
export async function keepGuideVersion(
  app: FastifyInstance,
  versions: GuideVersions,
  request: FastifyRequest,
  change: { apiKey: string; stored: StoredGuide; action: string; before: StoredGuide | undefined },
): Promise<number> {
  const { apiKey, stored, action, before } = change;
  const version = await versions.append(apiKey, { at: stored.updatedAt, actor: auditActorOf(request), state: stored.state, guide: stored.guide });
  await app.audit(request, {
    action, apiKey, target: stored.guide.id,
    ...(before ? { before: { state: before.state, guide: before.guide } } : {}),
    after: { version, state: stored.state, guide: stored.guide },
  });
  return version;
}
