/**
 * The pause lock one collector asked for (shared/wire/collectorPause.ts): shared by every send queue of the
 * agent that beacons to it (events, guide events, polls), so one 429 or 503 holds them all.
 */
export interface CollectorPause {
  /** Holds sending until `until` (ms since the epoch); a later pause wins. */
  until(until: number): void;
  /** How long sending still waits, ms (0: not paused). */
  left(now: number): number;
}

export function createCollectorPause(): CollectorPause {
  let pausedUntil = 0;
  return {
    until: (until) => void (pausedUntil = Math.max(pausedUntil, until)),
    left: (now) => Math.max(0, pausedUntil - now),
  };
}
