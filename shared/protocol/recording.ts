/**
 * The shim-worker contract, session recording side (issue #18). The page only observes: the recorder chunk
 * (waymark.record.js) hands rrweb's events over in batches; the worker redacts, cuts chunks, keeps them in
 * IndexedDB, compresses and uploads them (POST /data/recording/{apiKey}).
 */

import type { RecordingChunkMeta } from '../wire/recordingChunk';

/**
 * What the page needs to send the recording's end itself at page hide (issue #32: Firefox and WebKit end the
 * worker with the page, before it stores or sends what it was handed last): the worker's open chunk as the worker
 * holds it after a `pushRecording`, and how a chunk is addressed and redacted. The page mirrors the open chunk's
 * events; at page hide it sends the chunk under the same number, with the same events, that the worker's cut
 * gives it, so whichever copy reaches the collector first is stored and the other is a replay.
 */
export interface RecordingTailState {
  /** The open chunk's number; when `held` is 0, the number the next chunk will take. */
  chunk: number;
  /** How many events the open chunk holds: the last `held` events handed over (0: no chunk open). */
  held: number;
  meta: RecordingChunkMeta;
  apiKey: string;
  dataHost: string;
  /** The app's compiled privacy filter (analytics §5), applied to the events as the worker applies it. */
  privacyFilters: RegExp[];
}

/** The recording part of the worker's API. */
export interface RecordingApi {
  /**
   * Whether this page records: the app's recording.json (asked once per page) and the session's sampling
   * decision (drawn once per session id by `sampleRate`, kept with the session so a session is recorded whole
   * or not at all). False, with the reason logged, when it does not.
   */
  recordingDecision(): Promise<boolean>;
  /**
   * A batch of rrweb events in emit order (one call per second or 100 events at most). `flush`: cut the chunk
   * and send it now (page hide, or RECORDING_CHUNK_MS after the chunk opened: the page times the cuts, so it
   * always knows which events the open chunk holds). Answers the open chunk's state, null when not recording.
   */
  pushRecording(events: unknown[], flush?: boolean): RecordingTailState | null;
}
