/**
 * The pause lock (analytics §9 "pause lock default 10 s"; what it locks is ours, the spec gives only the
 * constant): a collector that answers 429 (too many requests) or 503 (unavailable, as the reference collector
 * does while its database is away) asks every send queue of the agent to hold its beacons until it has had
 * time: its Retry-After, else 10 s. Back-off alone would have each queue of each tab ask again after 1, 2, 4 s,
 * which is what an overloaded collector does not need; nothing is dropped meanwhile (the queues keep their
 * events, in IndexedDB too).
 */

/** spec: analytics §9 — the pause lock when the collector names no time. */
export const PAUSE_LOCK_DEFAULT_MS = 10_000;
/** A Retry-After is followed up to this: a collector's answer never stops an agent for longer. */
export const PAUSE_LOCK_MAX_MS = 300_000;

/**
 * How long a collector's answer pauses sending, ms: null when it does not ask to (not 429 or 503); its
 * Retry-After (seconds, or an HTTP date) when valid, capped; else the default.
 */
export function collectorPauseMs(status: number, retryAfter: string | null | undefined, now: number): number | null {
  if (status !== 429 && status !== 503) return null;
  const text = (retryAfter ?? '').trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : text ? Date.parse(text) - now : NaN;
  return ms >= 0 ? Math.min(ms, PAUSE_LOCK_MAX_MS) : PAUSE_LOCK_DEFAULT_MS;
}
