/**
 * Guides across the tab's frames (analytics §7 cross-window messages; guides §4 Guide loop, §6 leader frame): the
 * leader decides, a frame renders. The leader loads the guides of the page the visitor sees; an auto step whose
 * element is not in its own document goes to its followers in `receiveGuideList`, the frame eligibility check
 * (a request with a timeout) asks which of them each follower can show now, and `showGuideStepInFrame` asks one to
 * show it. What the visitor does on that step goes back to the leader (`stepActionInFrame`), whose worker keeps the
 * guide's state and records its events once; the leader shows the next step where its element is.
 *
 * Every frame tells the others when a guide moved on (`receiveLastGuideStepSeen`: they drop its steps) and the
 * throttling timestamps after it (`receiveThrottlingState`: their workers merge them); the leader tells its
 * followers when guides are stopped (`receiveOptions`) or a preview runs (`receiveStartPreview`): they hold theirs.
 *
 * Only frames of this document's origin take part: a step's content and the visitor's actions are not for a
 * document of another origin, and a message from one cannot make this frame draw.
 */
import { ERROR_CODES, fail, ok, type Outcome } from '../../shared/errors';
import type { ThrottlingTimestamps } from '../../shared/guides/guides';
import type { FrameMessage } from '../../shared/frames/readFrameMessage';
import type { LogLevel, StepAction, StepToShow } from '../../shared/protocol';
import { keyOf } from '../guides/createStepFlow';
import { isTransition } from '../guides/runBlockActions';
import type { FrameRequests } from './createFrameRequests';

/** Another frame of this origin, and the window to reach it at. */
export interface FramePeer {
  id: string;
  source: MessageEventSource;
}

/** What this frame's guide display does for the frames chunk (shim/createGuideDisplay.ts `framed`). */
export interface FramedGuides {
  /** Keys ("guideId/stepId") of `steps` whose element this frame has and could show now. */
  placeable(steps: StepToShow[]): string[];
  /** Shows a step the leader gave; false when this frame cannot now (it shows another, is held, lost the element). */
  showForLeader(step: StepToShow): Promise<boolean>;
  /** Leader: a follower's visitor acted on a step this frame gave it; the worker decides, the candidates follow. */
  act(action: StepAction): Promise<Outcome<StepToShow | null>>;
  /** Whether this document has `step`'s element, visible (a next step the leader handed back). */
  hasTarget(step: StepToShow): boolean;
  /** Nothing shows in this frame and nothing holds its guides (a leader grants another frame's claim only then). */
  idle(): boolean;
  /** Another frame moved this guide on from `stepId`: its steps go from the candidates, and that one stays off on this page. */
  drop(guideId: string, stepId: string): void;
  /** Another frame's throttling timestamps, for this frame's worker. */
  throttle(timestamps: ThrottlingTimestamps): void;
  /** Held by the leader (`options`: stopGuides; `preview`: a preview or the designer runs), or let go. */
  hold(reason: 'options' | 'preview', held: boolean): void;
}

export interface FrameGuidesHost {
  selfId: string;
  isLeader(): boolean;
  /** The elected leader when it is another frame of this origin, else null. */
  leaderPeer(): FramePeer | null;
  /** The id of the frame the records elect now (this frame's own until it hears of others). */
  leaderId(): string | undefined;
  /** The other frames of this origin. */
  peers(): FramePeer[];
  post(to: MessageEventSource, message: FrameMessage): void;
  requests: FrameRequests;
  guides(): FramedGuides | undefined;
  /** Runs this frame's guide loop again (an eligibility answer, a show that failed). */
  changed(): void;
  /** The step another frame says it shows now, or null. */
  shownElsewhere(): { guideId: string; stepId: string } | null;
  log(level: LogLevel, message: string): void;
}

/** What the guide display calls on the frames chunk about guides (part of `Frames`). */
export interface FrameGuides {
  /** Leader: `step` is not in this document; true when a follower that can show it was asked to (or one is being asked). */
  place(step: StepToShow): boolean;
  /** Leader: the auto steps a pass of the loop could not place here: the followers' list, then the eligibility check. */
  unplaced(steps: StepToShow[]): void;
  /**
   * Leader: a step asked for by name (the API, a permalink, a preview) whose element is not here: each follower in
   * turn is given it and asked to show it; true once one does.
   */
  showElsewhere(step: StepToShow): Promise<boolean>;
  /** The step another frame shows now (receiveGuideStepShownInFrame), or null. */
  shownElsewhere(): { guideId: string; stepId: string } | null;
  /**
   * Whether this frame may show an auto step now. One guide shows in the tab at a time: a follower asks the leader
   * (claimGuideDisplay), which grants one frame at a time, so two frames that each find a step at once do not both
   * show it; false until the grant comes (the loop runs again then). The leader may, unless it granted another.
   */
  mayShow(): boolean;
  /** Follower: the visitor acted on a step the leader gave; the leader's answer (a next step only when its element is here). */
  act(leaderId: string, action: StepAction): Promise<Outcome<StepToShow | null>>;
  /** A guide moved on in this frame: the others drop its steps (told before the step leaves, so none shows it meanwhile). */
  moved(guideId: string, stepId: string): void;
  /** This frame's throttling timestamps after a guide moved on: the others' workers merge them. */
  throttled(timestamps: ThrottlingTimestamps): void;
  /** Leader: guides stopped or started here (receiveOptions). */
  options(guidesPaused: boolean): void;
  /** Leader: a preview (or the designer) started or ended here (receiveStartPreview). */
  preview(active: boolean): void;
}

export interface FrameGuidesHandle extends FrameGuides {
  /** A frame of this origin joined: a leader tells it what holds for the tab. */
  joined(peer: FramePeer): void;
  left(frameId: string): void;
  /** A guide message from a frame of this origin (`from`: its record's window, checked by the caller). */
  receive(message: FrameMessage, from: FramePeer): void;
}

/** How long a grant to show holds unused (the step's element, overlay and hooks come within it, or it lapses). */
const CLAIM_HOLD_MS = 2000;

export function createFrameGuides(host: FrameGuidesHost): FrameGuidesHandle {
  const { selfId, requests, log } = host;
  // Leader: the list its followers hold, what each was sent and said it can show, and a show on its way.
  let list: StepToShow[] = [];
  let listKey = '';
  const sent = new Map<string, string>();
  const eligible = new Map<string, Set<string>>();
  const checking = new Set<string>();
  let asking = false;
  let guidesPaused = false;
  let previewing = false;
  // Follower: the leader's list, with where its steps' actions go.
  let leaderSteps: StepToShow[] = [];
  // One auto display at a time in the tab: the leader's grant (to which frame, until when), a follower's claim.
  let granted: { frameId: string; until: number } | null = null;
  let claim: 'asking' | { until: number } | null = null;
  const grantHeld = () => granted !== null && granted.until > Date.now();

  const respond = (to: FramePeer, requestId: string, value: unknown) => host.post(to.source, { type: 'frameResponse', frameId: selfId, requestId, value });
  const ask = (to: FramePeer, message: (requestId: string) => FrameMessage) => requests.ask((requestId) => host.post(to.source, message(requestId)));
  const broadcast = (message: FrameMessage) => host.peers().forEach((p) => host.post(p.source, message));
  const fromLeader = (from: FramePeer) => host.leaderPeer()?.id === from.id;
  /** Asks `peer` to show one step of the list it holds; resolves with its answer (true: it shows it). */
  const askToShow = (peer: FramePeer, step: StepToShow) =>
    ask(peer, (requestId) => ({ type: 'showGuideStepInFrame', frameId: selfId, requestId, guideId: step.guideId, stepId: step.stepId }));

  function check(peer: FramePeer): void {
    if (checking.has(peer.id)) return;
    checking.add(peer.id);
    ask(peer, (requestId) => ({ type: 'checkFrameEligibility', frameId: selfId, requestId })).then(
      (keys) => {
        const can = new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
        eligible.set(peer.id, can);
        if (can.size) host.changed();
      },
      (err: Error) => {
        eligible.delete(peer.id);
        log('debug', `frame ${peer.id} eligibility check: ${err.message}`);
      },
    ).finally(() => checking.delete(peer.id));
  }

  async function receive(message: FrameMessage, from: FramePeer): Promise<void> {
    const guides = host.guides();
    switch (message.type) {
      case 'frameResponse':
        return requests.answered(message.requestId, message.value);
      case 'receiveGuideList':
        if (fromLeader(from)) leaderSteps = message.steps.map((s) => ({ ...s, viaFrame: from.id }));
        return;
      case 'checkFrameEligibility':
        return respond(from, message.requestId, fromLeader(from) && guides ? guides.placeable(leaderSteps.filter((s) => s.viaFrame === from.id)) : []);
      case 'showGuideStepInFrame': {
        const step = fromLeader(from) ? leaderSteps.find((s) => s.viaFrame === from.id && keyOf(s) === keyOf(message)) : undefined;
        return respond(from, message.requestId, step && guides ? await guides.showForLeader(step) : false);
      }
      case 'claimGuideDisplay': {
        // Granted when no frame shows a guide and no other frame holds a grant; the grant lapses unused.
        const free = host.isLeader() && guides?.idle() === true && !host.shownElsewhere() && (!grantHeld() || granted!.frameId === from.id);
        if (free) granted = { frameId: from.id, until: Date.now() + CLAIM_HOLD_MS };
        return respond(from, message.requestId, free);
      }
      case 'stepActionInFrame':
        return respond(from, message.requestId, guides && host.isLeader() ? await guides.act(message.action) : fail(ERROR_CODES.unknownGuide, `frame ${selfId} does not lead`));
      case 'receiveLastGuideStepSeen':
        return guides?.drop(message.guideId, message.stepId);
      case 'receiveThrottlingState':
        return guides?.throttle(message.timestamps);
      case 'receiveOptions':
        return fromLeader(from) ? guides?.hold('options', message.guidesPaused) : undefined;
      case 'receiveStartPreview':
        return fromLeader(from) ? guides?.hold('preview', message.active) : undefined;
    }
  }

  return {
    place(step) {
      if (!host.isLeader()) return false;
      if (asking) return true;
      const key = keyOf(step);
      const peer = host.peers().find((p) => eligible.get(p.id)?.has(key));
      if (!peer) return false;
      asking = true;
      askToShow(peer, step)
        .then(
          (shown) => {
            if (shown === true) log('debug', `guide ${step.guideId} step ${step.stepId} shows in frame ${peer.id}`);
            else eligible.delete(peer.id);
          },
          (err: Error) => {
            eligible.delete(peer.id);
            log('warn', `frame ${peer.id} showGuideStepInFrame: ${err.message}`);
          },
        )
        .finally(() => {
          asking = false;
          host.changed();
        });
      return true;
    },

    unplaced(steps) {
      if (!host.isLeader()) return;
      const key = steps.map(keyOf).join(' ');
      if (key !== listKey) {
        list = steps;
        listKey = key;
        eligible.clear();
      }
      for (const peer of host.peers()) {
        if (sent.get(peer.id) !== listKey) {
          sent.set(peer.id, listKey);
          // The steps go without the leader's own marks; the follower sets where their actions go.
          host.post(peer.source, { type: 'receiveGuideList', frameId: selfId, steps: list });
        }
        if (list.length) check(peer);
      }
    },

    async showElsewhere(step) {
      if (!host.isLeader()) return false;
      for (const peer of host.peers()) {
        // Its list is this step now: the loop's list goes to it again on the next pass.
        sent.set(peer.id, '\0');
        host.post(peer.source, { type: 'receiveGuideList', frameId: selfId, steps: [step] });
        try {
          if ((await askToShow(peer, step)) === true) return true;
        } catch (err) {
          log('warn', `frame ${peer.id} showGuideStepInFrame: ${(err as Error).message}`);
        }
      }
      return false;
    },

    shownElsewhere: () => host.shownElsewhere(),

    mayShow() {
      if (host.isLeader()) return !grantHeld();
      const leader = host.leaderPeer();
      // Not elected yet (it has heard of no other frame, and the 50 ms election has not run): wait. A leader of
      // another origin takes no part: this frame then goes by what the others say they show.
      if (!leader) return host.leaderId() !== selfId;
      if (claim && claim !== 'asking' && claim.until > Date.now()) return true;
      if (claim !== 'asking') {
        claim = 'asking';
        ask(leader, (requestId) => ({ type: 'claimGuideDisplay', frameId: selfId, requestId })).then(
          (ok) => {
            claim = ok === true ? { until: Date.now() + CLAIM_HOLD_MS } : null;
            if (ok === true) host.changed();
          },
          (err: Error) => {
            claim = null;
            log('debug', `claimGuideDisplay: ${err.message}`);
          },
        );
      }
      return false;
    },

    async act(leaderId, action) {
      const leader = host.leaderPeer();
      if (!leader || leader.id !== leaderId) return fail(ERROR_CODES.unknownGuide, `frame ${leaderId} no longer leads`);
      try {
        const answer = (await ask(leader, (requestId) => ({ type: 'stepActionInFrame', frameId: selfId, requestId, action }))) as Outcome<StepToShow | null>;
        if (!answer.ok || !isTransition(action.action) || !answer.value) return answer;
        // A next step shows here when its element is here (its actions go to the leader too); else the leader places it.
        const next = { ...answer.value, viaFrame: leaderId };
        return ok(host.guides()?.hasTarget(next) ? next : null);
      } catch (err) {
        log('warn', `frame ${leaderId} stepActionInFrame: ${(err as Error).message}`);
        return fail(ERROR_CODES.network, (err as Error).message);
      }
    },

    moved(guideId, stepId) {
      broadcast({ type: 'receiveLastGuideStepSeen', frameId: selfId, guideId, stepId });
    },

    throttled(timestamps) {
      if (Object.keys(timestamps).length) broadcast({ type: 'receiveThrottlingState', frameId: selfId, timestamps });
    },

    options(paused) {
      guidesPaused = paused;
      if (host.isLeader()) broadcast({ type: 'receiveOptions', frameId: selfId, guidesPaused });
    },

    preview(active) {
      previewing = active;
      if (host.isLeader()) broadcast({ type: 'receiveStartPreview', frameId: selfId, active });
    },

    joined(peer) {
      if (!host.isLeader()) return;
      if (guidesPaused) host.post(peer.source, { type: 'receiveOptions', frameId: selfId, guidesPaused });
      if (previewing) host.post(peer.source, { type: 'receiveStartPreview', frameId: selfId, active: true });
    },

    left(frameId) {
      sent.delete(frameId);
      eligible.delete(frameId);
      leaderSteps = leaderSteps.filter((s) => s.viaFrame !== frameId);
    },

    receive(message, from) {
      void receive(message, from).catch((err: unknown) => log('debug', `frame message ${message.type}: ${String(err)}`));
    },
  };
}
