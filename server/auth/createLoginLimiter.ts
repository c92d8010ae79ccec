/**
 * Login attempts, limited per client address (issue #14): after `maxFailures` wrong tokens within `windowMs`,
 * every attempt from that address is refused until the oldest failure leaves the window. Pure over `now`.
 */
export interface LoginLimiter {
  /** ms to wait before the next attempt, or 0 when one may be made now. */
  retryAfterMs(address: string, now: number): number;
  failed(address: string, now: number): void;
  succeeded(address: string): void;
}

export function createLoginLimiter(maxFailures = 10, windowMs = 60_000): LoginLimiter {
  const failures = new Map<string, number[]>();
  const recent = (address: string, now: number) => (failures.get(address) ?? []).filter((t) => now - t < windowMs);
  return {
    retryAfterMs(address, now) {
      const list = recent(address, now);
      failures.set(address, list);
      return list.length >= maxFailures ? windowMs - (now - list[0]!) : 0;
    },
    failed(address, now) {
      failures.set(address, [...recent(address, now), now]);
    },
    succeeded(address) {
      failures.delete(address);
    },
  };
}
