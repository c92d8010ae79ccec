/**
 * The page-hide beacon (analytics §4 durable delivery): what the page still holds goes out as plain JSON POSTs
 * (`{"events":[...]}`, source=pagehide), prepared exactly as the worker prepares events, by the spec's transports
 * in order (analytics §7): fetch with keepalive, else sendBeacon, else XHR. So do the guide events the worker
 * wrote and has not sent (issue #32), as it wrote them.
 */
import { AGENT_VERSION, BEACON_SOURCE } from '../shared/constants';
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import type { WorkerInit } from '../shared/protocol';
import type { HeldEvent } from './createBridge';
import { beaconUrl } from '../shared/wire/beaconUrl';

/** Largest page-hide beacon body; sendBeacon and keepalive share a 64 KiB in-flight quota. */
export const TAIL_BODY_LIMIT = 60_000;

/**
 * spec: analytics §7 — "Transports in order: fetch with keepalive, beacon send, XHR". The next is tried when one
 * is missing or refuses (a keepalive fetch over the browser's quota rejects; sendBeacon answers false). A string
 * body goes as text/plain, bytes (a recording chunk's zlib) with no content type: no CORS preflight, which a page
 * being unloaded could not wait for.
 */
export function postTail(url: string, body: string | Uint8Array<ArrayBuffer>): void {
  const beaconElseXhr = () => {
    if (navigator.sendBeacon?.(url, body)) return;
    try {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.send(body);
    } catch {
      // Nothing left to try here; what the worker received waits in IndexedDB for the next page.
    }
  };
  try {
    fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit', mode: 'no-cors' }).catch(beaconElseXhr);
  } catch {
    beaconElseXhr();
  }
}

/** Sends held events as plain JSON POSTs (`{"events":[...]}`), in pieces within the beacon quota. */
export function sendTail(
  init: WorkerInit,
  prepare: (event: CapturedEvent, ctx: EnvelopeContext) => string,
  held: HeldEvent[],
): void {
  // Each event with the identity and session it was captured under (a session renewed since must not claim it).
  postEvents(init, 'ptm.gif', held.map(({ event, identity, session }) => prepare(event, { identity, session, utm: init.utm })));
}

/**
 * Posts events already written as JSON to `endpoint` (ptm.gif, or guide.gif for the worker's guide and poll events:
 * the collector stores both kinds of guide event as guide events), in pieces within the beacon quota.
 */
export function postEvents(init: WorkerInit, endpoint: 'ptm.gif' | 'guide.gif', jsons: string[]): void {
  let start = 0;
  while (start < jsons.length) {
    let end = start;
    let size = 12;
    while (end < jsons.length && (end === start || size + jsons[end]!.length + 1 <= TAIL_BODY_LIMIT)) size += jsons[end++]!.length + 1;
    const body = `{"events":[${jsons.slice(start, end).join(',')}]}`;
    const url = beaconUrl(init.dataHost, endpoint, init.apiKey, { v: AGENT_VERSION, ct: Date.now(), s: body.length, source: BEACON_SOURCE.pageHide });
    postTail(url, body);
    start = end;
  }
}
