/**
 * What the page captures (analytics §1, §3, §4, §9): clicks (with event property rules cut off past 50 ms),
 * custom submits and inputs, focus, submit and change (the element, never a value; repeated changes
 * debounced), page hide with its beacon of held events, and identify events; each event stamped with time and
 * page URL and the session kept alive (30 minutes of inactivity end it; the shared record written at most once a
 * minute). The listeners stay cheap: the element's path is read here, everything else is the worker's.
 */
import { EVENT_PROPERTY_LIMIT_MS, SESSION_INACTIVITY_MS } from '../shared/constants';
import { createChangeDebounce } from '../shared/analytics/createChangeDebounce';
import type { CapturedEvent } from '../shared/events/events';
import { continuesVisitor } from '../shared/identity/identityRules';
import { nextSession } from '../shared/identity/sessionRules';
import type { Identity, LogLevel, Metadata } from '../shared/protocol';
import { SESSION_SAVE_INTERVAL_MS, type Running } from './agentState';
import { captureElementPath } from './captureElementPath';
import { matchSelectors, type EventPropertyCollector } from './collectEventProperties';
import { secureRandom } from './loadIdentity';
import { metadataOf, metaProps } from './metadata';
import { postEvents, sendTail } from './sendTail';
import { AUTHOR_TOOL_HOSTS, OVERLAY_HOST } from '../shared/authoring/ownHosts';

/** The attributes of the agent's own host elements on <html>: the overlay's and the authoring tools'. */
const OWN_HOSTS = [OVERLAY_HOST, ...AUTHOR_TOOL_HOSTS];

/** An event as a listener or API call makes it; time, URL and sequence are added here. */
export type NewEvent = Omit<CapturedEvent, 'time' | 'url' | 'sequence'> & Partial<CapturedEvent>;

export interface Capture {
  /** Captures one event (nothing while the agent is locked or not running); answers its sequence, or -1. */
  capture(event: NewEvent): number;
  /** Adds the DOM listeners (capture phase, passive) and page hide's; teardown removes them (`r.uninstall`). */
  listen(r: Running): void;
  /** Switches identity, metadata with it (see changeIdentity below); `synced`: taken from the leader frame, not told again. */
  changeIdentity(r: Running, next: { visitorId: string; accountId: string }, synced?: boolean, metadata?: Metadata): void;
  /** The event property rules of the last guide load (analytics §3), unless a slow collection disabled them. */
  setPropertyCollector(collect: EventPropertyCollector): void;
}

export function createCapture(getRunning: () => Running | null, isSending: () => boolean, log: (level: LogLevel, message: string) => void): Capture {
  /** analytics §3 event property rules of the last guide load; emptied for good when one collection is too slow. */
  let collectProperties: EventPropertyCollector | null = null;
  let eventRulesDisabled = false;

  /** analytics §9 change-event debounce: repeats of an element's change within 5000 ms are not sent. */
  const changeIsNew = createChangeDebounce();

  function capture(event: NewEvent, awaitsVerdict?: boolean): number {
    const running = getRunning();
    if (!isSending() || !running) return -1;
    const now = Date.now();
    const r = running;
    // analytics §4: a session ends after 30 minutes without activity. One comparison per event; the
    // shared record is written back at most once a minute, not on every click.
    if (now - r.session.lastActivityAt >= SESSION_INACTIVITY_MS) updateSession(r, now, r.identity.visitorId);
    else {
      r.session.lastActivityAt = now;
      if (now - r.sessionSavedAt >= SESSION_SAVE_INTERVAL_MS) saveSession(r, now);
    }
    return r.bridge.capture({ time: now, url: r.pageUrl(), ...event }, awaitsVerdict);
  }

  function saveSession(r: Running, now: number): void {
    r.sessions.write(r.session);
    r.sessionSavedAt = now;
  }

  /**
   * Applies the session rules (shared/identity/sessionRules) against the shared record, which another tab may have
   * renewed or kept alive; tells the worker when the session id changed.
   */
  function updateSession(r: Running, now: number, visitorId: string): void {
    const stored = r.sessions.read();
    const base = stored && stored.lastActivityAt > r.session.lastActivityAt ? stored : r.session;
    const decision = nextSession(base, now, visitorId, secureRandom);
    r.session = decision.record;
    saveSession(r, now);
    if (decision.record.sessionId !== r.init.session.sessionId) {
      r.init.session = { ...r.init.session, sessionId: decision.record.sessionId };
      r.bridge.setSession(r.init.session);
    }
  }

  /** The host element an event is about, or null for our own overlay (guide activity is reported apart). */
  function hostTarget(event: Event): Element | null {
    const running = getRunning();
    const target = event.target;
    if (!running || !(target instanceof Element)) return null;
    // The author at work (issue #35): picking elements and trying the page out in the designer is not its use.
    if (running.designing) return null;
    // The overlay and the author's tools (designer, preview bar, launch modal) live in shadow roots of their own
    // hosts, so document listeners see a host element as the target.
    if (target.parentNode === document.documentElement && OWN_HOSTS.some((name) => target.hasAttribute(name))) return null;
    // Inside a host component's open shadow root the event was retargeted to its host: the element the
    // visitor used is the first of the composed path (issue #7). Closed roots stay at their host.
    if (target.shadowRoot) {
      const inner = event.composedPath()[0];
      if (inner instanceof Element) return inner;
    }
    return target;
  }

  function onClick(event: MouseEvent): void {
    const running = getRunning();
    const target = hostTarget(event);
    if (!target || !running) return;
    const flags: string[] = [event.button === 1 ? 'middle' : event.button === 2 ? 'right' : 'left'];
    if (event.altKey) flags.push('alt');
    if (event.ctrlKey) flags.push('ctrl');
    if (event.metaKey) flags.push('meta');
    if (event.shiftKey) flags.push('shift');
    const props: Record<string, unknown> = { flags, x: event.pageX, y: event.pageY };
    if (collectProperties) {
      // analytics §3, §8: event property rules; a collection over 50 ms is disabled with a critical error.
      const started = performance.now();
      const values = collectProperties(target);
      const took = performance.now() - started;
      if (values) props.event_properties = values;
      if (took > EVENT_PROPERTY_LIMIT_MS) {
        collectProperties = null;
        eventRulesDisabled = true;
        const message = `Event property collection took ${Math.round(took)} ms, over ${EVENT_PROPERTY_LIMIT_MS} ms: disabled for this page`;
        log('error', message);
        void running.bridge.call((w) => w.reportError({ message, critical: true }));
      }
    }
    // Page coordinates: the worker judges rage clicks from them (analytics §4).
    // The batch waits for the click's verdict (issue #16: an isolated click crosses to the worker once).
    const sequence = capture({ type: 'click', element: captureElementPath(target, running.options), props }, true);
    if (sequence >= 0) running.clicks.watch(sequence, target);
    const submitter = matchSelectors(target, running.options.submitCssSelectors);
    if (submitter) capture({ type: 'submit', element: captureElementPath(submitter, running.options), props: {} });
  }

  /** focusout on an element of inputCssSelectors: a custom input was left, which counts as a change. */
  function onFocusOut(event: FocusEvent): void {
    const running = getRunning();
    const target = hostTarget(event);
    if (!target || !running) return;
    const input = matchSelectors(target, running.options.inputCssSelectors);
    if (input && changeIsNew(input, Date.now())) capture({ type: 'change', element: captureElementPath(input, running.options), props: {} });
  }


  /** focus, submit and change (analytics §1): the element, never a value (values are not collected). */
  function onElementEvent(event: Event): void {
    const running = getRunning();
    const target = hostTarget(event);
    if (!target || !running) return;
    const type = event.type === 'focusin' ? 'focus' : (event.type as 'submit' | 'change');
    if (type === 'change' && !changeIsNew(target, Date.now())) return;
    capture({ type, element: captureElementPath(target, running.options), props: {} });
  }

  /**
   * Page hide: the worker may be gone within milliseconds (navigation) or frozen (background tab), so the
   * page sends what it still holds itself, with sendBeacon, as a plain JSON POST the collector accepts.
   * The worker also flushes and keeps everything in IndexedDB until delivered, so whichever copy arrives
   * first is stored and the collector's dedupe (tabId, frameId, sequence) drops the other.
   */
  function onPageHide(event: Event): void {
    const running = getRunning();
    if (!running || (event.type === 'visibilitychange' && document.visibilityState !== 'hidden')) return;
    // Leaving is what a click on a link does: clicks being watched had an effect.
    running.clicks.effect();
    // analytics §1: unload and hidden-state events, captured first so they travel in this very beacon.
    capture({ type: event.type === 'pagehide' ? 'unload' : 'hidden', props: {} });
    const { bridge, init } = running;
    const held = bridge.held();
    const guideEvents = bridge.heldGuideEvents();
    bridge.flushCaptured();
    void bridge.call((api) => api.flush());
    if (held.length) sendTail(init, running.prepare, held);
    // issue #32: Firefox and WebKit end the worker with the page, within the 500 ms its guide events wait.
    if (guideEvents.length) postEvents(init, 'guide.gif', guideEvents);
  }

  /**
   * Switches identity: events captured so far cross first and keep the old identity; the identify event
   * is the new visitor's first, with the old ids in its props (wire-protocol.md "identify"). A known
   * visitor changing starts a new session (analytics §4). `metadata` (identify with fields) replaces the
   * metadata later events and guide loads carry, and a meta event records it, with or without new ids; another
   * person (not the anonymous visitor signing in) without fields starts, silently, with none of the one before's.
   */
  function changeIdentity(r: Running, next: { visitorId: string; accountId: string }, synced?: boolean, fields?: Metadata): void {
    const old = r.identity;
    const metadata = fields ?? (synced || continuesVisitor(old.visitorId, next.visitorId) ? undefined : metadataOf({}));
    if (next.visitorId !== old.visitorId || next.accountId !== old.accountId) {
      const identity: Identity = { ...next, oldVisitorId: old.visitorId };
      r.identity = identity;
      r.bridge.setIdentity(identity, metadata);
      updateSession(r, Date.now(), identity.visitorId);
      capture({
        type: 'identify',
        props: { old_visitor_id: old.visitorId, old_account_id: old.accountId, visitor_id: next.visitorId, account_id: next.accountId },
      });
      // analytics §4 Frames: the leader's identity reaches the other frames (not one it took from the leader).
      if (!synced) r.frames?.identityChanged();
    } else if (metadata) r.bridge.setIdentity(old, metadata);
    if (metadata) r.init.metadata = metadata;
    if (fields) capture({ type: 'meta', props: metaProps(next.visitorId, fields) });
  }

  return {
    capture,
    listen(r) {
      const on = (target: EventTarget, type: string, listener: (event: never) => void, options?: AddEventListenerOptions) => {
        target.addEventListener(type, listener as EventListener, options);
        r.uninstall.push(() => target.removeEventListener(type, listener as EventListener, options));
      };
      const phase = { capture: true, passive: true };
      on(document, 'click', onClick, phase);
      for (const type of ['focusin', 'submit', 'change']) on(document, type, onElementEvent, phase);
      if (r.options.inputCssSelectors?.length) on(document, 'focusout', onFocusOut, phase);
      on(document, 'visibilitychange', onPageHide);
      on(window, 'pagehide', onPageHide);
    },
    changeIdentity,
    setPropertyCollector(collect) {
      if (!eventRulesDisabled) collectProperties = collect;
    },
  };
}
