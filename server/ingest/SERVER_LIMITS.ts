/**
 * Size limits of the reference collector. The jzb limit is the agent's own send silo, so anything the agent
 * can legitimately send fits and anything larger is a bug worth a 413.
 */
import { SEND_SILO_LIMIT } from '../../shared/constants';

/** Limits checked before any decoding or storage work. */
export const SERVER_LIMITS = {
  /** spec: analytics §9 — a jzb (GET query or POST `events`) holds at most 65536 characters. */
  maxJzbLength: SEND_SILO_LIMIT,
  /** Largest request body accepted, in bytes (1 MB); Fastify answers 413 above it. */
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
