/**
 * One recording chunk's upload (issue #18 contract): `POST /data/recording/{apiKey}?v&ct`, the body the zlib
 * stream (RFC 1950, what fflate's zlibSync writes) of the UTF-8 JSON `{recordingId, sessionId, visitorId,
 * accountId, tabId, frameId, url, chunk, events}`. A 2xx means committed (`stored` 0 is a replay the collector
 * already had); 400 and 413 will never pass, so the chunk is dropped; 429 and 503 pause the upload for their
 * Retry-After (the collector's pause lock); anything else (a 5xx, the network) is retried with back-off.
 */
import { strToU8 } from 'fflate';
import { AGENT_VERSION } from '../../shared/constants';
import { beaconUrl } from '../../shared/wire/beaconUrl';
import { collectorPauseMs } from '../../shared/wire/collectorPause';
import { fflateDeflate } from '../encodeBatches';
import type { WorkerPorts } from '../ports';
import type { StoredRecordingChunk } from './recordingStore';

/** `pauseMs`: the collector asked for a pause (429, 503 with Retry-After): send again then, not counted as a failure. */
export type ChunkSendResult = 'sent' | 'retry' | 'drop' | { pauseMs: number };

/** The chunk's JSON body: its fields, then the events as they were serialized when they came in. */
export function recordingBody({ meta, chunk, events }: StoredRecordingChunk): string {
  return `${JSON.stringify({ ...meta, chunk }).slice(0, -1)},"events":[${events.join(',')}]}`;
}

export async function sendRecordingChunk(
  stored: StoredRecordingChunk,
  target: { apiKey: string; dataHost: string },
  ports: Pick<WorkerPorts, 'transport' | 'clock' | 'deflate'>,
  log: (level: 'warn' | 'error', message: string) => void,
): Promise<ChunkSendResult> {
  try {
    const body = await (ports.deflate ?? fflateDeflate)(strToU8(recordingBody(stored)));
    const response = await ports.transport.request({
      method: 'POST',
      url: beaconUrl(target.dataHost, 'recording', target.apiKey, { v: AGENT_VERSION, ct: ports.clock.now() }),
      bytes: body as Uint8Array<ArrayBuffer>,
      contentType: 'application/octet-stream',
    });
    if (response.status >= 200 && response.status < 300) return 'sent';
    // A 429 (the app's recording quota, issue #31) or 503 asks for a pause, as it does of every beacon: no failure.
    const pauseMs = collectorPauseMs(response.status, response.retryAfter, ports.clock.now());
    if (pauseMs !== null) return { pauseMs };
    const drop = response.status === 400 || response.status === 413;
    log(drop ? 'error' : 'warn', `recording chunk ${drop ? 'dropped' : 'refused'}: ${response.status}`);
    return drop ? 'drop' : 'retry';
  } catch (err) {
    log('warn', `recording chunk not sent: ${String(err)}`);
    return 'retry';
  }
}
