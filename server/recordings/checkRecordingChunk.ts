/**
 * The check of one recording chunk as the agent POSTs it (issue #18, docs/recording.md): zlib (RFC 1950) of UTF-8
 * JSON `{ recordingId, sessionId, visitorId, accountId, tabId, frameId, url, chunk, events }`, the events being
 * rrweb's `eventWithTime` objects. Every refusal is a 400 naming the field at fault; a body over the limits a 413.
 */
import { inflateSync } from 'node:zlib';
import type { RecordingChunkMeta } from '../../shared/wire/recordingChunk';
import type { RecordedEvent } from '../../shared/api';
import { HttpError } from '../HttpError';
import { storableText } from '../ingest/textFault';

/** Limits of a chunk: what one POST may carry. */
export const RECORDING_LIMITS = {
  /** Compressed body, bytes. */
  maxCompressedBytes: 5 * 1024 * 1024,
  /** Inflated JSON, bytes: a zip bomb stops here. */
  maxInflatedBytes: 20 * 1024 * 1024,
  /** Longest id (recording, session, visitor, account, tab, frame). */
  maxIdLength: 256,
  /** Longest url. */
  maxUrlLength: 16_384,
  /** Highest chunk number. */
  maxChunk: 1_000_000,
  /** Latest event timestamp, epoch ms: what a JavaScript Date can hold (the summary columns are bigint). */
  maxTimestamp: 8.64e15,
} as const;

/** A checked chunk. */
export interface RecordingChunk extends RecordingChunkMeta {
  chunk: number;
  events: RecordedEvent[];
  /** Earliest and latest event timestamp of the chunk (epoch ms); null when it has no events. */
  start: number | null;
  end: number | null;
}

/** Ids that must not be empty; the others may be (an anonymous visitor has no account). */
const REQUIRED_IDS = ['recordingId', 'sessionId', 'visitorId'] as const;
const OPTIONAL_IDS = ['accountId', 'tabId', 'frameId'] as const;

/** Inflates and checks a POSTed body; throws HttpError 400 / 413. */
export function checkRecordingChunk(body: Uint8Array): RecordingChunk {
  if (body.length > RECORDING_LIMITS.maxCompressedBytes) {
    throw new HttpError(413, `recording chunk is over ${RECORDING_LIMITS.maxCompressedBytes} bytes (5 MB) compressed`);
  }
  let text: string;
  try {
    text = inflateSync(body, { maxOutputLength: RECORDING_LIMITS.maxInflatedBytes }).toString('utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(413, `recording chunk inflates to over ${RECORDING_LIMITS.maxInflatedBytes} bytes (20 MB)`);
    }
    throw new HttpError(400, `body does not inflate: it must be zlib (RFC 1950) of the chunk's JSON (${(err as Error).message})`, 'body');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'body inflates to something that is not JSON', 'body');
  }
  return readChunk(parsed);
}

/** Checks the parsed JSON of a chunk, field by field. */
export function readChunk(parsed: unknown): RecordingChunk {
  if (!isObject(parsed)) throw new HttpError(400, 'body must be a JSON object { recordingId, sessionId, visitorId, accountId, tabId, frameId, url, chunk, events }', 'body');
  for (const name of [...REQUIRED_IDS, ...OPTIONAL_IDS]) {
    const value = parsed[name];
    const required = (REQUIRED_IDS as readonly string[]).includes(name);
    if (typeof value !== 'string' || (required && value === '')) {
      throw new HttpError(400, `${name} must be a${required ? ' non-empty' : ''} string`, name);
    }
    if (value.length > RECORDING_LIMITS.maxIdLength) throw new HttpError(400, `${name} is longer than ${RECORDING_LIMITS.maxIdLength} characters`, name);
    // issue #31: ids and url go into text columns, which refuse U+0000.
    storableText(value, name);
  }
  const { url, chunk, events } = parsed;
  if (typeof url !== 'string') throw new HttpError(400, 'url must be a string', 'url');
  if (url.length > RECORDING_LIMITS.maxUrlLength) throw new HttpError(400, `url is longer than ${RECORDING_LIMITS.maxUrlLength} characters`, 'url');
  storableText(url, 'url');
  if (typeof chunk !== 'number' || !Number.isInteger(chunk) || chunk < 0 || chunk > RECORDING_LIMITS.maxChunk) {
    throw new HttpError(400, `chunk must be an integer from 0 to ${RECORDING_LIMITS.maxChunk}`, 'chunk');
  }
  if (!Array.isArray(events)) throw new HttpError(400, 'events must be an array of rrweb events', 'events');
  let start: number | null = null;
  let end: number | null = null;
  events.forEach((event: unknown, i) => {
    if (!isObject(event)) throw new HttpError(400, `events[${i}] must be an object { type, data, timestamp }`, `events[${i}]`);
    if (typeof event.type !== 'number' || !Number.isInteger(event.type) || event.type < 0) {
      throw new HttpError(400, `events[${i}].type must be an rrweb event type (a non-negative integer)`, `events[${i}].type`);
    }
    if (!isObject(event.data)) throw new HttpError(400, `events[${i}].data must be an object`, `events[${i}].data`);
    const t = event.timestamp;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > RECORDING_LIMITS.maxTimestamp) {
      throw new HttpError(400, `events[${i}].timestamp must be epoch milliseconds, from 0 to ${RECORDING_LIMITS.maxTimestamp}`, `events[${i}].timestamp`);
    }
    if (start === null || t < start) start = t;
    if (end === null || t > end) end = t;
  });
  return {
    recordingId: parsed.recordingId as string,
    sessionId: parsed.sessionId as string,
    visitorId: parsed.visitorId as string,
    accountId: parsed.accountId as string,
    tabId: parsed.tabId as string,
    frameId: parsed.frameId as string,
    url,
    chunk,
    events: events as RecordedEvent[],
    // Whole milliseconds for the bigint columns: rrweb's are, and a fractional one widens the span, never narrows it.
    start: start === null ? null : Math.floor(start),
    end: end === null ? null : Math.ceil(end),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
