/**
 * The range of the console's charts: `from` and `to` (epoch ms, default the last 7 days) and `bucket`
 * (`hour` | `day`, default hour for ranges up to 2 days). The range is widened to whole buckets in UTC: the
 * summaries are kept per UTC hour and day, and the answer's `range` says which span was counted.
 */
import { HttpError } from '../HttpError';
import { DAY_MS, HOUR_MS } from '../summaries/CONSOLE_SCHEMA';
import { integerParam, queryParam, type ConsoleQuery } from './queryParams';
import type { Bucket, ConsoleRange } from '../../shared/api';

/** Ranges up to this long get hourly buckets by default. */
const HOURLY_DEFAULT_MAX_MS = 2 * DAY_MS;
/** At most this many hourly buckets: a longer range must use days (bounds the series). */
export const MAX_HOURLY_RANGE_MS = 31 * DAY_MS;
/** The default range: the 7 days before `to`. */
const DEFAULT_SPAN_MS = 7 * DAY_MS;

/** Bucket length in ms. */
export function bucketMs(bucket: Bucket): number {
  return bucket === 'hour' ? HOUR_MS : DAY_MS;
}

/** Reads `from`, `to`, `bucket`; a 400 naming the parameter when one is wrong. */
export function parseRange(query: ConsoleQuery, now: number): ConsoleRange {
  const to = integerParam(query, 'to', 'epoch milliseconds') ?? now;
  const from = integerParam(query, 'from', 'epoch milliseconds') ?? Math.max(0, to - DEFAULT_SPAN_MS);
  if (from > to) throw new HttpError(400, 'from must not be after to', 'from');
  const given = queryParam(query, 'bucket');
  if (given !== undefined && given !== 'hour' && given !== 'day') throw new HttpError(400, "bucket must be 'hour' or 'day'", 'bucket');
  const bucket: Bucket = given ?? (to - from <= HOURLY_DEFAULT_MAX_MS ? 'hour' : 'day');
  const ms = bucketMs(bucket);
  const start = Math.floor(from / ms) * ms;
  const end = Math.ceil(to / ms) * ms;
  if (bucket === 'hour' && end - start > MAX_HOURLY_RANGE_MS) {
    throw new HttpError(400, 'bucket hour allows ranges up to 31 days; use bucket=day', 'bucket');
  }
  return { from: start, to: end, bucket };
}
