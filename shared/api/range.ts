/**
 * The range every charted answer of the admin API carries (docs/console-api.md "Apps and analytics": `from`, `to`,
 * `bucket`). Types only.
 */

/** A chart bucket: a UTC hour or a UTC day. */
export type Bucket = 'hour' | 'day';

/**
 * The span an answer counted, as its `range` says: `[from, to)` in epoch ms, both widened to whole UTC buckets
 * (server/queries/parseRange), so it may be wider than the `from` and `to` asked for.
 */
export interface ConsoleRange {
  from: number;
  to: number;
  bucket: Bucket;
}
