/**
 * The shim-worker contract, session recording side (issue #18). The page only observes: the recorder chunk
 * (waymark.record.js) hands rrweb's events over in batches; the worker redacts, cuts chunks, keeps them in
 * IndexedDB, compresses and uploads them (POST /data/recording/{apiKey}).
 */

/** The recording part of the worker's API. */
export interface RecordingApi {
  /**
   * Whether this page records: the app's recording.json (asked once per page) and the session's sampling
   * decision (drawn once per session id by `sampleRate`, kept with the session so a session is recorded whole
   * or not at all). False, with the reason logged, when it does not.
   */
  recordingDecision(): Promise<boolean>;
  /**
   * A batch of rrweb events in emit order (one call per second or 100 events at most). `flush`: the page is
   * hiding, cut a chunk and send it now.
   */
  pushRecording(events: unknown[], flush?: boolean): void;
}
