/**
 * The worker's session recording (issue #18), wired: the decision (recording.json, sampling per session) and
 * the uploader, with the body's fields read from the running pipeline. Earlier pages' chunks are restored once
 * the decision is made, whether or not this page records. Only a page that records holds its Web Lock and takes
 * events.
 */
import { applyUrlTransforms } from '../../shared/privacy/applyUrlTransforms';
import { redact } from '../../shared/privacy/privacyFilter';
import type { LogLevel, RecordingTailState } from '../../shared/protocol';
import type { RecordingChunkMeta } from '../../shared/wire/recordingChunk';
import type { WorkerPorts } from '../ports';
import type { Pipeline } from '../startPipeline';
import { createRecordingDecision } from './createRecordingDecision';
import { createRecordingUploader } from './createRecordingUploader';

export interface Recorder {
  /** Whether this page records (once per page; later calls answer the same). */
  decide(): Promise<boolean>;
  /** Events from the page; ignored unless this page records. Answers the open chunk's state (null: ignored). */
  push(events: unknown[], flush?: boolean): RecordingTailState | null;
  flush(): Promise<void>;
}

export function createRecorder(pipeline: Pipeline, ports: WorkerPorts, log: (level: LogLevel, message: string) => void): Recorder {
  const { config } = pipeline;
  const filters = config.privacyFilters ?? [];
  // The session the recording started in: a recording is one page load, sampled as its session was.
  const { sessionId, tabId, frameId } = config.session;
  const recordingId = globalThis.crypto?.randomUUID?.() ?? `${frameId}-${ports.clock.now().toString(36)}`;
  const meta = (): RecordingChunkMeta => ({
    recordingId,
    sessionId,
    visitorId: config.identity.visitorId,
    accountId: config.identity.accountId,
    tabId,
    frameId,
    url: redact(applyUrlTransforms(pipeline.url, config.urlTransforms ?? []), filters) as string,
  });
  const decide = createRecordingDecision({ apiKey: config.apiKey, dataHost: config.dataHost, ports, log });
  const uploader = createRecordingUploader({
    apiKey: config.apiKey,
    dataHost: config.dataHost,
    privacyFilters: filters,
    ports,
    log,
    // The page times the cuts (shim/recording): it must know which events the open chunk holds at page hide.
    cutAfterMs: null,
    meta,
  });
  let recording = false;
  let decided: Promise<boolean> | null = null;
  return {
    decide: () =>
      (decided ??= (async () => {
        recording = await decide(sessionId);
        // Earlier pages' chunks, whether or not this page records (not while recording.json does not answer).
        void uploader.restore();
        if (recording) ports.recordings?.hold(recordingId);
        return recording;
      })()),
    push(events, flush) {
      if (!recording || !pipeline.sending) return null;
      const { chunk, held } = uploader.push(events, flush);
      return { chunk, held, meta: meta(), apiKey: config.apiKey, dataHost: config.dataHost, privacyFilters: [...filters] };
    },
    flush: () => uploader.flush(),
  };
}
