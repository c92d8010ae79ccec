/**
 * Shape check of a decoded batch before anything is stored: a batch is stored whole or not at all.
 */
import { HttpError } from '../HttpError';
import { SERVER_LIMITS } from './SERVER_LIMITS';

/** An event as the collector sees it: an object with a `type`; every other field is kept as received. */
export type ReceivedEvent = Record<string, unknown> & { type: string };

/**
 * Returns the payload as a list of events, or throws a 400 naming the first bad event
 * (413 when the batch has more events than `SERVER_LIMITS.maxEventsPerBatch`, or an event is over
 * `SERVER_LIMITS.maxEventBytes`: issue #31).
 * spec: wire-protocol.md "Events" — one JSON object each, sent as an array.
 */
export function checkEventBatch(payload: unknown): ReceivedEvent[] {
  if (!Array.isArray(payload)) {
    throw new HttpError(400, `payload is not an array of events (got ${describe(payload)})`);
  }
  if (payload.length > SERVER_LIMITS.maxEventsPerBatch) {
    throw new HttpError(413, `batch has ${payload.length} events, over the limit of ${SERVER_LIMITS.maxEventsPerBatch}`);
  }
  payload.forEach((event: unknown, index) => {
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      throw new HttpError(400, `event ${index} is not an object (got ${describe(event)})`);
    }
    const type = (event as { type?: unknown }).type;
    if (typeof type !== 'string' || type === '') {
      throw new HttpError(400, `event ${index} has no type: every event needs a non-empty string "type"`);
    }
    const bytes = Buffer.byteLength(JSON.stringify(event));
    if (bytes > SERVER_LIMITS.maxEventBytes) {
      throw new HttpError(
        413,
        `event ${index} is ${bytes} bytes of JSON, over the limit of ${SERVER_LIMITS.maxEventBytes} bytes (256 KB) for one event`,
        `events[${index}]`,
      );
    }
  });
  return payload as ReceivedEvent[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
