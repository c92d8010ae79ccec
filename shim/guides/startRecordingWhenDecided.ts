/**
 * Session recording's start on the page (issue #18): the worker says whether this session records (recording.json,
 * the per-session draw); only then is the recorder chunk (waymark.record.js) fetched. Only the top frame records (it
 * records its same-origin iframes), so a child frame's agent records nothing itself. Answers its stop.
 */
import type { LogLevel } from '../../shared/protocol';
import type { Bridge } from '../createBridge';
import { importChunk } from '../importChunk';
import type * as RecordModule from '../recording/index';

export function startRecordingWhenDecided(bridge: Bridge, recorderUrl: string, log: (level: LogLevel, message: string) => void): () => void {
  let stopped = false;
  const recorder = bridge.call((w) => w.recordingDecision()).then(
    (on) => (on && !stopped ? importChunk<typeof RecordModule>(recorderUrl).then((m) => (stopped ? null : m.startRecording(bridge, log))) : null),
    (err: unknown) => (log('error', `session recording did not start: ${String(err)}`), null),
  );
  return () => {
    stopped = true;
    void recorder.then((stop) => stop?.());
  };
}
