/**
 * Frames (spec: analytics §4 Frames, §7 cross-window messages and child iframe installs, §8 frame messaging
 * errors; guides §4 frame visibility, §6 leader frame). Entry of the lazy chunk dist/agent/waymark.frames.js:
 * the initial shim imports it at start in a child frame, and in the top frame once the page has an iframe.
 *
 * - Install: every 250 ms the live list of the document's iframe elements is walked; a same-origin http(s)
 *   document that is complete and has no agent gets the queue stub with an initialize call (the same options)
 *   and a script element of waymark.js, so its own agent captures its own events.
 * - Registry: each frame posts its record (`receiveFrame`) to every window of the tab; a frame that did not know
 *   the sender answers with its own. Every frame elects the leader from the same records 50 ms after a join
 *   (shared/frames/electLeaderFrame.ts), so no frame is asked.
 * - Visibility: a parent watches its iframe elements with an IntersectionObserver and tells the agent inside
 *   (`receiveFrameVisibility`).
 * - Guides: a frame says which step it shows (`receiveGuideStepShownInFrame`) and hideGuides reaches every frame
 *   (`receiveHideGuides`); the leader's identity reaches the followers (`receiveIdentity`).
 */
import { FRAME_LEADER_ELECTION_MS, IFRAME_RESCAN_MS } from '../shared/constants';
import { electLeaderFrame, type FrameRecord } from '../shared/frames/electLeaderFrame';
import { frameConnectDelays } from '../shared/frames/frameConnectDelays';
import type { LogLevel } from '../shared/protocol';
import { readFrameMessage, type FrameMessage } from '../shared/frames/readFrameMessage';
import type { AgentEnvironment } from './agentOptions';
import { createFrameGuides, type FrameGuides } from './frames/createFrameGuides';
import { createFrameRequests } from './frames/createFrameRequests';
import { installAgentIntoFrame, type FrameInstall } from './frames/installAgentIntoFrame';
import { postFrameMessage, tabWindows } from './frames/postFrameMessage';
import { watchFrameVisibility } from './frames/watchFrameVisibility';
import type { Running } from './agentState';
import { TICK_MS } from './createTicker';

/** What the agent calls on the frames chunk (and the guide display, about guides across frames: FrameGuides). */
export interface Frames extends FrameGuides {
  /** This frame's identity changed (identify, clearSession): the leader tells the followers. */
  identityChanged(): void;
  /** This frame now shows `step`, or nothing. */
  shown(step: { guideId: string; stepId: string } | null): void;
  /** hideGuides() was called here: every other frame hides its guide too. */
  hideGuides(): void;
  /** teardown: leaves the tab's frames, stops the rescan, the observer and the listeners. */
  stop(): void;
  /** The tab's frames as this one knows them, itself first, then by joining time (the environment check lists them). */
  records(): FrameRecord[];
}

/** What waymark.frames.js exports. */
export interface FramesModule {
  startFrames: typeof startFrames;
}

/** What of the running agent the frames chunk reads (its options, identity, guides) and keeps up to date (`frame`). */
export type FramesHost = Pick<Running, 'options' | 'init' | 'identity' | 'frame' | 'frames' | 'guides' | 'uninstall' | 'ticker'>;

/**
 * Starts this frame's part in the tab's frames: sets `agent.frames`, adds its stop to `agent.uninstall`.
 * `env` says where waymark.js is (no agentUrl: npm install, no frame installs) and under which global;
 * `applyIdentity` takes on the leader's identity without telling the other frames again.
 */
export function startFrames(
  agent: FramesHost,
  env: AgentEnvironment,
  log: (level: LogLevel, message: string) => void,
  trustedScriptUrl: (url: string) => string,
  applyIdentity: (identity: { visitorId: string; accountId: string }) => void,
): Frames {
  const { options } = agent;
  const { apiKey } = options;
  const state = agent.frame;
  const globalKey = env.globalKey ?? 'waymark';
  const ctx = {
    identity: () => agent.identity,
    hideGuides: () => agent.guides?.hideGuides(),
    changed: () => agent.guides?.frameChanged(),
  };
  const self: FrameRecord = {
    id: agent.init.session.frameId,
    apiKey,
    leaderKey: typeof options.frames?.leaderKey === 'string' ? options.frames.leaderKey : '',
    isTop: state.isTop,
    joinedAt: Date.now(),
    visibility: state.visibility,
    agentInstallType: env.installType ?? 'snippet',
  };
  const leaderKeys = Array.isArray(options.frames?.leaderKeys) ? options.frames.leaderKeys.filter((k) => typeof k === 'string') : [];
  /** The other frames of the tab, by id, with the window to answer them at and whether it is of this origin. */
  const peers = new Map<string, { record: FrameRecord; source: MessageEventSource; sameOrigin: boolean }>();
  /** Frames that show a guide now, and which step. */
  const showing = new Map<string, { guideId: string; stepId: string }>();
  /** The step this frame shows now, told to frames that join later. */
  let shownStep: { guideId: string; stepId: string } | null = null;
  let election: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const post = (target: MessageEventSource | Window | null | undefined, message: FrameMessage, targetOrigin?: string) =>
    postFrameMessage(target, message, apiKey, log, targetOrigin);

  const announce = () => {
    for (const w of tabWindows()) post(w, { type: 'receiveFrame', frame: self });
  };
  const broadcast = (message: FrameMessage) => {
    for (const { source } of peers.values()) post(source, message);
  };
  const sendIdentity = (to: MessageEventSource) => {
    const { visitorId, accountId } = ctx.identity();
    // Visitor and account ids go to frames of this origin only: the browser drops the message for any other.
    post(to, { type: 'receiveIdentity', frameId: self.id, visitorId, accountId }, location.origin);
  };
  /** spec: analytics §4 — the leader syncs identity: it tells every other frame who it sees. */
  const syncIdentity = () => {
    if (state.leader) for (const { source } of peers.values()) sendIdentity(source);
  };

  function scheduleElection(): void {
    clearTimeout(election);
    // spec: analytics §4, §9 — leadership is elected 50 ms after a frame joins.
    election = setTimeout(elect, FRAME_LEADER_ELECTION_MS);
  }

  const leader = () => electLeaderFrame([self, ...[...peers.values()].map((f) => f.record)], leaderKeys);

  // Guides across frames (frames/createFrameGuides.ts): only between frames of this origin, posted to it alone.
  const requests = createFrameRequests(self.id);
  const guides = createFrameGuides({
    selfId: self.id,
    isLeader: () => state.leader,
    leaderPeer() {
      const id = leader()?.id;
      const peer = id && id !== self.id ? peers.get(id) : undefined;
      return peer?.sameOrigin ? { id: id!, source: peer.source } : null;
    },
    leaderId: () => leader()?.id,
    peers: () => [...peers].filter(([, p]) => p.sameOrigin).map(([id, p]) => ({ id, source: p.source })),
    post: (to, message) => post(to, message, location.origin),
    requests,
    guides: () => agent.guides?.framed,
    changed: ctx.changed,
    shownElsewhere: () => showing.values().next().value ?? null,
    log,
  });

  function elect(): void {
    if (stopped) return;
    const isLeader = (leader()?.id ?? self.id) === self.id;
    if (isLeader === state.leader) return;
    state.leader = isLeader;
    // A frame that becomes leader tells the others who it sees.
    syncIdentity();
    ctx.changed();
  }

  function onMessage(event: MessageEvent): void {
    const verdict = readFrameMessage(event.data, apiKey);
    if (!verdict || stopped) return;
    if (!verdict.ok) return log('warn', verdict.problem);
    const message = verdict.message;
    const source = event.source;
    switch (message.type) {
      case 'receiveFrame': {
        const { frame } = message;
        if (frame.id === self.id || !source) return;
        const isNew = !peers.has(frame.id);
        const sameOrigin = event.origin === location.origin;
        peers.set(frame.id, { record: frame, source, sameOrigin });
        if (!isNew) return;
        post(source, { type: 'receiveFrame', frame: self });
        if (sameOrigin) guides.joined({ id: frame.id, source });
        visibility.tell(source);
        if (shownStep) post(source, { type: 'receiveGuideStepShownInFrame', frameId: self.id, ...shownStep });
        if (state.leader) sendIdentity(source);
        scheduleElection();
        return;
      }
      case 'removeFrame':
        if (!peers.delete(message.frameId)) return;
        guides.left(message.frameId);
        setShowing(message.frameId, null);
        scheduleElection();
        return;
      case 'receiveIdentity':
        // Only the leader's (as the records stand now: the 50 ms election may not have run since it joined), and
        // only from this origin: another origin's frame may not set who the visitor is.
        if (message.frameId !== self.id && event.origin === location.origin && peers.get(message.frameId)?.source === source && leader()?.id === message.frameId) {
          const current = ctx.identity();
          if (current.visitorId !== message.visitorId || current.accountId !== message.accountId) {
            applyIdentity({ visitorId: message.visitorId, accountId: message.accountId });
          }
        }
        return;
      case 'receiveFrameVisibility':
        // Only the parent knows how our iframe element sits in its page.
        if (state.isTop || source !== window.parent || message.visibility === state.visibility) return;
        state.visibility = self.visibility = message.visibility;
        log('debug', `frame visibility: ${message.visibility}`);
        broadcast({ type: 'receiveFrame', frame: self });
        ctx.changed();
        return;
      case 'receiveGuideStepShownInFrame':
        if (peers.has(message.frameId)) setShowing(message.frameId, message.guideId !== '' ? { guideId: message.guideId, stepId: message.stepId } : null);
        return;
      case 'receiveHideGuides':
        if (peers.has(message.frameId)) ctx.hideGuides();
        return;
      default: {
        // The guide messages: from a known frame of this origin, through the window it joined from.
        const peer = peers.get(message.frameId);
        if (peer?.sameOrigin && peer.source === source && event.origin === location.origin) guides.receive(message, { id: message.frameId, source: peer.source });
      }
    }
  }

  function setShowing(frameId: string, step: { guideId: string; stepId: string } | null): void {
    if (step) showing.set(frameId, step);
    else showing.delete(frameId);
    const others = showing.size > 0;
    if (others !== state.othersShowing) {
      state.othersShowing = others;
      ctx.changed();
    }
  }

  // guides §4 frame visibility: this frame's iframe elements, watched; what each one's agent is told.
  const iframes = document.getElementsByTagName('iframe');
  const visibility = watchFrameVisibility(iframes, (win, seen) => {
    // Posted only to a frame of the tab: the verdict tells a window of this page something about its layout.
    if ([...peers.values()].some((f) => f.source === win)) post(win, { type: 'receiveFrameVisibility', visibility: seen });
  });

  const install = options.frames?.install !== false;
  const frameInstall: FrameInstall = { env, globalKey, options, identity: ctx.identity, trustedScriptUrl, log, foreign: new WeakMap(), noUrlLogged: { value: false } };

  /** spec: analytics §7 — one pass over the page's iframe elements (a live list: no selector query per pass). */
  function scan(): void {
    for (let i = 0; i < iframes.length; i++) {
      const el = iframes[i]!;
      visibility.observe(el);
      if (install && frameInstall.foreign.get(el) !== el.src) installAgentIntoFrame(el, frameInstall);
    }
  }

  const leave = () => {
    broadcast({ type: 'removeFrame', frameId: self.id });
    peers.clear();
  };
  addEventListener('message', onMessage);
  addEventListener('pagehide', leave);
  const stopRescan = agent.ticker.every(IFRAME_RESCAN_MS / TICK_MS, () => {
    try {
      scan();
    } catch (err) {
      log('debug', `frame scan: ${(err as Error)?.message ?? String(err)}`);
    }
  });
  scan();
  announce();
  scheduleElection();
  // guides §9 frame connect retries: announced again while no other frame has answered.
  let retry: ReturnType<typeof setTimeout> | undefined;
  const delays = frameConnectDelays();
  const reconnect = () => {
    const delay = delays.shift();
    if (delay === undefined || stopped) return;
    retry = setTimeout(() => {
      if (peers.size) return;
      announce();
      reconnect();
    }, delay);
  };
  reconnect();

  const handle: Frames = {
    place: guides.place,
    unplaced: guides.unplaced,
    showElsewhere: guides.showElsewhere,
    shownElsewhere: guides.shownElsewhere,
    mayShow: guides.mayShow,
    act: guides.act,
    moved: guides.moved,
    throttled: guides.throttled,
    options: guides.options,
    preview: guides.preview,
    identityChanged: syncIdentity,
    shown(step) {
      shownStep = step ? { guideId: step.guideId, stepId: step.stepId } : null;
      broadcast({ type: 'receiveGuideStepShownInFrame', frameId: self.id, guideId: shownStep?.guideId ?? '', stepId: shownStep?.stepId ?? '' });
    },
    hideGuides() {
      broadcast({ type: 'receiveHideGuides', frameId: self.id });
    },
    records: () => [self, ...[...peers.values()].map((p) => p.record).sort((a, b) => a.joinedAt - b.joinedAt)],
    stop() {
      if (stopped) return;
      leave();
      stopped = true;
      requests.stop();
      clearTimeout(retry);
      stopRescan();
      clearTimeout(election);
      visibility.disconnect();
      removeEventListener('message', onMessage);
      removeEventListener('pagehide', leave);
    },
  };
  agent.frames = handle;
  agent.uninstall.push(handle.stop);
  return handle;
}
