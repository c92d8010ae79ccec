/**
 * The body of one recording chunk on the wire (issue #18, docs/recording.md): `POST /data/recording/{apiKey}`, zlib
 * of UTF-8 JSON. What the agent's worker sends (worker/recording) and the collector checks
 * (server/recordings/checkRecordingChunk).
 */

/** Who and where: the body's fields beside `chunk` (numbered from 0 per recordingId) and `events` (rrweb's). */
export interface RecordingChunkMeta {
  recordingId: string;
  sessionId: string;
  visitorId: string;
  accountId: string;
  tabId: string;
  frameId: string;
  url: string;
}
