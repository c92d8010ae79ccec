/**
 * The shim-worker contract, identity side (analytics §3, §4): who the events are about and the session they
 * belong to. The shim decides identity and sessions (it owns storage); the worker stamps them on events.
 */

/** Who the events are about. */
export interface Identity {
  visitorId: string;
  accountId: string;
  /** The previous visitor id after an identify, sent with guide requests. */
  oldVisitorId?: string;
}

/** Per-tab facts the envelope carries (wire-protocol.md "Common fields"). */
export interface SessionFacts {
  sessionId: string;
  tabId: string;
  frameId: string;
  parentTabId: string;
}

/** Visitor, account and parent account metadata (analytics §3 Metadata). */
export interface Metadata {
  visitor: Record<string, unknown>;
  account: Record<string, unknown>;
  parentAccount: Record<string, unknown>;
}

/** The identity part of the worker's API. */
export interface IdentityApi {
  /**
   * Identity after identify or clearSession; later events carry it. `metadata`, when identify gave fields, replaces
   * the metadata later events, guide loads and segment flags carry.
   */
  setIdentity(identity: Identity, metadata?: Metadata): void;
  /** A new session (inactivity, visitor change): later events carry it. */
  setSession(session: SessionFacts): void;
}
