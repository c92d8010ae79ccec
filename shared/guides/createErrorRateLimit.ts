/**
 * spec: guides §8 — "'Exceeded error rate limit, dropping guide': at 30 or more errors per minute (measured
 * over 5 errors); the guide is dropped and a renderFail event raised." Pure: every call takes `now`.
 */
import { ERROR_RATE_MIN_SAMPLE, MAX_GUIDE_ERRORS_PER_MINUTE } from '../constants';
import { MESSAGES } from '../messages';

const MINUTE_MS = 60_000;

/** Options of {@link createErrorRateLimit}. */
export interface ErrorRateLimitOptions {
  /** @default 30 (MAX_GUIDE_ERRORS_PER_MINUTE, guides §9) */
  maxPerMinute?: number;
  /** @default 5 (ERROR_RATE_MIN_SAMPLE, guides §8) — errors the rate is measured over */
  sampleSize?: number;
}

/** What {@link ErrorRateLimit.record} found. */
export type ErrorRateVerdict =
  | { exceeded: false }
  | { exceeded: true; message: typeof MESSAGES.errorRateExceeded; ratePerMinute: number };

/** A guide error counter; the caller keeps one per guide and drops the guide on the first `exceeded`. */
export interface ErrorRateLimit {
  /** Records one error at `now` (epoch ms) and says whether the rate limit is now exceeded. */
  record(now: number): ErrorRateVerdict;
  /** Forgets every recorded error (for instance once the guide was dropped or reloaded). */
  reset(): void;
}

/**
 * spec: guides §8 error rate limit. Reading, precisely: the limiter keeps the times of the last
 * `sampleSize` (5) errors, the one being recorded included. Until 5 errors were recorded it never reports.
 * From then on the rate is those 5 errors extrapolated over the span from the oldest of them to `now`:
 * `rate = 5 * 60_000 / (now - oldest)` errors per minute, and the limit is exceeded when
 * `rate >= maxPerMinute` (30). So 5 errors are too many when they fall within 10 s (10 s included):
 * 5 within 10 s is exactly 30 a minute. Several errors at the same instant (span 0) exceed it. A clock
 * that went back is read as span 0.
 *
 * @example const limit = createErrorRateLimit(); [0, 2500, 5000, 7500].map((t) => limit.record(t)); limit.record(10_000).exceeded === true
 */
export function createErrorRateLimit(options: ErrorRateLimitOptions = {}): ErrorRateLimit {
  const maxPerMinute = options.maxPerMinute ?? MAX_GUIDE_ERRORS_PER_MINUTE;
  const sampleSize = Math.max(1, Math.floor(options.sampleSize ?? ERROR_RATE_MIN_SAMPLE));
  let times: number[] = [];
  return {
    record(now) {
      times.push(now);
      if (times.length > sampleSize) times = times.slice(-sampleSize);
      if (times.length < sampleSize) return { exceeded: false };
      const span = Math.max(0, now - times[0]!);
      // Compared without dividing, so a span of 0 needs no special case: count/span >= max/minute.
      if (sampleSize * MINUTE_MS < maxPerMinute * span) return { exceeded: false };
      return {
        exceeded: true,
        message: MESSAGES.errorRateExceeded,
        ratePerMinute: span === 0 ? Number.POSITIVE_INFINITY : (sampleSize * MINUTE_MS) / span,
      };
    },
    reset() {
      times = [];
    },
  };
}
