/**
 * One recording chunk's upload (issue #18 contract): `POST /data/recording/{apiKey}?v&ct`, the body the zlib
 * stream (RFC 1950, what fflate's zlibSync writes) of the UTF-8 JSON `{recordingId, sessionId, visitorId,
 * accountId, tabId, frameId, url, chunk, events}`. A 2xx means committed (`stored` 0 is a replay the collector
 * already had); 400 and 413 will never pass, so the chunk is dropped; anything else (503, the network) is retried.
 */
import { strToU8 } from 'fflate';
import { AGENT_VERSION } from '../../shared/constants';
import { beaconUrl } from '../../shared/wire/beaconUrl';
import { fflateDeflate } from '../encodeBatches';
import type { WorkerPorts } from '../ports';
import type { StoredRecordingChunk } from './recordingStore';

export type ChunkSendResult = 'sent' | 'retry' | 'drop';

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
    const drop = response.status === 400 || response.status === 413;
    log(drop ? 'error' : 'warn', `recording chunk ${drop ? 'dropped' : 'refused'}: ${response.status}`);
    return drop ? 'drop' : 'retry';
  } catch (err) {
    log('warn', `recording chunk not sent: ${String(err)}`);
    return 'retry';
  }
}
