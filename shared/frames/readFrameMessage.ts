/**
 * The cross-window messages of frame coordination (spec: analytics §7, guides §7 "Between frames"): each carries
 * a `type` from the spec's list and, to keep a host's own window messages apart, a `waymark` field holding the
 * sender's api key. Only frames of the same api key listen to each other.
 */
import { MESSAGES } from '../messages';
import type { ThrottlingTimestamps } from '../guides/guides';
import type { StepAction, StepToShow } from '../protocol';
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

/**
 * Requests between frames that wait for a `frameResponse` (guides §8 'request timed out' after
 * FRAME_REQUEST_TIMEOUT_MS): the frame eligibility check the spec names without a type, and a step action a frame
 * sends to the leader whose guide it shows. Ours: the spec lists no type for them.
 */
export const FRAME_REQUEST_TYPES = ['checkFrameEligibility', 'stepActionInFrame', 'claimGuideDisplay', 'frameResponse'] as const;

/** The messages Waymark sends. */
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
  | { type: 'receiveHideGuides'; frameId: string }
  /** The leader's auto steps whose element is not in its own document, for its followers to look for in theirs. */
  | { type: 'receiveGuideList'; frameId: string; steps: StepToShow[] }
  /** The frame eligibility check: which steps of the leader's list can this frame show now (answer: their keys). */
  | { type: 'checkFrameEligibility'; frameId: string; requestId: string }
  /** The leader asks a follower to show one step of its list (answer: whether it shows). */
  | { type: 'showGuideStepInFrame'; frameId: string; requestId: string; guideId: string; stepId: string }
  /** What the visitor did on a step the leader gave: the leader's worker decides (answer: its Outcome). */
  | { type: 'stepActionInFrame'; frameId: string; requestId: string; action: StepAction }
  /** A follower asks the leader whether it may show an auto step of its own now (answer: true, held for it a while). */
  | { type: 'claimGuideDisplay'; frameId: string; requestId: string }
  | { type: 'frameResponse'; frameId: string; requestId: string; value: unknown }
  /** A guide moved on (advanced, dismissed, snoozed, timed out) in the frame `frameId`: the others drop its steps. */
  | { type: 'receiveLastGuideStepSeen'; frameId: string; guideId: string; stepId: string }
  /** guides §4 Throttling: the sender's timestamps after an auto guide's transition, for the others' workers. */
  | { type: 'receiveThrottlingState'; frameId: string; timestamps: ThrottlingTimestamps }
  /** The leader's options that hold for the whole tab: whether guides are stopped (stopGuides, delayGuides). */
  | { type: 'receiveOptions'; frameId: string; guidesPaused: boolean }
  /** A preview started (or ended) in the leader: the followers hold their own guides meanwhile. */
  | { type: 'receiveStartPreview'; frameId: string; active: boolean };

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
      // joinedAt finite: NaN or Infinity orders no frame before another, and frames holding the records in another
      // order would elect another leader.
      if (!isObject(f) || !str(f.id) || !f.id || f.apiKey !== apiKey || !str(f.leaderKey) || typeof f.isTop !== 'boolean' || !Number.isFinite(f.joinedAt) || !isVisibility(f.visibility)) return null;
      const installType = f.agentInstallType === 'snippet' || f.agentInstallType === 'npm' || f.agentInstallType === 'frame' ? f.agentInstallType : 'unknown';
      return ok({ type: 'receiveFrame', frame: { id: f.id, apiKey, leaderKey: f.leaderKey, isTop: f.isTop, joinedAt: f.joinedAt as number, visibility: f.visibility, agentInstallType: installType } });
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
    case 'receiveLastGuideStepSeen':
      return str(data.frameId) && str(data.guideId) && str(data.stepId)
        ? ok({ type: type === 'receiveLastGuideStepSeen' ? type : 'receiveGuideStepShownInFrame', frameId: data.frameId, guideId: data.guideId, stepId: data.stepId })
        : null;
  }
  // The rest carry what the receiver only takes from a frame of its own origin (startFrames checks the origin):
  // a document of the same origin could script ours directly, so its shapes are checked, not its contents.
  if (!str(data.frameId)) return null;
  const frameId = data.frameId;
  const requestId = str(data.requestId) ? data.requestId : null;
  switch (type) {
    case 'receiveGuideList':
      return Array.isArray(data.steps) && data.steps.every(isStep) ? ok({ type: 'receiveGuideList', frameId, steps: data.steps as StepToShow[] }) : null;
    case 'checkFrameEligibility':
      return requestId ? ok({ type: 'checkFrameEligibility', frameId, requestId }) : null;
    case 'claimGuideDisplay':
      return requestId ? ok({ type: 'claimGuideDisplay', frameId, requestId }) : null;
    case 'showGuideStepInFrame':
      return requestId && str(data.guideId) && str(data.stepId) ? ok({ type: 'showGuideStepInFrame', frameId, requestId, guideId: data.guideId, stepId: data.stepId }) : null;
    case 'stepActionInFrame': {
      const a = data.action;
      return requestId && isObject(a) && str(a.guideId) && str(a.stepId) && str(a.action) ? ok({ type: 'stepActionInFrame', frameId, requestId, action: a as unknown as StepAction }) : null;
    }
    case 'frameResponse':
      return requestId ? ok({ type: 'frameResponse', frameId, requestId, value: data.value }) : null;
    case 'receiveThrottlingState':
      // Only the three timestamps, each an epoch: the worker merges and keeps what comes (an Infinity would hold
      // its slot for good, another name would be stored with them).
      return isObject(data.timestamps) && Object.entries(data.timestamps).every(([name, t]) => THROTTLING_TIMESTAMPS.includes(name) && Number.isFinite(t))
        ? ok({ type: 'receiveThrottlingState', frameId, timestamps: data.timestamps })
        : null;
    case 'receiveOptions':
      return typeof data.guidesPaused === 'boolean' ? ok({ type: 'receiveOptions', frameId, guidesPaused: data.guidesPaused }) : null;
    case 'receiveStartPreview':
      return typeof data.active === 'boolean' ? ok({ type: 'receiveStartPreview', frameId, active: data.active }) : null;
    default:
      return null;
  }
}

/** spec: guides §3 "Throttling timestamps": the names of ThrottlingTimestamps. */
const THROTTLING_TIMESTAMPS = ['latestDismissedAutoAt', 'latestSnoozedAutoAt', 'finalAdvancedAutoAt'];

function isStep(v: unknown): boolean {
  return isObject(v) && typeof v.guideId === 'string' && typeof v.stepId === 'string' && typeof v.type === 'string' && isObject(v.content);
}

/** A plain object: an array is not a frame record, a step's content, a step action or throttling timestamps. */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isVisibility(v: unknown): v is FrameVisibility {
  return v === 'unknown' || v === 'hidden' || v === 'visible';
}
