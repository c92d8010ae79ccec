/**
 * The page-hide beacon (analytics §4 durable delivery): what the page still holds goes out with sendBeacon as
 * plain JSON POSTs (`{"events":[...]}`, source=pagehide), prepared exactly as the worker prepares events.
 */
import { AGENT_VERSION, BEACON_SOURCE } from '../shared/constants';
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import type { WorkerInit } from '../shared/protocol';
import type { HeldEvent } from './createBridge';
import { beaconUrl } from '../shared/wire/beaconUrl';

/** Largest page-hide beacon body; sendBeacon and keepalive share a 64 KiB in-flight quota. */
const TAIL_BODY_LIMIT = 60_000;

/** Sends held events as plain JSON POSTs (`{"events":[...]}`), in pieces within the beacon quota. */
export function sendTail(
  init: WorkerInit,
  prepare: (event: CapturedEvent, ctx: EnvelopeContext) => string,
  held: HeldEvent[],
): void {
  // Each event with the identity and session it was captured under (a session renewed since must not claim it).
  const jsons = held.map(({ event, identity, session }) => prepare(event, { identity, session, utm: init.utm }));
  let start = 0;
  while (start < jsons.length) {
    let end = start;
    let size = 12;
    while (end < jsons.length && (end === start || size + jsons[end]!.length + 1 <= TAIL_BODY_LIMIT)) size += jsons[end++]!.length + 1;
    const body = `{"events":[${jsons.slice(start, end).join(',')}]}`;
    const url = beaconUrl(init.dataHost, 'ptm.gif', init.apiKey, { v: AGENT_VERSION, ct: Date.now(), s: body.length, source: BEACON_SOURCE.pageHide });
    // A string body goes as text/plain: no CORS preflight, which a page being unloaded could not wait for.
    if (!navigator.sendBeacon?.(url, body)) {
      void fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit', mode: 'no-cors' }).catch(() => undefined);
    }
    start = end;
  }
}
