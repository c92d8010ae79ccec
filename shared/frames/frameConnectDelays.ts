/**
 * Frame connect retries (spec: guides §9 "first 10 ms, doubling to 10,000 ms, 21 retries"): the delays after which a
 * frame that has heard from no other frame announces itself again, the last one at the frame message wait (analytics
 * §9, 120,000 ms after joining) at the latest.
 */
import { FRAME_CONNECT_RETRY, FRAME_MESSAGE_WAIT_MS } from '../constants';

export function frameConnectDelays({ firstMs, maxMs, retries } = FRAME_CONNECT_RETRY, waitMs = FRAME_MESSAGE_WAIT_MS): number[] {
  const delays: number[] = [];
  let elapsed = 0;
  for (let i = 0; i < retries && elapsed < waitMs; i++) {
    const delay = Math.min(firstMs * 2 ** i, maxMs, waitMs - elapsed);
    delays.push(delay);
    elapsed += delay;
  }
  return delays;
}
