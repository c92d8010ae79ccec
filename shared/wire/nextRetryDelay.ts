import { MAX_SEND_FAILURES, RETRY_BASE_DELAY_MS, RETRY_EXPONENT_CAP } from '../constants';

/** Back-off policy of a send queue (spec: analytics §4, §9). */
export interface RetryPolicy {
  /** @default 1000 */
  baseDelayMs: number;
  /** @default 6 — so the longest wait is 64 s */
  exponentCap: number;
  /** @default 100 — failures after which an item is dropped */
  maxFailures: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: RETRY_BASE_DELAY_MS,
  exponentCap: RETRY_EXPONENT_CAP,
  maxFailures: MAX_SEND_FAILURES,
};

/**
 * Delay before the next attempt after `failures` consecutive failures (1 = the first failure): 1 s doubled
 * per failure with the exponent capped, or `null` once the item has failed `maxFailures` times and must be
 * dropped.
 */
export function nextRetryDelay(failures: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number | null {
  if (failures >= policy.maxFailures) return null;
  return policy.baseDelayMs * 2 ** Math.min(Math.max(failures - 1, 0), policy.exponentCap);
}
