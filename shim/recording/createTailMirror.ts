/**
 * The page's copy of the worker's open recording chunk (issue #32). Firefox and WebKit end a page's worker with the
 * page: what the recorder hands over at page hide, and the open chunk the worker still holds, were neither stored
 * nor sent. So the page keeps, beside each handover, the events the worker's open chunk holds (each push answers
 * its number and size) and those still on their way; at page hide it posts them itself as that chunk, under the
 * worker's number and with the worker's redaction, as the worker's cut of it would be. Whichever copy reaches the
 * collector first is stored; the other is a replay (`stored: 0`), so Chromium, whose worker often outlives the
 * page by a moment, stores nothing twice.
 *
 * Cuts are timed by the page (a push with `flush`), never by a worker timer, so the page always knows where a chunk
 * ends. Not known to the page: a chunk the worker cut for its size (256 KB of JSON) or for `flushNow()` while the
 * answer is still on its way at page hide; the page's copy is then a replay and its newest events are lost where
 * the worker dies with the page.
 */
import { strToU8, zlibSync } from 'fflate';
import { AGENT_VERSION } from '../../shared/constants';
import { redact } from '../../shared/privacy/privacyFilter';
import type { RecordingTailState } from '../../shared/protocol';
import { beaconUrl } from '../../shared/wire/beaconUrl';
import { postTail, TAIL_BODY_LIMIT } from '../sendTail';

/** One handover as the page made it, kept until the worker answers it. */
interface Handover {
  events: unknown[];
  cut: boolean;
}

export interface TailMirror {
  /**
   * A handover is leaving for the worker (`sent`: its events already left with `send`); answers the callback to
   * give the worker's answer to.
   */
  handedOver(events: unknown[], cut: boolean, sent?: boolean): (answer: RecordingTailState | null | undefined) => void;
  /** The chunks the worker may not live to store: the open chunk (and any cut still on its way), then `buffer`. */
  tail(buffer: unknown[]): Array<{ chunk: number; events: unknown[] }>;
  /**
   * Posts `tail(buffer)` from the page (fetch keepalive, else sendBeacon, else XHR), then forgets those events (a
   * second page-hide signal sends nothing again); answers how many chunks.
   */
  send(buffer: unknown[]): number;
}

export function createTailMirror(): TailMirror {
  let state: RecordingTailState | null = null;
  /** The events the worker's open chunk held at its last answer. */
  let held: unknown[] = [];
  const inFlight: Handover[] = [];

  function tail(buffer: unknown[]) {
    if (!state) return [];
    const chunks: Array<{ chunk: number; events: unknown[] }> = [];
    let chunk = state.chunk;
    let events = held.slice();
    for (const handover of inFlight) {
      events.push(...handover.events);
      // The worker cuts an empty open chunk to nothing: no number is taken.
      if (handover.cut && events.length) {
        chunks.push({ chunk: chunk++, events });
        events = [];
      }
    }
    events.push(...buffer);
    if (events.length) chunks.push({ chunk, events });
    return chunks;
  }

  return {
    handedOver(events, cut, sent) {
      const handover: Handover = { events: sent ? [] : events, cut };
      inFlight.push(handover);
      return (answer) => {
        // Answers come in the order of the calls; a failed call is dropped the same way.
        const at = inFlight.indexOf(handover);
        if (at >= 0) inFlight.splice(at, 1);
        if (!answer) return;
        held = answer.held ? held.concat(handover.events).slice(-answer.held) : [];
        state = answer;
      };
    },
    tail,
    send(buffer) {
      const chunks = tail(buffer);
      const s = state;
      if (!s) return 0;
      for (const { chunk, events } of chunks) {
        // As the worker writes it (worker/recording/sendRecordingChunk.ts recordingBody): fields, then events.
        const json = `${JSON.stringify({ ...s.meta, chunk }).slice(0, -1)},"events":[${events.map((e) => JSON.stringify(redact(e, s.privacyFilters))).join(',')}]}`;
        const body = zlibSync(strToU8(json));
        // Over the keepalive quota: left to the worker (and to the next page, from IndexedDB).
        if (body.length > TAIL_BODY_LIMIT) continue;
        postTail(beaconUrl(s.dataHost, 'recording', s.apiKey, { v: AGENT_VERSION, ct: Date.now() }), body as Uint8Array<ArrayBuffer>);
      }
      held = [];
      for (const handover of inFlight) handover.events = [];
      return chunks.length;
    },
  };
}
