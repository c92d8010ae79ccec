/**
 * spec: guides §7 "Availability probe", §8, §9 — GET guide.gif with the jzb of [] once; its verdict holds for
 * 4 hours and outlives the page (GuideState.probe, kept by the shim). A failure logs 'Guides disabled:
 * unreachable endpoint guide.gif' and blocks guides until then. Concurrent asks share one request. The
 * engine sends guide.json beside a probe in flight (worker/createGuideEngine.ts), never after a failed one.
 */
import { GUIDES_BLOCKED_FLAG_MS } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';
import type { GuideState, LogLevel, WorkerInit } from '../../shared/protocol';
import { beaconUrl } from '../../shared/wire/beaconUrl';
import { encodeJzb } from '../../shared/wire/jzb';
import type { WorkerPorts } from '../ports';

export interface ProbeOptions {
  config: WorkerInit;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
  /** The guide state the verdict is kept in, and how to save it. */
  state: GuideState;
  saveState(): void;
}

/**
 * Answers whether guides are reachable, probing at most once per 4 hours: at once (a boolean) while a verdict
 * holds, else the probe's answer to come.
 */
export function createAvailabilityProbe({ config, ports, log, state, saveState }: ProbeOptions): () => boolean | Promise<boolean> {
  let probing: Promise<boolean> | null = null;
  return () => {
    const now = ports.clock.now();
    if (state.probe && state.probe.until > now) return state.probe.ok;
    probing ??= (async () => {
      let ok = false;
      try {
        const url = beaconUrl(config.dataHost, 'guide.gif', config.apiKey, { jzb: encodeJzb([]), ct: now, v: config.agentVersion });
        const response = await ports.transport.request({ method: 'GET', url });
        ok = response.status >= 200 && response.status < 300;
      } catch {
        ok = false;
      }
      if (!ok) log('error', MESSAGES.guidesUnreachable);
      state.probe = { ok, until: ports.clock.now() + GUIDES_BLOCKED_FLAG_MS };
      saveState();
      probing = null;
      return ok;
    })();
    return probing;
  };
}
