/**
 * issue #32: the page's copy of the worker's open recording chunk (shim/recording/createTailMirror.ts), wired to
 * the real uploader (worker/recording/createRecordingUploader.ts) as the worker answers it: at page hide the page
 * posts the chunk the worker's cut gives, under the same number and with the same bytes, so the collector stores
 * one of the two.
 */
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordingTailState } from '../../shared/protocol';
import { createTailMirror } from '../../shim/recording/createTailMirror';
import { createRecordingUploader } from '../../worker/recording/createRecordingUploader';
import type { RecordingMeta } from '../../worker/recording/recordingStore';
import { createFakeClock, createFakeTransport } from './fakes';

const META: RecordingMeta = { recordingId: 'rec-1', sessionId: 'S1', visitorId: 'v1', accountId: 'a1', tabId: 't1', frameId: 'f1', url: 'https://app.example/' };
const FILTERS = [/secret-\d+/g];
const event = (n: number) => ({ type: 3, timestamp: 1_000 + n, data: { source: 2, type: 2, text: `secret-${n}` } });

function setup() {
  const transport = createFakeTransport();
  const uploader = createRecordingUploader({
    apiKey: 'key',
    dataHost: 'http://collector.test',
    meta: () => META,
    privacyFilters: FILTERS,
    ports: { transport, clock: createFakeClock(1_000_000) },
    log: () => undefined,
    cutAfterMs: null,
  });
  const mirror = createTailMirror();
  /** One handover as shim/recording does it; `answer: false` leaves it in flight (the page hid before it). */
  const handOver = (events: unknown[], cut = false, answer = true) => {
    const answered = mirror.handedOver(events, cut);
    const { chunk, held } = uploader.push(events, cut);
    const state: RecordingTailState = { chunk, held, meta: META, apiKey: 'key', dataHost: 'http://collector.test', privacyFilters: FILTERS };
    return answer ? answered(state) : () => answered(state);
  };
  return { transport, uploader, mirror, handOver };
}

const chunkOf = (body: unknown) => JSON.parse(inflateSync(body as Uint8Array).toString('utf8')) as { chunk: number; events: unknown[] };

afterEach(() => vi.unstubAllGlobals());

describe('issue #32 the recording tail leaves from the page', () => {
  it('the page holds what the open chunk holds, numbered as the worker numbers it, across cuts and handovers in flight', () => {
    const { mirror, handOver } = setup();
    handOver([event(1), event(2)]);
    handOver([event(3)], true); // chunk 0 cut
    handOver([event(4)]);
    expect(mirror.tail([event(6)])).toEqual([{ chunk: 1, events: [event(4), event(6)] }]);
    handOver([event(5)], false, false); // on its way at page hide
    expect(mirror.tail([event(6)])).toEqual([{ chunk: 1, events: [event(4), event(5), event(6)] }]);
  });

  it('at page hide it posts the very bytes the worker posts for that chunk (redacted, zlib), and forgets them', async () => {
    const { transport, uploader, mirror, handOver } = setup();
    const posted: Uint8Array[] = [];
    vi.stubGlobal('fetch', (_url: string, init: { body: Uint8Array }) => {
      posted.push(init.body);
      return Promise.resolve(new Response(null));
    });
    handOver([event(1), event(2)]);
    expect(mirror.send([event(3)])).toBe(1);
    expect(mirror.send([])).toBe(0);
    // The worker's own cut of the same chunk (the page hands the buffer over with flush after sending).
    uploader.push([event(3)], true);
    await uploader.flush();
    expect(posted).toHaveLength(1);
    expect(chunkOf(posted[0])).toEqual(chunkOf(transport.requests[0]!.bytes));
    expect(chunkOf(posted[0]).chunk).toBe(0);
    expect(JSON.stringify(chunkOf(posted[0]))).not.toContain('secret-');
  });
});
