/**
 * Sends one encoded beacon of a send queue (spec: analytics §7 "The calls it makes"; wire-protocol.md): GET
 * with the jzb in the query while it fits, else POST `{events: jzb}`; `v`, `ct`, `s`, `rt` (retry count) and
 * `type=track` in the query, signed-metadata fields beside the payload. Answers null for a 2xx, else the
 * error to retry with (logged here): a non-2xx status, or the network's failure.
 */
import { AGENT_VERSION } from '../shared/constants';
import { ERROR_CODES, type AgentError } from '../shared/errors';
import { MESSAGES } from '../shared/messages';
import { beaconUrl } from '../shared/wire/beaconUrl';
import { collectorPauseMs } from '../shared/wire/collectorPause';
import type { Pending, SendQueueOptions } from './createSendQueue';

export async function sendBeacon(batch: Pending, options: SendQueueOptions): Promise<AgentError | null> {
  const { ports, log } = options;
  const auth = options.auth?.();
  const common = {
    v: AGENT_VERSION,
    ct: ports.clock.now(),
    s: batch.jzb.length,
    rt: batch.failures > 0 ? batch.failures : undefined,
    type: batch.track ? 'track' : undefined,
    ...options.params?.(),
  };
  const request =
    batch.method === 'GET'
      ? {
          method: 'GET' as const,
          url: beaconUrl(options.dataHost, options.endpoint, options.apiKey, {
            ...common,
            jzb: batch.jzb,
            jwt: auth?.jwt,
            signingKeyName: auth?.signingKeyName,
          }),
        }
      : {
          method: 'POST' as const,
          url: beaconUrl(options.dataHost, options.endpoint, options.apiKey, common),
          body: JSON.stringify(auth ? { events: batch.jzb, jwt: auth.jwt, signingKeyName: auth.signingKeyName } : { events: batch.jzb }),
          contentType: 'application/json',
        };
  try {
    const response = await ports.transport.request(request);
    if (response.status >= 200 && response.status < 300) return null;
    const text = (await response.text().catch(() => '')).slice(0, 200) || response.statusText;
    const message = MESSAGES.badStatus(response.status, text);
    log('warn', message);
    const pause = collectorPauseMs(response.status, response.retryAfter, ports.clock.now());
    if (pause !== null) {
      options.pause?.until(ports.clock.now() + pause);
      log('warn', `collector asked for a pause: beacons wait ${pause / 1000} s`);
    }
    return { code: ERROR_CODES.badStatus, message };
  } catch (err) {
    const message = `beacon to ${options.endpoint} failed: ${(err as Error)?.message ?? String(err)}`;
    log('warn', message);
    return { code: ERROR_CODES.network, message };
  }
}
