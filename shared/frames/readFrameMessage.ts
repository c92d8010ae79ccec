/**
 * The cross-window messages of frame coordination (spec: analytics §7, guides §7 "Between frames"): each carries
 * a `type` from the spec's list and, to keep a host's own window messages apart, a `waymark` field holding the
 * sender's api key. Only frames of the same api key listen to each other.
 */
import { MESSAGES } from '../messages';
import type { FrameRecord, FrameVisibility } from './electLeaderFrame';

/** spec: analytics §7 — every type a frame message may carry, spelled as the spec spells them. */
export const FRAME_MESSAGE_TYPES = [
  'receiveGuideList',
  'receiveFrame',
  'removeFrame',
  'showGuideStepInFrame',
  'receiveGuideStepShownInFrame',
  'receiveHideGuides',
  'receiveLastGuideStepSeen',
  'receiveThrottlingState',
  'receiveStartPreview',
  'receiveIdentity',
  'receiveOptions',
  'receiveFrameVisibility',
] as const;

/** The messages Waymark sends (the others of FRAME_MESSAGE_TYPES are read as unknown and ignored). */
export type FrameMessage =
  /** A frame joins (or updates its record): sent to every window of the tab; a frame that did not know it answers with its own. */
  | { type: 'receiveFrame'; frame: FrameRecord }
  /** A frame leaves (page hide, teardown). */
  | { type: 'removeFrame'; frameId: string }
  /** The leader's identity, for the followers (analytics §4: only the leader syncs identity). */
  | { type: 'receiveIdentity'; frameId: string; visitorId: string; accountId: string }
  /** A parent tells the frame in one of its iframe elements whether it can be seen. */
  | { type: 'receiveFrameVisibility'; visibility: Exclude<FrameVisibility, 'unknown'> }
  /** The guide step a frame shows now; guideId '' when it shows none. */
  | { type: 'receiveGuideStepShownInFrame'; frameId: string; guideId: string; stepId: string }
  /** hideGuides() was called in the frame `frameId`: every frame hides its guide. */
  | { type: 'receiveHideGuides'; frameId: string };

/** A message as posted: the api key of its sender in `waymark`. */
export type FrameEnvelope = FrameMessage & { waymark: string };

/**
 * What a window message is to the frames of `apiKey`: null when it is not theirs (no object, another `waymark`
 * key, an unknown type or a malformed body: ignored quietly, as anything a host or another script may post);
 * `{ ok: false, problem }` for ours without a type (spec: analytics §8 'Invalid Message: Missing type').
 */
export function readFrameMessage(data: unknown, apiKey: string): { ok: true; message: FrameMessage } | { ok: false; problem: string } | null {
  if (!isObject(data) || data.waymark !== apiKey) return null;
  const type = data.type;
  if (type === undefined || type === null || type === '') return { ok: false, problem: MESSAGES.missingType };
  const str = (v: unknown): v is string => typeof v === 'string';
  const ok = (message: FrameMessage) => ({ ok: true, message }) as const;
  switch (type) {
    case 'receiveFrame': {
      const f = data.frame;
      if (!isObject(f) || !str(f.id) || !f.id || f.apiKey !== apiKey || !str(f.leaderKey) || typeof f.isTop !== 'boolean' || typeof f.joinedAt !== 'number' || !isVisibility(f.visibility)) return null;
      return ok({ type: 'receiveFrame', frame: { id: f.id, apiKey, leaderKey: f.leaderKey, isTop: f.isTop, joinedAt: f.joinedAt, visibility: f.visibility } });
    }
    case 'removeFrame':
    case 'receiveHideGuides':
      return str(data.frameId) ? ok({ type: type === 'removeFrame' ? 'removeFrame' : 'receiveHideGuides', frameId: data.frameId }) : null;
    case 'receiveIdentity':
      return str(data.frameId) && str(data.visitorId) && data.visitorId && str(data.accountId)
        ? ok({ type: 'receiveIdentity', frameId: data.frameId, visitorId: data.visitorId, accountId: data.accountId })
        : null;
    case 'receiveFrameVisibility':
      return data.visibility === 'hidden' || data.visibility === 'visible' ? ok({ type: 'receiveFrameVisibility', visibility: data.visibility }) : null;
    case 'receiveGuideStepShownInFrame':
      return str(data.frameId) && str(data.guideId) && str(data.stepId) ? ok({ type: 'receiveGuideStepShownInFrame', frameId: data.frameId, guideId: data.guideId, stepId: data.stepId }) : null;
    default:
      return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isVisibility(v: unknown): v is FrameVisibility {
  return v === 'unknown' || v === 'hidden' || v === 'visible';
}
