/**
 * Segment flags (spec: analytics §3, §7): the worker asks the data host which segments the visitor is in,
 * `GET {dataHost}/data/segmentflag.json/{apiKey}?id=&jzb=&v=&ct=[&acc=]` with the jzb of
 * `{visitorId, accountId, metadata, url}`, and keeps the answer `{id, segmentFlags}`.
 * - spec: analytics §7 — POST `{events: jzb, jwt?, signingKeyName?}` to the same path instead when the jzb is
 *   too long for a GET or signed metadata (JWT) is set.
 * - spec: analytics §9 — reloads on metadata changes are debounced by 50 ms.
 * - A response whose id is not the latest request's is stale and discarded, as on guide.json.
 * - spec: analytics §8 — a failure logs 'Failed to load segment flags' and keeps the previous flags.
 */
import { GET_URL_LIMIT } from '../shared/constants';
import { beaconUrl } from '../shared/wire/beaconUrl';
import { encodeJzb } from '../shared/wire/jzb';
import { MESSAGES } from '../shared/messages';
import type { LogLevel, Metadata } from '../shared/protocol';
import type { TransportRequest, WorkerPorts } from './ports';

/** spec: analytics §9 — "segment flag debounce 50 ms": metadata changes within this wait make one request. */
export const SEGMENT_FLAG_DEBOUNCE_MS = 50;

/** The payload a segmentflag.json request carries as its jzb (spec: analytics §7). */
export interface SegmentFlagPayload {
  visitorId: string;
  accountId: string;
  metadata: Metadata;
  url: string;
}

/** Configuration of the segment-flag loader. Every getter is read when a request goes out. */
export interface SegmentFlagsOptions {
  apiKey: string;
  /** Origin of the collector, without a trailing slash. */
  dataHost: string;
  /** Sent as `v`. */
  agentVersion: string;
  /** Only the transport and the clock are used. */
  ports: Pick<WorkerPorts, 'transport' | 'clock'>;
  log(level: LogLevel, message: string): void;
  /** Who and where the flags are for. */
  getRequest(): SegmentFlagPayload;
  /** Signed metadata; when set the request is a POST carrying it. @default none */
  getAuth?(): { jwt: string; signingKeyName: string } | undefined;
  /** The `acc` query parameter, already encoded (as on the other beacons). @default none */
  getAcc?(): string | undefined;
  /** Called with the new flags each time a current (non-stale) response is applied. @default none */
  onFlags?(flags: string[]): void;
}

/** The segment-flag loader of one worker. */
export interface SegmentFlags {
  /** Loads the flags `SEGMENT_FLAG_DEBOUNCE_MS` after the last call: call it on every metadata change. */
  request(): void;
  /**
   * Loads the flags now (cancelling a pending debounced request). Resolves with the new flags, or null when
   * the request failed (logged, previous flags kept) or a newer request superseded it. Never rejects.
   */
  load(): Promise<string[] | null>;
  /** The flags of the latest applied response; `[]` before the first. */
  current(): string[];
}

/** Creates the loader. Nothing is requested until `request()` or `load()` is called. */
export function createSegmentFlags(options: SegmentFlagsOptions): SegmentFlags {
  const { ports, log } = options;
  let requestId = 0;
  let flags: string[] = [];
  let timer: unknown = null;

  function failed(reason: string): null {
    log('warn', `${MESSAGES.segmentFlagsFailed}: ${reason}`);
    return null;
  }

  function buildRequest(id: string): TransportRequest {
    const jzb = encodeJzb(options.getRequest());
    const auth = options.getAuth?.();
    const common = { v: options.agentVersion, ct: ports.clock.now(), acc: options.getAcc?.() };
    // spec: analytics §7, §9 — a GET while the jzb fits the URL limit (measured on the jzb, as the event
    // beacons do) and no JWT is set; otherwise a POST with the jzb in `events` and the JWT fields beside it.
    if (jzb.length <= GET_URL_LIMIT && !auth) {
      return { method: 'GET', url: beaconUrl(options.dataHost, 'segmentflag.json', options.apiKey, { id, jzb, ...common }) };
    }
    return {
      method: 'POST',
      url: beaconUrl(options.dataHost, 'segmentflag.json', options.apiKey, { id, ...common }),
      body: JSON.stringify(auth ? { events: jzb, jwt: auth.jwt, signingKeyName: auth.signingKeyName } : { events: jzb }),
      contentType: 'application/json',
    };
  }

  async function load(): Promise<string[] | null> {
    if (timer !== null) {
      ports.clock.clearTimeout(timer);
      timer = null;
    }
    const id = String(++requestId);
    let text: string;
    try {
      // Building the request is inside the try: host metadata that JSON cannot serialize must not throw.
      const response = await ports.transport.request(buildRequest(id));
      if (response.status < 200 || response.status >= 300) {
        const detail = (await response.text().catch(() => '')).slice(0, 200) || response.statusText;
        return failed(MESSAGES.badStatus(response.status, detail));
      }
      text = await response.text();
    } catch (err) {
      return failed((err as Error)?.message ?? String(err));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return failed('the response is not JSON');
    }
    const problem = checkSegmentFlagResponse(body);
    if (problem) return failed(problem);
    const response = body as { id?: string | number; segmentFlags: string[] };
    // Stale, as on guide.json: the answer names another request, or a newer request went out meanwhile.
    if ((response.id !== undefined && String(response.id) !== id) || String(requestId) !== id) {
      log('debug', `segment flags: discarded the stale response ${String(response.id ?? id)} (latest request ${requestId})`);
      return null;
    }
    flags = [...response.segmentFlags];
    try {
      options.onFlags?.([...flags]);
    } catch (err) {
      log('warn', `segment flags listener failed: ${(err as Error)?.message ?? String(err)}`);
    }
    return [...flags];
  }

  return {
    request() {
      // Trailing debounce: every call restarts the wait, so a burst of changes makes one request.
      if (timer !== null) ports.clock.clearTimeout(timer);
      timer = ports.clock.setTimeout(() => {
        timer = null;
        void load();
      }, SEGMENT_FLAG_DEBOUNCE_MS);
    },
    load,
    current: () => [...flags],
  };
}

/** Why a parsed body is not `{ id, segmentFlags: string[] }`, or null when it is. */
function checkSegmentFlagResponse(body: unknown): string | null {
  const shape = 'the response must be {"id": string, "segmentFlags": string[]}';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return shape;
  const { id, segmentFlags } = body as { id?: unknown; segmentFlags?: unknown };
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return `${shape}: id is ${typeof id}`;
  if (!Array.isArray(segmentFlags)) return `${shape}: segmentFlags is not an array`;
  if (!segmentFlags.every((flag) => typeof flag === 'string')) return `${shape}: segmentFlags holds a non-string`;
  return null;
}
