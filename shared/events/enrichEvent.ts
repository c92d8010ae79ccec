import { expandElementPath } from './elementPath';
import type { CapturedEvent, WireEvent } from './events';
import type { Identity, SessionFacts } from '../protocol';

/** What the worker knows about the page that every event carries. */
export interface EnvelopeContext {
  identity: Identity;
  session: SessionFacts;
  utm: Record<string, string>;
}

/** One event ready to batch: the object and its JSON, serialized once. */
export interface SerializedEvent {
  event: WireEvent;
  json: string;
}

/**
 * Adds the envelope (wire-protocol.md "Common fields") to a captured event and serializes it once.
 * `bytes` is the length of the event's JSON without the `bytes` field itself, appended last so the
 * object is stringified a single time.
 */
export function enrichEvent(captured: CapturedEvent, ctx: EnvelopeContext): SerializedEvent {
  const event: Omit<WireEvent, 'bytes'> & { bytes?: number } = {
    type: captured.type,
    browser_time: captured.time,
    visitor_id: ctx.identity.visitorId,
    account_id: ctx.identity.accountId,
    url: captured.url,
    props: captured.element ? { target: expandElementPath(captured.element), ...captured.props } : captured.props,
    sequence: captured.sequence,
    sessionId: ctx.session.sessionId,
    tabId: ctx.session.tabId,
    frameId: ctx.session.frameId,
    parentTabId: ctx.session.parentTabId,
    utm: ctx.utm,
  };
  if (captured.trackEventName !== undefined) event.track_event_name = captured.trackEventName;
  if (captured.trackEventType !== undefined) event.track_event_type = captured.trackEventType;
  const body = JSON.stringify(event);
  event.bytes = body.length;
  const json = `${body.slice(0, -1)},"bytes":${body.length}}`;
  return { event: event as WireEvent, json };
}
