/**
 * A recording as the admin API lists it (issue #18, docs/recording.md), apart from the store so the console can
 * read the same type without the store's Node code.
 */

/** A recording as the console lists it. Times are epoch ms from the events' timestamps. */
export interface RecordingSummary {
  id: string;
  visitorId: string;
  accountId: string;
  sessionId: string;
  tabId: string;
  url: string;
  start: number | null;
  end: number | null;
  duration: number;
  eventCount: number;
  chunks: number;
  lastReceived: number;
}
