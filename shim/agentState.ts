/**
 * A running agent's state: what initialize set up (options, the worker's init, the bridge, identity, session,
 * the guide display once its chunk is here, frame facts) and the undo functions teardown runs. Read by the
 * agent's parts and by the frames chunk, which extends it (`frames`).
 */
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import type { FrameState } from '../shared/frames/frameVisibility';
import type { SessionRecord } from '../shared/identity/sessionRules';
import type { Identity, WorkerInit } from '../shared/protocol';
import type { InitializeOptions } from './agentOptions';
import type { Bridge } from './createBridge';
import type { GuideDisplay } from './createGuideDisplay';
import type { sessionStore } from './loadIdentity';
import type { Frames } from './startFrames';
import type { WorkerMode } from './startWorker';
import type { ClickEffectWatcher } from './watchClickEffects';
import type { Ticker } from './createTicker';
import type { ToolName } from './tools/toolsApi';

export interface Running {
  options: InitializeOptions;
  init: WorkerInit;
  /** The URL an event reports: custom URL source and host-function transforms applied. */
  pageUrl(): string;
  /** What the page-hide path does to an event, the same as the worker does. */
  prepare(event: CapturedEvent, ctx: EnvelopeContext): string;
  bridge: Bridge;
  identity: Identity;
  /** Set once waymark.guides.js has loaded (null while loading, or with guides off). */
  guides: GuideDisplay | null;
  /** Resolves with the guide display once its chunk is here; null when guides are off or it failed. */
  guidesReady: Promise<GuideDisplay | null>;
  /** The session as this page knows it; written back to the shared record at most once a minute. */
  session: SessionRecord;
  sessionSavedAt: number;
  /** Dead and error click detection (analytics §4). */
  clicks: ClickEffectWatcher;
  /** The one timer of the periodic checks (URL poll, iframe rescan, guide loop): shim/createTicker. */
  ticker: Ticker;
  /** Undo functions of hooks installed in the host page (teardown, issue #7). */
  uninstall: Array<() => void>;
  workerMode: WorkerMode | null;
  /** The designer is open on this page: the author's DOM events are not captured (shim/createCapture hostTarget). */
  designing?: boolean;
  sessions: ReturnType<typeof sessionStore>;
  /** analytics §4 Frames: this frame's leadership and visibility; the frames chunk once loaded. */
  frame: FrameState;
  frames?: Frames;
  /** Runs an integrator tool (shim/tools/): the guides chunk opens the debugger with it on a 'debugger launch'. */
  tool?(name: ToolName): (...args: unknown[]) => Promise<unknown>;
}

/** How often the session's last activity is written back to local storage (never on every event). */
export const SESSION_SAVE_INTERVAL_MS = 60_000;
