/**
 * One guide.json request (guides §7 "Guide data"): a GET with `id, jzb, v, ct, acc, debug` while the jzb fits
 * the URL limit and no JWT is set, otherwise a POST to the same path with `{events: jzb, jwt?, signingKeyName?}`.
 * The answer is classified, never thrown: a guide list, a 451 (the collector says: stop tracking this
 * visitor), a timeout (guideTimeout), or a failure with its reason.
 */
import { GET_URL_LIMIT } from '../shared/constants';
import { beaconUrl } from '../shared/wire/beaconUrl';
import { encodeJzb } from '../shared/wire/jzb';
import { MESSAGES } from '../shared/messages';
import type { WorkerPorts } from './ports';
import { raceTimeout, TIMED_OUT } from './raceTimeout';

/** What a guide.json request carries (guides §7): the jzb payload. */
export interface GuideListPayload {
  visitorId: string;
  accountId: string;
  url: string;
  oldVisitorId?: string;
  /** Ids of guides whose content the agent already holds. */
  cachedGuides?: string[];
  metadata: unknown;
}

export interface GuideListRequest {
  apiKey: string;
  dataHost: string;
  agentVersion: string;
  /** The request counter, echoed by the collector; a different id in the answer means stale. */
  id: string;
  payload: GuideListPayload;
  /** The encoded account id, when set (spec: analytics §7 `acc`). */
  acc?: string;
  /** Signed metadata: when set the request is a POST carrying it. */
  auth?: { jwt: string; signingKeyName: string };
  /** Adds `debug=true`. */
  debug?: boolean;
  /** guides §8: guideTimeout / guides.timeout; the load is given up after this many ms. */
  timeoutMs?: number;
}

export type GuideListAnswer =
  | { kind: 'ok'; body: unknown; method: 'GET' | 'POST' }
  | { kind: 'denied' }
  | { kind: 'timeout'; message: string }
  | { kind: 'failed'; message: string };

export async function requestGuideList(ports: WorkerPorts, req: GuideListRequest): Promise<GuideListAnswer> {
  const jzb = encodeJzb(req.payload);
  const common = { v: req.agentVersion, ct: ports.clock.now(), acc: req.acc, debug: req.debug ? 'true' : undefined };
  const viaGet = jzb.length <= GET_URL_LIMIT && !req.auth;
  const request = viaGet
    ? { method: 'GET' as const, url: beaconUrl(req.dataHost, 'guide.json', req.apiKey, { id: req.id, jzb, ...common }) }
    : {
        method: 'POST' as const,
        url: beaconUrl(req.dataHost, 'guide.json', req.apiKey, { id: req.id, ...common }),
        contentType: 'application/json',
        body: JSON.stringify(req.auth ? { events: jzb, jwt: req.auth.jwt, signingKeyName: req.auth.signingKeyName } : { events: jzb }),
      };

  const attempt = (async (): Promise<GuideListAnswer> => {
    try {
      const response = await ports.transport.request(request);
      // spec: guides §7, §8 — 451 stops tracking of the visitor and denies future loading.
      if (response.status === 451) return { kind: 'denied' };
      if (response.status < 200 || response.status >= 300) {
        return { kind: 'failed', message: MESSAGES.badStatus(response.status, response.statusText) };
      }
      const text = await response.text();
      try {
        return { kind: 'ok', body: JSON.parse(text), method: request.method };
      } catch {
        return { kind: 'failed', message: 'guide.json answer is not JSON' };
      }
    } catch (err) {
      return { kind: 'failed', message: (err as Error)?.message ?? String(err) };
    }
  })();
  // spec: guides §8 — the guide load timeout aborts the load: a late answer is ignored.
  const timed = req.timeoutMs && req.timeoutMs > 0 && Number.isFinite(req.timeoutMs) ? await raceTimeout(ports.clock, attempt, req.timeoutMs) : await attempt;
  const answer: GuideListAnswer = timed === TIMED_OUT ? { kind: 'timeout', message: `guide.json did not answer within ${req.timeoutMs} ms (guideTimeout)` } : timed;
  // The health report (worker/createMonitor.ts); a 451 is the collector's answer, not a failed load.
  if (answer.kind !== 'denied') ports.tally?.add(answer.kind === 'ok' ? 'guideLoads' : 'guideLoadFailures');
  return answer;
}
