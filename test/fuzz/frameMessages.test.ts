/**
 * Issue #31 fuzzing of what the agent's main thread is told by postMessage (analytics §7 cross-window messages,
 * §4 Frames): the frames chunk's check of every window message (shared/frames/readFrameMessage), the leader election
 * over the records it accepts, the frame guides' handling of what it accepts (shim/frames/createFrameGuides), and the
 * bridge's listeners on the worker's endpoint (shim/createBridge, shim/createRemote). Any structured-clone value may
 * arrive: nothing throws, unknown shapes are ignored, what is accepted has the shape its type declares.
 */
import type { Endpoint } from 'comlink';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIVERED_MESSAGE } from '../../shared/constants';
import { electLeaderFrame, type FrameRecord } from '../../shared/frames/electLeaderFrame';
import { FRAME_MESSAGE_TYPES, FRAME_REQUEST_TYPES, readFrameMessage, type FrameMessage } from '../../shared/frames/readFrameMessage';
import type { WorkerInit } from '../../shared/protocol';
import { createBridge } from '../../shim/createBridge';
import { createRemote } from '../../shim/createRemote';
import type { Ticker } from '../../shim/createTicker';
import { createFrameGuides, type FramedGuides, type FramePeer } from '../../shim/frames/createFrameGuides';
import { createFrameRequests } from '../../shim/frames/createFrameRequests';
import { nastyNumber, nastyString } from './arbitraries';
import { fuzzTimeout, runFuzz } from './fuzzRun';

const KEY = 'app-key';
const RUNS = 2000;
const TIMEOUT = fuzzTimeout(30_000);

/** Values as structured clone delivers them: Maps, Sets, Dates, typed arrays, sparse arrays, bigints, null prototypes. */
const cloned = fc.anything({
  maxDepth: 3,
  withMap: true,
  withSet: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withBigInt: true,
  withNullPrototype: true,
  withBoxedValues: true,
  key: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('waymark', 'type', 'frameId', 'requestId', 'id', 'guideId', 'stepId', 'value', '__proto__')),
});

/** A field's value: usually the type the message wants, else anything. */
const loose = <T>(typed: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: cloned });
const id = fc.oneof(fc.constantFrom('f1', 'f2', 'leader', ''), nastyString);
const epoch = fc.oneof(fc.integer({ min: 0, max: 2_000_000_000_000 }), nastyNumber);

const frameRecord = fc.record(
  {
    id: loose(id),
    apiKey: loose(fc.constantFrom(KEY, 'other-key')),
    leaderKey: loose(fc.constantFrom('', 'editor', 'main')),
    isTop: loose(fc.boolean()),
    joinedAt: loose(epoch),
    visibility: loose(fc.constantFrom('unknown', 'hidden', 'visible', 'Visible')),
    agentInstallType: loose(fc.constantFrom('snippet', 'npm', 'frame', 'unknown', 'cdn')),
  },
  { requiredKeys: [] },
);

const stepToShow = fc.record(
  { guideId: loose(id), stepId: loose(id), guideName: loose(nastyString), type: loose(fc.constantFrom('tooltip', 'lightbox')), content: loose(fc.constant({ type: 'div', props: {}, children: [] })) },
  { requiredKeys: [] },
);

/** A window message shaped like ours: our key or another, our types or others, each field typed or not. */
const envelope = fc.record(
  {
    waymark: fc.oneof({ weight: 6, arbitrary: fc.constant(KEY) }, { weight: 1, arbitrary: cloned }),
    type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FRAME_MESSAGE_TYPES, ...FRAME_REQUEST_TYPES) }, { weight: 1, arbitrary: cloned }),
    frame: loose(frameRecord),
    frameId: loose(id),
    requestId: loose(id),
    visitorId: loose(id),
    accountId: loose(id),
    guideId: loose(id),
    stepId: loose(id),
    visibility: loose(fc.constantFrom('hidden', 'visible', 'unknown')),
    steps: loose(fc.array(stepToShow, { maxLength: 3 })),
    action: loose(fc.record({ guideId: loose(id), stepId: loose(id), action: loose(fc.constantFrom('seen', 'dismiss', 'advance', 'bogus')) }, { requiredKeys: [] })),
    value: cloned,
    timestamps: loose(fc.dictionary(fc.constantFrom('latestDismissedAutoAt', 'latestSnoozedAutoAt', 'finalAdvancedAutoAt', 'other', '__proto__'), loose(epoch), { maxKeys: 3 })),
    guidesPaused: loose(fc.boolean()),
    active: loose(fc.boolean()),
  },
  { requiredKeys: [] },
);

/** Any window message: ours, nearly ours, anything a host page or another script may post. */
const windowMessage = fc.oneof({ weight: 4, arbitrary: envelope }, { weight: 1, arbitrary: cloned });

/** structuredClone where the value allows (a value it refuses never crosses postMessage), else the value. */
function delivered(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TIMESTAMP_NAMES = ['latestDismissedAutoAt', 'latestSnoozedAutoAt', 'finalAdvancedAutoAt'];

/** The fields each accepted message may have, beside `type`; what they hold is checked by `problemOf`. */
const FIELDS: Record<FrameMessage['type'], string[]> = {
  receiveFrame: ['frame'],
  removeFrame: ['frameId'],
  receiveHideGuides: ['frameId'],
  receiveIdentity: ['frameId', 'visitorId', 'accountId'],
  receiveFrameVisibility: ['visibility'],
  receiveGuideStepShownInFrame: ['frameId', 'guideId', 'stepId'],
  receiveLastGuideStepSeen: ['frameId', 'guideId', 'stepId'],
  receiveGuideList: ['frameId', 'steps'],
  checkFrameEligibility: ['frameId', 'requestId'],
  claimGuideDisplay: ['frameId', 'requestId'],
  showGuideStepInFrame: ['frameId', 'requestId', 'guideId', 'stepId'],
  stepActionInFrame: ['frameId', 'requestId', 'action'],
  frameResponse: ['frameId', 'requestId', 'value'],
  receiveThrottlingState: ['frameId', 'timestamps'],
  receiveOptions: ['frameId', 'guidesPaused'],
  receiveStartPreview: ['frameId', 'active'],
};

/**
 * What is wrong with an accepted message against the FrameMessage type, written again here (not imported): its
 * fields are its type's, strings are strings, a frame record's epoch and the throttling timestamps are finite epoch
 * ms (NaN or Infinity would make frames disagree on their leader, or throttle guides forever), and so on.
 */
function problemOf(message: FrameMessage): string | null {
  const m = message as unknown as Record<string, unknown>;
  const allowed = FIELDS[message.type];
  if (!allowed) return `unknown type ${String(message.type)}`;
  const extra = Object.keys(m).filter((key) => key !== 'type' && !allowed.includes(key));
  if (extra.length) return `fields ${extra.join(', ')} are not its type's`;
  for (const key of ['frameId', 'requestId', 'visitorId', 'accountId', 'guideId', 'stepId'] as const) {
    if (allowed.includes(key) && !isString(m[key])) return `${key} is not a string`;
  }
  for (const key of ['guidesPaused', 'active'] as const) {
    if (allowed.includes(key) && typeof m[key] !== 'boolean') return `${key} is not a boolean`;
  }
  switch (message.type) {
    case 'receiveFrame': {
      const f = message.frame as unknown as Record<string, unknown>;
      if (!isRecord(f) || !isString(f.id) || f.id === '' || f.apiKey !== KEY || !isString(f.leaderKey) || typeof f.isTop !== 'boolean') return 'frame is not a frame record';
      if (typeof f.joinedAt !== 'number' || !Number.isFinite(f.joinedAt)) return `frame.joinedAt ${String(f.joinedAt)} is not epoch ms`;
      if (!['unknown', 'hidden', 'visible'].includes(f.visibility as string)) return 'frame.visibility is not one of the three';
      if (!['snippet', 'npm', 'frame', 'unknown'].includes(f.agentInstallType as string)) return 'frame.agentInstallType is not one of the four';
      return null;
    }
    case 'receiveIdentity':
      return message.visitorId === '' ? 'visitorId is empty' : null;
    case 'receiveFrameVisibility':
      return message.visibility === 'hidden' || message.visibility === 'visible' ? null : 'visibility is not hidden or visible';
    case 'receiveGuideList':
      return Array.isArray(message.steps) && message.steps.every((s) => isRecord(s) && isString(s.guideId) && isString(s.stepId) && isString(s.type) && isRecord(s.content)) ? null : 'steps are not steps';
    case 'stepActionInFrame': {
      const a = message.action as unknown as Record<string, unknown>;
      return isRecord(a) && isString(a.guideId) && isString(a.stepId) && isString(a.action) ? null : 'action is not a step action';
    }
    case 'receiveThrottlingState': {
      const t = message.timestamps as Record<string, unknown>;
      if (!isRecord(t)) return 'timestamps is not an object';
      const bad = Object.entries(t).find(([name, at]) => !TIMESTAMP_NAMES.includes(name) || typeof at !== 'number' || !Number.isFinite(at));
      return bad ? `timestamps.${bad[0]} = ${String(bad[1])} is not a throttling timestamp` : null;
    }
    default:
      return null;
  }
}

/** The messages the agent posts, valid by construction: each must come back as it went. */
const validMessage: fc.Arbitrary<FrameMessage> = fc.oneof(
  fc.record({
    type: fc.constant('receiveFrame' as const),
    frame: fc.record({
      id: fc.string({ minLength: 1 }),
      apiKey: fc.constant(KEY),
      leaderKey: fc.string(),
      isTop: fc.boolean(),
      joinedAt: fc.integer({ min: 0, max: 2_000_000_000_000 }),
      visibility: fc.constantFrom('unknown' as const, 'hidden' as const, 'visible' as const),
      agentInstallType: fc.constantFrom('snippet' as const, 'npm' as const, 'frame' as const, 'unknown' as const),
    }),
  }),
  fc.record({ type: fc.constantFrom('removeFrame' as const, 'receiveHideGuides' as const), frameId: fc.string() }),
  fc.record({ type: fc.constant('receiveIdentity' as const), frameId: fc.string(), visitorId: fc.string({ minLength: 1 }), accountId: fc.string() }),
  fc.record({ type: fc.constant('receiveFrameVisibility' as const), visibility: fc.constantFrom('hidden' as const, 'visible' as const) }),
  fc.record({ type: fc.constantFrom('receiveGuideStepShownInFrame' as const, 'receiveLastGuideStepSeen' as const), frameId: fc.string(), guideId: fc.string(), stepId: fc.string() }),
  fc.record({ type: fc.constantFrom('checkFrameEligibility' as const, 'claimGuideDisplay' as const), frameId: fc.string(), requestId: fc.string({ minLength: 1 }) }),
  fc.record({ type: fc.constant('showGuideStepInFrame' as const), frameId: fc.string(), requestId: fc.string({ minLength: 1 }), guideId: fc.string(), stepId: fc.string() }),
  fc.record({ type: fc.constant('frameResponse' as const), frameId: fc.string(), requestId: fc.string({ minLength: 1 }), value: fc.jsonValue() }),
  fc.record({
    type: fc.constant('receiveThrottlingState' as const),
    frameId: fc.string(),
    timestamps: fc.record({ latestDismissedAutoAt: fc.nat(), latestSnoozedAutoAt: fc.nat(), finalAdvancedAutoAt: fc.nat() }, { requiredKeys: [] }),
  }),
  fc.record({ type: fc.constant('receiveOptions' as const), frameId: fc.string(), guidesPaused: fc.boolean() }),
  fc.record({ type: fc.constant('receiveStartPreview' as const), frameId: fc.string(), active: fc.boolean() }),
);

describe('issue #31 fuzzing: analytics §7 frame messages (readFrameMessage)', () => {
  it(
    'never throws; any window message is ignored (null), refused with a problem, or a message of its type\'s shape',
    async () => {
      const property = fc.property(windowMessage, (raw) => {
        const data = delivered(raw);
        const verdict = readFrameMessage(data, KEY);
        if (verdict === null) return;
        if (!verdict.ok) {
          expect(typeof verdict.problem).toBe('string');
          return;
        }
        const problem = problemOf(verdict.message);
        if (problem) throw new Error(`accepted ${String(verdict.message.type)} with ${problem}`);
      });
      await runFuzz('readFrameMessage shapes', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'takes every message the agent posts as it was posted',
    async () => {
      const property = fc.property(validMessage, (message) => {
        const verdict = readFrameMessage(structuredClone({ ...message, waymark: KEY }), KEY);
        expect(verdict).toEqual({ ok: true, message });
      });
      await runFuzz('readFrameMessage round trip', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'analytics §4: the frames elect one leader from the records they accept, whatever order each frame holds them in',
    async () => {
      // Records that pass the check more often than frameRecord's: each field is off now and then, the epoch often.
      const nearly = <T>(typed: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: typed }, { weight: 1, arbitrary: cloned });
      const record = fc.record({
        id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        apiKey: nearly(fc.constant(KEY)),
        leaderKey: nearly(fc.constantFrom('', 'editor', 'main')),
        isTop: nearly(fc.boolean()),
        // Ties and the values that have no order, often.
        joinedAt: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom(Number.NaN, Infinity, -Infinity), epoch),
        visibility: nearly(fc.constantFrom('unknown', 'hidden', 'visible')),
        agentInstallType: nearly(fc.constantFrom('snippet', 'npm', 'frame')),
      });
      const announcement = fc.record({ waymark: fc.constant(KEY), type: fc.constant('receiveFrame'), frame: record });
      const property = fc.property(fc.array(announcement, { minLength: 2, maxLength: 5 }), fc.array(fc.nat(), { minLength: 5, maxLength: 5 }), (messages, order) => {
        const records: FrameRecord[] = [];
        for (const raw of messages) {
          const verdict = readFrameMessage(delivered(raw), KEY);
          const message = verdict?.ok ? verdict.message : undefined;
          if (message?.type === 'receiveFrame' && !records.some((r) => r.id === message.frame.id)) records.push(message.frame);
        }
        fc.pre(records.length >= 2);
        // Each frame puts itself first: every rotation, and a shuffle, must elect the same frame.
        const leaders = new Set<string | undefined>();
        for (let i = 0; i < records.length; i++) leaders.add(electLeaderFrame([...records.slice(i), ...records.slice(0, i)], ['editor', 'main'])?.id);
        const shuffled = records.map((r, i) => [order[i]!, r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
        leaders.add(electLeaderFrame(shuffled, ['editor', 'main'])?.id);
        if (leaders.size !== 1) throw new Error(`frames elect ${[...leaders].join(' or ')} from ${JSON.stringify(records.map((r) => ({ ...r, joinedAt: String(r.joinedAt) })))}`);
      });
      await runFuzz('leader election over accepted records', property, RUNS);
    },
    TIMEOUT,
  );
});

describe('issue #31 fuzzing: guides across frames (createFrameGuides) take any accepted message', () => {
  it(
    'nothing throws, nothing fails inside, and every answer posted back is a message the other frame accepts',
    async () => {
      const property = fc.asyncProperty(fc.array(windowMessage, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean(), async (raws, fromLeader, isLeader) => {
        const logs: string[] = [];
        const posted: unknown[] = [];
        const leader: FramePeer = { id: 'leader', source: {} as MessageEventSource };
        const other: FramePeer = { id: 'f2', source: {} as MessageEventSource };
        const requests = createFrameRequests('self');
        const framed: FramedGuides = {
          placeable: (steps) => steps.map((s) => `${s.guideId}/${s.stepId}`),
          showForLeader: async () => true,
          act: async () => ({ ok: true, value: null }),
          hasTarget: () => false,
          idle: () => true,
          drop: () => undefined,
          throttle: () => undefined,
          hold: () => undefined,
        };
        const guides = createFrameGuides({
          selfId: 'self',
          isLeader: () => isLeader,
          leaderPeer: () => (isLeader ? null : leader),
          leaderId: () => (isLeader ? 'self' : 'leader'),
          peers: () => [leader, other],
          post: (_to, message) => void posted.push(message),
          requests,
          guides: () => framed,
          changed: () => undefined,
          shownElsewhere: () => null,
          log: (_level, message) => void logs.push(message),
        });
        for (const raw of raws) {
          const verdict = readFrameMessage(delivered(raw), KEY);
          if (verdict?.ok && 'frameId' in verdict.message) guides.receive(verdict.message, fromLeader ? leader : other);
        }
        // Let the handlers' promises settle.
        for (let i = 0; i < 5; i++) await Promise.resolve();
        requests.stop();
        const failed = logs.filter((line) => line.startsWith('frame message '));
        if (failed.length) throw new Error(`a handler failed: ${failed.join('; ')}`);
        for (const message of posted) {
          const verdict = readFrameMessage(structuredClone({ ...(message as object), waymark: KEY }), KEY);
          if (!verdict?.ok) throw new Error(`posted a message the other frame would not take: ${JSON.stringify(message)}`);
        }
      });
      await runFuzz('createFrameGuides.receive', property, 500);
    },
    TIMEOUT,
  );
});

describe("issue #31 fuzzing: the bridge's listeners on the worker's endpoint (createBridge, createRemote)", () => {
  /** A fake endpoint: what is posted is dropped, each message goes to every listener. */
  function fakeEndpoint() {
    const listeners: Array<(event: MessageEvent) => void> = [];
    const endpoint: Endpoint = {
      postMessage: () => undefined,
      addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => void listeners.push(listener as (event: MessageEvent) => void),
      removeEventListener: () => undefined,
    };
    return {
      endpoint,
      deliver: (data: unknown) => listeners.forEach((listener) => listener({ data } as MessageEvent)),
    };
  }
  const endpointMessage = fc.oneof(
    cloned,
    fc.record({ type: fc.constant(DELIVERED_MESSAGE), upTo: loose(fc.integer({ min: -1, max: 5 })) }),
    fc.record({ id: loose(fc.integer({ min: 0, max: 3 })), type: loose(fc.constantFrom('RAW', 'HANDLER')), value: cloned }, { requiredKeys: [] }),
  );

  it(
    "the bridge's delivery marks: events held for the page-hide beacon go only with a mark, oldest first; nothing else touches them",
    async () => {
      const property = fc.property(fc.array(endpointMessage, { maxLength: 6 }), (messages) => {
        const { endpoint, deliver } = fakeEndpoint();
        const noTicks: Ticker = { every: () => () => undefined };
        const init = { apiKey: 'k', identity: { visitorId: 'v', accountId: '' }, session: { sessionId: 's', tabId: 't', frameId: 'f', parentTabId: '' } } as unknown as WorkerInit;
        // Not started (deferred init): no call is pending, so only the delivery marks can act.
        const bridge = createBridge(endpoint, init, () => undefined, noTicks, {}, { prepare: () => undefined });
        for (let i = 0; i < 3; i++) bridge.capture({ type: 'click', browser_time: i } as never);
        const before = bridge.held().map((h) => h.event.sequence);
        let marked = false;
        for (const raw of messages) {
          const data = delivered(raw);
          deliver(data);
          marked ||= (data as { type?: unknown } | null)?.type === DELIVERED_MESSAGE;
        }
        const after = bridge.held().map((h) => h.event.sequence);
        expect(after).toEqual(before.slice(before.length - after.length));
        if (after.length < before.length && !marked) throw new Error('events were dropped without a delivery mark');
      });
      await runFuzz('bridge delivery marks', property, 500);
    },
    TIMEOUT,
  );

  it(
    "a call's answer: only a message with its id settles it, RAW resolving and anything else rejecting; nothing throws",
    async () => {
      const property = fc.asyncProperty(fc.array(endpointMessage, { maxLength: 6 }), async (messages) => {
        const { endpoint, deliver } = fakeEndpoint();
        const remote = createRemote<{ ping(): Promise<unknown> }>(endpoint);
        type Outcome = 'pending' | 'resolved' | 'rejected';
        let outcome = 'pending' as Outcome;
        // The first call's id is 1.
        void remote.ping().then(() => (outcome = 'resolved'), () => (outcome = 'rejected'));
        let expected = 'pending' as Outcome;
        for (const raw of messages) {
          const data = delivered(raw) as { id?: unknown; type?: unknown } | null;
          deliver(data);
          if (expected === 'pending' && data?.id === 1) expected = data.type === 'RAW' ? 'resolved' : 'rejected';
        }
        for (let i = 0; i < 3; i++) await Promise.resolve();
        expect(outcome).toBe(expected);
      });
      await runFuzz('remote call answers', property, 500);
    },
    TIMEOUT,
  );
});
