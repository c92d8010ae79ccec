/**
 * Size limits of the reference collector. The jzb limit is the agent's own send silo, so anything the agent
 * can legitimately send fits and anything larger is a bug worth a 413. Every other bound here is checked before
 * anything is stored (issue #31 Bounded ingest): decoders stop at their output cap, and each event's fields are
 * checked by type and length (checkEventBatch).
 */
import { SEND_SILO_LIMIT } from '../../shared/constants';

/** Limits checked before any decoding or storage work. */
export const SERVER_LIMITS = {
  /** spec: analytics §9 — a jzb (GET query or POST `events`) holds at most 65536 characters. */
  maxJzbLength: SEND_SILO_LIMIT,
  /**
   * Most bytes a jzb may inflate to (2 MB); the inflater stops there and the request is a 413. Both agents (ours
   * and Pendo's) cut a batch of several events to at most 65536 × 5 = 327,680 characters of JSON (analytics §9:
   * the silo at the most optimistic compression ratio), at most 983,040 bytes of UTF-8 even if every character
   * took three; a batch of one event is bounded by `maxEventBytes`. 2 MB is twice that worst case (six times an
   * all-ASCII batch), while the 64 KB jzb a zip bomb could inflate to 47 MB stops at 2 MB.
   */
  maxInflatedJzbBytes: 2 * 1024 * 1024,
  /**
   * Largest event, in bytes of its JSON (256 KB): a 413 naming the event. Our clicks are a few KB (20 ancestors at
   * most, text and attribute values cut to 256 characters, a field to 2000: analytics §9); Pendo's walk ancestors
   * to the body, still KBs. Only a host's track properties could come near, and an event must anyway compress
   * into the 65536-character silo to be sent at all. 256 KB is a hundred times a large click.
   */
  maxEventBytes: 256 * 1024,
  /**
   * Deepest nesting of objects and arrays in an event (the event itself is depth 1). Pendo's agent nests a click's
   * ancestors up to the body (wire-protocol.md "click"), one level each, and Chromium's HTML parser nests elements
   * 512 deep at most; far deeper, serializing and PostgreSQL's jsonb parser run out of stack.
   */
  maxEventDepth: 1000,
  /** Longest event `type`: the known types are short words; anything longer is not a type. */
  maxEventTypeLength: 128,
  /**
   * Longest `visitor_id` and `account_id`, in characters: twice an e-mail address's 254, and small enough that
   * an id (with the api key) stays within what a btree index key holds (2704 bytes) in any script.
   */
  maxIdLength: 512,
  /** Longest `tabId` and `frameId`: the agents make 16 to 36 random characters; they key the exactly-once index. */
  maxTabIdLength: 128,
  /**
   * Longest api key, in a path (find-my-way's own cap of a path parameter, which the router enforces) or in a query
   * (`/data/errorlog?apiKey=`, `/data/monitor?apiKey=`: registerParamCheck enforces it there).
   */
  maxApiKeyLength: 100,
  /** Largest request body accepted, in bytes (1 MB); Fastify answers 413 above it, text/plain beacons included. */
  maxBodyBytes: 1024 * 1024,
  /**
   * Most events in one batch. Not in the spec: 65536 characters of jzb can inflate to megabytes, and a cap
   * keeps one request from holding the database for long.
   */
  maxEventsPerBatch: 10_000,
  /** Longest `source` beacon parameter kept (analytics §7; ours are `worker` and `pagehide`). */
  maxSourceLength: 32,
  /** `/api/events` page size: default and maximum. */
  defaultListLimit: 1000,
  maxListLimit: 10_000,
  /**
   * Longest request head Node accepts (URL plus headers). Node's default of 16 KB would refuse a GET whose jzb
   * is between 16 KB and the 64 KB silo with a bare 431 before our 413 could explain it.
   */
  maxHeaderBytes: 96 * 1024,
} as const;

