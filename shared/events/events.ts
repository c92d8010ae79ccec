/**
 * Event shapes on the wire. They match the original agent's payloads (wire-protocol.md, "Events") so a
 * collector built for that agent accepts ours.
 */

/**
 * A clicked element and its ancestors in the flat form the shim sends (layout and expansion: elementPath.ts).
 */
export type ElementPath = Array<string | number | null>;

/** The serialized element of a click: the element and its ancestors as nested `parentElem`. */
export interface ElementData {
  tag: string;
  id: string;
  cls: string;
  title: string | null;
  attrs: Record<string, string>;
  /** Index among siblings with the same tag. */
  myIndex: number;
  /** Index among all element siblings. */
  childIndex: number;
  /** Visible text, only when text capture is enabled (analytics §9 text limit). */
  txt?: string;
  parentElem?: ElementData;
}

/** Analytics event types this agent sends. Guide event types travel on the guide beacon instead. */
export type AnalyticsEventType =
  | 'click'
  | 'focus'
  | 'submit'
  | 'change'
  | 'load'
  | 'unload'
  | 'hidden'
  | 'track'
  | 'identify'
  | 'meta'
  | 'prompt';

/**
 * What the shim hands to the worker: the facts only the page knows. The worker adds the envelope
 * (identity, sequence, session, size) in `enrichEvent`.
 */
export interface CapturedEvent {
  type: AnalyticsEventType;
  /** Per-page-load counter, assigned by the shim so it can name the events it still holds at page hide. */
  sequence: number;
  /** Epoch ms at capture. */
  time: number;
  url: string;
  props: Record<string, unknown>;
  /** Track events only. */
  trackEventName?: string;
  /** Track events only: the caller's optional type. */
  trackEventType?: string;
  /** Click-like events: the target in the flat form of shared/events/elementPath.ts, expanded to `props.target`. */
  element?: ElementPath;
}

/** One analytics event as sent in a jzb array (wire-protocol.md "Events", analytics §3 Event). */
export interface WireEvent {
  type: AnalyticsEventType;
  browser_time: number;
  visitor_id: string;
  account_id: string;
  url: string;
  props: Record<string, unknown>;
  /** Per-tab counter; with tabId it identifies the event for the collector's dedupe. */
  sequence: number;
  /** Length of the event's JSON without this field. */
  bytes: number;
  sessionId: string;
  tabId: string;
  frameId: string;
  parentTabId: string;
  utm: Record<string, string>;
  track_event_name?: string;
  track_event_type?: string;
}

/** Guide event types (guides §7 "Guide events"). */
export type GuideEventType =
  | 'guideSeen'
  | 'guideNotSeen'
  | 'guideDismissed'
  | 'guideSnoozed'
  | 'guideAdvanced'
  | 'guideTimeout'
  | 'guideSnoozeCanceled'
  | 'guideActivity'
  | 'control'
  | 'pollResponse';

/** Properties of a guide event (guides §3 "Guide event"). */
export interface GuideEventProps {
  guide_id: string;
  guide_step_id: string;
  reason?: string;
  seen_reason?: string;
  language?: string;
  duration?: number;
  snooze_duration?: number;
  destination_step_id?: string;
  last_updated_at?: number;
  ui_element_id?: string;
  ui_element_type?: string;
  ui_element_actions?: Array<{ action: string }>;
  /** guideTimeout: the step seen timeout that ran out, ms. */
  guideSeenTimeoutLength?: number;
  /** pollResponse (guides §3 "Poll response event properties"). */
  poll_id?: string;
  poll_response?: string | number;
  poll_type?: string;
}

/** One guide event as sent in the guide beacon's jzb array. */
export interface WireGuideEvent {
  type: GuideEventType;
  browser_time: number;
  visitor_id: string;
  account_id: string;
  url: string;
  props: GuideEventProps;
  sequence: number;
  sessionId: string;
  tabId: string;
  frameId: string;
}
