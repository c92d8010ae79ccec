/**
 * Where the guide engine's events go out (guides §7): guide events on the guide beacon (guide.gif) and poll
 * answers on the poll beacon (poll.gif), each its own send queue, sent 500 ms after the last event and
 * persisted like analytics events. Nothing is written while the analytics §1 lock is on. The page is told of
 * each event written and of those done with (`tail`), so it can post at page hide what the worker did not live
 * to send (issue #32).
 */
import { GUIDE_EVENT_FLUSH_MS, GUIDE_TAIL_MESSAGE } from '../../shared/constants';
import type { GuideEventProps, GuideEventType, WireGuideEvent } from '../../shared/events/events';
import type { GuideTailMessage, LogLevel, WorkerInit } from '../../shared/protocol';
import { createSendQueue, type SendQueue } from '../createSendQueue';
import type { WorkerPorts } from '../ports';
import type { CollectorPause } from '../createCollectorPause';

export interface GuideOutboxOptions {
  config: WorkerInit;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
  /** The per-page counter of guide events. */
  nextSequence(): number;
  /** analytics §1 lock: no guide event is written while this is false. */
  isSending(): boolean;
  /** Prefix of this page's persisted guide-event chunks (see createSendQueue); poll.gif's is derived from it. */
  persistKey?: string;
  /** Query parameters added to every beacon. */
  params?: () => Record<string, string | undefined>;
  /** The collector's pause lock, shared with the event queue. */
  pause?: CollectorPause;
  /** The page's copy of the events not yet sent (the one-way GuideTailMessage). */
  tail?(message: GuideTailMessage): void;
}

export interface GuideOutbox {
  /** The guide beacon's queue. */
  events: SendQueue;
  /** The poll beacon's queue (pollResponse). */
  pollEvents: SendQueue;
  /** Records one guide event of the visitor on `url`; pollResponse events go on the poll beacon. */
  record(type: GuideEventType, props: GuideEventProps, url: string): void;
}

export function createGuideOutbox(options: GuideOutboxOptions): GuideOutbox {
  const { config, ports, log } = options;
  const queue = (endpoint: string, persistKey: string | undefined) =>
    createSendQueue({
      apiKey: config.apiKey,
      dataHost: config.dataHost,
      endpoint,
      mode: 'get-only',
      delayMs: GUIDE_EVENT_FLUSH_MS,
      debounce: true,
      persistKey,
      params: options.params,
      pause: options.pause,
      onDone: (items) => {
        const done = items.flatMap((item) => item.sequence ?? []);
        if (done.length) options.tail?.({ type: GUIDE_TAIL_MESSAGE, done });
      },
      ports,
      log,
    });
  const events = queue('guide.gif', options.persistKey);
  const pollEvents = queue('poll.gif', options.persistKey?.replace('guide.gif', 'poll.gif'));

  return {
    events,
    pollEvents,
    record(type, props, url) {
      if (!options.isSending()) return;
      const event: WireGuideEvent = {
        type,
        browser_time: ports.clock.now(),
        visitor_id: config.identity.visitorId,
        account_id: config.identity.accountId,
        url,
        props,
        sequence: options.nextSequence(),
        sessionId: config.session.sessionId,
        tabId: config.session.tabId,
        frameId: config.session.frameId,
      };
      const json = JSON.stringify(event);
      (type === 'pollResponse' ? pollEvents : events).enqueue([{ json, track: false, sequence: event.sequence }]);
      options.tail?.({ type: GUIDE_TAIL_MESSAGE, sequence: event.sequence, json });
    },
  };
}
