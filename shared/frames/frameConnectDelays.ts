/**
 * Frame connect retries (spec: guides §9 "first 10 ms, doubling to 10,000 ms, 21 retries"): the delays after which a
 * frame that has heard from no other frame announces itself again.
 */
import { FRAME_CONNECT_RETRY } from '../constants';

export function frameConnectDelays({ firstMs, maxMs, retries } = FRAME_CONNECT_RETRY): number[] {
  return Array.from({ length: retries }, (_, i) => Math.min(firstMs * 2 ** i, maxMs));
}
