/**
 * Which arm of a guide's experiment a visitor is in (issue #35 "Did the guide work?", guides §4 Control group),
 * decided by the collector when it answers guide.json, with no state stored:
 * the SHA-256 of `["<guide id>","<visitor id>"]` (JSON, so no two pairs share a text), its first 48 bits read as a
 * number in [0, 1); below the guide's `controlShare` is control. The same pair always hashes the same, so a visitor
 * stays in their arm on every request and every collector process; each guide hashes its own ids, so being control
 * for one guide says nothing about another. Raising the share from 0.1 to 0.2 moves only the visitors whose number
 * lies in [0.1, 0.2) from treatment to control; everyone else keeps their arm (docs/console-api.md "Guide goal
 * and experiment").
 * Anonymous visitors (the agent's `_WM_` ids) and requests without a visitor id are not in the experiment: they are
 * served the guide as before it, and the results count neither arm's events of theirs (an anonymous id changes when
 * the visitor signs in, so neither their arm nor their goal would stay theirs).
 */
import { createHash } from 'node:crypto';
import type { Guide } from '../../../shared/guides/guides';
import { isAnonymousVisitorId } from '../../../shared/identity/identityRules';

/** The number in [0, 1) of (guide, visitor): the first 48 bits of their SHA-256, over 2^48 (exact in a double). */
export function experimentPoint(guideId: string, visitorId: string): number {
  const digest = createHash('sha256').update(JSON.stringify([guideId, visitorId])).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** Whether the visitor takes part in experiments: an identified visitor id (not empty, not anonymous). */
export function isExperimentVisitor(visitorId: string | undefined): visitorId is string {
  return visitorId !== undefined && visitorId !== '' && !isAnonymousVisitorId(visitorId);
}

/** Whether `visitorId` is in the control arm of `guide`'s experiment (false when the guide has none). */
export function isControlVisitor(guide: Pick<Guide, 'id' | 'experiment'>, visitorId: string | undefined): boolean {
  if (!guide.experiment || !isExperimentVisitor(visitorId)) return false;
  return experimentPoint(guide.id, visitorId) < guide.experiment.controlShare;
}

/**
 * The guides as guide.json serves them to `visitorId`: without the server's `goal` and `experiment` fields, and a
 * guide whose control arm the visitor is in with `control: true` (the agent then never shows it, marks its steps
 * notSeen and records the control event once: guides §4 Control group).
 */
export function withExperimentArms(guides: readonly Guide[], visitorId: string | undefined): Guide[] {
  return guides.map(({ goal: _goal, experiment, ...guide }) => (isControlVisitor({ id: guide.id, experiment }, visitorId) ? { ...guide, control: true } : guide));
}
