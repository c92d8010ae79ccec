/**
 * Entry of the lazy chunk waymark.record.js (issue #18): session recording's page side, imported by the guides
 * chunk only when the worker says this session records. The page only observes: rrweb records (inputs masked,
 * `waymark-block` / `data-waymark-block` elements blocked, same-origin iframes included), its events are
 * buffered here and handed to the worker in one call per RECORDING_HANDOVER_MS or RECORDING_HANDOVER_EVENTS,
 * never per event, and at once when the page hides. Redaction, serialization, compression and upload happen
 * in the worker (worker/recording/); at page hide the page also posts the worker's open chunk itself, since
 * Firefox and WebKit end the worker with the page (createTailMirror.ts, issue #32).
 */
import { record } from '@rrweb/record';
import { RECORDER_SAMPLING, RECORDING_BLOCK_CLASS, RECORDING_CHUNK_MS, RECORDING_HANDOVER_EVENTS, RECORDING_HANDOVER_MS } from '../../shared/constants';
import type { LogLevel } from '../../shared/protocol';
import type { Bridge } from '../createBridge';
import { createTailMirror } from './createTailMirror';

/** Stops recording (teardown); what was buffered is handed over first. */
export type StopRecording = () => void;

export function startRecording(bridge: Bridge, log: (level: LogLevel, message: string) => void): StopRecording {
  let buffer: unknown[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The chunk's cut, RECORDING_CHUNK_MS after its first events: timed here so the page knows where chunks end.
  let cutTimer: ReturnType<typeof setTimeout> | undefined;
  const call = bridge.call;
  const mirror = createTailMirror();

  function handOver(flush?: boolean, sent?: boolean): void {
    clearTimeout(timer);
    timer = undefined;
    if (!buffer.length && !flush) return;
    const events = buffer;
    buffer = [];
    if (flush) {
      clearTimeout(cutTimer);
      cutTimer = undefined;
    } else cutTimer ??= setTimeout(() => handOver(true), RECORDING_CHUNK_MS);
    const answered = mirror.handedOver(events, !!flush, sent);
    void call((w) => w.pushRecording(events, flush)).then(answered, (err: unknown) => {
      answered(null);
      log('warn', `recorded events were not handed over: ${String(err)}`);
    });
  }

  /** Page hide: the open chunk and what is buffered leave from the page, and the worker cuts the same chunk. */
  function leave(): void {
    mirror.send(buffer);
    handOver(true, true);
  }

  // Every other call to the worker goes after what the recorder holds, as the bridge does with captured events:
  // so flushNow()'s flush finds every event recorded before it.
  bridge.call = (fn) => {
    if (buffer.length) handOver();
    return call(fn);
  };

  const stopRrweb = record({
    emit(event) {
      buffer.push(event);
      if (buffer.length >= RECORDING_HANDOVER_EVENTS) handOver();
      else timer ??= setTimeout(handOver, RECORDING_HANDOVER_MS);
    },
    // Privacy by default: every input's value (text, password, textarea, select alike) recorded as asterisks.
    maskAllInputs: true,
    blockClass: RECORDING_BLOCK_CLASS,
    blockSelector: `[data-${RECORDING_BLOCK_CLASS}]`,
    // spec: analytics §9 Recorder. Viewport resize (200 ms) and the iframe and stylesheet load timeouts (5000 ms)
    // are rrweb's own values, with no option: shared/constants.ts RECORDER_SAMPLING.
    sampling: { mousemove: RECORDER_SAMPLING.mousemoveMs, scroll: RECORDER_SAMPLING.scrollMs, media: RECORDER_SAMPLING.mediaMs },
    // Same-origin iframes are recorded into the page's recording; cross-origin ones are not.
    recordCrossOriginIframes: false,
    errorHandler(err) {
      log('warn', `the recorder met an error: ${String(err)}`);
      return true;
    },
  });

  // Page hide: before the capture's own listeners (capture phase; at the target, capture listeners run first),
  // whose flush call would hand the buffer over through the bridge first.
  const onHide = () => document.visibilityState === 'hidden' && leave();
  const onPageHide = () => leave();
  document.addEventListener('visibilitychange', onHide, true);
  addEventListener('pagehide', onPageHide, true);

  return () => {
    stopRrweb?.();
    document.removeEventListener('visibilitychange', onHide, true);
    removeEventListener('pagehide', onPageHide, true);
    clearTimeout(cutTimer);
    handOver(true);
    bridge.call = call;
  };
}
