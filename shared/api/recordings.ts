/**
 * The answers of the admin API's recording routes (issue #18, docs/recording.md). Types only. Times are epoch ms
 * from the events' timestamps (the page's clock).
 */

/** One recording of `GET /api/apps/{apiKey}/recordings?visitorId&limit` (in its `recordings`). */
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

/** `GET /api/apps/{apiKey}/recordings?visitorId&limit`: newest first. */
export interface RecordingList {
  recordings: RecordingSummary[];
}

/** One rrweb event as the agent recorded it (a chunk's `events[]`, server/recordings/checkRecordingChunk). */
export interface RecordedEvent {
  type: number;
  data: Record<string, unknown>;
  timestamp: number;
  [key: string]: unknown;
}

/** A click of the recording's session on its timeline, as a plain click or the frustration the agent judged it. */
export interface RecordingMark {
  t: number;
  kind: 'click' | 'rage' | 'dead' | 'error';
  /** The clicked element's text, else `tag#id`, else its tag. */
  label: string;
}

/** `GET /api/apps/{apiKey}/recordings/{id}`: the recording, its events from a full snapshot on, and its session's clicks. */
export interface RecordingDetail extends RecordingSummary {
  events: RecordedEvent[];
  marks: RecordingMark[];
}
