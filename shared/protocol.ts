/**
 * The contract between the main-thread shim and the dedicated worker. The shim holds a Comlink
 * `Remote<WorkerApi>`; the worker exposes one object that `satisfies WorkerApi`. Arguments and results
 * are structured-clone data only: host-supplied functions run on the shim side and send their results.
 *
 * This file states the whole contract: the version, what `init` carries, the callbacks, and `WorkerApi` as
 * the sum of its parts by concern (./protocol/capture.ts, identity.ts, guides.ts, surfaces.ts, recording.ts). Frames
 * coordinate over window messages, not through the worker: shared/frames/readFrameMessage.ts.
 */
import type { UrlTransform } from './privacy/applyUrlTransforms';
import type { GuideEventType } from './events/events';
import type { Outcome } from './errors';
import type { SignedMetadataMode } from './identity/checkSignedMetadata';
import type { CaptureApi } from './protocol/capture';
import type { GuideSettings, GuideState, GuidesApi } from './protocol/guides';
import type { Identity, IdentityApi, Metadata, SessionFacts } from './protocol/identity';
import type { RecordingApi } from './protocol/recording';

export type * from './protocol/capture';
export type * from './protocol/guides';
export type * from './protocol/identity';
export type * from './protocol/recording';
export type * from './protocol/surfaces';

/** Bumped whenever a message shape changes; the handshake refuses a mismatch. */
export const PROTOCOL_VERSION = 2;

/** Everything the worker needs to start, sent once by `init`. */
export interface WorkerInit {
  /** The shim's PROTOCOL_VERSION: the worker logs a mismatch (a page holding an old shim after a deploy). */
  protocolVersion?: number;
  apiKey: string;
  /** Origin of the collector, without a trailing slash. */
  dataHost: string;
  /** Origin that serves guide content, without a trailing slash. */
  contentHost: string;
  agentVersion: string;
  identity: Identity;
  session: SessionFacts;
  metadata: Metadata;
  /** Campaign fields and channel for the `utm` envelope field: the session's stored source, if any. */
  utm: Record<string, string>;
  /**
   * What the worker classifies the traffic from (analytics §4): a new session, or a page arriving with
   * campaign parameters or from another site, gets a new source; otherwise `utm` stands.
   */
  campaign?: { pageUrl: string; referrer: string; newSession: boolean };
  /** Device class of the page, for step device rules. */
  device: 'desktop' | 'mobile';
  /** analytics §7: send every event beacon by POST. @default false */
  sendEventsWithPostOnly?: boolean;
  /** Signed metadata (analytics §3) as the host gave it; the worker checks it and sends it with every beacon. */
  signedMetadata?: { jwt?: unknown; signingKeyName?: unknown };
  /**
   * analytics §4, §5: 'required' refuses to write anything without valid signed metadata; 'enabled' signs
   * when it can and falls back to unsigned; 'off' never signs. @default 'enabled'
   */
  signedMetadataMode?: SignedMetadataMode;
  /** Data-only URL transforms for event URLs (analytics §5); already validated by the shim. */
  urlTransforms?: UrlTransform[];
  /** Compiled privacy filters: every match in an event becomes 'redacted' (analytics §5). */
  privacyFilters?: RegExp[];
  /** analytics §8: critical errors carry no stack. @default false */
  disableStackTraces?: boolean;
  /** The tab's last page loads before this one, oldest first: U-turns across full navigations (analytics §4). */
  recentPages?: Array<{ url: string; time: number }>;
  /** Guide engine settings and the guide state the shim keeps for this visitor (guides §4, §7). */
  guides?: GuideSettings;
}

/** What the worker reports to the shim without being asked. */
export interface ShimCallbacks {
  /** A log line for the shim's logger (console and log history). */
  log(level: LogLevel, message: string): void;
  /** The session's traffic source as classified by the worker, for the shim to keep for later pages. */
  campaign(utm: Record<string, string>): void;
  /** The visitor's segment flags, each time the collector answers (analytics §7). */
  segmentFlags(flags: string[]): void;
  /** Guide state to keep for the next page of this visitor (probe verdict, throttling, a 451). */
  guideState(state: GuideState): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Answer to the version handshake. */
export interface Hello {
  protocolVersion: number;
  agentVersion: string;
}

/** The worker's API as the shim sees it (every call is asynchronous across the bridge). */
export interface WorkerApi extends CaptureApi, IdentityApi, GuidesApi, RecordingApi {
  /** Version handshake; the first call the bridge makes. */
  hello(protocolVersion: number): Hello;
  /** Starts the pipeline. `callbacks` is a Comlink proxy living in the shim. */
  init(options: WorkerInit, callbacks: ShimCallbacks): Outcome<null>;
}

export type { GuideEventType };
