/**
 * The check of a decoded batch before anything is stored: a batch is stored whole or not at all. One checker for
 * the payload (STYLE §9): the fields the collector reads have declared types and bounds (EVENT_FIELDS), and every
 * event is walked once for what the database could not keep (nesting, U+0000, lone surrogates) and measured.
 */
import { HttpError } from '../HttpError';
import { SERVER_LIMITS } from './SERVER_LIMITS';
import { textFault } from './textFault';

/** An event as the collector sees it: an object with a `type`; every other field is kept as received. */
export type ReceivedEvent = Record<string, unknown> & { type: string };

/** Epoch milliseconds a JavaScript Date can hold (ECMA-262 §21.4.1.1), the range of `browser_time`. */
const MAX_EPOCH_MS = 8.64e15;

/**
 * A checked field of an event: `problem` says what is wrong with a given value (`must be ...`), undefined when
 * nothing is. A field absent or null is not checked (the store then keeps null), except `type`, which every event
 * needs.
 */
interface FieldRule {
  name: string;
  problem(value: unknown): string | undefined;
}

/**
 * A visitor or account id: a string, as both agents send it (Pendo's agent turns a number given to identify into
 * its text, and sends `account_id` null or leaves it out when there is no account). A finite number is accepted
 * too: a host posting events itself may use numeric ids, and the store keeps a number as its text.
 */
const idProblem = (value: unknown): string | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a string or a number';
  if (typeof value !== 'string') return 'must be a string or a number';
  return value.length > SERVER_LIMITS.maxIdLength ? `must be at most ${SERVER_LIMITS.maxIdLength} characters` : undefined;
};

/** tabId and frameId: strings the agents make (analytics §3), keying the exactly-once index. */
const tabIdProblem = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return 'must be a string';
  return value.length > SERVER_LIMITS.maxTabIdLength ? `must be at most ${SERVER_LIMITS.maxTabIdLength} characters` : undefined;
};

/** The fields the collector reads out of an event (createEventStore), with their types and bounds. */
const EVENT_FIELDS: readonly FieldRule[] = [
  {
    name: 'type',
    // Any short string: the known types (shared/events/events.ts) and those of agents we do not know yet.
    problem: (value) =>
      typeof value === 'string' && value.length > SERVER_LIMITS.maxEventTypeLength
        ? `must be at most ${SERVER_LIMITS.maxEventTypeLength} characters`
        : undefined,
  },
  { name: 'visitor_id', problem: idProblem },
  { name: 'account_id', problem: idProblem },
  {
    name: 'sequence',
    // spec: wire-protocol.md "Events" — a per-tab counter, from 0.
    problem: (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : 'must be a non-negative integer'),
  },
  {
    name: 'browser_time',
    problem: (value) =>
      typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_EPOCH_MS
        ? undefined
        : `must be a finite number of epoch milliseconds, at most ${MAX_EPOCH_MS} either side of 1970`,
  },
  { name: 'tabId', problem: tabIdProblem },
  { name: 'frameId', problem: tabIdProblem },
];

/**
 * Returns the payload as a list of events, or throws an `HttpError` naming the first bad event and its field
 * (`events[3].sequence`): a 400 for a wrong type or shape, a 413 when the batch has more events than
 * `SERVER_LIMITS.maxEventsPerBatch` or an event is over `SERVER_LIMITS.maxEventBytes`.
 * spec: wire-protocol.md "Events" — one JSON object each, sent as an array.
 */
export function checkEventBatch(payload: unknown): ReceivedEvent[] {
  if (!Array.isArray(payload)) {
    throw new HttpError(400, `payload is not an array of events (got ${describe(payload)})`);
  }
  if (payload.length > SERVER_LIMITS.maxEventsPerBatch) {
    throw new HttpError(413, `batch has ${payload.length} events, over the limit of ${SERVER_LIMITS.maxEventsPerBatch}`);
  }
  payload.forEach((event: unknown, index) => checkEvent(event, index));
  return payload as ReceivedEvent[];
}

function checkEvent(event: unknown, index: number): void {
  const at = `events[${index}]`;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new HttpError(400, `event ${index} is not an object (got ${describe(event)})`, at);
  }
  const fields = event as Record<string, unknown>;
  if (typeof fields.type !== 'string' || fields.type === '') {
    throw new HttpError(400, `event ${index} has no type: every event needs a non-empty string "type"`, `${at}.type`);
  }
  for (const { name, problem } of EVENT_FIELDS) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    const wrong = problem(value);
    if (wrong) throw new HttpError(400, `event ${index}: ${name} ${wrong} (got ${shown(value)})`, `${at}.${name}`);
  }
  const fault = findFault(event, [], 1);
  if (fault) {
    const where = fault.trail.length ? pathOf(fault.trail) : 'the event';
    if (fault.kind === 'depth') {
      throw new HttpError(400, `event ${index} nests objects and arrays more than ${SERVER_LIMITS.maxEventDepth} deep`, at);
    }
    const what = fault.kind === 'key' ? `a key of ${where}` : where;
    throw new HttpError(400, `event ${index}: ${what} ${fault.text}, which cannot be stored`, fault.trail.length ? `${at}.${pathOf(fault.trail)}` : at);
  }
  const bytes = Buffer.byteLength(JSON.stringify(event));
  if (bytes > SERVER_LIMITS.maxEventBytes) {
    throw new HttpError(
      413,
      `event ${index} is ${bytes} bytes of JSON, over the limit of ${SERVER_LIMITS.maxEventBytes} bytes (256 KB) for one event`,
      at,
    );
  }
}

/** Where in an event the walk stopped, and why. */
interface Fault {
  /** Keys and indexes from the event down to the value (or to the object whose key is at fault). */
  trail: Array<string | number>;
  kind: 'depth' | 'text' | 'key';
  /** For text and key faults: what textFault said. */
  text?: string;
}

/** The first value under `value` nested too deep or holding text the database refuses (keys included). */
function findFault(value: unknown, trail: Array<string | number>, depth: number): Fault | undefined {
  if (typeof value === 'string') {
    const text = textFault(value);
    return text ? { trail: [...trail], kind: 'text', text } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > SERVER_LIMITS.maxEventDepth) return { trail: [...trail], kind: 'depth' };
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof key === 'string') {
      const text = textFault(key);
      if (text) return { trail: [...trail], kind: 'key', text };
    }
    trail.push(key);
    const fault = findFault(child, trail, depth + 1);
    trail.pop();
    if (fault) return fault;
  }
  return undefined;
}

/** `props.target.attrs["data-x"]`, `props.list[2]`: a trail as a field path. */
function pathOf(trail: ReadonlyArray<string | number>): string {
  return trail
    .map((key, i) => {
      if (typeof key === 'number') return `[${key}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(key)) return i === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key.length > 40 ? `${key.slice(0, 39)}…` : key)}]`;
    })
    .join('');
}

/** A value as a refusal quotes it: a number or short string as JSON, anything else described. */
function shown(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return typeof value === 'boolean' ? String(value) : describe(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
